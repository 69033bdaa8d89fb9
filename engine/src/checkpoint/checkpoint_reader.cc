// The checkpoint inspector (checkpoint_reader.h, docs/checkpoint-format.md "Inspector").
#include "streamsim/checkpoint/checkpoint_reader.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "checkpoint/json_util.h"
#include "state/crc32.h"
#include "streamsim/checkpoint/checkpoint_metadata.h"
#include "streamsim/checkpoint/commit_log.h"
#include "streamsim/checkpoint/file_sink_log.h"
#include "streamsim/checkpoint/file_source_log.h"
#include "streamsim/checkpoint/offset_log.h"
#include "streamsim/io/kafka_log.h"
#include "streamsim/state/state_schema.h"
#include "streamsim/json_nesting.h"
#include "checkpoint/state_store_inspect.h"

namespace streamsim {

const char* diagnosisKindName(DiagnosisKind k) {
  switch (k) {
    case DiagnosisKind::kMissing: return "missing";
    case DiagnosisKind::kUnreadable: return "unreadable";
    case DiagnosisKind::kUncommittedBatch: return "uncommitted-batch";
    case DiagnosisKind::kOffsetsGap: return "offsets-gap";
    case DiagnosisKind::kCommitsGap: return "commits-gap";
    case DiagnosisKind::kCommitWithoutOffsets: return "commit-without-offsets";
    case DiagnosisKind::kSinkAhead: return "sink-ahead";
    case DiagnosisKind::kOrphanFiles: return "orphan-files";
    case DiagnosisKind::kRenamedResend: return "renamed-resend";
    case DiagnosisKind::kChecksumMismatch: return "checksum-mismatch";
    case DiagnosisKind::kLeftoverTempFile: return "leftover-temp-file";
    case DiagnosisKind::kSinkMoved: return "sink-moved";
    case DiagnosisKind::kMissingStateFile: return "missing-state-file";
    case DiagnosisKind::kOrphanedStateFile: return "orphaned-state-file";
  }
  return "?";
}

namespace {

// `path` relative to `root` when under it ("/out/a/b", "/out" -> "a/b"); `path` otherwise.
std::string relativeTo(const std::string& path, const std::string& root) {
  if (root == "/") return path.size() > 1 ? path.substr(1) : path;
  return path.rfind(root + "/", 0) == 0 ? path.substr(root.size() + 1) : path;
}

// "file:///a/b" and "file:/a/b" -> "/a/b"; other strings unchanged.
std::string localPath(const std::string& uri) {
  std::string_view s = uri;
  if (s.rfind("file://", 0) == 0) {
    s.remove_prefix(7);
  } else if (s.rfind("file:", 0) == 0) {
    s.remove_prefix(5);
  }
  return std::string(s);
}

uint64_t fnv1a(std::string_view data) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : data) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

std::string joinIds(const std::vector<int64_t>& ids) {
  std::string out;
  for (size_t i = 0; i < ids.size(); ++i) out += (i ? "," : "") + std::to_string(ids[i]);
  return out;
}

class Inspector {
 public:
  Inspector(const Env& env, std::string root) : env_(env) { report_.root = std::move(root); }

  CheckpointReport run(const std::optional<std::string>& sinkPath) {
    if (!env_.fs->exists(report_.root)) {
      add(DiagnosisKind::kMissing,
          fmt::format("checkpoint folder {} does not exist: a query started on it begins at "
                      "batch 0 and reprocesses every input",
                      report_.root),
          {}, {report_.root});
      report_.restartBatchId = 0;
      if (sinkPath) readSink(*sinkPath);
      return std::move(report_);
    }
    readMetadata();
    readOffsets();
    readCommits();
    checkLogs();
    readSources();
    readOperators();
    inspectStateStores(env_, report_);
    if (sinkPath) readSink(*sinkPath);
    findRenamedResends();
    findTempFiles();
    checkHadoopChecksums(report_.root, 0);
    return std::move(report_);
  }

 private:
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

  void readMetadata() {
    auto md = readStreamMetadata(env_, report_.root);
    if (!md.ok()) {
      add(DiagnosisKind::kUnreadable, md.status().message(), {}, {joinPath(report_.root, "metadata")});
    } else if (!md->has_value()) {
      add(DiagnosisKind::kMissing,
          fmt::format("{} is missing: Spark writes it when the query first starts (query id "
                      "unknown)", joinPath(report_.root, "metadata")),
          {}, {joinPath(report_.root, "metadata")});
    } else {
      report_.queryId = (*md)->id;
    }
  }

