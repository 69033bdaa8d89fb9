// `streamsim inspect` and `streamsim state`: read a checkpoint folder on the real filesystem
// (streamsim's or Spark's own) through the engine's inspector and state-file readers
// (streamsim's state_files.h, Spark's HDFS-backed spark_state_store.h).
#include <algorithm>
#include <charconv>
#include <filesystem>
#include <limits>
#include <optional>
#include <iostream>
#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "streamsim/checkpoint/checkpoint_reader.h"
#include "streamsim/checkpoint/spark_state_store.h"
#include "streamsim/fault_points.h"
#include "streamsim/platform/platform.h"
#include "streamsim/state/row_encoding.h"
#include "streamsim/state/state_files.h"
#include "streamsim/trace_events.h"
#include "streamsim/tws/state_layout.h"

namespace streamsim::cli {
namespace {

std::string absolute(const std::string& path) {
  std::error_code ec;
  auto p = std::filesystem::absolute(path, ec);
  std::string s = ec ? path : p.lexically_normal().string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

// An operator or partition folder's name as its id: all digits and at most INT_MAX (Spark's ids
// are ints); nullopt for any other name.
std::optional<int> folderId(const std::string& name) {
  if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  int id = 0;
  auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), id);
  if (ec != std::errc() || end != name.data() + name.size()) return std::nullopt;
  return id;
}

bool isDir(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_directory(path, ec);
}

// Values as "v" or "(a, b)".
std::string joined(const std::vector<Value>& values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + values[i].toString();
  return values.size() == 1 ? out : "(" + out + ")";
}

// An order-preserving encoding as its values, anything else in hex.
std::string printable(std::string_view bytes) {
  if (auto values = state_layout::decodeValues(bytes); values.ok() && !values->empty()) return joined(*values);
  std::string out = "0x";
  for (unsigned char c : bytes) out += fmt::format("{:02x}", c);
  return out;
}

std::string withExpiry(const state_layout::DecodedRow::Item& item) {
  if (!item.expiresAt) return joined(item.values);
  return fmt::format("{} (TTL, expires {})", joined(item.values), formatTimestamp(*item.expiresAt));
}

// A store row as (key, value) text. transformWithState's rows are decoded by the layout with the
// kinds the operator's _stateSchema records (tws/state_layout.h); another operator's rows are
// order-preserving encodings (printable()); bytes that follow neither are shown in hex, said so.
std::pair<std::string, std::string> describeRow(const state_layout::OperatorLayout& layout,
                                                const std::string& cf, std::string_view k,
                                                std::string_view v) {
  using F = state_layout::DecodedRow::Family;
  auto row = state_layout::decodeRow(layout, cf, k, v);
  if (!row.ok()) {
    if (row.status().code() == Status::Code::kNotFound) return {printable(k), printable(v)};
    return {printable(k), fmt::format("{} (does not decode: {})", printable(v), row.status().message())};
  }
  std::string key = joined(row->groupingKey);
  if (!row->userKey.empty()) key += " / " + joined(row->userKey);
  switch (row->family) {
    case F::kTimersByKey:
    case F::kTimersByTime: return {key, "timer at " + formatTimestamp(*row->time)};
    case F::kTtlIndex: return {key, "expires " + formatTimestamp(*row->time)};
    case F::kVariable: break;
  }
  if (row->kind != state_layout::VariableKind::kList) return {key, withExpiry(row->items.at(0))};
  std::string list = "[";
  for (size_t i = 0; i < row->items.size(); ++i) list += (i ? ", " : "") + withExpiry(row->items[i]);
  return {key, list + "]"};
}

bool keyMatches(std::string_view bytes, const std::string& key) {
  if (key.empty()) return true;
  auto values = state_layout::decodeValues(bytes);
  if (!values.ok()) return bytes.find(key) != std::string_view::npos;
  for (const auto& v : *values)
    if (v.toString() == key) return true;
  return false;
}

// The report is printed either way; a file that does not parse is bad input (exit 2).
int exitCodeOf(const CheckpointReport& report) {
  return report.has(DiagnosisKind::kUnreadable) ? kExitBadInput : kExitOk;
}

}  // namespace

