// The processors, ForeachWriter and reference function of the test suite's own runner
// (streamsim_add_runner(streamsim_test_runner ... REGISTER ... REGISTER_RUN ...) in
// tests/CMakeLists.txt): a user's runner is the CLI plus what they register, and the reproduce
// lines it prints must name it (tests/harness/reproduce_lines_test.cc).
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "streamsim/harness/run/registries.h"
#include "streamsim/processors/builtin.h"
#include "streamsim/tws/processor_registry.h"

namespace {
// A writer that keeps nothing: its rows are what the RecordingWriter around it records.
class DiscardingWriter final : public streamsim::ForeachWriter {
 public:
  bool open(int64_t, int64_t) override { return true; }
  void process(const streamsim::Row&) override {}
  void close(const streamsim::Status&) override {}
};

// Added under a name the plain `streamsim` binary does not know.
class RunnerCountProcessor final : public streamsim::processors::CountProcessor {};

// A count kept in a cache its factory captured (shared by every instance the factory makes):
// right in the first run of a process, wrong in any run after it — unless the set is built
// afresh (ProcessorSet::fresh()). The process_isolation oracle's planted bug
// (tests/harness/reproduce_lines_test.cc runs the lines it prints).
class FactoryCacheCount final : public streamsim::StatefulProcessor {
 public:
  explicit FactoryCacheCount(std::shared_ptr<std::map<std::string, int64_t>> cache) : cache_(std::move(cache)) {}
  void init(streamsim::StatefulProcessorHandle&) override {}
  void handleInputRows(const streamsim::Row& key, streamsim::RowRange rows, const streamsim::TimerValues&,
                       streamsim::Output& out) override {
    int64_t& n = (*cache_)[key[0].toString()];
    n += static_cast<int64_t>(rows.size());
    out.emit(streamsim::processors::withKey(key, "count", streamsim::Value(n)));
  }

 private:
  std::shared_ptr<std::map<std::string, int64_t>> cache_;
};

// A count read from state once per task and then kept in a member, so every later key of the
// partition starts from the first key's count — the batch_split oracle's catch (the broken
// variant of tests/harness/broken_variants_test.cc, registered so that a generated-workload
// sweep of it prints a replay line this runner runs: reproduce_lines_test.cc).
class CachingCountProcessor final : public streamsim::StatefulProcessor {
 public:
  void init(streamsim::StatefulProcessorHandle& handle) override { count_ = handle.getValueState<int64_t>("count"); }
  void handleInputRows(const streamsim::Row& key, streamsim::RowRange rows, const streamsim::TimerValues&,
                       streamsim::Output& out) override {
    if (!cached_) cached_ = count_.exists() ? count_.get() : 0;  // the bug: not per key
    const int64_t total = *cached_ + static_cast<int64_t>(rows.size());
    cached_ = total;
    count_.update(total);
    out.emit(streamsim::processors::withKey(key, "count", streamsim::Value(total)));
  }

 private:
  streamsim::ValueState<int64_t> count_;
  std::optional<int64_t> cached_;
};
}  // namespace

// The runner's processors (streamsim_add_runner(... REGISTER streamsim::registerExampleProcessors
// registerRunnerTestProcessors) in tests/CMakeLists.txt: these next to the example ones).
void registerRunnerTestProcessors(streamsim::ProcessorSet& set) {
  set.add("runner_count", streamsim::processorFactoryOf<RunnerCountProcessor>());
  set.add("runner_factory_cache_count", streamsim::ProcessorFactoryMaker([] {
            auto cache = std::make_shared<std::map<std::string, int64_t>>();
            return streamsim::ProcessorFactory([cache] { return std::make_unique<FactoryCacheCount>(cache); });
          }));
  set.add("runner_caching_count", streamsim::processorFactoryOf<CachingCountProcessor>());
}

// The runner's ForeachWriter and reference function (streamsim_add_runner(... REGISTER_RUN
// registerRunnerTestRun)), under names the plain `streamsim` binary does not know.
void registerRunnerTestRun(streamsim::harness::RunRegistries& registries) {
  registries.foreachWriters.add<DiscardingWriter>("runner_discarding_writer");
  registries.references.add("runner_count_reference", *streamsim::harness::ReferenceSet().function("count"));
  // A reference no run meets (it expects no rows): the oracle is applied, not skipped.
  registries.references.add("runner_no_rows_reference",
                            [](const streamsim::harness::ReferenceInput&) { return std::vector<streamsim::Row>{}; });
}