  void readOffsets() {
    OffsetLog log(env_, report_.root);
    if (!env_.fs->exists(log.dir())) {
      add(DiagnosisKind::kMissing,
          fmt::format("{} does not exist: no batch was ever planned", log.dir()), {}, {log.dir()});
      return;
    }
    auto ids = log.listBatchIds();
    if (!ids.ok()) {
      add(DiagnosisKind::kUnreadable, ids.status().message(), {}, {log.dir()});
      return;
    }
    offset_ids_ = *ids;
    std::map<size_t, std::vector<int64_t>> sourceCounts;  // offsets per file -> the files
    for (int64_t id : offset_ids_) {
      BatchReport& b = batch(id);
      b.hasOffsets = true;
      auto seq = log.get(id);
      if (!seq.ok() || !seq->has_value()) {
        add(DiagnosisKind::kUnreadable,
            seq.ok() ? fmt::format("{} vanished while reading", log.batchPath(id))
                     : seq.status().message(),
            {id}, {log.batchPath(id)});
        continue;
      }
      const OffsetSeq& s = **seq;
      b.offsetsVersion = s.formatVersion;
      b.batchTimestampMs = s.metadata.batchTimestampMs;
      b.batchWatermarkMs = s.metadata.batchWatermarkMs;
      if (s.formatVersion >= 2) {
        // OffsetMap (Spark 4.2): offsets by source id; sources may come and go (source evolution).
        for (size_t k = 0; k < s.sourceIds.size() && k < s.offsets.size(); ++k) {
          auto at = std::find(report_.sourceNames.begin(), report_.sourceNames.end(), s.sourceIds[k]);
          size_t i = static_cast<size_t>(at - report_.sourceNames.begin());
          if (at == report_.sourceNames.end()) report_.sourceNames.push_back(s.sourceIds[k]);
          if (b.sourceOffsets.size() <= i) b.sourceOffsets.resize(i + 1);
          b.sourceOffsets[i] = s.offsets[k];
        }
        continue;
      }
      b.sourceOffsets = s.offsets;
      sourceCounts[s.offsets.size()].push_back(id);
    }
    if (!offset_ids_.empty()) report_.latestOffsetsId = offset_ids_.back();
    // A query's sources never change: every offsets file lists as many as the others (a restart
    // with another number fails in Spark: "There are [N] sources in the checkpoint offsets and
    // now there are [M] sources requested by the query"). The count most files have is taken for
    // the query's (on a tie, the earlier files'); every file that lists another is damaged.
    if (sourceCounts.size() > 1) {
      auto usual = sourceCounts.begin();
      for (auto it = sourceCounts.begin(); it != sourceCounts.end(); ++it)
        if (it->second.size() > usual->second.size() ||
            (it->second.size() == usual->second.size() && it->second.front() < usual->second.front()))
          usual = it;
      for (const auto& [count, ids] : sourceCounts) {
        if (count == usual->first) continue;
        for (int64_t id : ids)
          add(DiagnosisKind::kUnreadable,
              fmt::format("{} lists {} source offset(s) where offsets/{} lists {}: a query's "
                          "sources never change",
                          log.batchPath(id), count, usual->second.front(), usual->first),
              {id}, {log.batchPath(id)});
      }
    }
  }

  void readCommits() {
    CommitLog log(env_, report_.root);
    if (!env_.fs->exists(log.dir())) {
      if (!offset_ids_.empty())
        add(DiagnosisKind::kMissing,
            fmt::format("{} does not exist: no batch ever completed (or a Spark 2.1 checkpoint, "
                        "which had no commit log)",
                        log.dir()),
            {}, {log.dir()});
      return;
    }
    auto ids = log.listBatchIds();
    if (!ids.ok()) {
      add(DiagnosisKind::kUnreadable, ids.status().message(), {}, {log.dir()});
      return;
    }
    commit_ids_ = *ids;
    for (int64_t id : commit_ids_) {
      BatchReport& b = batch(id);
      b.committed = true;
      auto c = log.get(id);
      if (!c.ok() || !c->has_value()) {
        add(DiagnosisKind::kUnreadable,
            c.ok() ? fmt::format("{} vanished while reading", log.batchPath(id))
                   : c.status().message(),
            {id}, {log.batchPath(id)});
        continue;
      }
      b.commitVersion = (*c)->formatVersion;
      b.nextBatchWatermarkMs = (*c)->nextBatchWatermarkMs;
      if (const SinkMetadataInfo* active = (*c)->activeSink()) {
        b.activeSink = active->sinkName;
        report_.sinks = (*c)->sinks;  // ascending ids: the latest v3 commit's stays
      }
    }
    if (!commit_ids_.empty()) report_.latestCommitId = commit_ids_.back();
  }

  static std::vector<int64_t> missingBetween(const std::vector<int64_t>& ids) {
    std::vector<int64_t> missing;
    for (size_t i = 1; i < ids.size(); ++i)
      for (int64_t m = ids[i - 1] + 1; m < ids[i] && missing.size() < 100; ++m) missing.push_back(m);
    return missing;
  }

