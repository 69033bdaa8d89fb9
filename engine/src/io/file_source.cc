#include "streamsim/io/file_source.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include <nlohmann/json.hpp>

#include "streamsim/checkpoint/file_source_log.h"
#include "streamsim/checkpoint/offset_log.h"
#include "json_text.h"
#include "streamsim/fault_points.h"
#include "streamsim/io/parquet.h"
#include "streamsim/io/parsed_files.h"
#include "streamsim/trace_events.h"

namespace streamsim {

namespace {

std::string lower(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return out;
}

Result<int64_t> parsePositiveLong(std::string_view key, const std::string& value) {
  int64_t n = 0;
  auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec != std::errc() || p != value.data() + value.size() || n <= 0) {
    return Status::InvalidArgument(
        fmt::format("file source option {}: '{}' is not a positive integer", key, value));
  }
  return n;
}

Result<bool> parseBool(std::string_view key, const std::string& value) {
  std::string v = lower(value);
  if (v == "true") return true;
  if (v == "false") return false;
  return Status::InvalidArgument(
      fmt::format("file source option {}: '{}' is not true or false", key, value));
}

// Spark's InMemoryFileIndex.shouldFilterOutPathName plus temp files of copy tools.
bool isHiddenOrTemp(std::string_view name) {
  if (name.empty()) return true;
  if (name.front() == '.' || name.front() == '_') return true;
  auto endsWith = [&](std::string_view suffix) {
    return name.size() >= suffix.size() && name.substr(name.size() - suffix.size()) == suffix;
  };
  return endsWith("._COPYING_") || endsWith(".tmp");
}

bool isUnder(const std::string& path, const std::string& dir) {
  std::string d = dir;
  while (d.size() > 1 && d.back() == '/') d.pop_back();
  if (path == d) return true;
  return path.size() > d.size() && path.compare(0, d.size(), d) == 0 &&
         (d == "/" || path[d.size()] == '/');
}

// baseName(path) without a string of its own (listing checks every file's name).
std::string_view baseNameView(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  auto pos = path.rfind('/');
  return pos == std::string_view::npos ? path : path.substr(pos + 1);
}

}  // namespace

std::string stripFileUri(std::string_view path) {
  if (path.rfind("file://", 0) == 0) {
    std::string_view rest = path.substr(7);
    // file:///a/b -> /a/b ; file://host/a/b keeps /a/b (local simulation has no hosts)
    auto slash = rest.find('/');
    return std::string(slash == std::string_view::npos ? rest : rest.substr(slash));
  }
  if (path.rfind("file:", 0) == 0) return std::string(path.substr(5));
  return std::string(path);
}

// ---- options ---------------------------------------------------------------------------

