// Time functions (catalyst/expressions/datetimeExpressions.scala) in the session time zone:
// current_timestamp / now (the batch timestamp, as Spark's micro-batch replaces
// CurrentTimestamp with the batch's), to_timestamp (no format: a cast; with a format:
// GetTimestamp), unix_timestamp, from_unixtime, date_format, date_trunc, timestamp_seconds /
// _millis / _micros, unix_seconds / unix_millis, and the field getters (year, month, day,
// hour, ...). Datetime patterns are Spark's (DateTimeFormatter letters y M d H h m s S a E
// Z X x, 'quoted' text). No DATE type in streamsim: to_date and date arithmetic are refused.
#include <fmt/format.h>

#include "expr/bound.h"
#include "expr/datetime_pattern.h"

namespace streamsim::expr {
namespace {

using namespace datetime;  // Civil, toCivil, the pattern parser and formatter (datetime_pattern.h)

Status timestampArg(FunctionCall& c, size_t i) {
  Type t = c.args[i]->type.type;
  if (t == Type::kTimestamp) return Status::OK();
  // ImplicitCastInputTypes: a string, and a date (its start in the session zone).
  if (t == Type::kString || t == Type::kNull || t == Type::kDate) {
    c.args[i] = castIfNeeded(c.args[i], typeField(Type::kTimestamp), *c.conf);
    return Status::OK();
  }
  return unexpectedInputType(c, i, "\"TIMESTAMP\"");
}

Result<std::vector<PatternPart>> patternArg(FunctionCall& c, size_t i) {
  STREAMSIM_RETURN_IF_ERROR(implicitCast(c, i, Type::kString, "\"STRING\""));
  STREAMSIM_ASSIGN_OR_RETURN(Value v, constantArg(c, i, "format"));
  if (v.isNull()) return std::vector<PatternPart>{};
  return parsePattern(v.asString());
}

class CurrentTimestampNode final : public Bound {
 public:
  Status eval(const Batch& b, std::vector<Value>& out) const override {
    out.assign(b.size(), Value::timestamp(b.ctx->batchTimestampMs));
    return Status::OK();
  }
};

FunctionBuilder currentTimestamp(std::string name) {
  return [name](FunctionCall& c) -> Result<BoundPtr> {
    STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 0, 0));
    auto n = std::make_shared<CurrentTimestampNode>();
    n->type = typeField(Type::kTimestamp, false);
    n->sql = name + "()";
    n->autoName = name + "()";
    return BoundPtr(n);
  };
}

Status cannotParseTimestamp(const Value& s, std::string_view pattern) {
  return sparkError(Status::Code::kTaskFailed, "CANNOT_PARSE_TIMESTAMP",
                    {{"message", fmt::format("Text '{}' could not be parsed with the pattern '{}'", s.asString(), pattern)},
                     {"func", "`try_to_timestamp`"}});
}

// to_timestamp(s): CAST(s AS TIMESTAMP); to_timestamp(s, fmt): parsed with the pattern.
Result<BoundPtr> buildToTimestamp(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 1, 2));
  if (c.args.size() == 1) {
    BoundPtr e = c.args[0];
    if (e->type.type == Type::kTimestamp) return e;
    if (!canCast(e->type, typeField(Type::kTimestamp), c.conf->ansi)) return unexpectedInputType(c, 0, "\"STRING\"");
    auto n = makeCastNode(e, typeField(Type::kTimestamp), false, c.conf->ansi);
    auto* m = const_cast<Bound*>(n.get());
    m->sql = fmt::format("to_timestamp({})", e->sql);
    m->autoName = m->sql;
    return n;
  }
  STREAMSIM_ASSIGN_OR_RETURN(auto parts, patternArg(c, 1));
  STREAMSIM_ASSIGN_OR_RETURN(Value pv, constantArg(c, 1, "format"));
  std::string pattern = pv.isNull() ? "" : pv.asString();
  if (c.args[0]->type.type == Type::kTimestamp) return c.args[0];
  STREAMSIM_RETURN_IF_ERROR(implicitCast(c, 0, Type::kString, "\"STRING\""));
  bool ansi = c.conf->ansi;
  return makeScalar("to_timestamp", c.args, typeField(Type::kTimestamp), [=](const Value* a, const EvalContext& ctx) -> Result<Value> {
    auto t = parseWith(parts, a[0].asString(), ctx.conf->zoneRules());
    if (!t) {
      if (ansi) return cannotParseTimestamp(a[0], pattern);
      return Value();
    }
    return Value::timestamp(*t);
  });
}