  void checkLogs() {
    std::string offsetsDir = joinPath(report_.root, "offsets");
    std::string commitsDir = joinPath(report_.root, "commits");
    std::set<int64_t> offsetSet(offset_ids_.begin(), offset_ids_.end());
    if (auto missing = missingBetween(offset_ids_); !missing.empty()) {
      int64_t latest = offset_ids_.back();
      std::string effect =
          offsetSet.count(latest - 1)
              ? fmt::format("offsets/{} and offsets/{} exist, so a restart starts, but the batches "
                            "in the gap are unaccounted for",
                            latest - 1, latest)
              : fmt::format("a restart reads offsets/{} and offsets/{} and fails with \"batch {} "
                            "doesn't exist\"",
                            latest, latest - 1, latest - 1);
      add(DiagnosisKind::kOffsetsGap,
          fmt::format("offsets ids are not contiguous: present {}, missing {}. Batch ids in a log "
                      "must be contiguous (SPARK-38033): {}",
                      joinIds(offset_ids_), joinIds(missing), effect),
          missing, {offsetsDir});
    }
    {
      // Commits missing between planned batches while a later commit exists (the two logs are
      // written in order and purged together, so this is a hole, not retention).
      std::set<int64_t> commitSet(commit_ids_.begin(), commit_ids_.end());
      std::set<int64_t> missing;
      for (int64_t m : missingBetween(commit_ids_)) missing.insert(m);
      if (!commit_ids_.empty())
        for (int64_t o : offset_ids_)
          if (o < commit_ids_.back() && !commitSet.count(o)) missing.insert(o);
      if (!missing.empty()) {
        std::vector<int64_t> ids(missing.begin(), missing.end());
        add(DiagnosisKind::kCommitsGap,
            fmt::format("commit ids are not contiguous: present {}, missing {} although a later "
                        "batch committed (commit files lost or deleted by hand?)",
                        joinIds(commit_ids_), joinIds(ids)),
            ids, {commitsDir});
      }
    }
    std::vector<int64_t> orphanCommits;
    for (int64_t c : commit_ids_)
      if (!offsetSet.count(c)) orphanCommits.push_back(c);
    if (!orphanCommits.empty()) {
      add(DiagnosisKind::kCommitWithoutOffsets,
          fmt::format("commits {} have no offsets file: a commit is written only after its "
                      "offsets, so these were lost, purged or copied in by hand",
                      joinIds(orphanCommits)),
          orphanCommits, {commitsDir});
    }
    // What populateStartOffsets would do.
    if (offset_ids_.empty()) {
      report_.restartBatchId = 0;
      return;
    }
    int64_t latest = offset_ids_.back();
    if (latest > 0 && !offsetSet.count(latest - 1) && missingBetween(offset_ids_).empty()) {
      add(DiagnosisKind::kOffsetsGap,
          fmt::format("offsets/{} is the latest but offsets/{} is missing: a restart fails with "
                      "\"batch {} doesn't exist\" (SPARK-38033)",
                      latest, latest - 1, latest - 1),
          {latest - 1}, {offsetsDir});
    }
    std::optional<int64_t> lastCommit = report_.latestCommitId;
    if (lastCommit && *lastCommit >= latest) {
      report_.restartBatchId = *lastCommit + 1;
      report_.restartIsRerun = false;
      return;
    }
    report_.restartBatchId = latest;
    report_.restartIsRerun = true;
    const BatchReport& b = batch(latest);
    std::string how = fmt::format(
        "a restart re-runs batch {} with the same offsets, batchTimestampMs {} and watermark {}",
        latest, b.batchTimestampMs ? std::to_string(*b.batchTimestampMs) : "?",
        b.batchWatermarkMs ? std::to_string(*b.batchWatermarkMs) : "?");
    if (!lastCommit) {
      add(DiagnosisKind::kUncommittedBatch,
          fmt::format("offsets/{} has no commit and there is no commit at all: {}", latest, how),
          {latest}, {joinPath(offsetsDir, std::to_string(latest))});
    } else if (*lastCommit == latest - 1) {
      add(DiagnosisKind::kUncommittedBatch,
          fmt::format("offsets/{} has no commits/{} (commits/{} exists): {}", latest, latest,
                      *lastCommit, how),
          {latest}, {joinPath(offsetsDir, std::to_string(latest))});
    } else {
      add(DiagnosisKind::kUncommittedBatch,
          fmt::format("the latest commit is {} but the latest offsets is {}: the commit log trails "
                      "by more than one batch. Spark warns and {} (from offsets/{} to offsets/{}); "
                      "batches {}..{} were planned but never committed and are not re-run",
                      *lastCommit, latest, how, latest - 1, latest, *lastCommit + 1, latest - 1),
          {latest}, {joinPath(offsetsDir, std::to_string(latest))});
    }
  }

