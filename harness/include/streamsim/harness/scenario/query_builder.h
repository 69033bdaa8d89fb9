// A QuerySpec (a scenario's `query:`) as engine objects: its sources in a simulated world and its
// DataStreamWriter on given sources and sink. The scenario runner (each run and each
// `restart: {query: ...}`) and the PySpark job API (python/native/job_world.cc, which loads its
// query spec with the scenario loader) build their queries with these two functions only.
// Not thread-safe: one world per thread.
#pragma once

#include <memory>
#include <vector>

#include "streamsim/harness/scenario.h"
#include "streamsim/harness/scenario_hooks.h"
#include "streamsim/harness/sim_env.h"
#include "streamsim/io/memory_source.h"
#include "streamsim/query.h"
#include "streamsim/sim/kafka_log.h"

namespace streamsim::harness {

// The sources of `q`: a file source's folder is created in `sim`'s filesystem, a Kafka source's
// topic in `log` (an error when it exists with another partition count), a memory source's data
// appended to `memory` (nullptr for the other kinds, one entry per source). Errors name the
// source's line.
Result<std::vector<SourceFactory>> buildQuerySources(const QuerySpec& q, SimEnv& sim,
                                                     const std::shared_ptr<sim::KafkaLog>& log,
                                                     std::vector<std::shared_ptr<MemoryStreamData>>& memory);

// `q`'s operators on `sources`, written to `sink` with q's checkpoint, options, output mode and
// trigger, and the names of the sources and sink of `io` (Spark 4.2's named sources and sink;
// null: q's own): a `restart: {query: ...}` keeps the scenario's. A pandas processor's input comes
// as DataFrames of at most `pandasChunkRows` rows (0: Spark's default). `hooks` (a scenario a C++
// program built, scenario_hooks.h): the wrapper of its stateful operator. `registries`: what the
// run was handed (its Python processors' loader; run/registries.h).
Result<DataStreamWriter> buildQueryWriter(const QuerySpec& q, const std::vector<SourceFactory>& sources,
                                          SinkFactory sink, const QuerySpec* io = nullptr,
                                          int64_t pandasChunkRows = 0, const ScenarioHooks* hooks = nullptr,
                                          const RunRegistries* registries = nullptr);

}  // namespace streamsim::harness
