// committed_state.h: decodes a key's transformWithState variables and timers from the state
// files of the last committed batch (docs/processors.md "State layout").
#include "streamsim/harness/committed_state.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "streamsim/state/row_encoding.h"
#include "streamsim/state/state_files.h"
#include "streamsim/state/state_schema.h"
#include "streamsim/tws/state_layout.h"

namespace streamsim::harness {

namespace {

bool isNumber(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

std::string base(const std::string& p) {
  size_t slash = p.find_last_of('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

// Numeric entries directly under `dir` (missing dir: none).
std::vector<int64_t> numericEntries(FileSystem& fs, const std::string& dir, bool dirs) {
  std::vector<int64_t> out;
  if (!fs.exists(dir)) return out;
  auto entries = fs.list(dir);
  if (!entries.ok()) return out;
  for (const auto& e : *entries) {
    std::string n = base(e.path);
    if (e.isDir == dirs && isNumber(n)) out.push_back(std::stoll(n));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Decoded codec values -> one Value. Several, as a Row codec writes, become a struct of the
// recorded schema `ddl` (its string form "{a, b}"), or the string "{a, b}" without one.
Value oneValue(const std::vector<Value>& values, const std::string& ddl) {
  if (values.size() == 1) return values[0];
  if (auto schema = parseSchema(ddl); schema.ok() && (*schema)->size() == values.size() && !values.empty())
    return Value::structOf(*schema, values);
  std::string s = "{";
  for (size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + values[i].toString();
  return Value(s + "}");
}

struct OperatorState {
  int op = 0;
  state_layout::OperatorLayout layout;  // from state/<op>/_stateSchema
  std::vector<int64_t> partitions;
};

std::vector<OperatorState> operators(const Env& env, const std::string& root) {
  FileSystem& fs = *env.fs;
  std::vector<OperatorState> out;
  std::string stateDir = root + "/state";
  for (int64_t op : numericEntries(fs, stateDir, true)) {
    OperatorState s;
    s.op = static_cast<int>(op);
    auto layout = state_layout::readOperatorLayout(env, root, s.op);
    if (layout.ok()) s.layout = std::move(*layout);
    s.partitions = numericEntries(fs, fmt::format("{}/{}", stateDir, op), true);
    out.push_back(std::move(s));
  }
  return out;
}

// The version to read (last committed batch + 1), 0 when nothing is committed.
Result<int64_t> committedVersion(FileSystem& fs, const std::string& root) {
  STREAMSIM_ASSIGN_OR_RETURN(auto last, lastCommittedBatch(fs, root));
  return last ? *last + 1 : 0;
}

}  // namespace

CommittedVariable CommittedVariable::visibleAt(TimeMs now) const {
  auto expired = [now](const std::optional<TimeMs>& e) { return e.has_value() && now >= *e; };
  CommittedVariable out;
  out.kind = kind;
  if (kind == Kind::kValue) {
    if (expired(valueExpiresAt)) {
      out.kind = Kind::kAbsent;
    } else {
      out.value = value;
      out.valueExpiresAt = valueExpiresAt;
    }
  }
  for (size_t i = 0; i < list.size(); ++i) {
    std::optional<TimeMs> e = i < listExpiresAt.size() ? listExpiresAt[i] : std::nullopt;
    if (expired(e)) continue;
    out.list.push_back(list[i]);
    out.listExpiresAt.push_back(e);
  }
  for (size_t i = 0; i < map.size(); ++i) {
    std::optional<TimeMs> e = i < mapExpiresAt.size() ? mapExpiresAt[i] : std::nullopt;
    if (expired(e)) continue;
    out.map.push_back(map[i]);
    out.mapExpiresAt.push_back(e);
  }
  return out;
}

std::string CommittedVariable::toString() const {
  switch (kind) {
    case Kind::kAbsent: return "absent";
    case Kind::kValue: return value.toString();
    case Kind::kList: {
      std::string s = "[";
      for (size_t i = 0; i < list.size(); ++i) s += (i ? ", " : "") + list[i].toString();
      return s + "]";
    }
    case Kind::kMap: {
      std::string s = "{";
      for (size_t i = 0; i < map.size(); ++i)
        s += fmt::format("{}{}: {}", i ? ", " : "", map[i].first.toString(), map[i].second.toString());
      return s + "}";
    }
  }
  return "";
}

Result<std::optional<int64_t>> lastCommittedBatch(FileSystem& fs, const std::string& root) {
  auto ids = numericEntries(fs, root + "/commits", false);
  if (ids.empty()) return std::optional<int64_t>();
  return std::optional<int64_t>(ids.back());
}

Result<CommittedVariable> readCommittedVariable(const Env& env, const std::string& root,
                                                StateStoreKind kind, const Row& key,
                                                const std::string& variable) {
  FileSystem& fs = *env.fs;
  auto ops = operators(env, root);
  STREAMSIM_ASSIGN_OR_RETURN(int64_t version, committedVersion(fs, root));
  const std::string prefix = encodeOrderedRow(key);
  const std::string what = fmt::format("state variable '{}'", variable);
  std::set<std::string> declared;
  bool found = false;
  CommittedVariable out;
  using K = CommittedVariable::Kind;
  for (const auto& op : ops) {
    for (const auto& v : op.layout.variables) declared.insert(v.name);
    const StateVariableSchema* schema = op.layout.find(variable);
    if (schema != nullptr) found = true;
    for (int64_t partition : op.partitions) {
      if (version == 0) break;
      STREAMSIM_ASSIGN_OR_RETURN(
          StateDump dump, readStateAt(env, root, op.op, static_cast<int>(partition), version, kind));
      for (const auto& [cfName, entries] : dump)
        if (!cfName.empty() && cfName[0] != '$') declared.insert(cfName);
      auto cf = dump.find(variable);
      if (cf == dump.end()) continue;
      found = true;
      if (schema == nullptr || !state_layout::parseVariableKind(schema->kind))
        return Status::Corruption(fmt::format(
            "{}: operator {} has rows of it but its _stateSchema records no transformWithState kind",
            what, op.op));
      for (const auto& [storedKey, stored] : cf->second) {
        if (storedKey.compare(0, prefix.size(), prefix) != 0) continue;
        auto decoded = state_layout::decodeRow(op.layout, variable, storedKey, stored);
        if (!decoded.ok()) return Status::Corruption(fmt::format("{}: {}", what, decoded.status().message()));
        const state_layout::DecodedRow& row = *decoded;
        // Another key whose encoding starts with this one's (a map entry's key is longer).
        if (row.kind != state_layout::VariableKind::kMap && storedKey.size() != prefix.size()) continue;
        switch (row.kind) {
          case state_layout::VariableKind::kValue:
            out.kind = K::kValue;
            out.value = oneValue(row.items.at(0).values, schema->valueSchema);
            out.valueExpiresAt = row.items.at(0).expiresAt;
            break;
          case state_layout::VariableKind::kList:
            out.kind = K::kList;
            for (const auto& item : row.items) {
              out.list.push_back(oneValue(item.values, schema->valueSchema));
              out.listExpiresAt.push_back(item.expiresAt);
            }
            break;
          case state_layout::VariableKind::kMap:
            out.kind = K::kMap;
            out.map.emplace_back(oneValue(row.userKey, schema->keySchema),
                                 oneValue(row.items.at(0).values, schema->valueSchema));
            out.mapExpiresAt.push_back(row.items.at(0).expiresAt);
            break;
        }
      }
    }
  }
  if (found || (declared.empty() && version == 0)) return out;
  std::string names;
  for (const auto& n : declared) names += (names.empty() ? "" : ", ") + n;
  return Status::NotFound(fmt::format(
      "no stateful operator in checkpoint {} has a state variable '{}'; known: {}", root,
      variable, names.empty() ? std::string("(none recorded)") : names));
}

Result<std::vector<std::string>> dumpCommittedState(const Env& env, const std::string& root,
                                                    StateStoreKind kind, bool withInternal) {
  STREAMSIM_ASSIGN_OR_RETURN(int64_t version, committedVersion(*env.fs, root));
  std::vector<std::string> out;
  if (version == 0) return out;
  auto hex = [](std::string_view b) {
    std::string h;
    for (unsigned char c : b) h += fmt::format("{:02x}", c);
    return h;
  };
  for (const auto& op : operators(env, root)) {
    for (int64_t partition : op.partitions) {
      STREAMSIM_ASSIGN_OR_RETURN(
          StateDump dump, readStateAt(env, root, op.op, static_cast<int>(partition), version, kind));
      for (const auto& [cf, entries] : dump) {
        if (!withInternal && !cf.empty() && cf[0] == '$') continue;
        for (const auto& [k, v] : entries)
          out.push_back(fmt::format("{}/{} {} {}={}", op.op, partition, cf, hex(k), hex(v)));
      }
    }
  }
  return out;
}

Result<std::map<std::string, int64_t>> committedStateRowsPerKey(const Env& env, const std::string& root,
                                                                StateStoreKind kind) {
  STREAMSIM_ASSIGN_OR_RETURN(int64_t version, committedVersion(*env.fs, root));
  std::map<std::string, int64_t> out;
  if (version == 0) return out;
  for (const auto& op : operators(env, root)) {
    if (op.layout.variables.empty()) continue;  // not a transformWithState
    for (int64_t partition : op.partitions) {
      STREAMSIM_ASSIGN_OR_RETURN(
          StateDump dump, readStateAt(env, root, op.op, static_cast<int>(partition), version, kind));
      for (const auto& [cf, entries] : dump) {
        if (cf.empty() || cf[0] == '$' || op.layout.find(cf) == nullptr) continue;
        for (const auto& [k, v] : entries) {
          auto row = state_layout::decodeRow(op.layout, cf, k, v);
          if (!row.ok()) return row.status().withContext(fmt::format("operator {} partition {}", op.op, partition));
          if (row->family != state_layout::DecodedRow::Family::kVariable) continue;
          std::string key;
          for (const Value& g : row->groupingKey) key += (key.empty() ? "" : ", ") + g.toString();
          out[fmt::format("operator {} key [{}]", op.op, key)] += static_cast<int64_t>(row->items.size());
        }
      }
    }
  }
  return out;
}

Result<std::vector<TimeMs>> readCommittedTimers(const Env& env, const std::string& root,
                                                StateStoreKind kind, const Row& key) {
  FileSystem& fs = *env.fs;
  auto ops = operators(env, root);
  STREAMSIM_ASSIGN_OR_RETURN(int64_t version, committedVersion(fs, root));
  const std::string prefix = encodeOrderedRow(key);
  std::vector<TimeMs> out;
  if (version == 0) return out;
  for (const auto& op : ops) {
    for (int64_t partition : op.partitions) {
      STREAMSIM_ASSIGN_OR_RETURN(
          StateDump dump, readStateAt(env, root, op.op, static_cast<int>(partition), version, kind));
      auto cf = dump.find(std::string(state_layout::kTimersByKeyCf));
      if (cf == dump.end()) continue;
      for (const auto& [storedKey, stored] : cf->second) {
        (void)stored;
        if (storedKey.size() == prefix.size() + 8 &&
            storedKey.compare(0, prefix.size(), prefix) == 0)
          out.push_back(state_layout::readOrderedTime(std::string_view(storedKey).substr(prefix.size())));
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace streamsim::harness