  // A compactible log's allFiles() failing: NotFound is a lost compact file or batch.
  static DiagnosisKind logFailureKind(const Status& st) {
    return st.code() == Status::Code::kNotFound ? DiagnosisKind::kMissing
                                                : DiagnosisKind::kUnreadable;
  }

  void readSources() {
    std::string sourcesDir = joinPath(report_.root, "sources");
    std::set<int> logDirs;  // sources/<i>/ folders seen
    if (!env_.fs->exists(sourcesDir)) return missingSourceLogs(logDirs, sourcesDir);
    auto entries = env_.fs->list(sourcesDir);
    if (!entries.ok()) {
      add(DiagnosisKind::kUnreadable, entries.status().message(), {}, {sourcesDir});
      return;
    }
    for (const FileInfo& e : *entries) {
      // sources/<i>/, or sources/<name>/ for a source an offsets v2 file names (Spark 4.2).
      std::optional<int64_t> idx;
      const std::string folder = baseName(e.path);
      if (!report_.sourceNames.empty()) {
        auto at = std::find(report_.sourceNames.begin(), report_.sourceNames.end(), folder);
        if (at != report_.sourceNames.end()) idx = at - report_.sourceNames.begin();
      } else {
        idx = batchIdFromFileName(folder, false);
      }
      if (!idx) continue;
      int i = static_cast<int>(*idx);
      if (!e.isDir) {
        add(DiagnosisKind::kUnreadable,
            fmt::format("{} is a file, not source {}'s log folder (a file source logs its batches "
                        "as sources/{}/N)", e.path, i, i),
            {}, {e.path});
        continue;
      }
      logDirs.insert(i);
      if (readKafkaSource(i, e.path)) continue;
      FileSourceLog log(env_, joinPath(sourcesDir, folder));
      auto all = log.allFiles();
      if (!all.ok()) {
        add(logFailureKind(all.status()), all.status().message(), {}, {log.dir()});
        continue;
      }
      std::optional<int64_t> prevK;
      for (auto& [id, b] : batches_) {
        if (!b.hasOffsets || static_cast<size_t>(i) >= b.sourceOffsets.size()) continue;
        const auto& off = b.sourceOffsets[i];
        if (!off) continue;
        auto k = parseFileSourceOffset(*off, joinPath(report_.root, "offsets/" + std::to_string(id)));
        if (!k.ok()) continue;
        BatchSourceFiles files;
        files.sourceIndex = i;
        files.logOffset = *k;
        for (const FileSourceEntry& f : *all) {
          if (f.batchId <= *k && (!prevK || f.batchId > *prevK)) {
            files.files.push_back(f.path);
            taken_.push_back(Taken{f.path, id, "source " + std::to_string(i)});
          }
        }
        prevK = *k;
        b.sourceFiles.push_back(std::move(files));
      }
    }
    missingSourceLogs(logDirs, sourcesDir);
  }

  // A file source offset ({"logOffset":K}) names the source's log: sources/<i>/ must be a folder.
  void missingSourceLogs(const std::set<int>& logDirs, const std::string& sourcesDir) {
    std::map<int, std::vector<int64_t>> missing;  // source index -> batches naming its log
    for (const auto& [id, b] : batches_) {
      if (!b.hasOffsets) continue;
      for (size_t i = 0; i < b.sourceOffsets.size(); ++i) {
        const auto& off = b.sourceOffsets[i];
        if (!off || logDirs.count(static_cast<int>(i))) continue;
        // Only the JSON form names a file source for sure: a bare number is also a memory
        // stream's offset (Spark's own test checkpoints).
        if (off->find("\"logOffset\"") == std::string::npos || !parseFileSourceOffset(*off, "").ok()) continue;
        missing[static_cast<int>(i)].push_back(id);
      }
    }
    for (const auto& [i, ids] : missing) {
      std::string dir = joinPath(sourcesDir, static_cast<size_t>(i) < report_.sourceNames.size()
                                                 ? report_.sourceNames[i]
                                                 : std::to_string(i));
      if (env_.fs->exists(dir)) continue;  // a file: said above
      add(DiagnosisKind::kMissing,
          fmt::format("{} is missing: the offsets of batch(es) {} give source {} a file source "
                      "offset (logOffset), whose files its log lists; a restart cannot re-plan them",
                      dir, fmt::join(ids, ", "), i),
          ids, {dir});
    }
  }

  // Kafka offsets JSON {"topic":{"partition":offset}} -> (topic, partition) -> offset; nullopt
  // when the text is not that shape.
  static std::optional<std::map<std::pair<std::string, int>, int64_t>> kafkaOffsets(
      std::string_view text) {
    auto j = parseJsonBounded<detail::OJson>(text);
    if (j.is_discarded() || !j.is_object() || j.empty()) return std::nullopt;
    std::map<std::pair<std::string, int>, int64_t> out;
    for (const auto& [topic, parts] : j.items()) {
      if (!parts.is_object()) return std::nullopt;
      for (const auto& [p, off] : parts.items()) {
        if (!off.is_number_integer() || p.empty() ||
            p.find_first_not_of("0123456789") != std::string::npos || p.size() > 9)
          return std::nullopt;
        out[{topic, std::stoi(p)}] = off.get<int64_t>();
      }
    }
    return out;
  }

