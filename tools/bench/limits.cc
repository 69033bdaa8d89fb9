// The limits of `streamsim bench` (limits.h).
#include "bench/limits.h"

#include <chrono>
#include <queue>
#include <string_view>
#include <unordered_map>
#include <utility>

#include <absl/container/flat_hash_map.h>
#include <absl/strings/string_view.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <simdjson.h>

namespace streamsim::bench {
namespace {

using Clock = std::chrono::steady_clock;

LimitRun checked(double seconds, int64_t lines, int64_t counted, int64_t events,
                 std::string_view what) {
  LimitRun run;
  run.seconds = seconds;
  if (lines != events || counted != events)
    run.error = fmt::format("{} limit counted {} of {} events", what, counted, events);
  return run;
}

// nlohmann's SAX interface reduced to "count the top-level string field named key".
class KeyCountSax final : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit KeyCountSax(std::unordered_map<std::string, int64_t>& counts) : counts_(counts) {}
  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t& s) override {
    if (depth_ == 1 && is_key_) ++counts_[s];
    return value();
  }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override { return ++depth_, true; }
  bool end_object() override { return --depth_, true; }
  bool start_array(std::size_t) override { return ++depth_, true; }
  bool end_array() override { return --depth_, true; }
  bool key(string_t& k) override {
    is_key_ = depth_ == 1 && k == "key";
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

 private:
  bool value() {
    is_key_ = false;
    return true;
  }
  std::unordered_map<std::string, int64_t>& counts_;
  int depth_ = 0;
  bool is_key_ = false;
};

}  // namespace

LimitRun simdjsonCountLimit(const std::vector<std::string>& contents, int64_t events) {
  // The padded copies are made before the clock starts: the engine reads its files from the
  // simulated filesystem without a copy either.
  std::vector<simdjson::padded_string> padded;
  padded.reserve(contents.size());
  for (const std::string& c : contents) padded.emplace_back(c);
  auto t0 = Clock::now();
  simdjson::ondemand::parser parser;
  absl::flat_hash_map<std::string, int64_t> counts;
  int64_t lines = 0;
  for (const simdjson::padded_string& text : padded) {
    simdjson::ondemand::document_stream docs;
    if (parser.iterate_many(text).get(docs) != simdjson::SUCCESS)
      return LimitRun{secondsSince(t0), "simdjson limit: iterate_many failed"};
    for (auto doc : docs) {
      std::string_view key;
      if (doc["key"].get_string().get(key) != simdjson::SUCCESS)
        return LimitRun{secondsSince(t0), "simdjson limit: a line without a string key"};
      ++counts[absl::string_view(key.data(), key.size())];  // heterogeneous: no string made
      ++lines;
    }
  }
  double seconds = secondsSince(t0);
  int64_t total = 0;
  for (const auto& [k, c] : counts) total += c;
  return checked(seconds, lines, total, events, "simdjson");
}

LimitRun nlohmannCountLimit(const std::vector<std::string>& contents, int64_t events) {
  auto t0 = Clock::now();
  std::unordered_map<std::string, int64_t> counts;
  KeyCountSax sax(counts);
  int64_t lines = 0;
  for (const std::string& text : contents) {
    std::string_view rest = text;
    while (!rest.empty()) {
      size_t nl = rest.find('\n');
      std::string_view line = rest.substr(0, nl);
      rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
      if (line.empty()) continue;
      nlohmann::json::sax_parse(line, &sax);
      ++lines;
    }
  }
  double seconds = secondsSince(t0);
  int64_t total = 0;
  for (const auto& [k, c] : counts) total += c;
  return checked(seconds, lines, total, events, "nlohmann");
}

TimerLoopRun timerLoopLimit(int64_t keys, const std::vector<std::vector<int64_t>>& spanInput,
                            int64_t triggersPerSpan, int64_t startMs, int64_t rearmMs) {
  TimerLoopRun run;
  using Timer = std::pair<int64_t, int64_t>;  // (expiry ms, key)
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> timers;
  std::vector<int64_t> seen(static_cast<size_t>(keys), 0);
  auto t0 = Clock::now();
  int64_t now = startMs;
  for (const std::vector<int64_t>& rows : spanInput) {
    for (int64_t i = 0; i < triggersPerSpan; ++i) {
      now += 1000;
      if (i == 0) {
        for (int64_t k : rows) {
          if (seen[static_cast<size_t>(k)]++ == 0) timers.emplace((now / rearmMs + 1) * rearmMs, k);
        }
      }
      while (!timers.empty() && timers.top().first <= now) {
        Timer t = timers.top();
        timers.pop();
        timers.emplace(t.first + rearmMs, t.second);
        ++run.fired;
      }
    }
  }
  run.seconds = secondsSince(t0);
  return run;
}

}  // namespace streamsim::bench
