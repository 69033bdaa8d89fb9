// A QuerySpec as engine objects (scenario/query_builder.h): the one place the scenario runner and
// the PySpark job API build a query's sources and writer.
#include "streamsim/harness/scenario/query_builder.h"

#include "scenario/operators.h"
#include "streamsim/harness/python_processors.h"
#include "streamsim/io/file_source.h"
#include "streamsim/io/kafka_source.h"
#include "streamsim/io/rate_micro_batch_source.h"
#include "streamsim/io/rate_source.h"
#include "streamsim/ops/expr_ops.h"
#include "streamsim/ops/stream_stream_join.h"

namespace streamsim::harness {

Result<std::vector<SourceFactory>> buildQuerySources(const QuerySpec& q, SimEnv& sim,
                                                     const std::shared_ptr<sim::KafkaLog>& log,
                                                     std::vector<std::shared_ptr<MemoryStreamData>>& memory) {
  std::vector<SourceFactory> sources;
  for (const auto& s : q.sources) {
    if (s.kind == SourceSpec::Kind::kKafka) {
      memory.push_back(nullptr);
      if (!s.topic.empty())
        STREAMSIM_RETURN_IF_ERROR(log->createTopic(s.topic, sim::TopicConfig{s.partitions, s.retentionMs})
                                      .withContext(s.where.toString() + ": source"));
      auto f = makeKafkaSource(log, s.options, s.binaryKeyValue);
      if (!f.ok()) return f.status().withContext(s.where.toString() + ": source");
      sources.push_back(*f);
    } else if (s.kind == SourceSpec::Kind::kRate || s.kind == SourceSpec::Kind::kRateMicroBatch) {
      memory.push_back(nullptr);
      auto f = s.kind == SourceSpec::Kind::kRate ? makeRateSource(s.options) : makeRateMicroBatchSource(s.options);
      if (!f.ok()) return f.status().withContext(s.where.toString() + ": source");
      sources.push_back(*f);
    } else if (s.kind == SourceSpec::Kind::kMemory) {
      auto data = std::make_shared<MemoryStreamData>(s.schema);
      memory.push_back(data);
      sources.push_back(makeMemorySource(data));
    } else {
      memory.push_back(nullptr);
      STREAMSIM_RETURN_IF_ERROR(sim.fs().mkdirs(s.path));
      auto f = makeFileSource(s.path, s.schema, s.options, s.format);
      if (!f.ok()) return f.status().withContext(s.where.toString() + ": source");
      sources.push_back(*f);
    }
  }
  return sources;
}

Result<DataStreamWriter> buildQueryWriter(const QuerySpec& q, const std::vector<SourceFactory>& sources,
                                          SinkFactory sink, const QuerySpec* io, int64_t pandasChunkRows,
                                          const ScenarioHooks* hooks, const RunRegistries* registries) {
  // The sources and sink as the scenario names them. Each source's reader: a source given as
  // `sameReaderAs: i` is reader i read again (Spark refuses reader.union(reader) in real-time
  // mode; two readers of one topic run).
  const QuerySpec& named = io != nullptr ? *io : q;
  std::vector<int> readers;
  for (size_t i = 0; i < named.sources.size(); ++i)
    readers.push_back(named.sources[i].sameReaderAs >= 0 ? named.sources[i].sameReaderAs : static_cast<int>(i));
  DataFrame df;
  size_t next = 0;  // the first of q.operators not applied yet
  if (q.sourceOperators.empty()) {
    df = readStream(sources, readers);
    if (q.unionSchema) {  // several sources: Spark's union by position (the loader checked them)
      Schema output = *q.unionSchema;
      df = df.transform([output] { return makeUnionByPositionOperator(output); });
    }
  } else {
    // Sources with their own operators: each source is an input of the plan with its chain,
    // then the union of them, or a stream-stream join of the sources before `from` with the
    // rest (the loader allowed no operator before that join).
    std::vector<DataFrame> inputs;
    for (size_t i = 0; i < sources.size(); ++i) {
      DataFrame in = readStream(sources[i]);
      for (const auto& op : q.sourceOperators[i]) {
        STREAMSIM_ASSIGN_OR_RETURN(in, detail::applyOperator(std::move(in), op, pandasChunkRows, hooks, registries));
      }
      inputs.push_back(std::move(in));
    }
    auto unite = [&inputs](size_t begin, size_t end, std::optional<Schema> output) {
      DataFrame u = inputs[begin];
      for (size_t i = begin + 1; i < end; ++i) u = u.unionAll(inputs[i], i + 1 == end ? output : std::nullopt);
      return u;
    };
    const StreamStreamJoinSpec* join = nullptr;
    for (const auto& op : q.operators) {
      if (auto* j = std::get_if<JoinOp>(&op.op); j && j->stream) join = &*j->stream;
      if (join != nullptr) break;
      ++next;
    }
    if (join == nullptr) {
      next = 0;
      std::optional<Schema> output;
      if (q.unionSchema) output = *q.unionSchema;
      df = unite(0, inputs.size(), output);
    } else {
      const size_t from = static_cast<size_t>(join->leftSources);
      df = unite(0, from, std::nullopt).join(unite(from, inputs.size(), std::nullopt), *join);
      ++next;
    }
  }
  for (size_t i = next; i < q.operators.size(); ++i) {
    STREAMSIM_ASSIGN_OR_RETURN(df, detail::applyOperator(std::move(df), q.operators[i], pandasChunkRows, hooks, registries));
  }
  DataStreamWriter writer = df.writeStream();
  writer.option("checkpointLocation", q.checkpoint);
  writer.option("spark.sql.shuffle.partitions", std::to_string(q.shufflePartitions));
  // Real-time mode defaults to RocksDB: the store is passed on only when the file names one.
  if (q.stateStoreSet || q.trigger.kind != TriggerSpec::Kind::kRealTime) writer.option("stateStore", q.stateStore);
  writer.option("taskRetries", std::to_string(q.taskRetries));
  for (const auto& [k, v] : q.conf)
    if (k != kArrowMaxRecordsPerBatchConf) writer.option(k, v);  // the Python worker's, not the engine's
  STREAMSIM_ASSIGN_OR_RETURN(OutputMode mode, parseOutputMode(q.outputMode));
  writer.outputMode(mode);
  switch (q.trigger.kind) {
    case TriggerSpec::Kind::kDefault: writer.trigger(Trigger::Default()); break;
    case TriggerSpec::Kind::kProcessingTime: writer.trigger(Trigger::ProcessingTime(q.trigger.intervalMs)); break;
    case TriggerSpec::Kind::kAvailableNow: writer.trigger(Trigger::AvailableNow()); break;
    case TriggerSpec::Kind::kOnce: writer.trigger(Trigger::Once()); break;
    case TriggerSpec::Kind::kRealTime: writer.trigger(Trigger::RealTime(q.trigger.intervalMs)); break;
  }
  writer.sink(std::move(sink));
  std::vector<std::string> names;
  for (const SourceSpec& src : named.sources) names.push_back(src.name);
  writer.sourceNames(std::move(names));
  writer.userFunctions(q.userFunctions);
  writer.name(named.sink.name);
  return writer;
}

}  // namespace streamsim::harness