  // sources/<i>/ of a Kafka source holds one file, 0: the initial offsets (a zero byte, "v1\n",
  // the offsets JSON). True when `dir` is that (reported, with the records per batch).
  bool readKafkaSource(int i, const std::string& dir) {
    std::string path = joinPath(dir, "0");
    auto content = env_.fs->exists(path) ? env_.fs->read(path) : Result<std::string>(std::string());
    if (!content.ok()) return false;
    std::string_view text = *content;
    KafkaSourceReport k;
    k.sourceIndex = i;
    k.path = path;
    if (!text.empty() && text[0] == '\0') {
      k.zeroBytePrefix = true;
      text.remove_prefix(1);
    }
    // Without the initial offsets file, a batch's offsets alone tell a Kafka source.
    bool batchOffsetsAreKafka = false;
    for (const auto& [id, b] : batches_)
      if (b.hasOffsets && static_cast<size_t>(i) < b.sourceOffsets.size() && b.sourceOffsets[i])
        batchOffsetsAreKafka = kafkaOffsets(*b.sourceOffsets[i]).has_value();
    std::optional<std::map<std::pair<std::string, int>, int64_t>> initial;
    size_t nl = text.find('\n');
    if (text.size() > 2 && text[0] == 'v' && nl != std::string_view::npos) {
      std::string_view v = text.substr(1, nl - 1);
      if (!v.empty() && v.find_first_not_of("0123456789") == std::string_view::npos) {
        initial = kafkaOffsets(text.substr(nl + 1));
        if (initial) k.version = std::stoi(std::string(v));
      }
    }
    if (!initial && !batchOffsetsAreKafka) return false;
    if (initial) {
      k.initialOffsetsJson = std::string(detail::trimView(text.substr(nl + 1)));
      std::set<std::string> topics;
      for (const auto& [tp, off] : *initial) topics.insert(tp.first);
      k.topics = static_cast<int>(topics.size());
      k.partitions = static_cast<int>(initial->size());
    } else if (env_.fs->exists(path)) {
      add(DiagnosisKind::kUnreadable,
          fmt::format("{}: a Kafka source's initial offsets file should be a zero byte (optional), "
                      "\"v1\" and a line of offsets JSON {{\"topic\":{{\"0\":123}}}}", path),
          {}, {path});
    }
    // Records per batch: this batch's offsets minus the previous batch's (or the initial ones).
    auto prev = initial;
    for (auto& [id, b] : batches_) {
      if (!b.hasOffsets || static_cast<size_t>(i) >= b.sourceOffsets.size() || !b.sourceOffsets[i])
        continue;
      auto cur = kafkaOffsets(*b.sourceOffsets[i]);
      BatchSourceFiles s;
      s.sourceIndex = i;
      if (!cur) {
        add(DiagnosisKind::kUnreadable,
            fmt::format("offsets/{}: source {} is a Kafka source but its offset is not Kafka "
                        "offsets JSON: {}", id, i, *b.sourceOffsets[i]),
            {id}, {joinPath(report_.root, "offsets/" + std::to_string(id))});
        continue;
      }
      if (prev) {
        int64_t records = 0;
        for (const auto& [tp, off] : *cur) {
          auto it = prev->find(tp);
          if (it != prev->end() && off > it->second) records += off - it->second;
        }
        s.kafkaRecords = records;
      }
      b.sourceFiles.push_back(std::move(s));
      prev = cur;
    }
    report_.kafkaSources.push_back(std::move(k));
    return true;
  }

  // Temp files a write cut short leaves: HDFSBackedStateStoreProvider's temp-<number> in a
  // state folder, CheckpointFileManager's .<name>.<uuid>.tmp anywhere.
  void findTempFiles() {
    std::vector<std::string> found;
    std::function<void(const std::string&, int)> walk = [&](const std::string& dir, int depth) {
      auto entries = env_.fs->list(dir);
      if (!entries.ok() || depth > 4) return;
      for (const FileInfo& e : *entries) {
        std::string name = baseName(e.path);
        if (e.isDir) {
          walk(e.path, depth + 1);
        } else if (name.rfind("temp-", 0) == 0 ||
                   (name.size() > 4 && name.substr(name.size() - 4) == ".tmp" && name[0] == '.')) {
          found.push_back(e.path);
        }
      }
    };
    walk(report_.root, 0);
    std::sort(found.begin(), found.end());
    for (const std::string& path : found) {
      bool state = path.find("/state/") != std::string::npos;
      add(DiagnosisKind::kLeftoverTempFile,
          fmt::format("{} is a leftover temporary file: a {} write was cut short (the task or "
                      "process stopped between creating it and renaming it into place). Spark "
                      "never reads it; it is safe to delete",
                      path, state ? "state store" : "log"),
          {}, {path});
    }
  }