Result<BoundPtr> buildUnixTimestamp(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 0, 2));
  if (c.args.empty()) {
    FunctionCall now{"current_timestamp", {}, c.conf};
    STREAMSIM_ASSIGN_OR_RETURN(BoundPtr ts, currentTimestamp("current_timestamp")(now));
    c.args.push_back(ts);
  }
  std::vector<PatternPart> parts;
  std::string pattern = "yyyy-MM-dd HH:mm:ss";
  if (c.args.size() == 2) {
    STREAMSIM_ASSIGN_OR_RETURN(parts, patternArg(c, 1));
    STREAMSIM_ASSIGN_OR_RETURN(Value pv, constantArg(c, 1, "format"));
    if (!pv.isNull()) pattern = pv.asString();
  } else {
    STREAMSIM_ASSIGN_OR_RETURN(parts, parsePattern(pattern));
  }
  Type t = c.args[0]->type.type;
  if (t != Type::kTimestamp && t != Type::kString && t != Type::kNull) return unexpectedInputType(c, 0, "(\"STRING\" or \"DATE\" or \"TIMESTAMP\")");
  bool ansi = c.conf->ansi;
  std::vector<BoundPtr> args{c.args[0]};
  return makeScalar("unix_timestamp", args, typeField(Type::kLong), [=](const Value* a, const EvalContext& ctx) -> Result<Value> {
    if (a[0].type() == Type::kTimestamp) return Value(floorDivMs(a[0].asLong(), 1000));
    auto p = parseWith(parts, a[0].asString(), ctx.conf->zoneRules());
    if (!p) {
      if (ansi) return cannotParseTimestamp(a[0], pattern);
      return Value();
    }
    return Value(floorDivMs(*p, 1000));
  });
}

Result<BoundPtr> buildFromUnixtime(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 1, 2));
  STREAMSIM_RETURN_IF_ERROR(implicitCast(c, 0, Type::kLong, "\"BIGINT\""));
  std::vector<PatternPart> parts;
  if (c.args.size() == 2) {
    STREAMSIM_ASSIGN_OR_RETURN(parts, patternArg(c, 1));
  } else {
    STREAMSIM_ASSIGN_OR_RETURN(parts, parsePattern("yyyy-MM-dd HH:mm:ss"));
  }
  std::vector<BoundPtr> args{c.args[0]};
  return makeScalar("from_unixtime", args, typeField(Type::kString), [=](const Value* a, const EvalContext& ctx) -> Result<Value> {
    return Value(formatWith(parts, a[0].asLong() * 1000, ctx.conf->zoneRules()));
  });
}

Result<BoundPtr> buildDateFormat(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 2, 2));
  STREAMSIM_RETURN_IF_ERROR(timestampArg(c, 0));
  STREAMSIM_ASSIGN_OR_RETURN(auto parts, patternArg(c, 1));
  std::vector<BoundPtr> args{c.args[0]};
  auto n = makeScalar("date_format", args, typeField(Type::kString), [=](const Value* a, const EvalContext& ctx) -> Result<Value> {
    return Value(formatWith(parts, a[0].asLong(), ctx.conf->zoneRules()));
  });
  auto* m = const_cast<Bound*>(n.get());
  m->sql = callSql("date_format", c.args);
  m->autoName = m->sql;
  return n;
}

