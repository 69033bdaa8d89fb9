// Value::castTo: a value cast to a primitive type or, element by element, to a field's nested type
// (value.h). The expressions' Spark casts (CAST(x AS type)) are engine/src/expr's.
#include "streamsim/value.h"

#include <charconv>
#include <cmath>

#include <fmt/format.h>

namespace streamsim {

Result<Value> Value::castTo(Type t) const {
  if (isNull() || t == type_) return *this;
  if (isNested() && t != Type::kString)
    return Status::InvalidArgument(
        fmt::format("cannot read {} value '{}' as {}", typeName(type_), toString(), typeName(t)));
  auto bad = [&] {
    return Status::InvalidArgument(
        fmt::format("cannot read {} value '{}' as {}", typeName(type_), toString(), typeName(t)));
  };
  switch (t) {
    case Type::kNull: return Value();
    case Type::kBoolean:
      if (type_ == Type::kString) {
        if (asString() == "true") return Value(true);
        if (asString() == "false") return Value(false);
      }
      return bad();
    case Type::kInt:
    case Type::kLong:
    case Type::kTimestamp: {
      int64_t n;
      if (type_ == Type::kInt || type_ == Type::kLong || type_ == Type::kTimestamp) {
        n = asLong();
      } else if (type_ == Type::kDouble) {
        // A double outside int64's range (1e300, NaN, infinities) is no integer: the cast
        // would be undefined behaviour. 2^63 itself is out of range, -2^63 is in.
        const double d = t == Type::kTimestamp ? asDouble() * 1000 : asDouble();  // seconds
        if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) return bad();
        if (t == Type::kTimestamp) n = static_cast<int64_t>(d);
        else if (d == std::floor(d)) n = static_cast<int64_t>(d);
        else return bad();
      } else if (type_ == Type::kString) {
        if (t == Type::kTimestamp) {
          auto ts = parseTimestamp(asString());
          if (!ts.ok()) return ts.status();
          return Value::timestamp(*ts);
        }
        const std::string& s = asString();
        auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
        if (ec != std::errc() || p != s.data() + s.size()) return bad();
      } else {
        return bad();
      }
      if (t == Type::kTimestamp) return Value::timestamp(n);
      if (t == Type::kInt) {
        if (n < INT32_MIN || n > INT32_MAX) return bad();
        return Value(static_cast<int32_t>(n));
      }
      return Value(n);
    }
    case Type::kDouble:
      if (isNumeric()) return Value(asDouble());
      if (type_ == Type::kString) {
        try {
          size_t used = 0;
          double d = std::stod(asString(), &used);
          if (used == asString().size()) return Value(d);
        } catch (...) {
        }
      }
      return bad();
    case Type::kString:
      return Value(toString());
    case Type::kDate:
      if (type_ == Type::kDate) return *this;
      if (type_ == Type::kString) {
        auto d = parseDate(asString());
        if (!d) return Status::InvalidArgument(fmt::format("'{}' is not a date (yyyy-mm-dd)", asString()));
        return Value::date(*d);
      }
      return bad();
    case Type::kBinary:
      if (type_ == Type::kBinary) return *this;
      if (type_ == Type::kString) return Value::binary(asString());  // the text's UTF-8 bytes
      return bad();
    case Type::kStruct:
    case Type::kArray:
    case Type::kMap: return bad();  // needs the element types: castTo(Field)
  }
  return bad();
}

namespace {
std::string describe(const Value& v) {
  std::string s = v.toString();
  if (v.type() == Type::kString) s = "'" + s + "'";
  return fmt::format("{} {}", typeName(v.type()), s);
}

Result<Value> castChild(const Value& v, const Field& f, std::string_view where) {
  if (v.isNull()) {
    if (!f.nullable)
      return Status::InvalidArgument(fmt::format("{}: null where {} allows none", where, typeDDL(f)));
    return v;
  }
  auto r = v.castTo(f);
  if (!r.ok()) return r.status().withContext(std::string(where));
  return r;
}
}  // namespace

Result<Value> Value::castTo(const Field& f) const {
  if (!f.nested || isNull()) return castTo(f.type);
  const Schema& inner = *f.nested;
  auto mismatch = [&] {
    return Status::InvalidArgument(fmt::format("cannot read {} as {}", describe(*this), typeDDL(f)));
  };
  switch (f.type) {
    case Type::kArray: {
      if (type_ != Type::kArray) return mismatch();
      std::vector<Value> out;
      out.reserve(items().size());
      for (size_t i = 0; i < items().size(); ++i) {
        auto r = castChild(items()[i], inner.field(0), fmt::format("element {}", i));
        if (!r.ok()) return r.status();
        out.push_back(std::move(r).value());
      }
      return arrayOf(std::move(out));
    }
    case Type::kMap: {
      if (type_ != Type::kMap) return mismatch();
      std::vector<std::pair<Value, Value>> out;
      out.reserve(mapSize());
      for (size_t i = 0; i < mapSize(); ++i) {
        auto k = castChild(mapKey(i), inner.field(0), fmt::format("key '{}'", mapKey(i).toString()));
        if (!k.ok()) return k.status();
        auto val = castChild(mapValue(i), inner.field(1),
                             fmt::format("value of key '{}'", mapKey(i).toString()));
        if (!val.ok()) return val.status();
        out.emplace_back(std::move(k).value(), std::move(val).value());
      }
      return mapOf(std::move(out));
    }
    case Type::kStruct: {
      std::vector<Value> out(inner.size());
      if (type_ == Type::kStruct) {
        if (items().size() != inner.size())
          return Status::InvalidArgument(fmt::format("cannot read a struct of {} fields ({}) as {}",
                                                     items().size(), toString(), typeDDL(f)));
        for (size_t i = 0; i < inner.size(); ++i) {
          auto r = castChild(items()[i], inner.field(i), fmt::format("field '{}'", inner.field(i).name));
          if (!r.ok()) return r.status();
          out[i] = std::move(r).value();
        }
      } else if (type_ == Type::kMap) {
        // An object read from YAML or JSON: its keys name the fields.
        std::vector<bool> set(inner.size(), false);
        for (size_t i = 0; i < mapSize(); ++i) {
          const std::string name = mapKey(i).toString();
          int at = inner.indexOf(name);
          if (at < 0)
            return Status::InvalidArgument(fmt::format("field '{}' is not in {}", name, typeDDL(f)));
          auto r = castChild(mapValue(i), inner.field(at), fmt::format("field '{}'", name));
          if (!r.ok()) return r.status();
          out[at] = std::move(r).value();
          set[at] = true;
        }
        for (size_t i = 0; i < inner.size(); ++i)
          if (!set[i] && !inner.field(i).nullable)
            return Status::InvalidArgument(fmt::format("field '{}' of {} is missing (it is NOT NULL)",
                                                       inner.field(i).name, typeDDL(f)));
      } else {
        return mismatch();
      }
      return structOf(f.nested, std::move(out));
    }
    default: return castTo(f.type);
  }
}

}  // namespace streamsim
