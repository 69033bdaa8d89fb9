// Built-in flatMapGroupsWithState functions (scenario/group_state_functions.h).
#include "scenario/group_state_functions.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace streamsim {

namespace {

GroupStateFunction sessionCount(DurationMs gap, std::string eventTime) {
  return [gap, eventTime](const Row& key, const std::vector<Row>& values, GroupState& s) {
    auto emit = [&](int64_t count, bool closed) {
      std::vector<std::pair<std::string, Value>> named;
      for (size_t i = 0; i < key.size(); ++i) named.emplace_back(key.schema()->field(i).name, key[i]);
      named.emplace_back("count", Value(count));
      named.emplace_back("closed", Value(closed));
      return Row::fromNamed(std::move(named));
    };
    if (s.hasTimedOut()) {
      const int64_t count = s.exists() ? s.get().get("count").asLong() : 0;
      s.remove();
      return std::vector<Row>{emit(count, true)};
    }
    int64_t count = 0;
    TimeMs first = 0, last = 0;
    if (s.exists()) {
      count = s.get().get("count").asLong();
      first = s.get().get("first").asLong();
      last = s.get().get("last").asLong();
    }
    for (const Row& r : values) {
      TimeMs t = s.getCurrentProcessingTimeMs();
      if (!eventTime.empty()) {
        if (auto e = eventTimeOf(r, eventTime)) t = *e;
      }
      first = count == 0 ? t : std::min(first, t);
      last = count == 0 ? t : std::max(last, t);
      ++count;
    }
    s.update(Row::fromNamed({{"count", Value(count)}, {"first", Value(int64_t{first})}, {"last", Value(int64_t{last})}}));
    if (s.timeoutConf() == GroupStateTimeout::kProcessingTimeTimeout) s.setTimeoutDuration(gap);
    if (s.timeoutConf() == GroupStateTimeout::kEventTimeTimeout)
      s.setTimeoutTimestamp(std::max<TimeMs>({last + gap, s.eventTimeWatermarkMs(), 1}));
    return std::vector<Row>{emit(count, false)};
  };
}

}  // namespace

std::vector<std::string> builtinGroupStateFunctionNames() { return {"session_count"}; }

Result<BuiltinGroupStateFunction> builtinGroupStateFunction(std::string_view name, const ProcessorParams& params) {
  if (name != "session_count")
    return Status::NotFound(fmt::format("unknown flatMapGroupsWithState function '{}'; known functions: {}", name,
                                        fmt::join(builtinGroupStateFunctionNames(), ", ")));
  for (const auto& [k, v] : params)
    if (k != "gap" && k != "eventTime")
      return Status::InvalidArgument(
          fmt::format("the function 'session_count' takes no parameter '{}'; it takes: gap, eventTime", k));
  STREAMSIM_ASSIGN_OR_RETURN(DurationMs gap, durationParam(params, "gap", 10'000));
  std::string eventTime;
  if (auto it = params.find("eventTime"); it != params.end()) eventTime = it->second;
  GroupStateFunction fn = sessionCount(gap, eventTime);
  return BuiltinGroupStateFunction{"count long, first long, last long",
                                   [fn]() -> Result<GroupStateFunction> { return fn; }};
}

}  // namespace streamsim
