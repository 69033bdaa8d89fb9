// The checkpoint inspector's reading and checking (checkpoint_reader.h, docs/checkpoint-format.md
// "Inspector"): one pass over a checkpoint folder that fills a CheckpointReport. run() is in
// checkpoint_reader.cc; each check is in the file named for what it checks, listed below; the
// report writers are checkpoint_report_text.cc and checkpoint_report_json.cc.
// Private to the engine; borrows the Env; not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "streamsim/checkpoint/checkpoint_reader.h"
#include "streamsim/env.h"
#include "streamsim/status.h"

namespace streamsim::detail {

class CheckpointInspector {
 public:
  CheckpointInspector(const Env& env, std::string root);

  // Every check, in order; the batches are left for takeBatches().
  CheckpointReport run(const std::optional<std::string>& sinkPath);
  std::vector<BatchReport> takeBatches();

 private:
  // A file a source took or the sink wrote, for findRenamedResends.
  struct Taken {
    std::string path;
    int64_t batchId;
    std::string where;  // "source <i>" or "sink"
  };

  void add(DiagnosisKind kind, std::string message, std::vector<int64_t> ids = {},
           std::vector<std::string> paths = {}) {
    report_.diagnoses.push_back(Diagnosis{kind, std::move(message), std::move(ids), std::move(paths)});
  }
  BatchReport& batch(int64_t id) {
    auto it = batches_.find(id);
    if (it == batches_.end()) {
      it = batches_.emplace(id, BatchReport{}).first;
      it->second.batchId = id;
    }
    return it->second;
  }

  // inspect_batch_logs.cc: metadata, offsets, commits, their gaps and the restart batch.
  void readMetadata();
  void readOffsets();
  void readCommits();
  void checkLogs();
  static std::vector<int64_t> missingBetween(const std::vector<int64_t>& ids);

  // inspect_sources.cc: the file sources' logs and the files each batch took.
  void readSources();
  void missingSourceLogs(const std::set<int>& logDirs, const std::string& sourcesDir);
  static DiagnosisKind logFailureKind(const Status& st);

  // inspect_kafka_source.cc: a Kafka source's initial offsets and records per batch.
  static std::optional<std::map<std::pair<std::string, int>, int64_t>> kafkaOffsets(
      std::string_view text);
  bool readKafkaSource(int i, const std::string& dir);

  // inspect_temp_files.cc: leftover temporary files.
  void findTempFiles();

  // inspect_hadoop_checksums.cc: Hadoop's .crc files against the files they cover.
  void checkHadoopChecksums(const std::string& dir, int depth);

  // inspect_operators.cc: operator metadata and state schema records.
  void readOperators();

  // inspect_sink.cc: the file sink folder and its _spark_metadata log.
  static std::string localPath(const std::string& uri);
  void collectDataFiles(const std::string& dir, std::vector<FileInfo>& out, int depth);
  void readSink(const std::string& sinkPath);

  // inspect_renamed_resends.cc: the same bytes taken or written under different names.
  void findRenamedResends();

  Env env_;
  CheckpointReport report_;
  std::map<int64_t, BatchReport> batches_;
  std::vector<int64_t> offset_ids_;
  std::vector<int64_t> commit_ids_;
  std::vector<Taken> taken_;
  std::map<std::string, int64_t> sink_sizes_;
};

}  // namespace streamsim::detail
