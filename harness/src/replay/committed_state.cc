// committed_state.h: decodes a key's transformWithState variables and timers from the state
// files of the last committed batch (docs/processors.md "State layout").
#include "streamsim/harness/committed_state.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "streamsim/checkpoint/commit_log.h"
#include "streamsim/harness/checkpoint_state.h"
#include "streamsim/state/row_encoding.h"
#include "streamsim/state/state_files.h"
#include "streamsim/state/state_schema.h"
#include "streamsim/tws/state_layout.h"

namespace streamsim::harness {

namespace {

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
  std::vector<int> partitions;
};

Result<std::vector<OperatorState>> operators(const Env& env, const std::string& root) {
  std::vector<OperatorState> out;
  STREAMSIM_ASSIGN_OR_RETURN(auto stores, listStateStores(env, root));
  for (auto& [op, partitions] : stores) {
    OperatorState s;
    s.op = op;
    auto layout = state_layout::readOperatorLayout(env, root, s.op);
    if (layout.ok()) s.layout = std::move(*layout);
    s.partitions = std::move(partitions);
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
  Env env;
  env.fs = &fs;
  return CommitLog(env, root).getLatestBatchId();
}

Result<CommittedVariable> readCommittedVariable(const Env& env, const std::string& root,
                                                StateStoreKind kind, const Row& key,
                                                const std::string& variable) {
  FileSystem& fs = *env.fs;
  STREAMSIM_ASSIGN_OR_RETURN(auto ops, operators(env, root));
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
    for (int partition : op.partitions) {
      if (version == 0) break;
      STREAMSIM_ASSIGN_OR_RETURN(
          StateDump dump, readStateAt(env, root, op.op, partition, version, kind));
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
  STREAMSIM_ASSIGN_OR_RETURN(auto ops, operators(env, root));
  for (const auto& op : ops) {
    for (int partition : op.partitions) {
      STREAMSIM_ASSIGN_OR_RETURN(
          StateDump dump, readStateAt(env, root, op.op, partition, version, kind));
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
  STREAMSIM_ASSIGN_OR_RETURN(auto ops, operators(env, root));
  for (const auto& op : ops) {
    if (op.layout.variables.empty()) continue;  // not a transformWithState
    for (int partition : op.partitions) {
      STREAMSIM_ASSIGN_OR_RETURN(
          StateDump dump, readStateAt(env, root, op.op, partition, version, kind));
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
  STREAMSIM_ASSIGN_OR_RETURN(auto ops, operators(env, root));
  STREAMSIM_ASSIGN_OR_RETURN(int64_t version, committedVersion(fs, root));
  const std::string prefix = encodeOrderedRow(key);
  std::vector<TimeMs> out;
  if (version == 0) return out;
  for (const auto& op : ops) {
    for (int partition : op.partitions) {
      STREAMSIM_ASSIGN_OR_RETURN(
          StateDump dump, readStateAt(env, root, op.op, partition, version, kind));
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
