// Number functions (catalyst/expressions/mathExpressions.scala and arithmetic.scala): abs, pmod,
// power, round / bround (BigDecimal HALF_UP / HALF_EVEN on the double's decimal string, as
// Spark's RoundBase), floor / ceil (BIGINT), greatest / least (nulls skipped), sqrt, exp, ln /
// log / log10 / log2 / log1p (null outside the domain), sin, cos, tan, signum.
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

#include <fmt/format.h>

#include "expr/bound.h"

namespace streamsim::expr {
namespace {

Status numericArg(FunctionCall& c, size_t i) {
  Type t = c.args[i]->type.type;
  if (isNumericType(t)) return Status::OK();
  if (t == Type::kNull || t == Type::kString) {
    c.args[i] = castIfNeeded(c.args[i], typeField(Type::kDouble), *c.conf);
    return Status::OK();
  }
  return unexpectedInputType(c, i, "\"NUMERIC\"");
}

FunctionBuilder doubleFn(std::string name, double (*f)(double), bool nullOutsideDomain = false,
                         double domainMin = 0, bool strict = false) {
  return [=](FunctionCall& c) -> Result<BoundPtr> {
    STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 1, 1));
    STREAMSIM_RETURN_IF_ERROR(implicitCast(c, 0, Type::kDouble, "\"DOUBLE\""));
    return makeScalar(name, c.args, typeField(Type::kDouble),
                      [=](const Value* a, const EvalContext&) -> Result<Value> {
                        double x = a[0].asDouble();
                        if (nullOutsideDomain && (strict ? x <= domainMin : x < domainMin)) return Value();
                        return Value(f(x));
                      });
  };
}

// Rounds the decimal form of `d` (Java's Double.toString digits) to `scale` places.
double roundDecimal(double d, int scale, bool halfEven) {
  if (std::isnan(d) || std::isinf(d)) return d;
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  std::string sci(buf, r.ptr);
  size_t e = sci.find('e');
  int exp = std::atoi(sci.c_str() + e + 1);
  std::string mant = sci.substr(0, e);
  bool neg = mant[0] == '-';
  if (neg) mant.erase(0, 1);
  std::string digits;
  for (char ch : mant)
    if (ch != '.') digits += ch;
  // value = 0.digits * 10^(exp+1); keep digits up to position (exp + 1 + scale).
  int keep = exp + 1 + scale;
  if (keep < 0) return neg ? -0.0 : 0.0;
  if (keep >= static_cast<int>(digits.size())) return d;
  std::string kept = digits.substr(0, keep);
  int next = digits[keep] - '0';
  bool restNonZero = digits.find_first_not_of('0', keep + 1) != std::string::npos;
  bool up = halfEven ? (next > 5 || (next == 5 && (restNonZero || (!kept.empty() && (kept.back() - '0') % 2 == 1))))
                     : next >= 5;
  // kept as an integer, possibly carrying.
  std::string num = kept.empty() ? "0" : kept;
  if (up) {
    int i = static_cast<int>(num.size()) - 1;
    while (i >= 0) {
      if (num[i] == '9') {
        num[i] = '0';
        --i;
      } else {
        ++num[i];
        break;
      }
    }
    if (i < 0) {
      num.insert(num.begin(), '1');
      ++exp;
    }
  }
  // value = num * 10^(-scale)
  std::string text = fmt::format("{}{}e{}", neg ? "-" : "", num, -scale);
  return std::strtod(text.c_str(), nullptr);
}

int64_t roundIntegral(int64_t x, int scale, bool halfEven) {
  if (scale >= 0) return x;
  if (scale < -18) return 0;
  int64_t p = 1;
  for (int i = 0; i < -scale; ++i) p *= 10;
  int64_t q = x / p, r = x % p;
  int64_t half = p / 2;
  int64_t ar = r < 0 ? -r : r;
  bool up = halfEven ? (ar > half || (ar == half && (q % 2 != 0))) : ar >= half;
  if (up) q += x < 0 ? -1 : 1;
  return q * p;
}

FunctionBuilder roundFn(bool halfEven) {
  return [halfEven](FunctionCall& c) -> Result<BoundPtr> {
    STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 1, 2));
    STREAMSIM_RETURN_IF_ERROR(numericArg(c, 0));
    int scale = 0;
    if (c.args.size() == 2) {
      STREAMSIM_RETURN_IF_ERROR(implicitCast(c, 1, Type::kInt, "\"INT\""));
      STREAMSIM_ASSIGN_OR_RETURN(Value s, constantArg(c, 1, "scale"));
      scale = s.isNull() ? 0 : static_cast<int>(s.asLong());
    }
    Type t = c.args[0]->type.type;
    std::string name = halfEven ? "bround" : "round";
    auto n = makeScalar(name, {c.args[0]}, c.args[0]->type, [=](const Value* a, const EvalContext&) -> Result<Value> {
      if (t == Type::kDouble) return Value(roundDecimal(a[0].asDouble(), scale, halfEven));
      int64_t v = roundIntegral(a[0].asLong(), scale, halfEven);
      return t == Type::kInt ? Value(static_cast<int32_t>(v)) : Value(v);
    });
    auto* m = const_cast<Bound*>(n.get());
    m->sql = fmt::format("{}({}, {})", name, c.args[0]->sql, scale);
    m->autoName = m->sql;
    return n;
  };
}

