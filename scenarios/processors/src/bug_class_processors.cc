// The processors of the C++ bug classes the oracles catch without expected rows, each next to its
// correct twin (scenarios/logic/buggy/*.yml and their twins in scenarios/logic/; docs/oracles.md
// "Oracles on by default and not checked"), each with the promises of its twin (the example
// processors declare theirs). A buggy processor promises what its correct twin promises: the
// user believes it keeps the same contract. They exist for the oracles' scenarios; the CLI and the Python module
// add them to the set they hand their runs.
#include "streamsim/processors/bug_classes.h"
#include "streamsim/processors/builtin.h"
#include "streamsim/tws/processor_registry.h"
#include "streamsim/tws/stateful_processor.h"

namespace streamsim {
namespace {

using processors::withKey;

// The built-in heartbeat with its timer leak: it registers batch time + 10 s for each batch with
// input without deleting the previous timer, so a key that keeps sending holds several timers,
// and each fires a "missing" row (the built-in deletes its timers first).
class LeakyHeartbeat final : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override { last_seen_ = handle.getValueState<int64_t>("last_seen"); }
  void handleInputRows(const Row&, RowRange, const TimerValues& tv, Output&) override {
    getHandle().registerTimer(tv.getCurrentProcessingTimeInMs() + 10'000);
    last_seen_.update(tv.getCurrentProcessingTimeInMs());
  }
  void handleExpiredTimer(const Row& key, const TimerValues&, const ExpiredTimerInfo&, Output& out) override {
    Value lastSeen = last_seen_.exists() ? Value(last_seen_.get()) : Value();
    out.emit(withKey(shapes_, key, {{"status", "missing"}, {"last_seen", lastSeen}}));
    last_seen_.clear();
  }

 private:
  ValueState<int64_t> last_seen_;
  RowShapes shapes_;
};

// The built-in count counting handleInputRows calls as rows (one call per key and batch).
class CountCallsAsRows final : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override { count_ = handle.getValueState<int64_t>("count"); }
  void handleInputRows(const Row& key, RowRange, const TimerValues&, Output& out) override {
    const int64_t total = count_.getOption().value_or(0) + 1;
    count_.update(total);
    out.emit(withKey(shapes_, key, "count", Value(total)));
  }

 private:
  ValueState<int64_t> count_;
  RowShapes shapes_;
};

// The built-in count keeping its running total in a member: the member lives as long as the
// processor instance, one partition task of one batch, so it carries one key's count into the
// next key's.
class CountInMemberAcrossKeys final : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override { count_ = handle.getValueState<int64_t>("count"); }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    if (total_ == 0) total_ = count_.getOption().value_or(0);
    total_ += static_cast<int64_t>(rows.size());
    count_.update(total_);
    out.emit(withKey(shapes_, key, "count", Value(total_)));
  }

 private:
  ValueState<int64_t> count_;
  int64_t total_ = 0;
  RowShapes shapes_;
};

// Items per key in a ListState with a 5 s TTL, {key columns..., count: items held}. The user
// means "a key that keeps sending within 5 s keeps every item" (count = items received).
constexpr DurationMs kItemsTtlMs = 5'000;

// The misuse: appendValue stamps only the appended element (Spark's ListStateImplWithTTL), so the
// older items still expire 5 s after the batch that appended them.
class ItemsAppendTtl final : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override {
    items_ = handle.getListState<std::string>("items", TTLConfig{kItemsTtlMs});
  }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    for (const Row& r : rows) items_.appendValue(r.toJson());
    out.emit(withKey(shapes_, key, "count", Value(static_cast<int64_t>(items_.get().size()))));
  }

 private:
  ListState<std::string> items_;
  RowShapes shapes_;
};

// The correct twin: put() stamps every element anew (ListStateImplWithTTL.put), so each batch
// with input keeps all the key's items another 5 s.
class ItemsPutTtl final : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override {
    items_ = handle.getListState<std::string>("items", TTLConfig{kItemsTtlMs});
  }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    std::vector<std::string> all = items_.get();
    for (const Row& r : rows) all.push_back(r.toJson());
    items_.put(all);
    out.emit(withKey(shapes_, key, "count", Value(static_cast<int64_t>(all.size()))));
  }

 private:
  ListState<std::string> items_;
  RowShapes shapes_;
};

}  // namespace

void registerBugClassProcessors(ProcessorSet& set) {
  set.add("leaky_heartbeat", processorFactoryOf<LeakyHeartbeat>());
  set.add("count_calls_as_rows", processorFactoryOf<CountCallsAsRows>());
  set.add("count_in_member_across_keys", processorFactoryOf<CountInMemberAcrossKeys>());
  set.add("items_append_ttl", processorFactoryOf<ItemsAppendTtl>());
  set.add("items_put_ttl", processorFactoryOf<ItemsPutTtl>());
  // What each promises, as its correct twin does (the oracles that catch it: oracles/promises.h).
  set.promise("leaky_heartbeat", {.timersPerKey = 1});
  set.promise("count_calls_as_rows", {.splitInvariant = true, .reference = "count"});
  set.promise("count_in_member_across_keys", {.splitInvariant = true, .reference = "count"});
  // "Every item a key received counts" (its input comes within the TTL): the count reference.
  set.promise("items_append_ttl", {.reference = "count"});
  set.promise("items_put_ttl", {.reference = "count"});
}

}  // namespace streamsim
