// The partitioning oracle's runs (oracles/partitioning.h).
#include "streamsim/harness/oracles/partitioning.h"

#include <variant>

#include <fmt/format.h>

#include "streamsim/harness/scenario.h"
#include "streamsim/harness/scenario_runner.h"
#include "streamsim/sim/random.h"

namespace streamsim::harness {

namespace {

constexpr const char* kShufflePartitions = "spark.sql.shuffle.partitions";

void setPartitions(QuerySpec& q, int n) {
  q.shufflePartitions = n;
  if (auto it = q.conf.find(kShufflePartitions); it != q.conf.end()) it->second = std::to_string(n);
}

// The partition count a query runs with: its conf's, else shufflePartitions.
int configuredPartitions(const QuerySpec& q) {
  if (auto it = q.conf.find(kShufflePartitions); it != q.conf.end()) {
    try {
      return std::stoi(it->second);
    } catch (...) {
      return q.shufflePartitions;
    }
  }
  return q.shufflePartitions;
}

}  // namespace

bool partitioningApplies(const Scenario& sc) {
  if (sc.fromCheckpoint || runsRealTime(sc) || sc.hooks != nullptr) return false;
  bool tws = false;
  for (const QuerySpec* q : scenarioQueries(sc)) {
    if (q->sink.kind != SinkSpec::Kind::kMemory && q->sink.kind != SinkSpec::Kind::kFiles) return false;
    for (const auto& op : q->operators) tws = tws || std::holds_alternative<TransformWithStateOp>(op.op);
  }
  return tws;
}

int partitionsOf(uint64_t seed, int configured) {
  if (seed == 0) return configured == 1 ? 2 : 1;
  const int n = static_cast<int>(sim::Random(seed).split("partitions").uniformInt(1, 6));
  return n != configured ? n : n % 6 + 1;
}

ScenarioRunOptions partitioningHereOptions(uint64_t seed) {
  return variantSinkOptions(seed, std::nullopt, /*skipCrashSteps=*/true);
}

Result<std::optional<VariantSinks>> partitioningRuns(const Scenario& sc, uint64_t seed,
                                                     const ScenarioRunResult* here,
                                                     const std::shared_ptr<ParsedFiles>& parsedFiles) {
  const int configured = configuredPartitions(sc.query);
  const int other = partitionsOf(seed, configured);
  Scenario variant = sc;
  setPartitions(variant.query, other);
  for (Step& st : variant.steps)
    if (auto* r = std::get_if<RestartStep>(&st.step); r != nullptr && r->query) setPartitions(*r->query, other);
  VariantSinks runs;
  runs.here = fmt::format("{} shuffle partitions (the query's)", configured);
  runs.other = fmt::format("{} (the seed's)", other);
  // A scenario whose fault-free run without its expectations and crash steps does not pass (a step
  // that needs a crash it armed) has nothing to compare.
  ScenarioRunOptions hereOptions = partitioningHereOptions(seed);
  hereOptions.parsedFiles = parsedFiles;
  Result<std::vector<std::string>> hereRows =
      here != nullptr ? variantSinkOf(*here) : variantSinkOf(runScenario(sc, hereOptions));
  if (!hereRows.ok()) return std::optional<VariantSinks>();
  runs.hereRows = std::move(*hereRows);
  STREAMSIM_ASSIGN_OR_RETURN(runs.otherRows,
                             variantSink(variant, seed, std::nullopt, /*skipCrashSteps=*/true, parsedFiles));
  return std::optional<VariantSinks>(std::move(runs));
}

}  // namespace streamsim::harness
