#include "streamsim/io/file_sink.h"

#include <algorithm>
#include <cctype>
#include <set>

#include <nlohmann/json.hpp>

#include "streamsim/checkpoint/file_sink_log.h"
#include "streamsim/fault_points.h"
#include "streamsim/io/csv_rows.h"
#include "streamsim/io/file_source.h"
#include "io/source_options.h"
#include "streamsim/io/json_rows.h"
#include "streamsim/trace_events.h"
#include "json_text.h"
#include "streamsim/json_nesting.h"

namespace streamsim {

namespace {

// Hadoop's local filesystem reports 32 MB blocks; Spark copies the figure into the log.
constexpr int64_t kBlockSize = 32 * 1024 * 1024;

std::string quote(std::string_view s) {
  std::string out;
  detail::appendJsonString(out, s);
  return out;
}


}  // namespace

std::string sinkPathRecordFile(const std::string& checkpointRoot) {
  return joinPath(checkpointRoot, "sink_path");
}

Result<std::optional<std::string>> readSinkPathRecord(const Env& env, const std::string& checkpointRoot) {
  std::string record = sinkPathRecordFile(checkpointRoot);
  if (!env.fs->exists(record)) return std::optional<std::string>();
  STREAMSIM_ASSIGN_OR_RETURN(std::string text, env.fs->read(record));
  auto j = parseJsonBounded<nlohmann::json>(text);
  if (j.is_discarded() || !j.is_object() || !j.contains("path") || !j["path"].is_string())
    return Status::Corruption(
        fmt::format("{}: expected {{\"path\":\"<sink folder>\"}}, found '{}'", record, text));
  return std::optional<std::string>(j["path"].get<std::string>());
}

Status checkFileSinkOptions(const FileSinkOptions& o) {
  if (o.format == "csv") return CsvRowWriter::make(makeSchema({}), o.formatOptions).status();
  if (o.format == "json") {
    // JSONOptions' writer patterns are not built: refused, never silently written another way.
    for (const auto& [key, value] : o.formatOptions) {
      const std::string k = detail::lowerAscii(key);
      if (k == "timestampformat" || k == "dateformat")
        return Status::InvalidArgument(fmt::format(
            "json sink option {} is not built in streamsim: the JSON sink writes timestamps "
            "yyyy-MM-dd'T'HH:mm:ss.SSSXXX and dates yyyy-MM-dd, Spark's defaults (docs/python.md)", key));
    }
  }
  return Status::OK();
}

Result<EncodedDataFile> encodeDataFile(const FileSinkOptions& o, const std::vector<Row>& rows,
                                       std::string_view uuid) {
  EncodedDataFile out;
  if (rows.empty()) return out;
  if (o.format == "parquet") {
    STREAMSIM_ASSIGN_OR_RETURN(out.data, writeParquet(*rows.front().schema(), rows, o.parquetCodec));
    out.name = fmt::format("part-00000-{}-c000{}.parquet", uuid, parquetCodecFileInfix(o.parquetCodec));
  } else if (o.format == "csv") {
    STREAMSIM_ASSIGN_OR_RETURN(CsvRowWriter writer, CsvRowWriter::make(rows.front().schema(), o.formatOptions));
    out.data = writer.writeFile(rows);
    out.name = fmt::format("part-00000-{}-c000.csv", uuid);
  } else if (o.format == "text") {
    STREAMSIM_RETURN_IF_ERROR(checkTextWriteSchema(*rows.front().schema()));
    out.data = writeTextFile(rows);
    out.name = fmt::format("part-00000-{}-c000.txt", uuid);
  } else {
    for (const Row& r : rows) appendJsonLine(r, out.data);
    out.name = fmt::format("part-00000-{}-c000.json", uuid);
  }
  return out;
}

Status FileSink::start(const SinkContext& ctx) {
  const Env& env = *ctx.env;
  STREAMSIM_RETURN_IF_ERROR(checkFileSinkOptions(options_));  // before anything runs
  STREAMSIM_RETURN_IF_ERROR(env.fs->mkdirs(options_.path));
  if (ctx.checkpointRoot.empty()) return Status::OK();
  std::string record = sinkPathRecordFile(ctx.checkpointRoot);
  STREAMSIM_ASSIGN_OR_RETURN(std::optional<std::string> recordedPath,
                             readSinkPathRecord(env, ctx.checkpointRoot));
  if (recordedPath) {
    const std::string& recorded = *recordedPath;
    if (recorded != options_.path) {
      return Status::FailedPrecondition(fmt::format(
          "the checkpoint {} belongs to a query whose file sink wrote to {}, but this run writes "
          "to {}. Changing a file sink's output path between restarts is not allowed; start "
          "from a new checkpoint to write elsewhere",
          ctx.checkpointRoot, recorded, options_.path));
    }
    return Status::OK();
  }
  FaultContext fc;
  fc.batchId = ctx.batchId;
  return writeFileAtomically(env, record, fmt::format("{{\"path\":{}}}", quote(options_.path)), fc);
}

Status FileSink::addBatch(const SinkContext& ctx, const std::vector<Row>& rows) {
  const Env& env = *ctx.env;
  FileSinkLog log(env, options_.path, options_.compactInterval);
  STREAMSIM_ASSIGN_OR_RETURN(auto latest, log.getLatestBatchId());
  if (latest && ctx.batchId <= *latest) {
    if (env.trace != nullptr)
      TraceEvent(events::kSinkSkip).add("sink", "files").add("batch", ctx.batchId).add("latestCommitted", *latest).emit(env.trace);
    return Status::OK();
  }
  std::vector<SinkFileStatus> files;
  if (!rows.empty()) {
    STREAMSIM_ASSIGN_OR_RETURN(EncodedDataFile encoded, encodeDataFile(options_, rows, env.ids->newUuid()));
    const std::string& data = encoded.data;
    const std::string& name = encoded.name;
    std::string file = joinPath(options_.path, name);
    STREAMSIM_RETURN_IF_ERROR(env.fs->write(file, data));
    STREAMSIM_RETURN_IF_ERROR(env.fs->sync(file));
    STREAMSIM_ASSIGN_OR_RETURN(FileInfo info, env.fs->stat(file));
    SinkFileStatus st;
    st.path = file;
    st.size = info.size;
    st.modificationTime = info.modificationTime;
    st.blockSize = kBlockSize;
    files.push_back(std::move(st));
  }
  FaultContext fc;
  fc.batchId = ctx.batchId;
  fc.path = files.empty() ? options_.path : files.front().path;
  STREAMSIM_RETURN_IF_ERROR(passFaultPoint(env, faults::kSinkAfterDataFiles, fc));
  STREAMSIM_ASSIGN_OR_RETURN(bool written, log.add(ctx.batchId, files));
  if (!written) {
    return Status::FailedPrecondition(fmt::format(
        "{}: _spark_metadata batch {} appeared while the batch was written; another query may "
        "be writing to this folder",
        description(), ctx.batchId));
  }
  if (env.trace != nullptr) {
    std::string names = "[";
    for (const SinkFileStatus& f : files) names += (names.size() == 1 ? "" : ",") + quote(f.path);
    TraceEvent(events::kSinkWrite)
        .add("sink", "files")
        .add("batch", ctx.batchId)
        .add("rows", rows.size())
        .addJson("files", names + "]")
        .emit(env.trace);
  }
  STREAMSIM_ASSIGN_OR_RETURN(std::string writtenAs, log.fileNameFor(ctx.batchId));
  fc.path = joinPath(log.dir(), writtenAs);
  return passFaultPoint(env, faults::kSinkAfterMetadata, fc);
}

Result<std::vector<Row>> readFileSinkOutput(const Env& env, const std::string& path,
                                            SchemaPtr schema) {
  if (!env.fs->exists(path))
    return Status::NotFound(fmt::format("file sink output folder {} does not exist", path));
  JsonReadOptions opts;
  opts.mode = ParseMode::kFailFast;
  STREAMSIM_ASSIGN_OR_RETURN(JsonRowParser parser, JsonRowParser::make(std::move(schema), opts));
  FileSinkLog log(env, path);
  STREAMSIM_ASSIGN_OR_RETURN(auto entries, log.allFiles());
  std::vector<Row> rows;
  for (const SinkFileStatus& e : entries) {
    if (e.isDir || e.action != kSinkAddAction) continue;
    std::string file = stripFileUri(e.path);
    auto text = env.fs->read(file);
    if (!text.ok()) {
      return Status::NotFound(fmt::format("{} is listed in {} but cannot be read: {}", file,
                                          log.dir(), text.status().message()));
    }
    if (file.size() >= 8 && file.compare(file.size() - 8, 8, ".parquet") == 0) {
      STREAMSIM_ASSIGN_OR_RETURN(std::vector<Row> fileRows, readParquetAs(*text, file, parser.schema()));
      for (Row& r : fileRows) rows.push_back(std::move(r));
      continue;
    }
    STREAMSIM_RETURN_IF_ERROR(parser.parseLines(*text, file, rows));
  }
  return rows;
}

Result<std::vector<std::string>> filesToRead(const Env& env, const std::string& path) {
  if (!env.fs->exists(path))
    return Status::NotFound(fmt::format("[PATH_NOT_FOUND] Path does not exist: {}.", path));
  std::vector<std::string> files;
  STREAMSIM_ASSIGN_OR_RETURN(FileInfo info, env.fs->stat(path));
  FileSinkLog log(env, path);
  const bool sinkFolder = info.isDir && env.fs->exists(log.dir());
  if (sinkFolder) {
    STREAMSIM_ASSIGN_OR_RETURN(auto entries, log.allFiles());
    for (const SinkFileStatus& e : entries)
      if (!e.isDir && e.action == kSinkAddAction) files.push_back(stripFileUri(e.path));
  } else if (info.isDir) {
    STREAMSIM_ASSIGN_OR_RETURN(auto listed, env.fs->list(path));
    for (const FileInfo& f : listed) {
      std::string name = baseName(f.path);
      if (!f.isDir && !name.empty() && name.front() != '_' && name.front() != '.') files.push_back(f.path);
    }
    std::sort(files.begin(), files.end());
  } else {
    files.push_back(path);
  }
  return files;
}

Result<ParquetContents> readParquetPath(const Env& env, const std::string& path, SchemaPtr schema) {
  STREAMSIM_ASSIGN_OR_RETURN(std::vector<std::string> files, filesToRead(env, path));
  ParquetContents out;
  out.schema = schema;
  for (const std::string& file : files) {
    auto bytes = env.fs->read(file);
    if (!bytes.ok())
      return Status::NotFound(fmt::format("{} cannot be read: {}", file, bytes.status().message()));
    if (out.schema == nullptr) {
      STREAMSIM_ASSIGN_OR_RETURN(out.schema, readParquetSchema(*bytes, file));
    }
    STREAMSIM_ASSIGN_OR_RETURN(std::vector<Row> rows, readParquetAs(*bytes, file, out.schema));
    for (Row& r : rows) out.rows.push_back(std::move(r));
  }
  if (out.schema == nullptr)
    return Status::InvalidArgument(fmt::format(
        "[UNABLE_TO_INFER_SCHEMA] Unable to infer schema for Parquet at {}. It must be specified manually.", path));
  return out;
}

Result<std::vector<std::string>> listFileSinkOrphans(const Env& env, const std::string& path) {
  FileSinkLog log(env, path);
  STREAMSIM_ASSIGN_OR_RETURN(auto entries, log.allFiles());
  std::set<std::string> listed;
  for (const SinkFileStatus& e : entries) listed.insert(stripFileUri(e.path));
  STREAMSIM_ASSIGN_OR_RETURN(auto files, env.fs->list(path));
  std::vector<std::string> orphans;
  for (const FileInfo& f : files) {
    std::string name = baseName(f.path);
    if (f.isDir || name.empty() || name.front() == '.' || name.front() == '_') continue;
    if (!listed.count(f.path)) orphans.push_back(f.path);
  }
  std::sort(orphans.begin(), orphans.end());
  return orphans;
}

std::function<std::unique_ptr<Sink>()> makeFileSink(FileSinkOptions options) {
  return [options = std::move(options)]() -> std::unique_ptr<Sink> {
    return std::make_unique<FileSink>(options);
  };
}

std::function<std::unique_ptr<Sink>()> makeFileSink(std::string path) {
  FileSinkOptions o;
  o.path = std::move(path);
  return makeFileSink(std::move(o));
}

}  // namespace streamsim
