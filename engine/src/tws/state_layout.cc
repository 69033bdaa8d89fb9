// transformWithState's store layout: the one writer and reader (tws/state_layout.h).
#include "streamsim/tws/state_layout.h"

#include <cstring>

#include <fmt/format.h>

#include "streamsim/state/row_encoding.h"

namespace streamsim::state_layout {

std::string ttlIndexCf(std::string_view variable) { return std::string(kTtlIndexPrefix) + std::string(variable); }

void appendOrderedTime(TimeMs t, std::string& out) {
  // One byte swap and one append: every timer key holds one.
  const uint64_t u = __builtin_bswap64(static_cast<uint64_t>(t) ^ (uint64_t{1} << 63));
  char bytes[8];
  std::memcpy(bytes, &u, 8);
  out.append(bytes, 8);
}

TimeMs readOrderedTime(std::string_view in) {
  uint64_t u = 0;
  for (int i = 0; i < 8; ++i) u = (u << 8) | static_cast<unsigned char>(in[i]);
  return static_cast<TimeMs>(u ^ (uint64_t{1} << 63));
}

std::string orderedTime(TimeMs t) {
  std::string s;
  appendOrderedTime(t, s);
  return s;
}

void appendEntryHeader(const std::optional<TimeMs>& expiresAt, std::string& out) {
  if (expiresAt) {
    out.push_back('\x01');
    appendOrderedTime(*expiresAt, out);
  } else {
    out.push_back('\x00');
  }
}

namespace {

Result<std::optional<TimeMs>> readExpiry(std::string_view& in) {
  if (in.empty()) return Status::Corruption("missing TTL flag");
  char flag = in[0];
  in.remove_prefix(1);
  if (flag == '\x00') return std::optional<TimeMs>();
  if (flag != '\x01' || in.size() < 8) return Status::Corruption("bad TTL header");
  TimeMs t = readOrderedTime(in);
  in.remove_prefix(8);
  return std::optional<TimeMs>(t);
}

}  // namespace

std::string encodeEntry(std::optional<TimeMs> expiresAt, std::string_view payload) {
  std::string out;
  // The exact size: a small entry (a counter) then stays in the string's inline buffer.
  out.reserve(payload.size() + (expiresAt ? 9 : 1));
  appendEntryHeader(expiresAt, out);
  out.append(payload);
  return out;
}

Result<Entry> readEntry(std::string_view stored) {
  Entry e;
  STREAMSIM_ASSIGN_OR_RETURN(e.expiresAt, readExpiry(stored));
  e.payload = stored;
  return e;
}

std::string encodeList(const std::vector<ListElement>& elements) {
  std::string out;
  for (const ListElement& e : elements) {
    appendEntryHeader(e.expiresAt, out);
    uint32_t n = static_cast<uint32_t>(e.payload.size());
    for (int i = 3; i >= 0; --i) out.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
    out.append(e.payload);
  }
  return out;
}

Result<std::vector<ListElement>> readList(std::string_view in) {
  std::vector<ListElement> out;
  while (!in.empty()) {
    ListElement e;
    STREAMSIM_ASSIGN_OR_RETURN(e.expiresAt, readExpiry(in));
    if (in.size() < 4) return Status::Corruption("truncated list element length");
    uint32_t n = 0;
    for (int i = 0; i < 4; ++i) n = (n << 8) | static_cast<unsigned char>(in[i]);
    in.remove_prefix(4);
    if (in.size() < n) return Status::Corruption("truncated list element");
    e.payload.assign(in.substr(0, n));
    in.remove_prefix(n);
    out.push_back(std::move(e));
  }
  return out;
}

std::optional<VariableKind> parseVariableKind(std::string_view kind) {
  if (kind == "value") return VariableKind::kValue;
  if (kind == "list") return VariableKind::kList;
  if (kind == "map") return VariableKind::kMap;
  return std::nullopt;
}

std::string_view variableKindName(VariableKind kind) {
  switch (kind) {
    case VariableKind::kValue: return "value";
    case VariableKind::kList: return "list";
    case VariableKind::kMap: return "map";
  }
  return "value";
}

const StateVariableSchema* OperatorLayout::find(std::string_view name) const {
  for (const auto& v : variables)
    if (v.name == name) return &v;
  return nullptr;
}

Result<OperatorLayout> readOperatorLayout(const Env& env, const std::string& checkpointRoot, int operatorId) {
  OperatorLayout layout;
  STREAMSIM_ASSIGN_OR_RETURN(layout.variables, readStateSchema(env, checkpointRoot, operatorId));
  STREAMSIM_ASSIGN_OR_RETURN(auto op, readStateOperatorSchema(env, checkpointRoot, operatorId));
  if (op) layout.groupingColumns = op->keyColumns.size();
  return layout;
}

Result<std::vector<Value>> decodeValues(std::string_view in) {
  std::vector<Value> out;
  while (!in.empty()) {
    STREAMSIM_ASSIGN_OR_RETURN(Value v, decodeOrderedValue(in));
    out.push_back(std::move(v));
  }
  return out;
}

namespace {

// The first `n` ordered values of `in` (all of them when n is 0), advancing `in`.
Result<std::vector<Value>> takeValues(std::string_view& in, size_t n) {
  std::vector<Value> out;
  while (!in.empty() && (n == 0 || out.size() < n)) {
    STREAMSIM_ASSIGN_OR_RETURN(Value v, decodeOrderedValue(in));
    out.push_back(std::move(v));
  }
  return out;
}

// Nested values typed by the recorded schema (a struct gets its field names); values the schema
// does not describe are left as decoded.
void typeByDdl(std::vector<Value>& values, const std::string& ddl) {
  bool nested = false;
  for (const Value& v : values) nested = nested || v.isNested();
  if (!nested) return;
  auto schema = Schema::parseDDL(ddl);
  if (!schema.ok()) return;
  for (size_t i = 0; i < values.size() && i < schema->size(); ++i) {
    if (!values[i].isNested() || values[i].type() != schema->field(i).type) continue;
    auto typed = values[i].castTo(schema->field(i));
    if (typed.ok()) values[i] = std::move(typed).value();
  }
}

Status corrupt(std::string_view cf, const Status& st) {
  return Status::Corruption(fmt::format("column family '{}': {}", cf, st.message()));
}

Result<DecodedRow> decodeVariableRow(const OperatorLayout& layout, const StateVariableSchema& schema,
                                     std::string_view key, std::string_view value) {
  DecodedRow row;
  row.family = DecodedRow::Family::kVariable;
  row.variable = schema.name;
  auto kind = parseVariableKind(schema.kind);
  if (!kind)
    return Status::NotFound(fmt::format("state variable '{}' has no transformWithState kind", schema.name));
  row.kind = *kind;
  std::string_view k = key;
  STREAMSIM_ASSIGN_OR_RETURN(row.groupingKey,
                             takeValues(k, row.kind == VariableKind::kMap ? layout.groupingColumns : 0));
  if (row.kind == VariableKind::kMap) {
    STREAMSIM_ASSIGN_OR_RETURN(row.userKey, decodeValues(k));
    typeByDdl(row.userKey, schema.keySchema);
  }
  if (row.kind == VariableKind::kList) {
    STREAMSIM_ASSIGN_OR_RETURN(auto list, readList(value));
    for (const auto& e : list) {
      STREAMSIM_ASSIGN_OR_RETURN(auto values, decodeValues(e.payload));
      typeByDdl(values, schema.valueSchema);
      row.items.push_back({e.expiresAt, std::move(values)});
    }
    return row;
  }
  STREAMSIM_ASSIGN_OR_RETURN(Entry e, readEntry(value));
  STREAMSIM_ASSIGN_OR_RETURN(auto values, decodeValues(e.payload));
  typeByDdl(values, schema.valueSchema);
  row.items.push_back({e.expiresAt, std::move(values)});
  return row;
}

}  // namespace

Result<DecodedRow> decodeRow(const OperatorLayout& layout, std::string_view cf, std::string_view key,
                             std::string_view value) {
  auto timeAt = [&](std::string_view bytes) -> Result<TimeMs> {
    if (bytes.size() < 8) return Status::Corruption(fmt::format("column family '{}': a key shorter than its 8-byte time", cf));
    return readOrderedTime(bytes);
  };
  DecodedRow row;
  if (cf == kTimersByKeyCf) {
    row.family = DecodedRow::Family::kTimersByKey;
    if (key.size() < 8) return timeAt(key).status();
    STREAMSIM_ASSIGN_OR_RETURN(row.time, timeAt(key.substr(key.size() - 8)));
    auto k = decodeValues(key.substr(0, key.size() - 8));
    if (!k.ok()) return corrupt(cf, k.status());
    row.groupingKey = std::move(*k);
    return row;
  }
  if (cf == kTimersByTimeCf) {
    row.family = DecodedRow::Family::kTimersByTime;
    STREAMSIM_ASSIGN_OR_RETURN(row.time, timeAt(key));
    auto k = decodeValues(key.substr(8));
    if (!k.ok()) return corrupt(cf, k.status());
    row.groupingKey = std::move(*k);
    return row;
  }
  if (cf.substr(0, kTtlIndexPrefix.size()) == kTtlIndexPrefix) {
    row.family = DecodedRow::Family::kTtlIndex;
    row.variable = std::string(cf.substr(kTtlIndexPrefix.size()));
    STREAMSIM_ASSIGN_OR_RETURN(row.time, timeAt(key));
    const StateVariableSchema* v = layout.find(row.variable);
    std::string_view primary = key.substr(8);
    size_t n = v && v->kind == "map" ? layout.groupingColumns : 0;
    auto k = takeValues(primary, n);
    if (!k.ok()) return corrupt(cf, k.status());
    row.groupingKey = std::move(*k);
    auto uk = decodeValues(primary);
    if (!uk.ok()) return corrupt(cf, uk.status());
    row.userKey = std::move(*uk);
    return row;
  }
  const StateVariableSchema* v = layout.find(cf);
  if (v == nullptr)
    return Status::NotFound(fmt::format("column family '{}' is not a state variable of the schema", cf));
  auto r = decodeVariableRow(layout, *v, key, value);
  if (!r.ok() && r.status().code() == Status::Code::kCorruption) return corrupt(cf, r.status());
  return r;
}

}  // namespace streamsim::state_layout
