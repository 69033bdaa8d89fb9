// JSON functions (catalyst/expressions/jsonExpressions.scala): from_json (JsonToStructs: a
// DDL schema, options mode PERMISSIVE / FAILFAST and columnNameOfCorruptRecord; PERMISSIVE gives
// the fields that cast of a malformed record (partial results; all null when it is not JSON), FAILFAST MALFORMED_RECORD_IN_PARSING; DROPMALFORMED is
// PARSE_MODE_UNSUPPORTED), to_json (StructsToJson: nulls omitted in structs, timestamps as
// yyyy-MM-dd'T'HH:mm:ss.SSSXXX in the session zone, FileSourceOptions.commonTimestampFormat), get_json_object (GetJsonObject: $.a.b[0]
// paths; strings unquoted, objects and arrays as compact JSON, anything invalid null).
// from_json reads values as the JSON file source does (io/json_rows.h: the same record parser).
#include <map>

#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include "expr/bound.h"
#include "streamsim/base64.h"
#include "io/source_options.h"
#include "json_text.h"
#include "streamsim/io/json_rows.h"

namespace streamsim::expr {
namespace {

// from_json's options: a literal map (map('mode', 'FAILFAST')); keys case-insensitive as
// JSONOptions' CaseInsensitiveMap. mode, columnNameOfCorruptRecord and the datetime options
// (timestampFormat, dateFormat, enableDateTimeParsingFallback: io/json_rows.h) are read; others
// (allowComments, ...) are Spark's reader switches streamsim reads with its defaults
// (docs/scenarios.md).
Result<JsonReadOptions> jsonOptions(FunctionCall& c, size_t i) {
  JsonReadOptions o;
  if (i >= c.args.size()) return o;
  if (c.args[i]->type.type != Type::kMap) return unexpectedInputType(c, i, "\"MAP<STRING, STRING>\"");
  STREAMSIM_ASSIGN_OR_RETURN(Value m, constantArg(c, i, "options"));
  if (m.isNull()) return o;
  std::map<std::string, std::string> rest;
  for (size_t k = 0; k < m.mapSize(); ++k) {
    std::string key = m.mapKey(k).toString();
    std::string val = m.mapValue(k).isNull() ? "" : m.mapValue(k).toString();
    const std::string lower = detail::lowerAscii(key);
    if (lower == "mode") {
      auto mode = parseParseMode(val);
      if (!mode.ok())
        return sparkError(Status::Code::kInvalidArgument, "PARSE_MODE_UNSUPPORTED",
                          {{"funcName", sparkSqlId(c.name)}, {"mode", val}});
      if (*mode == ParseMode::kDropMalformed)
        return sparkError(Status::Code::kInvalidArgument, "PARSE_MODE_UNSUPPORTED",
                          {{"funcName", sparkSqlId(c.name)}, {"mode", "DROPMALFORMED"}});
      o.mode = *mode;
    } else if (lower == "columnnameofcorruptrecord") {
      o.columnNameOfCorruptRecord = val;
    } else {
      rest[key] = val;
    }
  }
  return jsonReadOptions(rest, std::move(o));
}

Result<BoundPtr> buildFromJson(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 2, 3));
  // JsonToStructs ExpectsInputTypes (not ImplicitCastInputTypes): a STRING, no implicit cast --
  // from_json of a Kafka source's BINARY value is a type mismatch until it is CAST to STRING.
  if (c.args[0]->type.type != Type::kString && c.args[0]->type.type != Type::kNull)
    return unexpectedInputType(c, 0, "\"STRING\"");
  STREAMSIM_RETURN_IF_ERROR(implicitCast(c, 0, Type::kString, "\"STRING\""));
  if (c.args[1]->type.type != Type::kString) return unexpectedInputType(c, 1, "\"STRING\"");
  STREAMSIM_ASSIGN_OR_RETURN(Value ddl, constantArg(c, 1, "schema"));
  if (ddl.isNull()) return unexpectedInputType(c, 1, "\"STRING\"");
  std::string text = ddl.asString();
  // A DDL of fields ("a INT, b STRING") or one struct type ("STRUCT<a: INT>").
  std::string lowered = text;
  for (auto& ch : lowered) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  size_t start = lowered.find_first_not_of(" \t");
  auto readSchema = [&]() -> Result<SchemaPtr> {
    if (start != std::string::npos && lowered.compare(start, 7, "struct<") == 0) {
      STREAMSIM_ASSIGN_OR_RETURN(Schema f, Schema::parseDDL("c " + text));
      if (f.size() != 1 || !f.field(0).nested) return Status::InvalidArgument("not a struct type");
      return f.field(0).nested;
    }
    return parseSchema(text);
  };
  Result<SchemaPtr> schema = readSchema();
  if (!schema.ok())
    return sparkError(Status::Code::kInvalidArgument, "INVALID_SCHEMA.PARSE_ERROR",
                      {{"inputSchema", fmt::format("\"{}\"", text)}, {"reason", std::string(schema.status().message())}});
  STREAMSIM_ASSIGN_OR_RETURN(JsonReadOptions opts, jsonOptions(c, 2));
  bool failFast = opts.mode == ParseMode::kFailFast;
  STREAMSIM_ASSIGN_OR_RETURN(JsonRowParser parser, JsonRowParser::make(*schema, opts));
  auto shared = std::make_shared<JsonRowParser>(std::move(parser));
  SchemaPtr s = *schema;
  int corrupt = s->indexOf(opts.columnNameOfCorruptRecord);
  Field result = structField("", s);
  std::vector<BoundPtr> args{c.args[0]};
  auto n = makeScalar("from_json", args, result, [shared, s, failFast, corrupt](const Value* a, const EvalContext&) -> Result<Value> {
    const std::string& line = a[0].asString();
    std::vector<Value> vals;
    Status st = shared->parseRecord(line, vals);
    if (st.ok()) return Value::structOf(s, std::move(vals));
    if (failFast)
      return sparkError(Status::Code::kTaskFailed, "MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION",
                        {{"badRecord", line}, {"failFastMode", "FAILFAST"}});
    // PERMISSIVE: the fields that cast (partial results), the line in the corrupt column.
    if (corrupt >= 0) vals[corrupt] = Value(line);
    return Value::structOf(s, std::move(vals));
  });
  auto* m = const_cast<Bound*>(n.get());
  m->sql = fmt::format("from_json({})", c.args[0]->sql);
  m->autoName = m->sql;
  return n;
}