Result<FileSourceOptions> FileSourceOptions::fromMap(
    std::string path, SchemaPtr schema, const std::map<std::string, std::string>& options,
    std::string format) {
  FileSourceOptions o;
  o.path = std::move(path);
  o.schema = std::move(schema);
  o.format = lower(format);
  if (o.format != "json" && o.format != "csv" && o.format != "text" && o.format != "parquet")
    return Status::InvalidArgument(fmt::format("file source format '{}': expected json, csv, text or parquet", format));
  for (const auto& [rawKey, value] : options) {
    std::string key = lower(rawKey);
    if (isFormatOption(o.format, key)) {
      o.formatOptions[rawKey] = value;
    } else if (key == "maxfilespertrigger") {
      STREAMSIM_ASSIGN_OR_RETURN(o.maxFilesPerTrigger, parsePositiveLong(rawKey, value));
    } else if (key == "maxbytespertrigger") {
      STREAMSIM_ASSIGN_OR_RETURN(o.maxBytesPerTrigger, parsePositiveLong(rawKey, value));
    } else if (key == "latestfirst") {
      STREAMSIM_ASSIGN_OR_RETURN(o.latestFirst, parseBool(rawKey, value));
    } else if (key == "filenameonly") {
      STREAMSIM_ASSIGN_OR_RETURN(o.fileNameOnly, parseBool(rawKey, value));
    } else if (key == "maxfileage") {
      auto d = parseDuration(value);
      if (!d.ok()) {
        int64_t ms = 0;
        auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), ms);
        if (ec != std::errc() || p != value.data() + value.size()) {
          return Status::InvalidArgument(fmt::format(
              "file source option {}: '{}' is not a duration (e.g. 7d, 1h, 30m, or ms)", rawKey,
              value));
        }
        d = ms;
      }
      if (*d < 0)
        return Status::InvalidArgument(
            fmt::format("file source option {}: '{}' must not be negative", rawKey, value));
      o.maxFileAge = *d;
    } else if (key == "cleansource") {
      std::string v = lower(value);
      if (v == "off") o.cleanSource = CleanSourceMode::kOff;
      else if (v == "archive") o.cleanSource = CleanSourceMode::kArchive;
      else if (v == "delete") o.cleanSource = CleanSourceMode::kDelete;
      else
        return Status::InvalidArgument(fmt::format(
            "file source option {}: '{}' is not one of off, archive, delete", rawKey, value));
    } else if (key == "sourcearchivedir") {
      o.sourceArchiveDir = value;
    } else if (key == "mode") {
      auto m = parseParseMode(value);
      if (!m.ok()) return m.status().withContext(fmt::format("file source option {}", rawKey));
      o.mode = *m;
    } else if (key == "columnnameofcorruptrecord") {
      o.columnNameOfCorruptRecord = value;
    } else {
      return Status::InvalidArgument(fmt::format(
          "unknown file source option '{}': expected one of maxFilesPerTrigger, "
          "maxBytesPerTrigger, latestFirst, fileNameOnly, maxFileAge, cleanSource, "
          "sourceArchiveDir, mode, columnNameOfCorruptRecord{}",
          rawKey, o.format == "csv" ? " and CSV's sep, delimiter, quote, escape, header, nullValue, nanValue, "
                                      "positiveInf, negativeInf, comment, ignoreLeadingWhiteSpace, "
                                      "ignoreTrailingWhiteSpace, enforceSchema, inferSchema, encoding, timestampFormat, dateFormat"
                  : o.format == "text" ? " and text's wholetext"
                  : o.format == "parquet" ? ""
                  : " and JSON's timestampFormat, dateFormat, enableDateTimeParsingFallback"));
    }
  }
  STREAMSIM_RETURN_IF_ERROR(o.validate());
  return o;
}

Result<JsonRowParser> FileSourceOptions::jsonParser() const {
  JsonReadOptions base;
  base.mode = mode;
  base.columnNameOfCorruptRecord = columnNameOfCorruptRecord;
  STREAMSIM_ASSIGN_OR_RETURN(JsonReadOptions o, jsonReadOptions(formatOptions, std::move(base)));
  return JsonRowParser::make(schema, std::move(o));
}

Status FileSourceOptions::validate() const {
  if (path.empty()) return Status::InvalidArgument("file source: the path option is required");
  if (schema == nullptr)
    return Status::InvalidArgument(
        fmt::format("file source {}: a schema is required for streaming file sources", path));
  if (maxFilesPerTrigger && *maxFilesPerTrigger <= 0)
    return Status::InvalidArgument(fmt::format(
        "file source {}: maxFilesPerTrigger must be positive, got {}", path, *maxFilesPerTrigger));
  if (maxBytesPerTrigger && *maxBytesPerTrigger <= 0)
    return Status::InvalidArgument(fmt::format(
        "file source {}: maxBytesPerTrigger must be positive, got {}", path, *maxBytesPerTrigger));
  if (maxFilesPerTrigger && maxBytesPerTrigger)
    return Status::InvalidArgument(fmt::format(
        "file source {}: maxFilesPerTrigger and maxBytesPerTrigger can't both be set; use one",
        path));
  if (maxFileAge < 0)
    return Status::InvalidArgument(fmt::format("file source {}: maxFileAge must not be negative", path));
  if (cleanSource == CleanSourceMode::kArchive) {
    if (sourceArchiveDir.empty())
      return Status::InvalidArgument(fmt::format(
          "file source {}: cleanSource=archive needs the sourceArchiveDir option", path));
    if (isUnder(sourceArchiveDir, path) || isUnder(path, sourceArchiveDir))
      return Status::InvalidArgument(fmt::format(
          "file source {}: sourceArchiveDir {} must not overlap the source folder (archived files "
          "would be read again)",
          path, sourceArchiveDir));
  }
  Status st;
  if (format == "csv") st = CsvRowParser::make(schema, formatOptions, mode, columnNameOfCorruptRecord).status();
  else if (format == "text") st = TextRowParser::make(schema, formatOptions).status();
  else if (format == "json") st = jsonParser().status();
  if (!st.ok()) return st.withContext(fmt::format("file source {}", path));
  return Status::OK();
}

