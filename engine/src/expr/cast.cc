// Spark's Cast (catalyst/expressions/Cast.scala) between streamsim's types, ANSI and legacy:
// string -> number/boolean/timestamp (UTF8String.toLong/toLongExact, StringUtils.isTrueString,
// DateTimeUtils.stringToTimestamp), number narrowing (ANSI: CAST_OVERFLOW; legacy: Java's
// narrowing), timestamp <-> number (seconds), anything -> string (the session time zone for
// timestamps, Java's Double.toString for doubles), arrays, maps and structs element-wise.
#include <cmath>
#include <cstdlib>
#include <limits>

#include <fmt/format.h>

#include "expr/bound.h"

namespace streamsim::expr {
namespace {

std::string_view trimAll(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && static_cast<unsigned char>(s[b]) <= ' ') ++b;
  while (e > b && static_cast<unsigned char>(s[e - 1]) <= ' ') --e;
  return s.substr(b, e - b);
}

// UTF8String.toLong(allowDecimal): [+-]digits[.digits]; the fraction is dropped when allowed.
std::optional<int64_t> stringToLong(std::string_view s, bool allowDecimal) {
  s = trimAll(s);
  if (s.empty()) return std::nullopt;
  size_t i = 0;
  bool neg = false;
  if (s[0] == '-' || s[0] == '+') {
    neg = s[0] == '-';
    ++i;
    if (i == s.size()) return std::nullopt;
  }
  // Accumulate negatively so LONG_MIN parses.
  int64_t r = 0;
  size_t digits = 0;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c == '.') break;
    if (c < '0' || c > '9') return std::nullopt;
    int d = c - '0';
    if (r < (std::numeric_limits<int64_t>::min() + d) / 10) return std::nullopt;
    r = r * 10 - d;
    ++digits;
  }
  if (i < s.size()) {  // a '.'
    if (!allowDecimal) return std::nullopt;
    for (size_t j = i + 1; j < s.size(); ++j)
      if (s[j] < '0' || s[j] > '9') return std::nullopt;
    if (digits == 0 && i + 1 == s.size()) return std::nullopt;
  }
  if (!neg) {
    if (r == std::numeric_limits<int64_t>::min()) return std::nullopt;
    r = -r;
  }
  return r;
}

std::optional<double> stringToDouble(std::string_view in) {
  std::string s(trimAll(in));
  std::string l = s;
  for (auto& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // Cast.processFloatingPointSpecialLiterals.
  if (l == "inf" || l == "+inf" || l == "infinity" || l == "+infinity") return std::numeric_limits<double>::infinity();
  if (l == "-inf" || l == "-infinity") return -std::numeric_limits<double>::infinity();
  if (l == "nan") return std::numeric_limits<double>::quiet_NaN();
  if (s.empty() || l.find('x') != std::string::npos || l.find("inf") != std::string::npos || l.find("nan") != std::string::npos)
    return std::nullopt;
  // Java's parseDouble takes a trailing d/f type suffix.
  if (!l.empty() && (l.back() == 'd' || l.back() == 'f')) s.pop_back();
  char* end = nullptr;
  double d = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0') return std::nullopt;
  return d;
}

std::string toSparkString(const Value& v, const Field& from, const EvalContext& ctx);

std::string nestedString(const Value& v, const Field& from, const EvalContext& ctx) {
  const auto& items = v.items();
  std::string out;
  if (from.type == Type::kArray) {
    Field el = from.nested ? from.nested->field(0) : typeField(Type::kString);
    out = "[";
    for (size_t i = 0; i < items.size(); ++i) {
      if (i) out += ",";
      if (items[i].isNull()) out += i ? " null" : "null";
      else out += (i ? " " : "") + toSparkString(items[i], el, ctx);
    }
    return out + "]";
  }
  if (from.type == Type::kMap) {
    Field k = from.nested ? from.nested->field(0) : typeField(Type::kString);
    Field val = from.nested ? from.nested->field(1) : typeField(Type::kString);
    out = "{";
    for (size_t i = 0; i < v.mapSize(); ++i) {
      if (i) out += ", ";
      out += toSparkString(v.mapKey(i), k, ctx) + " -> ";
      out += v.mapValue(i).isNull() ? "null" : toSparkString(v.mapValue(i), val, ctx);
    }
    return out + "}";
  }
  out = "{";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ",";
    const Field& f = from.nested && i < from.nested->size() ? from.nested->field(i) : fieldOf("", items[i]);
    if (items[i].isNull()) out += i ? " null" : "null";
    else out += (i ? " " : "") + toSparkString(items[i], f, ctx);
  }
  return out + "}";
}

std::string toSparkString(const Value& v, const Field& from, const EvalContext& ctx) {
  switch (v.type()) {
    case Type::kBoolean: return v.asBool() ? "true" : "false";
    case Type::kInt:
    case Type::kLong: return std::to_string(v.asLong());
    case Type::kDouble: return javaDoubleString(v.asDouble());
    case Type::kString: return v.asString();
    case Type::kTimestamp: return formatTimestampSpark(v.asLong(), ctx.conf->zoneRules());
    case Type::kDate: return formatDate(v.asLong());
    case Type::kBinary: return v.asString();  // the bytes as UTF-8 text (UTF8String.fromBytes)
    case Type::kStruct:
    case Type::kArray:
    case Type::kMap: return nestedString(v, from, ctx);
    case Type::kNull: return "null";
  }
  return v.toString();
}

