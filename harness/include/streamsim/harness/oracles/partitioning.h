// partitioning (on by default, docs/oracles.md): a transformWithState processor's results must not
// depend on how many shuffle partitions the query has. Spark hashes each grouping key to one of
// spark.sql.shuffle.partitions partitions and runs one processor instance per partition task
// (TransformWithStateExec), so which keys share an instance is the configuration's, not the
// processor's: a count kept in a member variable carries one key's count into another key's only
// where the two share a partition. The seed's fault-free run (the scenario's crash steps left out,
// as batch_split's: a crash at a per-partition point passes elsewhere) with the seed's partition
// count (partitionsOf) and with the configured one must give the same final sink (a multiset).
#pragma once

#include <cstdint>
#include <optional>

#include "streamsim/harness/oracles/python_variants.h"

namespace streamsim::harness {

struct Scenario;

// Whether partitioning applies to `sc`: a transformWithState, a memory or file sink (a foreach or
// Kafka sink delivers per partition), micro-batch mode, and a run that starts from nothing (a
// from_checkpoint scenario's partitions are its checkpoint's).
bool partitioningApplies(const Scenario& sc);

// The number of shuffle partitions seed `seed` compares `configured` with: seed 0 (a plain run)
// 1, or 2 when 1 is configured (every key in one task against keys apart); else one of 1..6 drawn
// from the seed's stream "partitions", never `configured`.
int partitionsOf(uint64_t seed, int configured);

// The options of the run with the query's partitions (variantSink's: the seed's fault-free run,
// crash steps and expectations skipped).
ScenarioRunOptions partitioningHereOptions(uint64_t seed);

// The two runs: nullopt when the run with the query's partitions fails (nothing to compare), an
// error when only the other does. `here`: that run when the caller has it already (a run that
// sameRun says partitioningHereOptions would make), else it is run. `parsedFiles`: the judged
// run's, shared by the two runs.
Result<std::optional<VariantSinks>> partitioningRuns(const Scenario& sc, uint64_t seed,
                                                     const ScenarioRunResult* here = nullptr,
                                                     const std::shared_ptr<ParsedFiles>& parsedFiles = nullptr);

}  // namespace streamsim::harness