// date_trunc(unit, ts): truncated in the session zone; an unknown unit gives null (TruncTimestamp).
Result<BoundPtr> buildDateTrunc(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 2, 2));
  STREAMSIM_RETURN_IF_ERROR(implicitCast(c, 0, Type::kString, "\"STRING\""));
  STREAMSIM_RETURN_IF_ERROR(timestampArg(c, 1));
  return makeScalar("date_trunc", c.args, typeField(Type::kTimestamp), [](const Value* a, const EvalContext& ctx) -> Result<Value> {
    std::string u = a[0].asString();
    for (auto& ch : u) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    const TimeZone& zone = ctx.conf->zoneRules();
    Civil cv = toCivil(a[1].asLong(), zone);
    auto at = [&](int64_t y, unsigned mo, unsigned d, int64_t h, int64_t mi, int64_t s, int64_t ms) {
      return Value::timestamp(fromCivil(y, mo, d, h, mi, s, ms, zone));
    };
    if (u == "YEAR" || u == "YYYY" || u == "YY") return at(cv.y, 1, 1, 0, 0, 0, 0);
    if (u == "QUARTER") return at(cv.y, (cv.mo - 1) / 3 * 3 + 1, 1, 0, 0, 0, 0);
    if (u == "MONTH" || u == "MM" || u == "MON") return at(cv.y, cv.mo, 1, 0, 0, 0, 0);
    if (u == "WEEK") {
      int64_t monday = daysFromCivil(cv.y, cv.mo, cv.d) - (cv.dow - 1);
      return Value::timestamp(zone.toUtc(monday * 86400000));
    }
    if (u == "DAY" || u == "DD") return at(cv.y, cv.mo, cv.d, 0, 0, 0, 0);
    if (u == "HOUR") return at(cv.y, cv.mo, cv.d, cv.h, 0, 0, 0);
    if (u == "MINUTE") return at(cv.y, cv.mo, cv.d, cv.h, cv.mi, 0, 0);
    if (u == "SECOND") return at(cv.y, cv.mo, cv.d, cv.h, cv.mi, cv.s, 0);
    if (u == "MILLISECOND" || u == "MICROSECOND") return a[1];
    return Value();
  });
}

FunctionBuilder field(std::string name, std::function<int64_t(const Civil&)> get) {
  return [name, get](FunctionCall& c) -> Result<BoundPtr> {
    STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 1, 1));
    STREAMSIM_RETURN_IF_ERROR(timestampArg(c, 0));
    return makeScalar(name, c.args, typeField(Type::kInt), [get](const Value* a, const EvalContext& ctx) -> Result<Value> {
      return Value(static_cast<int32_t>(get(toCivil(a[0].asLong(), ctx.conf->zoneRules()))));
    });
  };
}

// A date part (year, month, dayofweek, ...: Spark's GetDateField over DateType): a date's own
// calendar fields; a timestamp or a string is first its date in the session zone.
FunctionBuilder datePart(std::string name, std::function<int64_t(const Civil&)> get) {
  return [name, get](FunctionCall& c) -> Result<BoundPtr> {
    STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 1, 1));
    if (c.args[0]->type.type != Type::kDate) STREAMSIM_RETURN_IF_ERROR(timestampArg(c, 0));
    bool date = c.args[0]->type.type == Type::kDate;
    return makeScalar(name, c.args, typeField(Type::kInt), [get, date](const Value* a, const EvalContext& ctx) -> Result<Value> {
      static const std::shared_ptr<const TimeZone> kUtc = TimeZone::fixed("UTC", 0);
      Civil cv = date ? toCivil(a[0].asLong() * 86400000, *kUtc) : toCivil(a[0].asLong(), ctx.conf->zoneRules());
      return Value(static_cast<int32_t>(get(cv)));
    });
  };
}

// to_date(x): CAST(x AS DATE); to_date(s, fmt): the date of to_timestamp(s, fmt) (ParseToDate).
Result<BoundPtr> buildToDate(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 1, 2));
  std::string sql = callSql("to_date", c.args);
  BoundPtr e = c.args[0];
  if (c.args.size() == 2) {
    FunctionCall ts{"to_timestamp", c.args, c.conf, c.pos};
    STREAMSIM_ASSIGN_OR_RETURN(e, buildToTimestamp(ts));
  }
  if (e->type.type == Type::kDate) return e;
  if (!canCast(e->type, typeField(Type::kDate), c.conf->ansi)) return unexpectedInputType(c, 0, "(\"STRING\" or \"DATE\" or \"TIMESTAMP\")");
  auto n = makeCastNode(e, typeField(Type::kDate), false, c.conf->ansi);
  auto* m = const_cast<Bound*>(n.get());
  m->sql = sql;
  m->autoName = sql;
  return n;
}

