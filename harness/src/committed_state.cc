// committed_state.h: decodes a key's transformWithState variables and timers from the state
// files of the last committed batch (docs/processors.md "State layout").
#include "streamsim/harness/committed_state.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "streamsim/state/row_encoding.h"
#include "streamsim/state/state_files.h"
#include "streamsim/state/state_schema.h"

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

TimeMs readTime(std::string_view in) {
  uint64_t u = 0;
  for (int i = 0; i < 8; ++i) u = (u << 8) | static_cast<unsigned char>(in[i]);
  return static_cast<TimeMs>(u ^ (uint64_t{1} << 63));
}

// Strips the TTL header (flag byte, optional 8-byte expiry), keeping the expiry in `expiry`.
Status stripExpiry(std::string_view& in, const std::string& what,
                   std::optional<TimeMs>* expiry = nullptr) {
  if (in.empty()) return Status::Corruption(what + ": missing TTL flag");
  char flag = in[0];
  in.remove_prefix(1);
  if (expiry != nullptr) expiry->reset();
  if (flag == '\x00') return Status::OK();
  if (flag != '\x01' || in.size() < 8) return Status::Corruption(what + ": bad TTL header");
  if (expiry != nullptr) *expiry = readTime(in);
  in.remove_prefix(8);
  return Status::OK();
}

// Codec bytes -> one Value (several ordered values, as a Row codec writes, become "{a, b}").
Result<Value> decodePayload(std::string_view in) {
  std::vector<Value> values;
  while (!in.empty()) {
    STREAMSIM_ASSIGN_OR_RETURN(Value v, decodeOrderedValue(in));
    values.push_back(std::move(v));
  }
  if (values.size() == 1) return values[0];
  std::string s = "{";
  for (size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + values[i].toString();
  return Value(s + "}");
}

struct OperatorState {
  int op = 0;
  std::vector<std::string> variables;  // names recorded in state/<op>/_stateSchema
  std::vector<int64_t> partitions;
};

std::vector<OperatorState> operators(const Env& env, const std::string& root) {
  FileSystem& fs = *env.fs;
  std::vector<OperatorState> out;
  std::string stateDir = root + "/state";
  for (int64_t op : numericEntries(fs, stateDir, true)) {
    OperatorState s;
    s.op = static_cast<int>(op);
    auto schema = readStateSchema(env, root, s.op);
    if (schema.ok())
      for (const auto& v : *schema) s.variables.push_back(v.name);
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
    for (const auto& n : op.variables) declared.insert(n);
    if (std::find(op.variables.begin(), op.variables.end(), variable) != op.variables.end())
      found = true;
    for (int64_t partition : op.partitions) {
      if (version == 0) break;
      STREAMSIM_ASSIGN_OR_RETURN(
          StateDump dump, readStateAt(env, root, op.op, static_cast<int>(partition), version, kind));
      for (const auto& [cfName, entries] : dump)
        if (!cfName.empty() && cfName[0] != '$') declared.insert(cfName);
      auto cf = dump.find(variable);
      if (cf == dump.end()) continue;
      found = true;
      for (const auto& [storedKey, stored] : cf->second) {
        if (storedKey.compare(0, prefix.size(), prefix) != 0) continue;
        std::string_view in = stored;
        if (storedKey.size() > prefix.size()) {  // a MapState entry: key = grouping key + user key
          std::string_view userKey = std::string_view(storedKey).substr(prefix.size());
          STREAMSIM_ASSIGN_OR_RETURN(Value uk, decodePayload(userKey));
          std::optional<TimeMs> expiry;
          STREAMSIM_RETURN_IF_ERROR(stripExpiry(in, what, &expiry));
          STREAMSIM_ASSIGN_OR_RETURN(Value v, decodePayload(in));
          out.kind = K::kMap;
          out.map.emplace_back(std::move(uk), std::move(v));
          out.mapExpiresAt.push_back(expiry);
          continue;
        }
        std::string_view probe = in;
        STREAMSIM_RETURN_IF_ERROR(stripExpiry(probe, what, &out.valueExpiresAt));
        // No ordered-value tag is 0x00; a list element starts with a 4-byte big-endian length.
        if (!probe.empty() && probe[0] != '\x00') {
          STREAMSIM_ASSIGN_OR_RETURN(out.value, decodePayload(probe));
          out.kind = K::kValue;
          continue;
        }
        out.kind = K::kList;
        out.valueExpiresAt.reset();
        while (!in.empty()) {
          std::optional<TimeMs> expiry;
          STREAMSIM_RETURN_IF_ERROR(stripExpiry(in, what, &expiry));
          out.listExpiresAt.push_back(expiry);
          if (in.size() < 4) return Status::Corruption(what + ": truncated list element");
          uint32_t n = 0;
          for (int i = 0; i < 4; ++i) n = (n << 8) | static_cast<unsigned char>(in[i]);
          in.remove_prefix(4);
          if (in.size() < n) return Status::Corruption(what + ": truncated list element");
          STREAMSIM_ASSIGN_OR_RETURN(Value v, decodePayload(in.substr(0, n)));
          out.list.push_back(std::move(v));
          in.remove_prefix(n);
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
      auto cf = dump.find("$timers_key");
      if (cf == dump.end()) continue;
      for (const auto& [storedKey, stored] : cf->second) {
        (void)stored;
        if (storedKey.size() == prefix.size() + 8 &&
            storedKey.compare(0, prefix.size(), prefix) == 0)
          out.push_back(readTime(std::string_view(storedKey).substr(prefix.size())));
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace streamsim::harness