FunctionBuilder floorCeil(bool isFloor) {
  return [isFloor](FunctionCall& c) -> Result<BoundPtr> {
    STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 1, 1));
    STREAMSIM_RETURN_IF_ERROR(numericArg(c, 0));
    Type t = c.args[0]->type.type;
    return makeScalar(isFloor ? "FLOOR" : "CEIL", c.args, typeField(Type::kLong),
                      [=](const Value* a, const EvalContext&) -> Result<Value> {
                        if (t != Type::kDouble) return Value(a[0].asLong());
                        double d = isFloor ? std::floor(a[0].asDouble()) : std::ceil(a[0].asDouble());
                        if (std::isnan(d)) return Value(int64_t{0});
                        if (d >= 9223372036854775807.0) return Value(std::numeric_limits<int64_t>::max());
                        if (d <= -9223372036854775808.0) return Value(std::numeric_limits<int64_t>::min());
                        return Value(static_cast<int64_t>(d));
                      });
  };
}

Result<BoundPtr> buildAbs(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 1, 1));
  STREAMSIM_RETURN_IF_ERROR(numericArg(c, 0));
  Type t = c.args[0]->type.type;
  bool ansi = c.conf->ansi;
  return makeScalar("abs", c.args, c.args[0]->type, [=](const Value* a, const EvalContext&) -> Result<Value> {
    if (t == Type::kDouble) return Value(std::fabs(a[0].asDouble()));
    int64_t x = a[0].asLong();
    if ((t == Type::kInt && x == INT32_MIN) || (t == Type::kLong && x == INT64_MIN)) {
      if (ansi) return arithmeticOverflow(t == Type::kInt ? "integer overflow" : "long overflow", "");
      return a[0];
    }
    return t == Type::kInt ? Value(static_cast<int32_t>(x < 0 ? -x : x)) : Value(x < 0 ? -x : x);
  });
}

Result<BoundPtr> buildPmod(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 2, 2));
  STREAMSIM_RETURN_IF_ERROR(numericArg(c, 0));
  STREAMSIM_RETURN_IF_ERROR(numericArg(c, 1));
  auto w = widerType(c.args[0]->type, c.args[1]->type);
  Field t = *w;
  c.args[0] = castIfNeeded(c.args[0], t, *c.conf);
  c.args[1] = castIfNeeded(c.args[1], t, *c.conf);
  bool ansi = c.conf->ansi;
  Type tt = t.type;
  return makeScalar("pmod", c.args, t, [=](const Value* a, const EvalContext&) -> Result<Value> {
    if (tt == Type::kDouble) {
      double y = a[1].asDouble();
      if (y == 0) return ansi ? Result<Value>(divideByZero()) : Result<Value>(Value());
      double r = std::fmod(a[0].asDouble(), y);
      if (r < 0) r = std::fmod(r + y, y);
      return Value(r);
    }
    int64_t y = a[1].asLong();
    if (y == 0) return ansi ? Result<Value>(divideByZero()) : Result<Value>(Value());
    int64_t r = y == -1 ? 0 : a[0].asLong() % y;
    if (r < 0) r = (r + y) % y;
    return tt == Type::kInt ? Value(static_cast<int32_t>(r)) : Value(r);
  });
}

Result<BoundPtr> buildPower(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 2, 2));
  STREAMSIM_RETURN_IF_ERROR(implicitCast(c, 0, Type::kDouble, "\"DOUBLE\""));
  STREAMSIM_RETURN_IF_ERROR(implicitCast(c, 1, Type::kDouble, "\"DOUBLE\""));
  return makeScalar("POWER", c.args, typeField(Type::kDouble), [](const Value* a, const EvalContext&) -> Result<Value> {
    return Value(std::pow(a[0].asDouble(), a[1].asDouble()));
  });
}

Result<BoundPtr> buildLog(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 1, 2));
  if (c.args.size() == 1) return doubleFn("ln", [](double x) { return std::log(x); }, true, 0, true)(c);
  STREAMSIM_RETURN_IF_ERROR(implicitCast(c, 0, Type::kDouble, "\"DOUBLE\""));
  STREAMSIM_RETURN_IF_ERROR(implicitCast(c, 1, Type::kDouble, "\"DOUBLE\""));
  return makeScalar("LOG", c.args, typeField(Type::kDouble), [](const Value* a, const EvalContext&) -> Result<Value> {
    double b = a[0].asDouble(), x = a[1].asDouble();
    if (b <= 0 || x <= 0) return Value();
    return Value(std::log(x) / std::log(b));
  });
}