void writeJson(std::string& out, const Value& v, const Field& f, const TimeZone& zone);

void writeJson(std::string& out, const Value& v, const Field& f, const TimeZone& zone) {
  switch (v.type()) {
    case Type::kNull: out += "null"; return;
    case Type::kBoolean: out += v.asBool() ? "true" : "false"; return;
    case Type::kInt:
    case Type::kLong: detail::appendJsonInt(out, v.asLong()); return;
    case Type::kDouble: detail::appendJsonDouble(out, v.asDouble()); return;
    case Type::kString: detail::appendJsonString(out, v.asString()); return;
    // JSONOptions' dateFormat yyyy-MM-dd; binary as Jackson writes it (base64).
    case Type::kDate: detail::appendJsonString(out, formatDate(v.asLong())); return;
    case Type::kBinary: detail::appendJsonString(out, base64Encode(v.asString(), false)); return;
    case Type::kTimestamp: {
      // JSONOptions' default timestampFormat yyyy-MM-dd'T'HH:mm:ss[.SSS][XXX]: the optional
      // sections are written (the fields exist), so milliseconds always, "Z" for a zero offset.
      TimeMs ms = v.asLong();
      std::string t = formatTimestampSpark(ms - (((ms % 1000) + 1000) % 1000), zone);
      t[10] = 'T';
      t += fmt::format(".{:03}", ((ms % 1000) + 1000) % 1000);
      int32_t offset = zone.offsetAt(ms);
      int a = offset < 0 ? -offset : offset;
      t += offset == 0 ? "Z" : fmt::format("{}{:02}:{:02}", offset < 0 ? '-' : '+', a / 3600, (a / 60) % 60);
      detail::appendJsonString(out, t);
      return;
    }
    case Type::kStruct: {
      out += '{';
      bool first = true;
      const auto& schema = v.structSchema();
      for (size_t i = 0; i < v.items().size(); ++i) {
        if (v.items()[i].isNull()) continue;
        if (!first) out += ',';
        first = false;
        const Field& ff = f.nested && i < f.nested->size() ? f.nested->field(i) : schema->field(i);
        detail::appendJsonString(out, ff.name);
        out += ':';
        writeJson(out, v.items()[i], ff, zone);
      }
      out += '}';
      return;
    }
    case Type::kArray: {
      out += '[';
      Field el = f.nested ? f.nested->field(0) : typeField(Type::kString);
      for (size_t i = 0; i < v.items().size(); ++i) {
        if (i) out += ',';
        writeJson(out, v.items()[i], el, zone);
      }
      out += ']';
      return;
    }
    case Type::kMap: {
      out += '{';
      Field val = f.nested ? f.nested->field(1) : typeField(Type::kString);
      for (size_t i = 0; i < v.mapSize(); ++i) {
        if (i) out += ',';
        detail::appendJsonString(out, v.mapKey(i).type() == Type::kString ? v.mapKey(i).asString() : v.mapKey(i).toString());
        out += ':';
        writeJson(out, v.mapValue(i), val, zone);
      }
      out += '}';
      return;
    }
  }
}