int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

}  // namespace

bool canCast(const Field& from, const Field& to, bool ansi) {
  Type f = from.type, t = to.type;
  if (f == Type::kNull || sameType(from, to)) return true;
  if (t == Type::kString) return true;
  if (f == Type::kString) return t != Type::kStruct && t != Type::kArray && t != Type::kMap;
  // Cast.canAnsiCast / canCast: dates to and from timestamps; legacy also date -> boolean and
  // numbers (always null) and integral -> binary.
  if ((f == Type::kDate && t == Type::kTimestamp) || (f == Type::kTimestamp && t == Type::kDate)) return true;
  if (f == Type::kDate && (t == Type::kBoolean || isNumericType(t))) return !ansi;
  if ((f == Type::kInt || f == Type::kLong) && t == Type::kBinary) return !ansi;
  if (f == Type::kDate || t == Type::kDate || f == Type::kBinary || t == Type::kBinary) return false;
  bool fNum = isNumericType(f), tNum = isNumericType(t);
  if ((fNum || f == Type::kBoolean) && (tNum || t == Type::kBoolean)) return true;
  if (fNum && t == Type::kTimestamp) return true;
  if (f == Type::kTimestamp && tNum) return true;
  if (f == Type::kArray && t == Type::kArray)
    return from.nested && to.nested && canCast(from.nested->field(0), to.nested->field(0), ansi);
  if (f == Type::kMap && t == Type::kMap)
    return from.nested && to.nested && canCast(from.nested->field(0), to.nested->field(0), ansi) &&
           canCast(from.nested->field(1), to.nested->field(1), ansi);
  if (f == Type::kStruct && t == Type::kStruct) {
    if (!from.nested || !to.nested || from.nested->size() != to.nested->size()) return false;
    for (size_t i = 0; i < from.nested->size(); ++i)
      if (!canCast(from.nested->field(i), to.nested->field(i), ansi)) return false;
    return true;
  }
  return false;
}