FunctionBuilder extremum(bool greatest) {
  return [greatest](FunctionCall& c) -> Result<BoundPtr> {
    std::string name = greatest ? "greatest" : "least";
    if (c.args.size() < 2) return wrongNumArgs(c, "> 1");
    Field t = typeField(Type::kNull);
    for (size_t i = 0; i < c.args.size(); ++i) {
      auto w = widerType(t, c.args[i]->type);
      if (!w) {
        std::string types;
        for (size_t j = 0; j < c.args.size(); ++j) types += (j ? ", " : "") + sqlTypeOf(c.args[j]->type);
        return sparkError(Status::Code::kInvalidArgument, "DATATYPE_MISMATCH.DATA_DIFF_TYPES",
                          {{"sqlExpr", fmt::format("\"{}\"", callSql(name, c.args))}, {"functionName", sparkSqlId(name)},
                           {"dataType", "[" + types + "]"}});
      }
      t = *w;
    }
    for (auto& a : c.args) a = castIfNeeded(a, t, *c.conf);
    size_t n = c.args.size();
    return makeScalar(name, c.args, t, [=](const Value* a, const EvalContext&) -> Result<Value> {
      const Value* best = nullptr;
      for (size_t i = 0; i < n; ++i) {
        if (a[i].isNull()) continue;
        if (!best || (greatest ? compare(a[i], *best) > 0 : compare(a[i], *best) < 0)) best = &a[i];
      }
      return best ? *best : Value();
    }, false);
  };
}

Result<BoundPtr> buildSignum(FunctionCall& c) {
  return doubleFn("SIGNUM", [](double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : x; })(c);
}

// isnan(x) (nullExpressions.scala IsNaN, a DOUBLE/FLOAT input, others cast): true for NaN;
// false -- not null -- for a null input.
Result<BoundPtr> buildIsNaN(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 1, 1));
  STREAMSIM_RETURN_IF_ERROR(implicitCast(c, 0, Type::kDouble, "\"DOUBLE\""));
  return makeScalar("isnan", c.args, typeField(Type::kBoolean, false),
                    [](const Value* a, const EvalContext&) -> Result<Value> {
                      return Value(!a[0].isNull() && std::isnan(a[0].asDouble()));
                    },
                    false);
}

// nanvl(a, b) (NaNvl): `b` when `a` is NaN, else `a` (a null `a` gives null; `b` is only the
// answer for a NaN).
Result<BoundPtr> buildNaNvl(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 2, 2));
  STREAMSIM_RETURN_IF_ERROR(implicitCast(c, 0, Type::kDouble, "\"DOUBLE\""));
  STREAMSIM_RETURN_IF_ERROR(implicitCast(c, 1, Type::kDouble, "\"DOUBLE\""));
  return makeScalar("nanvl", c.args, typeField(Type::kDouble),
                    [](const Value* a, const EvalContext&) -> Result<Value> {
                      if (a[0].isNull()) return Value();
                      return std::isnan(a[0].asDouble()) ? a[1] : a[0];
                    },
                    false);
}

}  // namespace

void addMathFunctions(FunctionTable& t) {
  t.emplace_back("abs", buildAbs);
  t.emplace_back("pmod", buildPmod);
  t.emplace_back("power", buildPower);
  t.emplace_back("pow", buildPower);
  t.emplace_back("round", roundFn(false));
  t.emplace_back("bround", roundFn(true));
  t.emplace_back("floor", floorCeil(true));
  t.emplace_back("ceil", floorCeil(false));
  t.emplace_back("ceiling", floorCeil(false));
  t.emplace_back("greatest", extremum(true));
  t.emplace_back("least", extremum(false));
  t.emplace_back("sqrt", doubleFn("SQRT", [](double x) { return std::sqrt(x); }));
  t.emplace_back("cbrt", doubleFn("CBRT", [](double x) { return std::cbrt(x); }));
  t.emplace_back("exp", doubleFn("EXP", [](double x) { return std::exp(x); }));
  t.emplace_back("expm1", doubleFn("EXPM1", [](double x) { return std::expm1(x); }));
  t.emplace_back("ln", doubleFn("ln", [](double x) { return std::log(x); }, true, 0, true));
  t.emplace_back("log", buildLog);
  t.emplace_back("log10", doubleFn("LOG10", [](double x) { return std::log10(x); }, true, 0, true));
  t.emplace_back("log2", doubleFn("LOG2", [](double x) { return std::log2(x); }, true, 0, true));
  t.emplace_back("log1p", doubleFn("LOG1P", [](double x) { return std::log1p(x); }, true, -1, true));
  t.emplace_back("sin", doubleFn("SIN", [](double x) { return std::sin(x); }));
  t.emplace_back("cos", doubleFn("COS", [](double x) { return std::cos(x); }));
  t.emplace_back("tan", doubleFn("TAN", [](double x) { return std::tan(x); }));
  t.emplace_back("signum", buildSignum);
  t.emplace_back("isnan", buildIsNaN);
  t.emplace_back("nanvl", buildNaNvl);
  t.emplace_back("sign", buildSignum);
}

}  // namespace streamsim::expr