// current_date(): the batch timestamp's date in the session zone (ComputeCurrentTime).
Result<BoundPtr> buildCurrentDate(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 0, 0));
  FunctionCall now{"current_timestamp", {}, c.conf, c.pos};
  STREAMSIM_ASSIGN_OR_RETURN(BoundPtr ts, currentTimestamp("current_timestamp")(now));
  auto n = makeCastNode(ts, typeField(Type::kDate), false, c.conf->ansi);
  auto* m = const_cast<Bound*>(n.get());
  m->type.nullable = false;
  m->sql = c.name + "()";
  m->autoName = m->sql;
  return n;
}

Status dateArg(FunctionCall& c, size_t i) {
  Type t = c.args[i]->type.type;
  if (t == Type::kDate) return Status::OK();
  if (t == Type::kString || t == Type::kNull || t == Type::kTimestamp) {
    c.args[i] = castIfNeeded(c.args[i], typeField(Type::kDate), *c.conf);
    return Status::OK();
  }
  return unexpectedInputType(c, i, "\"DATE\"");
}

// date_add(start, n) / date_sub(start, n): DateAdd / DateSub; datediff(end, start): DateDiff.
FunctionBuilder dateShift(std::string name, int sign) {
  return [name, sign](FunctionCall& c) -> Result<BoundPtr> {
    STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 2, 2));
    STREAMSIM_RETURN_IF_ERROR(dateArg(c, 0));
    Type t = c.args[1]->type.type;
    if (t != Type::kInt && t != Type::kNull && t != Type::kString) return unexpectedInputType(c, 1, "(\"INT\" or \"SMALLINT\" or \"TINYINT\")");
    STREAMSIM_RETURN_IF_ERROR(implicitCast(c, 1, Type::kInt, "\"INT\""));
    return makeScalar(name, c.args, typeField(Type::kDate), [sign](const Value* a, const EvalContext&) -> Result<Value> {
      return Value::date(a[0].asLong() + sign * a[1].asLong());
    });
  };
}

Result<BoundPtr> buildDateDiff(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 2, 2));
  STREAMSIM_RETURN_IF_ERROR(dateArg(c, 0));
  STREAMSIM_RETURN_IF_ERROR(dateArg(c, 1));
  return makeScalar("datediff", c.args, typeField(Type::kInt), [](const Value* a, const EvalContext&) -> Result<Value> {
    return Value(static_cast<int32_t>(a[0].asLong() - a[1].asLong()));
  });
}

FunctionBuilder fromEpoch(std::string name, int64_t msPerUnit, bool allowDouble) {
  return [=](FunctionCall& c) -> Result<BoundPtr> {
    STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 1, 1));
    Type t = c.args[0]->type.type;
    if (!(t == Type::kInt || t == Type::kLong || t == Type::kNull || (allowDouble && t == Type::kDouble)))
      return unexpectedInputType(c, 0, allowDouble ? "\"NUMERIC\"" : "\"INTEGRAL\"");
    bool ansi = c.conf->ansi;
    return makeScalar(name, c.args, typeField(Type::kTimestamp), [=](const Value* a, const EvalContext&) -> Result<Value> {
      if (a[0].type() == Type::kDouble) {
        double d = a[0].asDouble() * static_cast<double>(msPerUnit);
        if (std::isnan(d) || std::isinf(d)) return Value();
        return Value::timestamp(static_cast<int64_t>(d));
      }
      int64_t out = 0;
      if (msPerUnit < 0) return Value::timestamp(floorDivMs(a[0].asLong(), -msPerUnit));
      if (__builtin_mul_overflow(a[0].asLong(), msPerUnit, &out)) {
        if (ansi) return arithmeticOverflow("long overflow", "");
        return Value();
      }
      return Value::timestamp(out);
    });
  };
}