int inspectCommand(const std::string& checkpoint, const std::string& sinkPath, bool json,
                   std::ostream& out, std::ostream& err) {
  std::string root = absolute(checkpoint);
  if (!isDir(root)) {
    err << fmt::format("streamsim inspect: {}: not a folder; expected a checkpoint folder "
                       "(offsets/, commits/, ...)\n", checkpoint);
    return kExitBadInput;
  }
  platform::RealEnv real;
  Env env = real.env();
  std::optional<std::string> sink;
  if (!sinkPath.empty()) sink = absolute(sinkPath);
  // A folder holding several checkpoints (e.g. Spark's fixtures: hdfs/join1, rocksdb/agg, ...):
  // report each one found under it.
  std::vector<std::string> roots = findCheckpoints(env, root);
  if (roots.empty() || (roots.size() == 1 && roots[0] == root)) {
    auto report = inspectCheckpoint(env, root, sink);
    if (!report.ok()) {
      err << "streamsim inspect: " << report.status().message() << "\n";
      return kExitBadInput;
    }
    out << (json ? reportToJson(*report) : formatReport(*report));
    if (json) out << "\n";
    return exitCodeOf(*report);
  }
  if (sink && roots.size() > 1) {
    err << fmt::format("streamsim inspect: {} holds {} checkpoints; --sink needs one checkpoint "
                       "folder\n", checkpoint, roots.size());
    return kExitBadInput;
  }
  std::string jsonList;
  int code = kExitOk;
  if (!json)
    out << fmt::format("{} is not a checkpoint itself; it holds {} checkpoint{}:\n", root,
                       roots.size(), roots.size() == 1 ? "" : "s");
  for (size_t i = 0; i < roots.size(); ++i) {
    auto report = inspectCheckpoint(env, roots[i], sink);
    if (!report.ok()) {
      err << "streamsim inspect: " << report.status().message() << "\n";
      return kExitBadInput;
    }
    code = std::max(code, exitCodeOf(*report));
    if (json) {
      jsonList += (i ? ",\n" : "") + reportToJson(*report);
    } else {
      out << fmt::format("\n=== checkpoint {}/{}: {}\n", i + 1, roots.size(), roots[i]);
      out << formatReport(*report);
    }
  }
  if (json)
    out << fmt::format("{{\n\"root\": {},\n\"checkpoints\": [\n{}\n]\n}}\n",
                       nlohmann::json(root).dump(-1, ' ', false,
                                                  nlohmann::json::error_handler_t::replace),
                       jsonList);
  return code;
}

namespace {

// The newest batch id with a file in <root>/<log> (commits or offsets); nullopt if none.
std::optional<long long> latestBatchIn(const std::string& root, const char* log) {
  std::optional<long long> latest;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(root + "/" + log, ec)) {
    std::string n = e.path().filename().string();
    if (n.empty() || n.size() > 18 || n.find_first_not_of("0123456789") != std::string::npos) continue;
    long long id = std::stoll(n);
    if (!latest || id > *latest) latest = id;
  }
  return latest;
}

// Spark's _metadata/schema of an operator: the partition's own, else partition 0's (Spark 3.1+
// writes it with partition 0's store).
std::optional<std::pair<std::string, Result<SparkStateSchema>>> sparkSchemaFor(
    const Env& env, const std::string& root, int op, int partition) {
  for (int p : {partition, 0}) {
    std::string path = stateStoreDir(root, op, p) + "/_metadata/schema";
    if (!env.fs->exists(path)) continue;
    auto data = env.fs->read(path);
    if (!data.ok()) return std::make_pair(path, Result<SparkStateSchema>(data.status()));
    return std::make_pair(path, parseSparkStateSchema(*data, path));
  }
  return std::nullopt;
}

