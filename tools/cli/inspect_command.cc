// `streamsim inspect` and `streamsim state`: read a checkpoint folder on the real filesystem
// (streamsim's or Spark's own) — the engine's inspector (checkpoint_reader.h) and the harness's
// reader of the state stores (checkpoint_state.h) — and print what they found as text or JSON.
#include <algorithm>
#include <filesystem>
#include <optional>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "streamsim/checkpoint/checkpoint_reader.h"
#include "streamsim/checkpoint/spark_state_store.h"
#include "streamsim/fault_points.h"
#include "streamsim/harness/checkpoint_state.h"
#include "streamsim/harness/report/text_escape.h"
#include "streamsim/platform/platform.h"

namespace streamsim::cli {
namespace {

std::string absolute(const std::string& path) {
  std::error_code ec;
  auto p = std::filesystem::absolute(path, ec);
  std::string s = ec ? path : p.lexically_normal().string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

bool isDir(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_directory(path, ec);
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
    // Paths and values from the checkpoint's files: control characters shown, never sent.
    out << (json ? reportToJson(*report) : harness::shownForTerminal(formatReport(*report), true));
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
      out << harness::shownForTerminal(formatReport(*report), true);
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

// "    leftover temp files (…): a, b\n" and "    WARNING: …\n" lines under a partition.
std::string notesOf(const harness::PartitionStore& p) {
  std::string out;
  if (!p.tempFiles.empty())
    out += fmt::format("    leftover temp file{} (a write cut short; never read): {}\n",
                       p.tempFiles.size() == 1 ? "" : "s", fmt::join(p.tempFiles, ", "));
  for (const auto& w : p.warnings) out += fmt::format("    WARNING: {}\n", w);
  return out;
}

bool sparkFormat(StateFolderFormat f) {
  return f == StateFolderFormat::kSparkHdfs || f == StateFolderFormat::kSparkRocksDB;
}

// Whether the partition is only listed among the operator's partitions without rows: read, and
// nothing in it (a store that could not be read has its error instead, never this).
bool withoutRows(const harness::PartitionStore& p) {
  if (p.error || !p.format) return false;
  if (*p.format == StateFolderFormat::kEmpty) return true;
  return sparkFormat(*p.format) && p.rows.empty() && p.tempFiles.empty();
}

// "partition 3" or "partition 3 left-keyToNumValues".
std::string partitionName(const harness::PartitionStore& p) {
  return p.store.empty() ? fmt::format("partition {}", p.partition)
                         : fmt::format("partition {} {}", p.partition, p.store);
}

// One partition's lines of the text form.
std::string partitionText(const harness::PartitionStore& p) {
  if (!p.format) return fmt::format("  {}: cannot list: {}\n", partitionName(p), *p.error);
  if (p.error) return fmt::format("  {}: {}\n{}", partitionName(p), *p.error, notesOf(p));
  switch (*p.format) {
    case StateFolderFormat::kEmpty:
      return p.tempFiles.empty() ? "" : fmt::format("  {}: no state files\n{}", partitionName(p), notesOf(p));
    case StateFolderFormat::kSparkHdfs:
    case StateFolderFormat::kSparkRocksDB: {
      if (withoutRows(p)) return "";
      std::string out = fmt::format("  {}: {} row{} ({})\n", partitionName(p), p.rows.size(),
                                    p.rows.size() == 1 ? "" : "s", fmt::join(p.filesRead, ", "));
      for (size_t i = 0; i < p.rows.size(); ++i) {
        const auto& r = p.rows[i];
        if (!r.columnFamily.empty() && (i == 0 || r.columnFamily != p.rows[i - 1].columnFamily))
          out += fmt::format("    [{}]\n", r.columnFamily);
        out += fmt::format("{}{} = {}\n", r.columnFamily.empty() ? "    " : "      ", r.key, r.value);
      }
      return out + notesOf(p);
    }
    default: break;
  }
  std::string out = fmt::format("  {}: {} entr{}\n", partitionName(p), p.rows.size(),
                                p.rows.size() == 1 ? "y" : "ies");
  for (size_t i = 0; i < p.rows.size(); ++i) {
    if (i == 0 || p.rows[i].columnFamily != p.rows[i - 1].columnFamily)
      out += fmt::format("    [{}]\n", p.rows[i].columnFamily);
    out += fmt::format("      {} = {}\n", p.rows[i].key, p.rows[i].value);
  }
  return out + notesOf(p);
}

nlohmann::ordered_json partitionJson(const harness::PartitionStore& p) {
  nlohmann::ordered_json j;
  j["partition"] = p.partition;
  if (!p.store.empty()) j["store"] = p.store;
  if (p.format) {
    j["format"] = std::string(stateFolderFormatName(*p.format));
    j["tempFiles"] = p.tempFiles;
  }
  if (p.error) {
    j["error"] = *p.error;
    return j;
  }
  const bool spark = sparkFormat(*p.format);
  if (spark) j["files"] = p.filesRead;
  if (!p.warnings.empty()) j["warnings"] = p.warnings;
  j["rows"] = nlohmann::ordered_json::array();
  // A decoded key or value is JSON text; one that is not (never a throw) stays a string.
  auto jsonOf = [](const std::string& text) {
    auto v = nlohmann::ordered_json::parse(text, nullptr, /*allow_exceptions=*/false);
    return v.is_discarded() ? nlohmann::ordered_json(text) : v;
  };
  for (const auto& r : p.rows) {
    if (spark && !r.columnFamily.empty())
      j["rows"].push_back({{"columnFamily", r.columnFamily}, {"key", jsonOf(r.key)}, {"value", jsonOf(r.value)}});
    else if (spark)
      j["rows"].push_back({{"key", jsonOf(r.key)}, {"value", jsonOf(r.value)}});
    else
      j["rows"].push_back({{"columnFamily", r.columnFamily}, {"key", r.key}, {"value", r.value}});
  }
  return j;
}

std::string operatorText(const harness::OperatorStores& op) {
  const auto formats = op.formats();
  std::string out = fmt::format("operator {}", op.operatorId);
  if (formats.count("spark-hdfs")) out += " (Spark's HDFS-backed state store, " + op.schemaNote + ")";
  else if (formats.count("spark-rocksdb")) out += " (Spark's RocksDB-backed state store, " + op.schemaNote + ")";
  out += "\n";
  std::vector<std::string> empty;
  for (const auto& p : op.partitions) {
    out += partitionText(p);
    if (withoutRows(p)) empty.push_back(p.store.empty() ? std::to_string(p.partition)
                                                        : fmt::format("{} {}", p.partition, p.store));
  }
  if (!empty.empty()) {
    std::string list;
    for (size_t i = 0; i < empty.size() && i < 12; ++i) list += (i ? ", " : "") + empty[i];
    if (empty.size() > 12) list += ", …";
    const bool stores = std::any_of(op.partitions.begin(), op.partitions.end(),
                                    [](const auto& p) { return !p.store.empty(); });
    out += fmt::format("  {} {}{} without rows: {}\n", empty.size(), stores ? "store" : "partition",
                       empty.size() == 1 ? "" : "s", list);
  }
  return out;
}

nlohmann::ordered_json stateJson(const harness::CheckpointState& state) {
  nlohmann::ordered_json doc;
  doc["checkpoint"] = state.root;
  doc["batch"] = state.batch;
  doc["storeVersion"] = state.storeVersion;
  doc["operators"] = nlohmann::ordered_json::array();
  for (const auto& op : state.operators) {
    nlohmann::ordered_json jop;
    jop["operator"] = op.operatorId;
    jop["partitions"] = nlohmann::ordered_json::array();
    for (const auto& p : op.partitions) jop["partitions"].push_back(partitionJson(p));
    const auto formats = op.formats();
    jop["format"] = formats.size() == 1 ? *formats.begin() : fmt::format("{}", fmt::join(formats, ", "));
    if (!op.schemaNote.empty()) jop["schema"] = op.schemaNote;
    doc["operators"].push_back(std::move(jop));
  }
  return doc;
}

}  // namespace

int stateCommand(const std::string& checkpoint, long long batch, int op, const std::string& key,
                 bool json, std::ostream& out, std::ostream& err) {
  platform::RealEnv real;
  harness::CheckpointStateOptions options;
  options.batch = batch;
  options.operatorId = op;
  options.key = key;
  auto state = harness::readCheckpointState(real.env(), absolute(checkpoint), options);
  if (!state.ok()) {
    err << "streamsim state: " << harness::shownForTerminal(state.status().message(), true) << "\n";
    return kExitBadInput;
  }
  if (json) {
    // A string of the checkpoint that is not UTF-8 is written as U+FFFD, never a throw.
    out << stateJson(*state).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
  } else {
    // Keys and values are the checkpoint's data: control characters shown, never sent.
    std::string text = fmt::format("state of {} after batch {}{} (store version {})\n", state->root, state->batch,
                                   state->latestCommitted ? " (the latest committed)" : "", state->storeVersion);
    for (const auto& o : state->operators) text += operatorText(o);
    out << harness::shownForTerminal(text, /*keepLineBreaks=*/true);
  }
  return state->anyPartitionFailed() ? kExitBadInput : kExitOk;
}

int listFaultsCommand(std::ostream& out) {
  for (const auto& p : faults::allFaultPoints())
    out << fmt::format("{:<24} {}\n", p.name, p.description);
  return kExitOk;
}

}  // namespace streamsim::cli
