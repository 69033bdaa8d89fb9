// The built-in async processors (processors/async.h) and their registrations.
#include "streamsim/processors/async.h"

#include <algorithm>
#include <stdexcept>

#include "streamsim/processors/builtin.h"
#include "streamsim/tws/processor_registry.h"

namespace streamsim {
namespace processors {

Task<> AsyncCountProcessor::init(AsyncStatefulProcessorHandle& handle) {
  count_ = handle.getValueState<int64_t>("count");
  co_return;
}

Task<> AsyncCountProcessor::handleInputRows(const Row& key, RowRange rows, const TimerValues&,
                                            Output& out) {
  int64_t total = (co_await count_.getOption()).value_or(0);
  total += static_cast<int64_t>(rows.size());
  co_await count_.update(total);
  out.emit(withKey(shapes_, key, "count", Value(total)));
}

// --- async_score_gather / async_score_sequential ---

Task<> ScoreProcessor::init(AsyncStatefulProcessorHandle& handle) {
  score_state_ = handle.getValueState<double>("last_score");
  session_ = handle.getService("scoring", /*timeoutMs=*/1000);
  co_return;
}

Task<double> ScoreProcessor::fetchScore(const Row& row) {
  std::string id = row.has("event_id") ? row.get("event_id").toString() : row.toJson();
  ServiceResponse resp = co_await session_.call("/score/" + id);
  if (!resp.status.ok()) throw std::runtime_error(resp.status.message());
  co_return std::stod(resp.body);
}

Task<> ScoreProcessor::handleInputRows(const Row& key, RowRange rows, const TimerValues&,
                                       Output& out) {
  std::vector<double> scores;
  if (gather_) {
    std::vector<Task<double>> calls;
    calls.reserve(rows.size());
    for (const Row& row : rows) calls.push_back(fetchScore(row));
    scores = co_await whenAll(std::move(calls));
  } else {
    for (const Row& row : rows) scores.push_back(co_await fetchScore(row));
  }
  double best = scores.empty() ? 0.0 : *std::max_element(scores.begin(), scores.end());
  co_await score_state_.update(best);
  out.emit(withKey(shapes_, key, "score", Value(best)));
}

// --- async_idle_timeout ---

Task<> AsyncIdleTimeoutProcessor::init(AsyncStatefulProcessorHandle& handle) {
  handle_ = &handle;
  count_ = handle.getValueState<int64_t>("count", TTLConfig{60'000});
  co_return;
}

Task<> AsyncIdleTimeoutProcessor::handleInputRows(const Row& key, RowRange rows,
                                                  const TimerValues& timerValues, Output& out) {
  int64_t total = (co_await count_.getOption()).value_or(0) + static_cast<int64_t>(rows.size());
  co_await count_.update(total);
  auto timers = handle_->listTimers();
  while (auto t = co_await timers.next()) co_await handle_->deleteTimer(*t);
  co_await handle_->registerTimer(timerValues.getCurrentProcessingTimeInMs() + 30'000);
  out.emit(withKey(shapes_, key, {{"count", Value(total)}, {"event", Value("input")}}));
}

Task<> AsyncIdleTimeoutProcessor::handleExpiredTimer(const Row& key, const TimerValues&,
                                                     const ExpiredTimerInfo&, Output& out) {
  std::optional<int64_t> count = co_await count_.getOption();
  out.emit(withKey(shapes_, key, {{"count", count ? Value(*count) : Value()}, {"event", Value("idle")}}));
}

// --- async_racy_count ---

Task<> RacyCountProcessor::init(AsyncStatefulProcessorHandle& handle) {
  count_ = handle.getValueState<int64_t>("count");
  co_return;
}

Task<> RacyCountProcessor::handleInputRows(const Row& key, RowRange rows, const TimerValues&,
                                           Output& out) {
  rows_in_call_ = static_cast<int64_t>(rows.size());  // the bug: shared by every key
  int64_t total = (co_await count_.getOption()).value_or(0) + rows_in_call_;
  co_await count_.update(total);
  out.emit(withKey(shapes_, key, "count", Value(total)));
}

}  // namespace processors

namespace {
struct SequentialScore : processors::ScoreProcessor {
  SequentialScore() : ScoreProcessor(false) {}
};
}  // namespace

namespace detail {
// This file's processors, added to a set by registerExampleProcessors (processors/examples.h).
void registerAsyncProcessors(ProcessorSet& set) {
  set.add("async_count", processorFactoryOf<processors::AsyncCountProcessor>());
  set.add("async_score_gather", processorFactoryOf<processors::ScoreProcessor>());
  set.add("async_score_sequential", processorFactoryOf<SequentialScore>());
  set.add("async_idle_timeout", processorFactoryOf<processors::AsyncIdleTimeoutProcessor>());
  set.add("async_racy_count", processorFactoryOf<processors::RacyCountProcessor>());
}
}  // namespace detail

}  // namespace streamsim
