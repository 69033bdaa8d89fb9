// The inspector's JSON report (checkpoint_reader.h reportToJson).
#include "streamsim/checkpoint/checkpoint_reader.h"

#include "checkpoint/json_util.h"

namespace streamsim {

std::string reportToJson(const CheckpointReport& r) {
  using detail::OJson;
  auto opt = [](const auto& o) { return o ? OJson(*o) : OJson(nullptr); };
  OJson j;
  j["root"] = r.root;
  j["queryId"] = opt(r.queryId);
  j["latestOffsetsId"] = opt(r.latestOffsetsId);
  j["latestCommitId"] = opt(r.latestCommitId);
  j["restartBatchId"] = opt(r.restartBatchId);
  j["restartIsRerun"] = r.restartIsRerun;
  OJson batches = OJson::array();
  for (const BatchReport& b : r.batches) {
    OJson jb;
    jb["batchId"] = b.batchId;
    jb["hasOffsets"] = b.hasOffsets;
    jb["offsetsVersion"] = b.offsetsVersion;
    jb["batchTimestampMs"] = opt(b.batchTimestampMs);
    jb["batchWatermarkMs"] = opt(b.batchWatermarkMs);
    OJson offs = OJson::array();
    for (const auto& o : b.sourceOffsets) offs.push_back(opt(o));
    jb["sourceOffsets"] = offs;
    jb["committed"] = b.committed;
    jb["commitVersion"] = b.commitVersion;
    jb["nextBatchWatermarkMs"] = opt(b.nextBatchWatermarkMs);
    if (!b.activeSink.empty()) jb["activeSink"] = b.activeSink;
    OJson sfs = OJson::array();
    for (const auto& sf : b.sourceFiles)
      sfs.push_back(OJson{{"sourceIndex", sf.sourceIndex}, {"logOffset", opt(sf.logOffset)},
                          {"files", sf.files}, {"kafkaRecords", opt(sf.kafkaRecords)}});
    jb["sourceFiles"] = sfs;
    jb["sinkFiles"] = opt(b.sinkFiles);
    batches.push_back(std::move(jb));
  }
  j["batches"] = std::move(batches);
  j["sourceNames"] = r.sourceNames;
  OJson sinks = OJson::array();
  for (const SinkMetadataInfo& k : r.sinks)
    sinks.push_back(OJson{{"sinkName", k.sinkName}, {"commitOffset", k.commitOffset},
                          {"providerName", k.providerName}, {"apiVersion", opt(k.apiVersion)},
                          {"isActive", k.isActive}});
  j["sinks"] = std::move(sinks);
  OJson ops = OJson::array();
  for (const OperatorMetadata& op : r.operators) {
    OJson jo;
    jo["operatorId"] = op.operatorId;
    jo["operatorName"] = op.operatorName;
    jo["version"] = op.version;
    jo["numPartitions"] = op.stateStores.empty() ? 0 : op.stateStores.front().numPartitions;
    jo["timeMode"] = opt(op.timeMode);
    jo["outputMode"] = opt(op.outputMode);
    OJson vars = OJson::array();
    for (const auto& v : op.stateVariables)
      vars.push_back(OJson{{"stateName", v.stateName},
                           {"stateVariableType", v.stateVariableType},
                           {"ttlEnabled", v.ttlEnabled}});
    jo["stateVariables"] = std::move(vars);
    jo["path"] = op.path;
    ops.push_back(std::move(jo));
  }
  j["operators"] = std::move(ops);
  OJson kafka = OJson::array();
  for (const KafkaSourceReport& k : r.kafkaSources)
    kafka.push_back(OJson{{"sourceIndex", k.sourceIndex}, {"path", k.path},
                          {"zeroBytePrefix", k.zeroBytePrefix}, {"version", k.version},
                          {"initialOffsets", k.initialOffsetsJson}, {"topics", k.topics},
                          {"partitions", k.partitions}});
  j["kafkaSources"] = std::move(kafka);
  j["checksumsVerified"] = r.checksumsVerified;
  j["stateStoreProvider"] = opt(r.stateStoreProvider);
  j["stateCheckpointFormatVersion"] = r.stateCheckpointFormatVersion;
  j["flatMapGroupsWithStateFormatVersion"] = opt(r.flatMapGroupsWithStateFormatVersion);
  if (r.sink) {
    j["sink"] = OJson{{"path", r.sink->path},
                      {"logPresent", r.sink->logPresent},
                      {"latestBatchId", opt(r.sink->latestBatchId)},
                      {"listedFiles", r.sink->listedFiles},
                      {"orphanFiles", r.sink->orphanFiles}};
  } else {
    j["sink"] = nullptr;
  }
  OJson diags = OJson::array();
  for (const Diagnosis& d : r.diagnoses)
    diags.push_back(OJson{{"kind", diagnosisKindName(d.kind)},
                          {"message", d.message},
                          {"batchIds", d.batchIds},
                          {"paths", d.paths}});
  j["diagnoses"] = std::move(diags);
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace streamsim
