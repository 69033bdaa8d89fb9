// `streamsim inspect` and `streamsim state`: read a checkpoint folder on the real filesystem
// (streamsim's or Spark's own) through the engine's inspector and state-file reader.
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
#include "streamsim/fault_points.h"
#include "streamsim/platform/platform.h"
#include "streamsim/state/row_encoding.h"
#include "streamsim/state/state_files.h"

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

// The values of an order-preserving encoding, or nullopt if the bytes are not one.
std::optional<std::vector<Value>> decodeValues(std::string_view bytes) {
  std::vector<Value> out;
  while (!bytes.empty()) {
    auto v = decodeOrderedValue(bytes);
    if (!v.ok()) return std::nullopt;
    out.push_back(std::move(v).value());
  }
  return out;
}

std::string printable(std::string_view bytes) {
  if (auto values = decodeValues(bytes); values && !values->empty()) {
    std::string out;
    for (size_t i = 0; i < values->size(); ++i)
      out += (i ? ", " : "") + (*values)[i].toString();
    return values->size() == 1 ? out : "(" + out + ")";
  }
  std::string out = "0x";
  for (unsigned char c : bytes) out += fmt::format("{:02x}", c);
  return out;
}

// A transformWithState value or map entry is a flag byte (0 = no TTL, 1 = TTL), with TTL an
// 8-byte ordered expiry time, then the payload (engine/src/tws/tws_internal.h). Shows the
// payload decoded (and the expiry); anything else as printable() does.
std::string printableValue(std::string_view bytes) {
  if (auto values = decodeValues(bytes); values && !values->empty()) return printable(bytes);
  if (!bytes.empty() && bytes[0] == 0) {
    if (auto values = decodeValues(bytes.substr(1)); values && !values->empty())
      return printable(bytes.substr(1));
  }
  if (bytes.size() > 9 && bytes[0] == 1) {
    if (auto values = decodeValues(bytes.substr(9)); values && !values->empty()) {
      uint64_t u = 0;
      for (size_t i = 1; i < 9; ++i) u = (u << 8) | static_cast<unsigned char>(bytes[i]);
      auto expires = static_cast<int64_t>(u ^ (uint64_t{1} << 63));
      return fmt::format("{} (TTL, expires {})", printable(bytes.substr(9)), formatTimestamp(expires));
    }
  }
  return printable(bytes);
}

bool keyMatches(std::string_view bytes, const std::string& key) {
  if (key.empty()) return true;
  auto values = decodeValues(bytes);
  if (!values) return bytes.find(key) != std::string_view::npos;
  for (const auto& v : *values)
    if (v.toString() == key) return true;
  return false;
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
    return kExitOk;
  }
  if (sink && roots.size() > 1) {
    err << fmt::format("streamsim inspect: {} holds {} checkpoints; --sink needs one checkpoint "
                       "folder\n", checkpoint, roots.size());
    return kExitBadInput;
  }
  std::string jsonList;
  if (!json)
    out << fmt::format("{} is not a checkpoint itself; it holds {} checkpoint{}:\n", root,
                       roots.size(), roots.size() == 1 ? "" : "s");
  for (size_t i = 0; i < roots.size(); ++i) {
    auto report = inspectCheckpoint(env, roots[i], sink);
    if (!report.ok()) {
      err << "streamsim inspect: " << report.status().message() << "\n";
      return kExitBadInput;
    }
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
  return kExitOk;
}

int stateCommand(const std::string& checkpoint, long long batch, int op, const std::string& key,
                 std::ostream& out, std::ostream& err) {
  std::string root = absolute(checkpoint);
  std::string stateDir = root + "/state";
  if (!isDir(stateDir)) {
    err << fmt::format("streamsim state: {} has no state/ folder; the query had no stateful "
                       "operator, or this is not a checkpoint\n", checkpoint);
    return kExitBadInput;
  }
  if (batch < 0 || batch == std::numeric_limits<long long>::max()) {
    err << fmt::format("streamsim state: --batch must be between 0 and {} (the store version is "
                       "batch + 1); got {}\n", std::numeric_limits<long long>::max() - 1, batch);
    return kExitBadInput;
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
  out << fmt::format("state of {} after batch {} (store version {})\n", root, batch, version);
  for (const auto& [opId, partitions] : layout) {
    out << fmt::format("operator {}\n", opId);
    for (int partition : partitions) {
      std::string dir = stateStoreDir(root, opId, partition);
      // streamsim writes .delta (memory) or .changelog (rocksdb); Spark's RocksDB uses .zip.
      StateStoreKind kind = StateStoreKind::kMemory;
      bool sparkFormat = false;
      for (const auto& f : std::filesystem::directory_iterator(dir)) {
        std::string n = f.path().filename().string();
        if (n.size() > 10 && n.substr(n.size() - 10) == ".changelog") kind = StateStoreKind::kRocksDB;
        if (n.size() > 4 && n.substr(n.size() - 4) == ".zip") sparkFormat = true;
      }
      auto dump = readStateAt(env, root, opId, partition, version, kind);
      if (!dump.ok()) {
        out << fmt::format("  partition {}: cannot read: {}{}\n", partition,
                           dump.status().message(),
                           sparkFormat ? " (Spark's RocksDB .zip/UnsafeRow format is not decoded)"
                                       : "");
        anyError = true;
        continue;
      }
      size_t shown = 0;
      std::string lines;
      for (const auto& [cf, entries] : *dump) {
        std::string cfLines;
        for (const auto& [k, v] : entries) {
          if (!keyMatches(k, key)) continue;
          cfLines += fmt::format("      {} = {}\n", printable(k), printableValue(v));
          ++shown;
        }
        if (!cfLines.empty()) lines += fmt::format("    [{}]\n{}", cf, cfLines);
      }
      out << fmt::format("  partition {}: {} entr{}\n{}", partition, shown,
                         shown == 1 ? "y" : "ies", lines);
    }
  }
  return anyError ? kExitBadInput : kExitOk;
}

int listFaultsCommand(std::ostream& out) {
  for (const auto& p : faults::allFaultPoints())
    out << fmt::format("{:<24} {}\n", p.name, p.description);
  return kExitOk;
}

}  // namespace streamsim::cli
