// A Row as a JSON object, as Spark's JSON writer writes it (value.h: Row::toJson): nulls left out,
// non-finite doubles as "NaN"/"Infinity", timestamps in ISO form, nested values as objects and
// arrays; the fast path writes straight into a string (detail::appendJsonValue).
#include "streamsim/value.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "json_text.h"
#include "streamsim/base64.h"

namespace streamsim {

namespace {
nlohmann::ordered_json toJsonValue(const Value& v) {
  switch (v.type()) {
    case Type::kNull: return nullptr;
    case Type::kBoolean: return v.asBool();
    case Type::kInt:
    case Type::kLong: return v.asLong();
    case Type::kDouble: {
      const double d = v.asDouble();  // non-finite as Spark writes them (appendJsonDouble)
      if (std::isnan(d)) return "NaN";
      if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
      return d;
    }
    case Type::kString: return v.asString();
    case Type::kTimestamp: return formatTimestamp(v.asLong());
    // Spark's JSON: a date as yyyy-MM-dd, binary as base64 (Jackson's writeBinary).
    case Type::kDate: return formatDate(v.asLong());
    case Type::kBinary: return base64Encode(v.asString(), false);
    case Type::kStruct: {
      nlohmann::ordered_json j = nlohmann::ordered_json::object();
      for (size_t i = 0; i < v.items().size() && i < v.structSchema()->size(); ++i)
        if (!v.items()[i].isNull()) j[v.structSchema()->field(i).name] = toJsonValue(v.items()[i]);
      return j;
    }
    case Type::kArray: {
      nlohmann::ordered_json j = nlohmann::ordered_json::array();
      for (const Value& e : v.items()) j.push_back(toJsonValue(e));
      return j;
    }
    case Type::kMap: {
      nlohmann::ordered_json j = nlohmann::ordered_json::object();
      for (size_t i = 0; i < v.mapSize(); ++i) j[v.mapKey(i).toString()] = toJsonValue(v.mapValue(i));
      return j;
    }
  }
  return nullptr;
}

// Row::toJson as an ordered_json DOM (for a schema naming a column twice).
std::string rowJsonThroughDom(const Row& row) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (size_t i = 0; i < row.size() && i < row.schema()->size(); ++i) {
    if (row[i].isNull()) continue;
    j[row.schema()->field(i).name] = toJsonValue(row[i]);
  }
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}
}  // namespace

namespace detail {
void appendJsonValue(std::string& out, const Value& v) {
  switch (v.type()) {
    case Type::kNull: out += "null"; break;
    case Type::kBoolean: out += v.asBool() ? "true" : "false"; break;
    case Type::kInt:
    case Type::kLong: appendJsonInt(out, v.asLong()); break;
    case Type::kDouble: appendJsonDouble(out, v.asDouble()); break;
    case Type::kString: appendJsonString(out, v.asString()); break;
    case Type::kTimestamp:
      out.push_back('"');
      appendTimestamp(out, v.asLong());
      out.push_back('"');
      break;
    case Type::kDate: appendJsonString(out, formatDate(v.asLong())); break;
    case Type::kBinary: appendJsonString(out, base64Encode(v.asString(), false)); break;
    case Type::kStruct: {
      // Spark's JacksonGenerator: null fields omitted (ignoreNullFields); a repeated name the DOM
      // way (as Row::toJson).
      const Schema& schema = *v.structSchema();
      bool repeated = false;
      for (size_t i = 1; i < schema.size() && !repeated; ++i)
        for (size_t k = 0; k < i && !repeated; ++k) repeated = schema.field(i).name == schema.field(k).name;
      if (repeated) {
        out += toJsonValue(v).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
        break;
      }
      out.push_back('{');
      bool first = true;
      for (size_t i = 0; i < v.items().size() && i < schema.size(); ++i) {
        if (v.items()[i].isNull()) continue;
        if (!first) out.push_back(',');
        first = false;
        appendJsonString(out, schema.field(i).name);
        out.push_back(':');
        appendJsonValue(out, v.items()[i]);
      }
      out.push_back('}');
      break;
    }
    case Type::kArray:
      out.push_back('[');
      for (size_t i = 0; i < v.items().size(); ++i) {
        if (i) out.push_back(',');
        appendJsonValue(out, v.items()[i]);  // a null element as null, as Spark writes it
      }
      out.push_back(']');
      break;
    case Type::kMap:
      out.push_back('{');
      for (size_t i = 0; i < v.mapSize(); ++i) {
        if (i) out.push_back(',');
        appendJsonString(out, v.mapKey(i).toString());
        out.push_back(':');
        appendJsonValue(out, v.mapValue(i));  // a null value as null
      }
      out.push_back('}');
      break;
  }
}
}  // namespace detail

// Written straight into the string, the bytes nlohmann::ordered_json gave (the sink writers and
// the sweep's fingerprint call this per row). A schema naming one column twice keeps the DOM:
// there the later value replaces the earlier in the first one's place.
std::string Row::toJson() const {
  const size_t n = std::min(values_.size(), schema_->size());
  for (size_t i = 1; i < n; ++i)
    for (size_t k = 0; k < i; ++k)
      if (schema_->field(i).name == schema_->field(k).name) return rowJsonThroughDom(*this);
  std::string out;
  out.reserve(16 * n + 2);
  out.push_back('{');
  bool first = true;
  for (size_t i = 0; i < n; ++i) {
    const Value& v = values_[i];
    if (v.isNull()) continue;
    if (!first) out.push_back(',');
    first = false;
    detail::appendJsonString(out, schema_->field(i).name);
    out.push_back(':');
    detail::appendJsonValue(out, v);
  }
  out.push_back('}');
  return out;
}

}  // namespace streamsim