  // Hadoop's ChecksumFileSystem writes .<name>.crc next to each file: "crc\0", the bytes per
  // checksum (big-endian int), then a big-endian CRC-32 per chunk.
  void checkHadoopChecksums(const std::string& dir, int depth) {
    auto entries = env_.fs->list(dir);
    if (!entries.ok() || depth > 4) return;
    for (const FileInfo& e : *entries) {
      std::string name = baseName(e.path);
      if (e.isDir) {
        checkHadoopChecksums(e.path, depth + 1);
        continue;
      }
      if (name.size() < 6 || name[0] != '.' || name.substr(name.size() - 4) != ".crc") continue;
      std::string target = joinPath(dir, name.substr(1, name.size() - 5));
      if (baseName(target).rfind("temp-", 0) == 0 || !env_.fs->exists(target)) continue;
      auto crc = env_.fs->read(e.path);
      auto data = env_.fs->read(target);
      if (!crc.ok() || !data.ok()) continue;
      std::string_view c = *crc;
      auto be32 = [](std::string_view s) {
        uint32_t v = 0;
        for (int i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(s[i]);
        return v;
      };
      if (c.size() < 8 || c.substr(0, 4) != std::string_view("crc\0", 4) || be32(c.substr(4)) == 0) {
        add(DiagnosisKind::kUnreadable,
            fmt::format("{}: not a Hadoop checksum file (expected \"crc\\0\" and the bytes per "
                        "checksum)", e.path),
            {}, {e.path});
        continue;
      }
      uint32_t perChunk = be32(c.substr(4));
      size_t chunks = (data->size() + perChunk - 1) / perChunk;
      std::optional<size_t> bad;
      if (c.size() != 8 + 4 * chunks) {
        bad = std::min<size_t>(chunks, (c.size() - 8) / 4);
      } else {
        for (size_t k = 0; k < chunks && !bad; ++k) {
          std::string_view chunk = std::string_view(*data).substr(k * perChunk, perChunk);
          if (detail::crc32Ieee(chunk) != be32(c.substr(8 + 4 * k))) bad = k;
        }
      }
      if (bad) {
        add(DiagnosisKind::kChecksumMismatch,
            fmt::format("{} does not match its Hadoop checksum {} (from byte {}): the file changed "
                        "after Spark wrote it (edited, truncated or copied in part)",
                        target, e.path, *bad * perChunk),
            {}, {target, e.path});
      } else {
        ++report_.checksumsVerified;
      }
    }
  }

  void readOperators() {
    auto ops = readAllOperatorMetadata(env_, report_.root);
    if (!ops.ok()) {
      add(DiagnosisKind::kUnreadable, ops.status().message(), {}, {joinPath(report_.root, "state")});
      return;
    }
    report_.operators = std::move(*ops);
    // Each operator's state schema record (state/<op>/_stateSchema/<n>.json), read as a restart
    // reads it: a damaged one fails the query's start.
    for (const OperatorMetadata& op : report_.operators) {
      auto schema = readStateSchema(env_, report_.root, static_cast<int>(op.operatorId));
      if (!schema.ok())
        add(DiagnosisKind::kUnreadable, schema.status().message(), {},
            {joinPath(joinPath(joinPath(report_.root, "state"), std::to_string(op.operatorId)), "_stateSchema")});
    }
  }

  void collectDataFiles(const std::string& dir, std::vector<FileInfo>& out, int depth) {
    if (depth > 16) return;
    auto entries = env_.fs->list(dir);
    if (!entries.ok()) return;
    for (const FileInfo& e : *entries) {
      std::string name = baseName(e.path);
      if (name.empty() || name[0] == '_' || name[0] == '.') continue;  // hidden, as Spark
      if (e.isDir) {
        collectDataFiles(e.path, out, depth + 1);
      } else {
        out.push_back(e);
      }
    }
  }

  void readSink(const std::string& sinkPath) {
    // The data files in the folder, by their path relative to the sink root: the log's entries
    // are matched by that (a folder moved elsewhere keeps its relative paths, not its absolute ones).
    std::vector<FileInfo> data;
    collectDataFiles(sinkPath, data, 0);
    std::set<std::string> dataRel;
    for (const FileInfo& f : data) dataRel.insert(relativeTo(localPath(f.path), sinkPath));
    SinkReport sink;
    sink.path = sinkPath;
    FileSinkLog log(env_, sinkPath);
    sink.logPresent = env_.fs->exists(log.dir());
    if (!env_.fs->exists(sinkPath)) {
      add(DiagnosisKind::kMissing, fmt::format("sink folder {} does not exist", sinkPath), {},
          {sinkPath});
      report_.sink = std::move(sink);
      return;
    }
    if (!sink.logPresent) {
      add(DiagnosisKind::kMissing,
          fmt::format("{} does not exist: no batch was committed to this file sink (every data "
                      "file in the folder is unlisted)",
                      log.dir()),
          {}, {log.dir()});
    }
    std::set<std::string> listed;
    if (sink.logPresent) {
      auto ids = log.listBatchIds();
      if (!ids.ok()) {
        add(DiagnosisKind::kUnreadable, ids.status().message(), {}, {log.dir()});
      } else {
        if (!ids->empty()) sink.latestBatchId = ids->back();
        std::set<std::string> before;
        for (int64_t id : *ids) {
          auto entries = log.get(id);
          if (!entries.ok() || !entries->has_value()) {
            add(DiagnosisKind::kUnreadable,
                entries.ok() ? fmt::format("sink log batch {} vanished", id)
                             : entries.status().message(),
                {id}, {log.dir()});
            continue;
          }
          std::vector<std::string> files;
          for (const SinkFileStatus& f : **entries) {
            if (f.action != kSinkAddAction) continue;
            if (log.isCompactFile(id) && before.count(f.path)) continue;
            files.push_back(f.path);
          }
          for (const auto& f : files) {
            before.insert(f);
            taken_.push_back(Taken{f, id, "sink"});
          }
          auto it = batches_.find(id);
          if (it != batches_.end()) it->second.sinkFiles = std::move(files);
        }
        auto all = log.allFiles();
        if (!all.ok()) {
          add(logFailureKind(all.status()), all.status().message(), {}, {log.dir()});
        } else {
          // Each logged path (absolute: Spark writes the path it wrote) relative to the sink
          // root it was written under: this folder, or -- for a folder moved from elsewhere --
          // the root that a data file here, by its relative path, shows it had.
          std::map<std::string, size_t> movedFrom;  // original root -> entries under it
          size_t here = 0;
          for (const auto& f : *all) {
            sink.listedFiles.push_back(f.path);
            sink_sizes_[f.path] = f.size;
            const std::string local = localPath(f.path);
            if (local.rfind(sinkPath + "/", 0) == 0) {
              listed.insert(local.substr(sinkPath.size() + 1));
              ++here;
              continue;
            }
            bool matched = false;
            for (size_t at = local.find('/'); at != std::string::npos && !matched; at = local.find('/', at + 1))
              if (dataRel.count(local.substr(at + 1))) {
                listed.insert(local.substr(at + 1));
                ++movedFrom[at == 0 ? std::string("/") : local.substr(0, at)];
                matched = true;
              }
            if (!matched) listed.insert(local);  // a file neither here nor found: reported missing by no one
          }
          if (!movedFrom.empty() && here == 0) {
            auto from = std::max_element(movedFrom.begin(), movedFrom.end(),
                                         [](const auto& a, const auto& b) { return a.second < b.second; });
            add(DiagnosisKind::kSinkMoved,
                fmt::format("this sink folder was moved from {}: its _spark_metadata lists the files at "
                            "their absolute paths under {}, and Spark's reader of the folder "
                            "(MetadataLogFileIndex, SinkFileStatus.toFileStatus) reads those paths, not the "
                            "files here: it fails with FileNotFoundException where {} is gone, or reads the "
                            "files still there; the files here were matched to the log by their path "
                            "relative to the sink root",
                            from->first, from->first, from->first),
                {}, {sinkPath});
          }
        }
        if (sink.latestBatchId && (!report_.latestCommitId ||
                                   *sink.latestBatchId > *report_.latestCommitId)) {
          add(DiagnosisKind::kSinkAhead,
              fmt::format("the file sink already holds batch {} but the latest commit is {}: the "
                          "re-run of that batch will skip the sink (batch id <= latest sink batch)",
                          *sink.latestBatchId,
                          report_.latestCommitId ? std::to_string(*report_.latestCommitId) : "none"),
              {*sink.latestBatchId}, {log.dir()});
        }
      }
    }
    for (const FileInfo& f : data)
      if (!listed.count(relativeTo(localPath(f.path), sinkPath))) sink.orphanFiles.push_back(f.path);
    if (!sink.orphanFiles.empty()) {
      add(DiagnosisKind::kOrphanFiles,
          fmt::format("{} data file(s) in {} are not listed in _spark_metadata (left by a batch "
                      "that failed before its sink log entry; readers of the folder ignore them): {}",
                      sink.orphanFiles.size(), sinkPath,
                      fmt::join(sink.orphanFiles.begin(),
                                sink.orphanFiles.begin() +
                                    static_cast<long>(std::min<size_t>(sink.orphanFiles.size(), 10)),
                                ", ")),
          {}, sink.orphanFiles);
    }
    report_.sink = std::move(sink);
  }

  void findRenamedResends() {
    // Group files taken by a source, or written by the sink, by (size, content hash).
    struct Seen {
      std::string path;
      int64_t batchId;
      std::string where;
      bool hashed;
    };
    std::map<std::pair<int64_t, uint64_t>, std::vector<Seen>> groups;
    std::set<std::string> done;
    for (const Taken& t : taken_) {
      if (!done.insert(t.where + "|" + t.path).second) continue;
      std::string local = localPath(t.path);
      int64_t size = -1;
      auto st = env_.fs->stat(local);
      if (st.ok() && !st->isDir) {
        size = st->size;
      } else if (auto it = sink_sizes_.find(t.path); t.where == "sink" && it != sink_sizes_.end()) {
        size = it->second;
      }
      if (size <= 0) continue;  // unknown or empty: no evidence
      uint64_t hash = 0;
      bool hashed = false;
      if (st.ok()) {
        auto content = env_.fs->read(local);
        if (content.ok()) {
          hash = fnv1a(*content);
          hashed = true;
        }
      }
      groups[{size, hash}].push_back(Seen{t.path, t.batchId, t.where, hashed});
    }
    for (auto& [key, seen] : groups) {
      // Same name twice in the same place cannot happen; different names or places with the same
      // bytes can be a renamed resend — but a sink file and the source file it came from are
      // different things, so require two entries from the same side.
      std::map<std::string, std::vector<const Seen*>> bySide;
      for (const auto& s : seen) bySide[s.where].push_back(&s);
      for (auto& [side, list] : bySide) {
        std::set<std::string> distinct;
        for (const Seen* s : list) distinct.insert(s->path);
        if (distinct.size() < 2) continue;
        std::vector<int64_t> ids;
        std::vector<std::string> paths;
        std::string desc;
        bool allHashed = true;
        for (const Seen* s : list) {
          ids.push_back(s->batchId);
          paths.push_back(s->path);
          allHashed = allHashed && s->hashed;
          desc += fmt::format("{}{} (batch {})", desc.empty() ? "" : ", ", s->path, s->batchId);
        }
        add(DiagnosisKind::kRenamedResend,
            fmt::format("{}: {} files under different names have {} ({} bytes): {}. A renamed "
                        "resend is processed again; exactly once is per file name, not per "
                        "content (use dropDuplicates on a content key)",
                        side, list.size(),
                        allHashed ? "the same content" : "the same size (content not readable)",
                        key.first, desc),
            ids, paths);
      }
    }
  }

  struct Taken {
    std::string path;
    int64_t batchId;
    std::string where;  // "source <i>" or "sink"
  };

  Env env_;
  CheckpointReport report_;
  std::map<int64_t, BatchReport> batches_;
  std::vector<int64_t> offset_ids_;
  std::vector<int64_t> commit_ids_;
  std::vector<Taken> taken_;
  std::map<std::string, int64_t> sink_sizes_;

 public:
  std::vector<BatchReport> takeBatches() {
    std::vector<BatchReport> out;
    for (auto& [id, b] : batches_) out.push_back(std::move(b));
    return out;
  }
};

std::string optTime(const std::optional<TimeMs>& t) {
  return t ? fmt::format("{} ({})", *t, formatTimestamp(*t)) : std::string("-");
}

}  // namespace

Result<CheckpointReport> inspectCheckpoint(const Env& env, const std::string& root,
                                           std::optional<std::string> sinkPath) {
  if (root.empty()) return Status::InvalidArgument("inspectCheckpoint: the checkpoint path is empty");
  if (env.fs == nullptr) return Status::InvalidArgument("inspectCheckpoint: the Env has no filesystem");
  Inspector inspector(env, root);
  CheckpointReport report = inspector.run(sinkPath);
  report.batches = inspector.takeBatches();
  return report;
}

namespace {

bool looksLikeCheckpoint(const Env& env, const std::string& dir) {
  return env.fs->exists(dir + "/offsets") || env.fs->exists(dir + "/commits") ||
         env.fs->exists(dir + "/metadata");
}

void collectCheckpoints(const Env& env, const std::string& dir, int depthLeft,
                        std::vector<std::string>& out) {
  if (looksLikeCheckpoint(env, dir)) {
    out.push_back(dir);
    return;
  }
  if (depthLeft <= 0) return;
  auto entries = env.fs->list(dir);
  if (!entries.ok()) return;
  for (const FileInfo& e : *entries)
    if (e.isDir) collectCheckpoints(env, e.path, depthLeft - 1, out);
}

}  // namespace

std::vector<std::string> findCheckpoints(const Env& env, const std::string& root, int maxDepth) {
  std::vector<std::string> out;
  collectCheckpoints(env, root, maxDepth, out);
  std::sort(out.begin(), out.end());
  return out;
}

namespace {
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