const char* formatName(StateFolderFormat f) {
  switch (f) {
    case StateFolderFormat::kEmpty: return "empty";
    case StateFolderFormat::kStreamsim: return "streamsim";
    case StateFolderFormat::kSparkHdfs: return "spark-hdfs";
    case StateFolderFormat::kSparkHdfsOtherCodec: return "spark-hdfs-other-codec";
    case StateFolderFormat::kUnrecognised: return "unrecognised";
    case StateFolderFormat::kSparkRocksDB: return "spark-rocksdb";
  }
  return "?";
}

std::string relativeTo(const std::string& root, const std::string& path) {
  return path.rfind(root + "/", 0) == 0 ? path.substr(root.size() + 1) : path;
}

}  // namespace

int stateCommand(const std::string& checkpoint, long long batch, int op, const std::string& key,
                 bool json, std::ostream& out, std::ostream& err) {
  std::string root = absolute(checkpoint);
  std::string stateDir = root + "/state";
  if (!isDir(stateDir)) {
    err << fmt::format("streamsim state: {} has no state/ folder; the query had no stateful "
                       "operator, or this is not a checkpoint\n", checkpoint);
    return kExitBadInput;
  }
  // -1 (the default): the newest batch, below.
  if (batch < -1 || batch == std::numeric_limits<long long>::max()) {
    err << fmt::format("streamsim state: --batch must be between 0 and {} (the store version is "
                       "batch + 1); got {}\n", std::numeric_limits<long long>::max() - 1, batch);
    return kExitBadInput;
  }
  bool latestCommitted = false;
  if (batch == -1) {  // default: the newest committed batch (else the newest planned one)
    auto committed = latestBatchIn(root, "commits");
    auto planned = latestBatchIn(root, "offsets");
    if (!committed && !planned) {
      err << fmt::format("streamsim state: {} has no commits/ or offsets/ to tell the latest "
                         "batch; give --batch N\n", checkpoint);
      return kExitBadInput;
    }
    batch = committed ? *committed : *planned;
    latestCommitted = committed.has_value();
  }
  // Operators and partitions present, in numeric order.
  std::map<int, std::set<int>> layout;
  for (const auto& opEntry : std::filesystem::directory_iterator(stateDir)) {
    if (!opEntry.is_directory()) continue;
    auto opId = folderId(opEntry.path().filename().string());
    if (!opId) continue;
    if (op >= 0 && *opId != op) continue;
    for (const auto& part : std::filesystem::directory_iterator(opEntry.path())) {
      auto partition = folderId(part.path().filename().string());
      if (part.is_directory() && partition) layout[*opId].insert(*partition);
    }
  }
  if (layout.empty()) {
    err << fmt::format("streamsim state: no state for operator {} under {}\n",
                       op >= 0 ? std::to_string(op) : std::string("(any)"), stateDir);
    return kExitBadInput;
  }
  platform::RealEnv real;
  Env env = real.env();
  int64_t version = batch + 1;  // store version = batch id + 1 (SEMANTICS.md §2)
  bool anyError = false;
  nlohmann::ordered_json doc;
  doc["checkpoint"] = root;
  doc["batch"] = batch;
  doc["storeVersion"] = version;
  doc["operators"] = nlohmann::ordered_json::array();
  if (!json)
    out << fmt::format("state of {} after batch {}{} (store version {})\n", root, batch,
                       latestCommitted ? " (the latest committed)" : "", version);
  for (const auto& [opId, partitions] : layout) {
    nlohmann::ordered_json jop;
    jop["operator"] = opId;
    jop["partitions"] = nlohmann::ordered_json::array();
    std::string opLines;
    std::vector<int> emptyParts;
    std::set<std::string> formats;
    std::string schemaNote;
    for (int partition : partitions) {
      std::string dir = stateStoreDir(root, opId, partition);
      nlohmann::ordered_json jp;
      jp["partition"] = partition;
      auto folder = classifyStateFolder(env, dir);
      if (!folder.ok()) {
        opLines += fmt::format("  partition {}: cannot list: {}\n", partition, folder.status().message());
        jp["error"] = folder.status().message();
        jop["partitions"].push_back(std::move(jp));
        anyError = true;
        continue;
      }
      formats.insert(formatName(folder->format));
      jp["format"] = formatName(folder->format);
      std::vector<std::string> temps;
      for (const auto& t : folder->tempFiles) temps.push_back(relativeTo(root, t));
      jp["tempFiles"] = temps;
      std::string tempNote =
          temps.empty() ? ""
                        : fmt::format("    leftover temp file{} (a write cut short; never read): {}\n",
                                      temps.size() == 1 ? "" : "s", fmt::join(temps, ", "));
      auto fail = [&](const std::string& message) {
        opLines += fmt::format("  partition {}: {}\n{}", partition, message, tempNote);
        jp["error"] = message;
        jop["partitions"].push_back(std::move(jp));
        anyError = true;
      };
      if (folder->format == StateFolderFormat::kSparkRocksDB) {
        fail("Spark's RocksDB-backed state store (N.zip snapshots + N.changelog): streamsim does "
             "not read it yet (the next step: the zip's SST files and the changelog records)");
        continue;
      }
      if (folder->format == StateFolderFormat::kUnrecognised) {
        fail(fmt::format("{} starts like no state file streamsim knows (streamsim's SSSTATE1, Spark's "
                         "LZ4Block, snappy, zstd or lzf): corrupt, torn or not a state file",
                         folder->detail));
        continue;
      }
      if (folder->format == StateFolderFormat::kSparkHdfsOtherCodec) {
        fail(fmt::format("Spark's HDFS-backed state store compressed with {} "
                         "(spark.sql.streaming.stateStore.compression.codec): only lz4 is read yet",
                         folder->detail));
        continue;
      }
      if (folder->format == StateFolderFormat::kEmpty) {
        jp["rows"] = nlohmann::ordered_json::array();
        jop["partitions"].push_back(std::move(jp));
        emptyParts.push_back(partition);
        if (!temps.empty()) opLines += fmt::format("  partition {}: no state files\n{}", partition, tempNote);
        continue;
      }
      if (folder->format == StateFolderFormat::kSparkHdfs) {
        auto schema = sparkSchemaFor(env, root, opId, partition);
        const SparkStateSchema* sc = nullptr;
        if (schema && schema->second.ok()) {
          sc = &*schema->second;
          schemaNote = fmt::format("schema v{} from {}", sc->formatVersion, relativeTo(root, schema->first));
        } else if (schema) {
          schemaNote = fmt::format("schema unreadable ({}): fields guessed", schema->second.status().message());
        } else {
          schemaNote = "no _metadata/schema (Spark before 3.1 wrote none): fields guessed, named _0, _1, …";
        }
        auto state = readSparkStateVersion(env, *folder, version);
        if (!state.ok()) {
          fail(fmt::format("cannot read version {}: {}", version, state.status().message()));
          continue;
        }
        std::vector<std::string> files;
        for (const auto& f : state->filesRead) files.push_back(baseName(f));
        jp["files"] = files;
        jp["rows"] = nlohmann::ordered_json::array();
        std::string lines;
        size_t shown = 0;
        for (const auto& [k, v] : state->rows) {
          std::string kj = unsafeRowToJson(k, sc ? &sc->key : nullptr);
          std::string vj = unsafeRowToJson(v, sc ? &sc->value : nullptr);
          if (!key.empty() && kj.find(key) == std::string::npos) continue;
          ++shown;
          lines += fmt::format("    {} = {}\n", kj, vj);
          jp["rows"].push_back({{"key", nlohmann::ordered_json::parse(kj)},
                                {"value", nlohmann::ordered_json::parse(vj)}});
        }
        if (shown == 0 && temps.empty()) {
          emptyParts.push_back(partition);
        } else {
          opLines += fmt::format("  partition {}: {} row{} ({})\n{}{}", partition, shown,
                                 shown == 1 ? "" : "s", fmt::join(files, ", "), lines, tempNote);
        }
        jop["partitions"].push_back(std::move(jp));
        continue;
      }
      // streamsim's own files.
      StateStoreKind kind = StateStoreKind::kMemory;
      for (const auto& f : std::filesystem::directory_iterator(dir)) {
        std::string n = f.path().filename().string();
        if (n.size() > 10 && n.substr(n.size() - 10) == ".changelog") kind = StateStoreKind::kRocksDB;
      }
      // A torn snapshot the store reads around (from older files) is said, not skipped silently.
      struct SkippedSnapshots : TraceSink {
        std::vector<std::string> notes;
        void event(std::string_view json) override {
          auto e = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
          if (e.is_object() && e.value("event", "") == events::kStateSnapshotSkipped)
            notes.push_back(fmt::format("{} is unreadable ({}); read from older files instead",
                                        e.value("path", ""), e.value("error", "")));
        }
      } skipped;
      Env traced = env;
      traced.trace = &skipped;
      auto dump = readStateAt(traced, root, opId, partition, version, kind);
      if (!dump.ok()) {
        fail(fmt::format("cannot read: {}", dump.status().message()));
        continue;
      }
      if (!skipped.notes.empty()) {
        jp["warnings"] = skipped.notes;
        for (const auto& n : skipped.notes) tempNote += fmt::format("    WARNING: {}\n", n);
      }
      size_t shown = 0;
      std::string lines;
      jp["rows"] = nlohmann::ordered_json::array();
      auto layout = state_layout::readOperatorLayout(env, root, opId);
      const state_layout::OperatorLayout noLayout;
      for (const auto& [cf, entries] : *dump) {
        std::string cfLines;
        for (const auto& [k, v] : entries) {
          auto [kt, vt] = describeRow(layout.ok() ? *layout : noLayout, cf, k, v);
          // --key: a grouping key's value (also in timer and TTL index rows, and map entries).
          if (!keyMatches(k, key) && kt != key && kt.rfind(key + " / ", 0) != 0) continue;
          cfLines += fmt::format("      {} = {}\n", kt, vt);
          jp["rows"].push_back({{"columnFamily", cf}, {"key", kt}, {"value", vt}});
          ++shown;
        }
        if (!cfLines.empty()) lines += fmt::format("    [{}]\n{}", cf, cfLines);
      }
      opLines += fmt::format("  partition {}: {} entr{}\n{}{}", partition, shown,
                             shown == 1 ? "y" : "ies", lines, tempNote);
      jop["partitions"].push_back(std::move(jp));
    }
    std::string kinds = fmt::format("{}", fmt::join(formats, ", "));
    jop["format"] = formats.size() == 1 ? *formats.begin() : kinds;
    if (!schemaNote.empty()) jop["schema"] = schemaNote;
    doc["operators"].push_back(std::move(jop));
    if (json) continue;
    std::string header = fmt::format("operator {}", opId);
    if (formats.count("spark-hdfs")) header += " (Spark's HDFS-backed state store, " + schemaNote + ")";
    else if (formats.count("spark-rocksdb")) header += " (Spark's RocksDB-backed state store)";
    out << header << "\n" << opLines;
    if (!emptyParts.empty()) {
      std::string list;
      for (size_t i = 0; i < emptyParts.size() && i < 12; ++i)
        list += (i ? ", " : "") + std::to_string(emptyParts[i]);
      if (emptyParts.size() > 12) list += ", …";
      out << fmt::format("  {} partition{} without rows: {}\n", emptyParts.size(),
                         emptyParts.size() == 1 ? "" : "s", list);
    }
  }
  if (json) out << doc.dump(2) << "\n";
  return anyError ? kExitBadInput : kExitOk;
}

int listFaultsCommand(std::ostream& out) {
  for (const auto& p : faults::allFaultPoints())
    out << fmt::format("{:<24} {}\n", p.name, p.description);
  return kExitOk;
}

}  // namespace streamsim::cli