Result<BoundPtr> buildToJson(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 1, 2));
  Type t = c.args[0]->type.type;
  if (t != Type::kStruct && t != Type::kArray && t != Type::kMap)
    return sparkError(Status::Code::kInvalidArgument, "DATATYPE_MISMATCH.INVALID_JSON_SCHEMA",
                      {{"sqlExpr", fmt::format("\"{}\"", callSql("to_json", c.args))}, {"schema", sqlTypeOf(c.args[0]->type)}},
                      "to_json takes a struct, an array or a map");
  Field f = c.args[0]->type;
  std::vector<BoundPtr> args{c.args[0]};
  return makeScalar("to_json", args, typeField(Type::kString), [f](const Value* a, const EvalContext& ctx) -> Result<Value> {
    std::string out;
    writeJson(out, a[0], f, ctx.conf->zoneRules());
    return Value(std::move(out));
  });
}

// A get_json_object path: $ then .name, ['name'] or [n] steps (JsonPathParser); nullopt if invalid.
struct PathStep {
  bool index = false;
  std::string key;
  size_t at = 0;
};

std::optional<std::vector<PathStep>> parseJsonPath(std::string_view p) {
  if (p.empty() || p[0] != '$') return std::nullopt;
  std::vector<PathStep> steps;
  size_t i = 1;
  while (i < p.size()) {
    if (p[i] == '.') {
      size_t j = i + 1;
      while (j < p.size() && p[j] != '.' && p[j] != '[') ++j;
      if (j == i + 1) return std::nullopt;
      steps.push_back({false, std::string(p.substr(i + 1, j - i - 1)), 0});
      i = j;
    } else if (p[i] == '[') {
      size_t j = p.find(']', i);
      if (j == std::string_view::npos) return std::nullopt;
      std::string_view in = p.substr(i + 1, j - i - 1);
      if (in.size() >= 2 && in.front() == '\'' && in.back() == '\'') {
        steps.push_back({false, std::string(in.substr(1, in.size() - 2)), 0});
      } else {
        if (in.empty()) return std::nullopt;
        size_t n = 0;
        for (char ch : in) {
          if (ch < '0' || ch > '9') return std::nullopt;
          n = n * 10 + static_cast<size_t>(ch - '0');
        }
        steps.push_back({true, {}, n});
      }
      i = j + 1;
    } else {
      return std::nullopt;
    }
  }
  return steps;
}

Result<BoundPtr> buildGetJsonObject(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 2, 2));
  STREAMSIM_RETURN_IF_ERROR(implicitCast(c, 0, Type::kString, "\"STRING\""));
  STREAMSIM_RETURN_IF_ERROR(implicitCast(c, 1, Type::kString, "\"STRING\""));
  return makeScalar("get_json_object", c.args, typeField(Type::kString), [](const Value* a, const EvalContext&) -> Result<Value> {
    auto path = parseJsonPath(a[1].asString());
    if (!path) return Value();
    auto doc = nlohmann::json::parse(a[0].asString(), nullptr, false);
    if (doc.is_discarded()) return Value();
    const nlohmann::json* cur = &doc;
    for (const auto& s : *path) {
      if (s.index) {
        if (!cur->is_array() || s.at >= cur->size()) return Value();
        cur = &(*cur)[s.at];
      } else {
        if (!cur->is_object()) return Value();
        auto it = cur->find(s.key);
        if (it == cur->end()) return Value();
        cur = &*it;
      }
    }
    if (cur->is_null()) return Value();
    if (cur->is_string()) return Value(cur->get<std::string>());
    return Value(cur->dump());
  });
}

}  // namespace

void addJsonFunctions(FunctionTable& t) {
  t.emplace_back("from_json", buildFromJson);
  t.emplace_back("to_json", buildToJson);
  t.emplace_back("get_json_object", buildGetJsonObject);
}

}  // namespace streamsim::expr