FunctionBuilder toEpoch(std::string name, int64_t msPerUnit) {
  return [=](FunctionCall& c) -> Result<BoundPtr> {
    STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 1, 1));
    STREAMSIM_RETURN_IF_ERROR(timestampArg(c, 0));
    return makeScalar(name, c.args, typeField(Type::kLong), [=](const Value* a, const EvalContext&) -> Result<Value> {
      return Value(floorDivMs(a[0].asLong(), msPerUnit));
    });
  };
}

// Spark functions streamsim does not evaluate yet: an analysis error naming the function.
Result<BoundPtr> notYet(FunctionCall& c) {
  return sparkError(Status::Code::kInvalidArgument, "UNSUPPORTED_FEATURE.DATE_TYPE",
                    {{"functionName", sparkSqlId(c.name)}},
                    "not in streamsim yet (docs/scenarios.md \"Expressions\"): use date_add / to_date / date_trunc");
}

}  // namespace

void addTimeFunctions(FunctionTable& t) {
  t.emplace_back("current_timestamp", currentTimestamp("current_timestamp"));
  t.emplace_back("now", currentTimestamp("now"));
  t.emplace_back("localtimestamp", currentTimestamp("localtimestamp"));
  t.emplace_back("to_timestamp", buildToTimestamp);
  t.emplace_back("unix_timestamp", buildUnixTimestamp);
  t.emplace_back("to_unix_timestamp", buildUnixTimestamp);
  t.emplace_back("from_unixtime", buildFromUnixtime);
  t.emplace_back("date_format", buildDateFormat);
  t.emplace_back("date_trunc", buildDateTrunc);
  t.emplace_back("year", datePart("year", [](const Civil& c) { return c.y; }));
  t.emplace_back("quarter", datePart("quarter", [](const Civil& c) { return (c.mo - 1) / 3 + 1; }));
  t.emplace_back("month", datePart("month", [](const Civil& c) { return c.mo; }));
  t.emplace_back("day", datePart("day", [](const Civil& c) { return c.d; }));
  t.emplace_back("dayofmonth", datePart("dayofmonth", [](const Civil& c) { return c.d; }));
  // dayofweek: 1 = Sunday ... 7 = Saturday (DayOfWeek); weekday: 0 = Monday.
  t.emplace_back("dayofweek", datePart("dayofweek", [](const Civil& c) { return c.dow % 7 + 1; }));
  t.emplace_back("weekday", datePart("weekday", [](const Civil& c) { return c.dow - 1; }));
  t.emplace_back("dayofyear", datePart("dayofyear", [](const Civil& c) { return c.dayOfYear; }));
  t.emplace_back("hour", field("hour", [](const Civil& c) { return c.h; }));
  t.emplace_back("minute", field("minute", [](const Civil& c) { return c.mi; }));
  t.emplace_back("second", field("second", [](const Civil& c) { return c.s; }));
  t.emplace_back("timestamp_seconds", fromEpoch("timestamp_seconds", 1000, true));
  t.emplace_back("timestamp_millis", fromEpoch("timestamp_millis", 1, false));
  t.emplace_back("timestamp_micros", fromEpoch("timestamp_micros", -1000, false));
  t.emplace_back("unix_seconds", toEpoch("unix_seconds", 1000));
  t.emplace_back("unix_millis", toEpoch("unix_millis", 1));
  t.emplace_back("to_date", buildToDate);
  t.emplace_back("current_date", buildCurrentDate);
  t.emplace_back("curdate", buildCurrentDate);
  t.emplace_back("date_add", dateShift("date_add", 1));
  t.emplace_back("dateadd", dateShift("date_add", 1));
  t.emplace_back("date_sub", dateShift("date_sub", -1));
  t.emplace_back("datediff", buildDateDiff);
  t.emplace_back("date_diff", buildDateDiff);
  for (const char* n : {"add_months", "last_day", "next_day", "make_date"}) t.emplace_back(n, notYet);
}

}  // namespace streamsim::expr