// ---- the source --------------------------------------------------------------------------

FileSource::FileSource(FileSourceOptions options) : options_(std::move(options)) {
  // Each string with its length before it: no two configurations give one key.
  reader_key_ = fmt::format("{}:{}|{}|{}:{}", options_.format.size(), options_.format, static_cast<int>(options_.mode),
                            options_.columnNameOfCorruptRecord.size(), options_.columnNameOfCorruptRecord);
  for (const auto& [k, v] : options_.formatOptions)
    reader_key_ += fmt::format("|{}:{}{}:{}", k.size(), k, v.size(), v);
  if (options_.format == "csv") {
    auto p = CsvRowParser::make(options_.schema, options_.formatOptions, options_.mode, options_.columnNameOfCorruptRecord);
    if (p.ok()) csv_.emplace(std::move(p).value());
  } else if (options_.format == "text") {
    auto p = TextRowParser::make(options_.schema, options_.formatOptions);
    if (p.ok()) text_.emplace(std::move(p).value());
  } else if (options_.format == "json") {
    auto parser = options_.jsonParser();
    if (parser.ok()) parser_.emplace(std::move(parser).value());
  }
}

std::string FileSource::description() const {
  return fmt::format("FileStreamSource[{}]", options_.path);
}

Result<int64_t> FileSource::readOffset(std::string_view text, std::string_view which) const {
  if (auto k = writtenFileSourceOffset(text)) return *k;  // its own form: no message context built
  return parseFileSourceOffset(text, description() + std::string(which));
}

std::string FileSource::identity(const std::string& path) const {
  return options_.fileNameOnly ? baseName(path) : path;
}

DurationMs FileSource::effectiveMaxFileAge() const {
  // Spark (SPARK-19813): with latestFirst and a per-trigger cap, maxFileAge is ignored.
  if (options_.latestFirst && (options_.maxFilesPerTrigger || options_.maxBytesPerTrigger))
    return std::numeric_limits<DurationMs>::max();
  return options_.maxFileAge;
}

bool FileSource::isNewFile(const std::string& path, TimeMs timestamp) const {
  if (timestamp < last_purge_timestamp_) return false;
  // The path is its own identity unless fileNameOnly: looked up without a copy.
  return options_.fileNameOnly ? seen_.find(baseNameView(path)) == seen_.end()
                               : seen_.find(path) == seen_.end();
}

void FileSource::markSeen(const std::string& path, TimeMs timestamp) {
  seen_[identity(path)] = timestamp;
  latest_timestamp_ = std::max(latest_timestamp_, timestamp);
}

void FileSource::purge() {
  DurationMs age = effectiveMaxFileAge();
  TimeMs threshold = latest_timestamp_ < std::numeric_limits<TimeMs>::min() + age
                         ? std::numeric_limits<TimeMs>::min()
                         : latest_timestamp_ - age;
  last_purge_timestamp_ = threshold;
  for (auto it = seen_.begin(); it != seen_.end();) {
    if (it->second < threshold) it = seen_.erase(it);
    else ++it;
  }
}

void FileSource::trace(const SourceContext& ctx, const std::string& json) const {
  if (ctx.env != nullptr && ctx.env->trace != nullptr) ctx.env->trace->event(json);
}

