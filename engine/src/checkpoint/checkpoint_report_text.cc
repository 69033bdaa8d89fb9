// The inspector's text report (checkpoint_reader.h formatReport).
#include "streamsim/checkpoint/checkpoint_reader.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace streamsim {

namespace {

std::string optTime(const std::optional<TimeMs>& t) {
  return t ? fmt::format("{} ({})", *t, formatTimestamp(*t)) : std::string("-");
}

// How the text names source i: its id when offsets v2 files name the sources (Spark 4.2).
std::string sourceLabel(const CheckpointReport& r, size_t i) {
  return i < r.sourceNames.size() ? r.sourceNames[i] : std::to_string(i);
}

}  // namespace

std::string formatReport(const CheckpointReport& r) {
  std::string out = fmt::format("checkpoint {}\n", r.root);
  out += fmt::format("  query id: {}\n", r.queryId.value_or("(unknown)"));
  out += fmt::format("  latest offsets: {}   latest commit: {}\n",
                     r.latestOffsetsId ? std::to_string(*r.latestOffsetsId) : "none",
                     r.latestCommitId ? std::to_string(*r.latestCommitId) : "none");
  if (r.restartBatchId)
    out += fmt::format("  on restart: {} batch {}\n", r.restartIsRerun ? "re-runs" : "runs",
                       *r.restartBatchId);
  if (!r.sourceNames.empty())
    out += fmt::format("  sources (offsets v2, keyed by source id): {}\n", fmt::join(r.sourceNames, ", "));
  for (const SinkMetadataInfo& k : r.sinks)
    out += fmt::format("  sink {} (commit log v3): {}{}, commitOffset {}, {}\n", k.sinkName, k.providerName,
                       k.apiVersion ? ", apiVersion " + *k.apiVersion : std::string(), k.commitOffset,
                       k.isActive ? "active" : "inactive (an earlier sink of this checkpoint)");
  for (const BatchReport& b : r.batches) {
    out += fmt::format("  batch {}: offsets {}{}, committed {}{}", b.batchId,
                       b.hasOffsets ? "yes" : "NO",
                       b.offsetsVersion > 1 ? fmt::format(" (v{})", b.offsetsVersion) : "",
                       b.committed ? "yes" : "no",
                       b.activeSink.empty() ? std::string()
                                            : fmt::format(" (v{}, sink {})", b.commitVersion, b.activeSink));
    if (b.hasOffsets)
      out += fmt::format(", timestamp {}, watermark {}", optTime(b.batchTimestampMs),
                         b.batchWatermarkMs ? std::to_string(*b.batchWatermarkMs) : "-");
    if (b.committed && b.nextBatchWatermarkMs)
      out += fmt::format(", nextBatchWatermarkMs {}", *b.nextBatchWatermarkMs);
    out += "\n";
    if (!b.sourceOffsets.empty()) {
      out += "    source offsets:";
      for (size_t i = 0; i < b.sourceOffsets.size(); ++i)
        out += fmt::format(" [{}] {}", sourceLabel(r, i), b.sourceOffsets[i].value_or("-"));
      out += "\n";
    }
    for (const auto& sf : b.sourceFiles) {
      if (sf.kafkaRecords) {
        out += fmt::format("    source {} (Kafka): {} record{}\n", sourceLabel(r, sf.sourceIndex), *sf.kafkaRecords,
                           *sf.kafkaRecords == 1 ? "" : "s");
        continue;
      }
      if (!sf.logOffset && sf.files.empty()) continue;
      out += fmt::format("    source {} files (logOffset {}): {}\n", sourceLabel(r, sf.sourceIndex),
                         sf.logOffset ? std::to_string(*sf.logOffset) : "-",
                         sf.files.empty() ? std::string("(none)") : fmt::format("{}", fmt::join(sf.files, ", ")));
    }
    if (b.sinkFiles)
      out += fmt::format("    sink files: {}\n",
                         b.sinkFiles->empty() ? std::string("(none)")
                                              : fmt::format("{}", fmt::join(*b.sinkFiles, ", ")));
  }
  for (const OperatorMetadata& op : r.operators) {
    int parts = op.stateStores.empty() ? 0 : op.stateStores.front().numPartitions;
    out += fmt::format("  operator {} {} (metadata v{}, {} partitions)", op.operatorId,
                       op.operatorName, op.version, parts);
    if (op.timeMode) out += fmt::format(", timeMode {}", *op.timeMode);
    if (op.outputMode) out += fmt::format(", outputMode {}", *op.outputMode);
    for (const auto& v : op.stateVariables)
      out += fmt::format(", {}:{}{}", v.stateName, v.stateVariableType, v.ttlEnabled ? "+TTL" : "");
    if ((op.operatorName == "flatMapGroupsWithState" || op.operatorName == "applyInPandasWithState") &&
        r.flatMapGroupsWithStateFormatVersion)
      out += fmt::format(", state format v{}{}", *r.flatMapGroupsWithStateFormatVersion,
                         r.flatMapGroupsWithStateFormatRecorded ? "" : " (not recorded: Spark's legacy default)");
    out += "\n";
  }
  for (const KafkaSourceReport& k : r.kafkaSources)
    out += fmt::format("  source {} is Kafka: initial offsets {} (v{}{}): {} topic{}, {} partition{}\n",
                       k.sourceIndex, k.path, k.version,
                       k.zeroBytePrefix ? ", after the zero byte of SPARK-19517" : "", k.topics,
                       k.topics == 1 ? "" : "s", k.partitions, k.partitions == 1 ? "" : "s");
  if (!r.operators.empty())
    out += fmt::format("  state store: {} (state checkpoint format v{})\n",
                       r.stateStoreProvider.value_or("not recorded (Spark's default: HDFSBackedStateStoreProvider)"),
                       r.stateCheckpointFormatVersion);
  if (r.checksumsVerified > 0)
    out += fmt::format("  Hadoop .crc checksums: {} file{} verified\n", r.checksumsVerified,
                       r.checksumsVerified == 1 ? "" : "s");
  if (r.sink) {
    out += fmt::format("  sink {}: log {}, latest batch {}, {} listed file(s), {} orphan(s)\n",
                       r.sink->path, r.sink->logPresent ? "present" : "MISSING",
                       r.sink->latestBatchId ? std::to_string(*r.sink->latestBatchId) : "none",
                       r.sink->listedFiles.size(), r.sink->orphanFiles.size());
  }
  if (r.diagnoses.empty()) {
    out += "  diagnosis: nothing unusual\n";
  } else {
    out += "  diagnosis:\n";
    for (const Diagnosis& d : r.diagnoses)
      out += fmt::format("    [{}] {}\n", diagnosisKindName(d.kind), d.message);
  }
  return out;
}

}  // namespace streamsim