Result<Value> castValue(const Value& v, const Field& from, const Field& to, const EvalContext& ctx, bool tryCast) {
  if (v.isNull()) return Value();
  const SqlConf& conf = *ctx.conf;
  bool ansi = conf.ansi && !tryCast;
  auto invalid = [&]() -> Result<Value> {
    if (ansi) return castInvalidInput(v, from, to, conf);
    return Value();
  };
  auto overflow = [&]() -> Result<Value> {
    if (ansi) return castOverflow(v, from, to, conf);
    return Value();
  };
  Type t = to.type;
  if (t == Type::kString) return Value(toSparkString(v, from, ctx));
  if (v.type() == t && !v.isNested()) return v;
  switch (v.type()) {
    case Type::kString: {
      const std::string& s = v.asString();
      switch (t) {
        case Type::kBoolean: {
          std::string l(trimAll(s));
          for (auto& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
          if (l == "t" || l == "true" || l == "y" || l == "yes" || l == "1") return Value(true);
          if (l == "f" || l == "false" || l == "n" || l == "no" || l == "0") return Value(false);
          return invalid();
        }
        case Type::kInt: {
          auto r = stringToLong(s, !ansi);
          if (!r || *r < INT32_MIN || *r > INT32_MAX) return invalid();
          return Value(static_cast<int32_t>(*r));
        }
        case Type::kLong: {
          auto r = stringToLong(s, !ansi);
          if (!r) return invalid();
          return Value(*r);
        }
        case Type::kDouble: {
          auto r = stringToDouble(s);
          if (!r) return invalid();
          return Value(*r);
        }
        case Type::kTimestamp: {
          auto r = parseTimestampSpark(s, conf.zoneRules());
          if (!r) return invalid();
          return Value::timestamp(*r);
        }
        case Type::kDate: {  // DateTimeUtils.stringToDate
          auto r = parseDate(s);
          if (!r) return invalid();
          return Value::date(*r);
        }
        case Type::kBinary: return Value::binary(s);  // the UTF-8 bytes
        default: break;
      }
      break;
    }
    case Type::kBoolean:
      if (t == Type::kInt) return Value(int32_t{v.asBool() ? 1 : 0});
      if (t == Type::kLong) return Value(int64_t{v.asBool() ? 1 : 0});
      if (t == Type::kDouble) return Value(v.asBool() ? 1.0 : 0.0);
      break;
    case Type::kInt:
    case Type::kLong: {
      int64_t x = v.asLong();
      if (t == Type::kBinary) {  // legacy: the big-endian bytes (NumberConverter.toBinary)
        int n = v.type() == Type::kInt ? 4 : 8;
        std::string bytes(static_cast<size_t>(n), '\0');
        for (int k = 0; k < n; ++k) bytes[static_cast<size_t>(k)] = static_cast<char>((static_cast<uint64_t>(x) >> (8 * (n - 1 - k))) & 0xff);
        return Value::binary(std::move(bytes));
      }
      if (t == Type::kBoolean) return Value(x != 0);
      if (t == Type::kLong) return Value(x);
      if (t == Type::kDouble) return Value(static_cast<double>(x));
      if (t == Type::kInt) {
        if (x < INT32_MIN || x > INT32_MAX) {
          if (ansi) return castOverflow(v, from, to, conf);
          return Value(static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(x))));
        }
        return Value(static_cast<int32_t>(x));
      }
      if (t == Type::kTimestamp) {
        // Seconds since the epoch (Cast.longToTimestamp), saturating as Spark's SECONDS.toMicros.
        if (x > INT64_MAX / 1000) return Value::timestamp(INT64_MAX);
        if (x < INT64_MIN / 1000) return Value::timestamp(INT64_MIN);
        return Value::timestamp(x * 1000);
      }
      break;
    }
    case Type::kDouble: {
      double d = v.asDouble();
      if (t == Type::kBoolean) return Value(d != 0);
      if (t == Type::kInt || t == Type::kLong) {
        double lo = t == Type::kInt ? -2147483648.0 : -9223372036854775808.0;
        double hi = t == Type::kInt ? 2147483647.0 : 9223372036854775807.0;
        double tr = std::trunc(d);
        if (std::isnan(d) || tr < lo || tr > hi || (t == Type::kLong && tr >= 9223372036854775808.0)) {
          if (ansi) return castOverflow(v, from, to, conf);
          // Java's narrowing: NaN 0, saturating.
          if (std::isnan(d)) return t == Type::kInt ? Value(int32_t{0}) : Value(int64_t{0});
          if (t == Type::kInt) return Value(static_cast<int32_t>(d < 0 ? INT32_MIN : INT32_MAX));
          return Value(static_cast<int64_t>(d < 0 ? INT64_MIN : INT64_MAX));
        }
        if (t == Type::kInt) return Value(static_cast<int32_t>(tr));
        return Value(static_cast<int64_t>(tr));
      }
      if (t == Type::kTimestamp) {
        if (std::isnan(d) || std::isinf(d)) return overflow();
        return Value::timestamp(static_cast<int64_t>(d * 1000.0));
      }
      break;
    }
    case Type::kDate:
      // DateTimeUtils.daysToMicros: the day's start in the session zone; legacy numbers and
      // booleans from a date are null (Cast.castToBoolean / castToLong of DateType).
      if (t == Type::kTimestamp) return Value::timestamp(conf.zoneRules().toUtc(v.asLong() * 86400000));
      if (t == Type::kBoolean || isNumericType(t)) return Value();
      break;
    case Type::kTimestamp: {
      int64_t ms = v.asLong();
      // microsToDays: the local date in the session zone.
      if (t == Type::kDate) return Value::date(floorDiv(conf.zoneRules().toLocal(ms), 86400000));
      if (t == Type::kLong) return Value(floorDiv(ms, 1000));
      if (t == Type::kInt) {
        int64_t s = floorDiv(ms, 1000);
        if (s < INT32_MIN || s > INT32_MAX) return overflow();
        return Value(static_cast<int32_t>(s));
      }
      if (t == Type::kDouble) return Value(static_cast<double>(ms) / 1000.0);
      break;
    }
    case Type::kArray:
      if (t == Type::kArray && from.nested && to.nested) {
        std::vector<Value> out;
        for (const Value& e : v.items()) {
          STREAMSIM_ASSIGN_OR_RETURN(Value c, castValue(e, from.nested->field(0), to.nested->field(0), ctx, tryCast));
          out.push_back(std::move(c));
        }
        return Value::arrayOf(std::move(out));
      }
      break;
    case Type::kMap:
      if (t == Type::kMap && from.nested && to.nested) {
        std::vector<std::pair<Value, Value>> out;
        for (size_t i = 0; i < v.mapSize(); ++i) {
          STREAMSIM_ASSIGN_OR_RETURN(Value k, castValue(v.mapKey(i), from.nested->field(0), to.nested->field(0), ctx, tryCast));
          STREAMSIM_ASSIGN_OR_RETURN(Value x, castValue(v.mapValue(i), from.nested->field(1), to.nested->field(1), ctx, tryCast));
          out.emplace_back(std::move(k), std::move(x));
        }
        return Value::mapOf(std::move(out));
      }
      break;
    case Type::kStruct:
      if (t == Type::kStruct && from.nested && to.nested && to.nested->size() == v.items().size()) {
        std::vector<Value> out;
        for (size_t i = 0; i < v.items().size(); ++i) {
          STREAMSIM_ASSIGN_OR_RETURN(Value c, castValue(v.items()[i], from.nested->field(i), to.nested->field(i), ctx, tryCast));
          out.push_back(std::move(c));
        }
        return Value::structOf(to.nested, std::move(out));
      }
      break;
    default: break;
  }
  return Status::InvalidArgument(fmt::format("cannot cast {} to {}", sqlTypeOf(from), sqlTypeOf(to)));
}

}  // namespace streamsim::expr