Status FileSource::restore(const SourceContext& ctx, const std::optional<std::string>& committed) {
  if (!ready()) return options_.validate();
  seen_.clear();
  latest_timestamp_ = 0;
  last_purge_timestamp_ = std::numeric_limits<TimeMs>::min();
  FileSourceLog log(*ctx.env, sourceLogDir(ctx.checkpointRoot, ctx.sourceIndex, ctx.sourceName));
  STREAMSIM_ASSIGN_OR_RETURN(auto latest, log.getLatestBatchId());
  log_offset_ = latest ? *latest : -1;
  if (latest) {
    STREAMSIM_ASSIGN_OR_RETURN(auto entries, log.allFiles());
    for (const FileSourceEntry& e : entries) markSeen(stripFileUri(e.path), e.timestamp);
    purge();
  }
  // cleanSource after a restart starts again at the last committed log batch: a crash in the
  // middle of cleaning it (source.mid_clean) must not leave the rest behind. Files already moved
  // are skipped.
  cleaned_through_ = -1;
  if (committed) {
    STREAMSIM_ASSIGN_OR_RETURN(int64_t k,
                               parseFileSourceOffset(*committed, description() + " committed offset"));
    cleaned_through_ = k - 1;
  }
  restored_ = true;
  return Status::OK();
}

Status FileSource::ensureRestored(const SourceContext& ctx) {
  if (restored_) return Status::OK();
  return restore(ctx, std::nullopt);
}

Result<std::vector<FileSource::Candidate>> FileSource::listCandidates(const SourceContext& ctx) {
  auto listing = ctx.env->fs->list(options_.path);
  std::vector<Candidate> out;
  if (!listing.ok()) {
    if (listing.status().code() == Status::Code::kNotFound) return out;  // nothing landed yet
    return listing.status().withContext(fmt::format("listing file source folder {}", options_.path));
  }
  out.reserve(listing->size());
  for (FileInfo& f : *listing) {
    if (f.isDir || isHiddenOrTemp(baseNameView(f.path))) continue;
    out.push_back(Candidate{std::move(f.path), f.size, f.modificationTime});
  }
  return out;
}

Result<std::optional<std::string>> FileSource::latestOffset(
    const SourceContext& ctx, const std::optional<std::string>& start) {
  (void)start;
  STREAMSIM_RETURN_IF_ERROR(ensureRestored(ctx));
  STREAMSIM_ASSIGN_OR_RETURN(std::vector<Candidate> all, listCandidates(ctx));

  if (ctx.availableNow && !available_now_) {
    // Trigger.AvailableNow: only what is there at the run's first planning.
    available_now_.emplace();
    for (const Candidate& c : all) available_now_->insert(c.path);
  }

  std::vector<Candidate> fresh;
  fresh.reserve(all.size());
  for (Candidate& c : all) {
    if (available_now_ && available_now_->count(c.path) == 0) continue;
    if (isNewFile(c.path, c.timestamp)) fresh.push_back(std::move(c));
  }
  if (options_.latestFirst) {
    std::stable_sort(fresh.begin(), fresh.end(), [](const Candidate& a, const Candidate& b) {
      return a.timestamp != b.timestamp ? a.timestamp > b.timestamp : a.path < b.path;
    });
  } else {
    std::stable_sort(fresh.begin(), fresh.end(), [](const Candidate& a, const Candidate& b) {
      return a.timestamp != b.timestamp ? a.timestamp < b.timestamp : a.path < b.path;
    });
  }
  // fileNameOnly: two new files with one name in one listing are one file (the first wins).
  if (options_.fileNameOnly) {
    std::set<std::string> names;
    std::vector<Candidate> unique;
    for (Candidate& c : fresh)
      if (names.insert(baseName(c.path)).second) unique.push_back(std::move(c));
    fresh = std::move(unique);
  }
  if (options_.maxFilesPerTrigger && static_cast<int64_t>(fresh.size()) > *options_.maxFilesPerTrigger) {
    fresh.resize(static_cast<size_t>(*options_.maxFilesPerTrigger));
  } else if (options_.maxBytesPerTrigger) {
    // Spark's takeFilesUntilMax: at least one file, then while the total stays within the cap.
    int64_t total = 0;
    size_t keep = 0;
    for (; keep < fresh.size(); ++keep) {
      if (keep > 0 && total > 0 && total + fresh[keep].size > *options_.maxBytesPerTrigger) break;
      total += fresh[keep].size;
    }
    fresh.resize(keep);
  }

  if (!fresh.empty()) {
    int64_t k = log_offset_ + 1;
    std::vector<FileSourceEntry> entries;
    entries.reserve(fresh.size());
    for (const Candidate& c : fresh) entries.push_back(FileSourceEntry{c.path, c.timestamp, k});
    FileSourceLog log(*ctx.env, sourceLogDir(ctx.checkpointRoot, ctx.sourceIndex, ctx.sourceName));
    STREAMSIM_ASSIGN_OR_RETURN(bool written, log.add(k, entries));
    if (!written) {
      return Status::FailedPrecondition(fmt::format(
          "{}: batch {} of the source log {} already exists; another query may be writing this "
          "checkpoint",
          description(), k, log.dir()));
    }
    log_offset_ = k;
    for (const Candidate& c : fresh) markSeen(c.path, c.timestamp);
    if (ctx.env->trace != nullptr) {  // the event is built only for a trace sink
      std::string files = "[";
      for (const Candidate& c : fresh) {
        if (files.size() > 1) files += ',';
        detail::appendJsonString(files, c.path);
      }
      trace(ctx, TraceEvent(events::kFilesTaken)
                     .add("batch", ctx.batchId)
                     .add("source", ctx.sourceIndex)
                     .add("logOffset", k)
                     .addJson("files", files + "]")
                     .done());
    }
    FaultContext fc;
    fc.batchId = ctx.batchId;
    STREAMSIM_ASSIGN_OR_RETURN(std::string writtenAs, log.fileNameFor(k));
    fc.path = joinPath(log.dir(), writtenAs);
    STREAMSIM_RETURN_IF_ERROR(passFaultPoint(*ctx.env, faults::kSourceLogAfterWrite, fc));
  }
  purge();
  if (log_offset_ < 0) return std::optional<std::string>();
  return std::optional<std::string>(fileSourceOffsetJson(log_offset_));
}

