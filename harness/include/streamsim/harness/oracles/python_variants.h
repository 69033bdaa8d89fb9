// Oracles that run a Python processor's fault-free case again with one thing PySpark leaves open
// changed, and require the same final sink (a multiset: the order of rows within a call is not
// the processor's promise) (docs/oracles.md):
// - hash_seed: CPython's str/bytes hash seed (PYTHONHASHSEED), which decides the iteration order
//   of a set (and of a dict built from one). CPython fixes it when its interpreter starts, so the
//   other run is in another process: the CLI's `hash-seed-worker` under the seed's other hash seed
//   (pythonHashSeedOf);
// - pandas_chunks: how many DataFrames a transformWithStateInPandas handler's rows come in
//   (spark.sql.execution.arrow.maxRecordsPerBatch): the seed's size (pandasChunkRowsOf) against
//   the configured one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "streamsim/harness/oracles.h"
#include "streamsim/harness/scenario_runner.h"
#include "streamsim/status.h"

namespace streamsim::harness {

struct Scenario;
class KeptWorkers;

// The final sinks of the two runs (formatRow), and how each ran ("hash seed 0", "DataFrames of at
// most 2 rows").
struct VariantSinks {
  std::string here, other;
  std::vector<std::string> hereRows, otherRows;
};

// hash_seed and pandas_chunks: a violation of `oracle` naming the rows one run gave and the other
// did not, with `why` (what such a difference means in the processor).
std::optional<Violation> checkVariantSinks(std::string_view oracle, const VariantSinks& runs, std::string_view why);

// The run both oracles compare: `sc`'s seed fault-free (its own crash steps kept unless
// `skipCrashSteps`: partitioning's runs), expectations and oracles skipped, at `pandasChunkRows`
// when set; its final sink rows (formatRow), or why it failed. Run here and in the hash-seed
// worker alike. `parsedFiles`: the judged run's (ScenarioRunOptions::parsedFiles), its input
// not parsed again.
Result<std::vector<std::string>> variantSink(const Scenario& sc, uint64_t seed,
                                             std::optional<int64_t> pandasChunkRows = std::nullopt,
                                             bool skipCrashSteps = false,
                                             std::shared_ptr<ParsedFiles> parsedFiles = nullptr);
// variantSink's options, and its answer from the run they made (or one sameRun says is that run).
ScenarioRunOptions variantSinkOptions(uint64_t seed, std::optional<int64_t> pandasChunkRows = std::nullopt,
                                      bool skipCrashSteps = false);
Result<std::vector<std::string>> variantSinkOf(const ScenarioRunResult& run);

// variantSink in a `hash-seed-worker` of `cli` whose Python hashes with `hashSeed`: one of
// `workers` when given (kept for the next seed with that hash seed, of any file), else one started
// for this run. The worker loads the file as written (a sweep's --state-store left out: the final sink does
// not depend on the store). An error when the worker cannot start, cannot run the scenario, or
// answers badly.
Result<std::vector<std::string>> sinkUnderHashSeed(const std::string& cli, const std::string& file, uint64_t seed,
                                                   uint32_t hashSeed, KeptWorkers* workers = nullptr);
// The worker's request line for `seed` of the scenario `file`: "SEED FILE" (`file` holds no line
// break: a file whose name does gets workers of its own, started with it, and a bare "SEED").
std::string hashSeedRequest(uint64_t seed, const std::string& file);
// A request line read back: the seed and the file, `ownFile` (the file the worker was started
// with, maybe empty) for a bare "SEED"; nullopt when the line does not start with a seed.
std::optional<std::pair<uint64_t, std::string>> readHashSeedRequest(const std::string& line,
                                                                    const std::string& ownFile);
// The worker's answer to a request (one JSON line): {"rows": [...]} or {"error": "..."}.
std::string hashSeedAnswer(const Result<std::vector<std::string>>& rows);

}  // namespace streamsim::harness
