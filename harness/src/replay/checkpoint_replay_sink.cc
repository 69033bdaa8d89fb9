// What a file sink committed per batch, against the replay's output (checkpoint_replay_sink.h).
#include "checkpoint_replay_sink.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "streamsim/checkpoint/file_sink_log.h"
#include "streamsim/io/file_source.h"
#include "streamsim/io/json_rows.h"

namespace streamsim::harness::detail {
namespace {

std::vector<std::string> sortedJson(const std::vector<Row>& rows) {
  std::vector<std::string> out;
  out.reserve(rows.size());
  for (const Row& r : rows) out.push_back(r.toJson());
  std::sort(out.begin(), out.end());
  return out;
}

// Where a path the sink log names lives in the sink folder given: below the recorded sink path
// when it starts with it (partition folders kept), else by its file name.
std::string localFile(const std::string& sinkDir, const std::string& recorded,
                      const std::string& logged) {
  std::string p = stripFileUri(logged);
  if (!recorded.empty() && p.size() > recorded.size() && p.compare(0, recorded.size(), recorded) == 0 &&
      p[recorded.size()] == '/')
    return sinkDir + p.substr(recorded.size());
  auto at = p.rfind('/');
  return sinkDir + "/" + (at == std::string::npos ? p : p.substr(at + 1));
}

}  // namespace

Status compareWithSink(const Env& real, const std::string& sinkDir,
                       const std::string& recordedSinkPath, const CheckpointReport& report,
                       CheckpointReplayResult& result) {
  result.comparedWithSink = true;
  std::map<int64_t, const BatchReport*> byId;
  for (const BatchReport& b : report.batches) byId[b.batchId] = &b;
  FileSinkLog log(real, sinkDir);
  STREAMSIM_ASSIGN_OR_RETURN(std::vector<int64_t> ids, log.listBatchIds());
  const std::set<int64_t> logged(ids.begin(), ids.end());
  const int64_t latest = ids.empty() ? -1 : ids.back();
  // The sink's rows are read with the schema of the replay's output rows (the processor's
  // output schema); with no replayed row at all they are only counted.
  SchemaPtr schema;
  for (const ReplayedBatch& b : result.batches)
    if (!b.output.empty()) {
      schema = b.output.front().schema();
      break;
    }
  std::optional<JsonRowParser> parser;
  if (schema) {
    JsonReadOptions options;
    options.mode = ParseMode::kFailFast;
    STREAMSIM_ASSIGN_OR_RETURN(JsonRowParser p, JsonRowParser::make(schema, options));
    parser.emplace(std::move(p));
  }
  for (ReplayedBatch& rb : result.batches) {
    if (!rb.recorded) continue;  // new input past the recorded batches: nothing to compare with
    const int64_t id = rb.batchId;
    auto it = byId.find(id);
    if (it == byId.end() || !it->second->sinkFiles) {
      if (id > latest && !rb.output.empty()) {
        rb.sinkRows = std::vector<Row>{};
        rb.sinkNote = fmt::format("the sink log ends at batch {}: the sink never committed this batch", latest);
      } else {
        rb.sinkNote = fmt::format("not compared: the sink log has no batch {} (purged, or an empty sink folder)", id);
        continue;
      }
    } else {
      // A compact file lists every file so far; its own batch's files are those the earlier
      // batches of the log did not list, which only holds when those batches are all still there.
      if (log.isCompactFile(id)) {
        STREAMSIM_ASSIGN_OR_RETURN(const int interval, log.compactInterval());
        const int64_t from = std::max<int64_t>(0, id - interval);
        for (int64_t k = from; k < id; ++k)
          if (!logged.count(k)) {
            rb.sinkNote = fmt::format(
                "not compared: {}.compact no longer tells this batch's own files (sink log batch {} is gone)",
                id, k);
            break;
          }
        if (!rb.sinkNote.empty()) continue;
      }
      std::vector<Row> rows;
      int64_t lines = 0;
      for (const std::string& f : *it->second->sinkFiles) {
        const std::string path = localFile(sinkDir, recordedSinkPath, f);
        auto text = real.fs->read(path);
        if (!text.ok()) {
          rb.sinkNote = fmt::format("not compared: the sink log lists {}, which --sink lacks ({})", path,
                                    text.status().message());
          break;
        }
        if (parser) {
          STREAMSIM_RETURN_IF_ERROR(parser->parseLines(*text, path, rows));
        } else {
          for (char c : *text) lines += c == '\n';
        }
      }
      if (!rb.sinkNote.empty()) continue;
      if (!parser && lines > 0) {
        rb.sinkNote = fmt::format("the sink committed {} row(s); the replay gave none", lines);
        rb.differsFromSink = true;
        if (!result.firstDifference) result.firstDifference = id;
        continue;
      }
      rb.sinkRows = std::move(rows);
    }
    rb.differsFromSink = sortedJson(*rb.sinkRows) != sortedJson(rb.output);
    if (rb.differsFromSink && !result.firstDifference) result.firstDifference = id;
  }
  return Status::OK();
}

}  // namespace streamsim::harness::detail