Result<std::vector<Row>> FileSource::getBatch(const SourceContext& ctx,
                                              const std::optional<std::string>& start,
                                              const std::string& end) {
  if (!ready()) {
    // A reader that could not be made: its options' error (never an OK status as a Result).
    Status st = options_.validate();
    if (st.ok()) st = Status::FailedPrecondition(fmt::format("{}: no reader for format '{}'", description(), options_.format));
    return st;
  }
  int64_t from = -1;
  if (start) {
    STREAMSIM_ASSIGN_OR_RETURN(from, readOffset(*start, " start offset"));
  }
  STREAMSIM_ASSIGN_OR_RETURN(int64_t to, readOffset(end, " end offset"));
  last_batch_files_.clear();
  std::vector<Row> rows;
  FileSourceLog log(*ctx.env, sourceLogDir(ctx.checkpointRoot, ctx.sourceIndex, ctx.sourceName));
  for (int64_t k = from + 1; k <= to; ++k) {
    STREAMSIM_ASSIGN_OR_RETURN(auto entries, log.get(k));
    if (!entries) {
      return Status::Corruption(fmt::format(
          "{}: source log batch {}/{} is missing; offsets ({}, {}] need it", description(),
          log.dir(), k, from, to));
    }
    for (const FileSourceEntry& e : *entries) {
      if (e.batchId != k) continue;  // a compact file lists earlier batches too
      std::string path = stripFileUri(e.path);
      auto text = ctx.env->fs->read(path);
      if (!text.ok()) {
        return Status::NotFound(fmt::format(
            "{}: file {} (taken in source log batch {}) cannot be read: {}. Files must stay in "
            "place until their batch is committed.",
            description(), path, k, text.status().message()));
      }
      STREAMSIM_RETURN_IF_ERROR(readFile(ctx, path, *text, rows));
      last_batch_files_.push_back(path);
    }
  }
  return rows;
}

Status FileSource::readFile(const SourceContext& ctx, const std::string& path, std::string_view text,
                            std::vector<Row>& rows) {
  ParsedFiles* kept = ctx.env->parsedFiles;
  if (kept != nullptr && kept->find(reader_key_, options_.schema, text, rows)) return Status::OK();
  const size_t before = rows.size();
  if (csv_) {
    STREAMSIM_RETURN_IF_ERROR(csv_->parseFile(text, path, rows));
  } else if (text_) {
    STREAMSIM_RETURN_IF_ERROR(text_->parseFile(text, rows));
  } else if (options_.format == "parquet") {
    // ParquetFileFormat: the file's columns matched to the schema by name (io/parquet.h).
    STREAMSIM_ASSIGN_OR_RETURN(std::vector<Row> read, readParquetAs(text, path, options_.schema));
    for (Row& r : read) rows.push_back(std::move(r));
  } else {
    STREAMSIM_RETURN_IF_ERROR(parser_->parseLines(text, path, rows));
  }
  if (kept != nullptr)
    kept->keep(reader_key_, options_.schema, text, std::span<const Row>(rows).subspan(before));
  return Status::OK();
}

void FileSource::cleanFile(const SourceContext& ctx, const std::string& path) {
  FileSystem& fs = *ctx.env->fs;
  if (!fs.exists(path)) return;  // cleaned before a crash, or removed by someone else
  Status st;
  std::string to;
  if (options_.cleanSource == CleanSourceMode::kDelete) {
    st = fs.remove(path);
  } else {
    to = joinPath(options_.sourceArchiveDir, path);
    st = fs.mkdirs(parentPath(to));
    if (st.ok()) st = fs.rename(path, to);
  }
  const char* action = options_.cleanSource == CleanSourceMode::kDelete ? "delete" : "archive";
  if (st.ok()) {
    TraceEvent e(events::kCleanSource);
    e.add("batch", ctx.batchId).add("action", action).add("path", path);
    if (!to.empty()) e.add("to", to);
    trace(ctx, std::move(e).done());
  } else {
    // Best-effort, as Spark: the failure is reported, the query goes on.
    trace(ctx, TraceEvent(events::kCleanSourceFailed)
                   .add("batch", ctx.batchId)
                   .add("action", action)
                   .add("path", path)
                   .add("error", st.toString())
                   .done());
  }
}

Status FileSource::commit(const SourceContext& ctx, const std::string& end) {
  STREAMSIM_ASSIGN_OR_RETURN(int64_t k, readOffset(end, " commit offset"));
  if (options_.cleanSource == CleanSourceMode::kOff) {
    cleaned_through_ = std::max(cleaned_through_, k);
    return Status::OK();
  }
  // Files of every log batch up to the committed one not yet cleaned in this run.
  FileSourceLog log(*ctx.env, sourceLogDir(ctx.checkpointRoot, ctx.sourceIndex, ctx.sourceName));
  std::vector<std::string> paths;
  for (int64_t id = cleaned_through_ + 1; id <= k; ++id) {
    auto entries = log.get(id);
    if (!entries.ok() || !*entries) {
      trace(ctx, TraceEvent(events::kCleanSourceFailed)
                     .add("batch", ctx.batchId)
                     .add("logOffset", id)
                     .add("error", entries.ok() ? std::string("log batch missing") : entries.status().toString())
                     .done());
      continue;
    }
    for (const FileSourceEntry& e : **entries)
      if (e.batchId == id) paths.push_back(stripFileUri(e.path));
  }
  cleaned_through_ = std::max(cleaned_through_, k);
  size_t half = (paths.size() + 1) / 2;
  for (size_t i = 0; i < paths.size(); ++i) {
    cleanFile(ctx, paths[i]);
    if (i + 1 == half) {
      FaultContext fc;
      fc.batchId = ctx.batchId;
      fc.path = paths[i];
      Status st = passFaultPoint(*ctx.env, faults::kCleanSourceMid, fc);
      if (!st.ok()) {
        trace(ctx, TraceEvent(events::kCleanSourceFailed).add("batch", ctx.batchId).add("error", st.toString()).done());
        return Status::OK();
      }
    }
  }
  return Status::OK();
}

Result<std::function<std::unique_ptr<Source>()>> makeFileSource(FileSourceOptions options) {
  STREAMSIM_RETURN_IF_ERROR(options.validate());
  return std::function<std::unique_ptr<Source>()>(
      [options = std::move(options)]() -> std::unique_ptr<Source> {
        return std::make_unique<FileSource>(options);
      });
}

Result<std::function<std::unique_ptr<Source>()>> makeFileSource(
    std::string path, SchemaPtr schema, const std::map<std::string, std::string>& options,
    std::string format) {
  STREAMSIM_ASSIGN_OR_RETURN(FileSourceOptions o,
                             FileSourceOptions::fromMap(std::move(path), std::move(schema), options, std::move(format)));
  return makeFileSource(std::move(o));
}

}  // namespace streamsim
