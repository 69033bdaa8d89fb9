// Bound expression nodes shared by every function group, type helpers, and the evaluation-time
// error conditions (bound.h).
#include "expr/bound.h"

#include <fmt/format.h>

namespace streamsim::expr {

Field typeField(Type t, bool nullable) { return Field{"", t, nullable, nullptr}; }

Field arrayOf(const Field& element) {
  Field e = element;
  e.name = "element";
  return arrayField("", e);
}

bool isNumericType(Type t) { return t == Type::kInt || t == Type::kLong || t == Type::kDouble; }

bool sameType(const Field& a, const Field& b) {
  if (a.type != b.type) return false;
  if (!a.nested || !b.nested) return a.nested == b.nested || a.type < Type::kStruct;
  if (a.nested->size() != b.nested->size()) return false;
  for (size_t i = 0; i < a.nested->size(); ++i) {
    const Field& x = a.nested->field(i);
    const Field& y = b.nested->field(i);
    if (a.type == Type::kStruct && x.name != y.name) return false;
    if (!sameType(x, y)) return false;
  }
  return true;
}

std::string sqlTypeOf(const Field& f) {
  if (f.type == Type::kArray) {
    std::string inner = f.nested ? sqlTypeOf(f.nested->field(0)) : "\"STRING\"";
    return fmt::format("\"ARRAY<{}>\"", inner.substr(1, inner.size() - 2));
  }
  if (f.type == Type::kStruct || f.type == Type::kMap) {
    std::string ddl = typeDDL(f);
    for (auto& c : ddl) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return fmt::format("\"{}\"", ddl);
  }
  return sparkSqlType(f.type);
}

std::string sqlValue(const Value& v, const SqlConf& conf) {
  switch (v.type()) {
    case Type::kNull: return "NULL";
    case Type::kString: {
      std::string out = "'";
      for (char c : v.asString()) {
        if (c == '\'' || c == '\\') out += '\\';
        out += c;
      }
      return out + "'";
    }
    case Type::kLong: return fmt::format("{}L", v.asLong());
    case Type::kInt: return std::to_string(v.asLong());
    case Type::kDouble: return javaDoubleString(v.asDouble()) + "D";
    case Type::kBoolean: return v.asBool() ? "true" : "false";
    case Type::kTimestamp:
      return fmt::format("TIMESTAMP '{}'", formatTimestampSpark(v.asLong(), conf.zoneRules()));
    case Type::kDate: return fmt::format("DATE '{}'", formatDate(v.asLong()));
    case Type::kBinary: {
      std::string out = "X'";
      for (unsigned char c : v.asString()) out += fmt::format("{:02X}", c);
      return out + "'";
    }
    default: return v.toString();
  }
}

Status castInvalidInput(const Value& v, const Field& from, const Field& to, const SqlConf& conf) {
  return sparkError(Status::Code::kTaskFailed, "CAST_INVALID_INPUT",
                    {{"expression", sqlValue(v, conf)}, {"sourceType", sqlTypeOf(from)}, {"targetType", sqlTypeOf(to)}});
}
Status castOverflow(const Value& v, const Field& from, const Field& to, const SqlConf& conf) {
  return sparkError(Status::Code::kTaskFailed, "CAST_OVERFLOW",
                    {{"value", sqlValue(v, conf)}, {"sourceType", sqlTypeOf(from)}, {"targetType", sqlTypeOf(to)}});
}
Status arithmeticOverflow(std::string_view message, std::string_view tryFunction) {
  std::string alt = tryFunction.empty()
                        ? std::string()
                        : fmt::format(" Use '{}' to tolerate overflow and return NULL instead.", tryFunction);
  return sparkError(Status::Code::kTaskFailed, "ARITHMETIC_OVERFLOW",
                    {{"message", std::string(message)}, {"alternative", alt}, {"config", "\"spark.sql.ansi.enabled\""}});
}
Status divideByZero() {
  return sparkError(Status::Code::kTaskFailed, "DIVIDE_BY_ZERO", {{"config", "\"spark.sql.ansi.enabled\""}});
}

namespace {

class LiteralNode final : public Bound {
 public:
  explicit LiteralNode(Value v) : v_(std::move(v)) {}
  Status eval(const Batch& b, std::vector<Value>& out) const override {
    out.assign(b.size(), v_);
    return Status::OK();
  }

 private:
  Value v_;
};

class ScalarNode final : public Bound {
 public:
  ScalarNode(RowFn fn, bool nullIntolerant) : fn_(std::move(fn)), null_intolerant_(nullIntolerant) {}
  Status eval(const Batch& b, std::vector<Value>& out) const override {
    size_t n = b.size();
    std::vector<std::vector<Value>> cols(children.size());
    for (size_t i = 0; i < children.size(); ++i) STREAMSIM_RETURN_IF_ERROR(children[i]->eval(b, cols[i]));
    out.resize(n);
    std::vector<Value> args(children.size());
    for (size_t r = 0; r < n; ++r) {
      bool anyNull = false;
      for (size_t i = 0; i < cols.size(); ++i) {
        args[i] = std::move(cols[i][r]);
        anyNull = anyNull || args[i].isNull();
      }
      if (null_intolerant_ && anyNull) {
        out[r] = Value();
        continue;
      }
      auto v = fn_(args.data(), *b.ctx);
      if (!v.ok()) return v.status();
      out[r] = std::move(v).value();
    }
    return Status::OK();
  }

 private:
  RowFn fn_;
  bool null_intolerant_;
};

class CastNode final : public Bound {
 public:
  CastNode(bool tryCast) : try_(tryCast) {}
  Status eval(const Batch& b, std::vector<Value>& out) const override {
    STREAMSIM_RETURN_IF_ERROR(children[0]->eval(b, out));
    const Field& from = children[0]->type;
    for (auto& v : out) {
      if (v.isNull()) continue;
      auto c = castValue(v, from, type, *b.ctx, try_);
      if (!c.ok()) return c.status();
      v = std::move(c).value();
    }
    return Status::OK();
  }

 private:
  bool try_;
};

}  // namespace

BoundPtr makeLiteral(Value v, Field type) {
  auto n = std::make_shared<LiteralNode>(v);
  type.name.clear();
  n->type = type;
  n->type.nullable = v.isNull();
  n->foldable = true;
  SqlConf utc;
  n->sql = v.isNull() ? "NULL" : v.type() == Type::kString ? sqlValue(v, utc) : v.type() == Type::kDouble ? javaDoubleString(v.asDouble()) : sqlValue(v, utc);
  // Spark names a literal column by its value's string ("1", "abc", "NULL").
  n->autoName = v.isNull() ? "NULL" : v.type() == Type::kString ? v.asString() : v.type() == Type::kDouble ? javaDoubleString(v.asDouble()) : v.toString();
  return n;
}

BoundPtr makeCastNode(BoundPtr child, Field to, bool tryCast, bool ansi) {
  (void)ansi;
  auto n = std::make_shared<CastNode>(tryCast);
  to.name.clear();
  n->type = to;
  n->type.nullable = true;
  n->foldable = child->foldable;
  n->sql = fmt::format("{}({} AS {})", tryCast ? "TRY_CAST" : "CAST", child->sql, [&] {
    std::string ddl = typeDDL(to);
    for (auto& c : ddl) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return ddl == "LONG" ? std::string("BIGINT") : ddl;
  }());
  n->autoName = n->sql;
  n->children = {std::move(child)};
  return n;
}

BoundPtr makeScalar(std::string name, std::vector<BoundPtr> args, Field result, RowFn fn, bool nullIntolerant) {
  auto n = std::make_shared<ScalarNode>(std::move(fn), nullIntolerant);
  result.name.clear();
  n->type = result;
  n->foldable = !args.empty();
  for (auto& a : args) n->foldable = n->foldable && a->foldable;
  n->sql = callSql(name, args);
  n->autoName = n->sql;
  n->children = std::move(args);
  return n;
}

BoundPtr castIfNeeded(const BoundPtr& e, const Field& to, const SqlConf& conf) {
  if (sameType(e->type, to)) return e;
  if (e->type.type == Type::kNull) {
    auto l = makeLiteral(Value(), to);
    const_cast<Bound*>(l.get())->sql = e->sql;
    return l;
  }
  auto c = makeCastNode(e, to, false, conf.ansi);
  // An implicit cast keeps the child's name (Spark prints implicit casts without CAST in names).
  auto* m = const_cast<Bound*>(c.get());
  m->sql = e->sql;
  m->autoName = e->autoName;
  return c;
}

Result<Value> evalConstant(const Bound& e, const SqlConf& conf) {
  EvalContext ctx{&conf, 0};
  Row empty;
  const Row* rows[] = {&empty};
  std::vector<Value> out;
  STREAMSIM_RETURN_IF_ERROR(e.eval(Batch{std::span<const Row* const>(rows, 1), &ctx}, out));
  return out[0];
}

std::string callSql(std::string_view name, const std::vector<BoundPtr>& args) {
  std::string out = std::string(name) + "(";
  for (size_t i = 0; i < args.size(); ++i) out += (i ? ", " : "") + args[i]->sql;
  return out + ")";
}

Status wrongNumArgs(const FunctionCall& c, std::string_view expected) {
  return sparkError(Status::Code::kInvalidArgument, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                    {{"functionName", sparkSqlId(c.name)}, {"expectedNum", std::string(expected)},
                     {"actualNum", std::to_string(c.args.size())}, {"docroot", "https://spark.apache.org/docs/latest"}});
}

namespace {
std::string ordinal(size_t i) {
  static const char* kNames[] = {"first", "second", "third", "fourth", "fifth"};
  return i < 5 ? kNames[i] : fmt::format("{}th", i + 1);
}
}  // namespace

Status unexpectedInputType(const FunctionCall& c, size_t i, std::string_view required) {
  return sparkError(Status::Code::kInvalidArgument, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                    {{"sqlExpr", fmt::format("\"{}\"", callSql(c.name, c.args))}, {"paramIndex", ordinal(i)},
                     {"requiredType", std::string(required)}, {"inputSql", fmt::format("\"{}\"", c.args[i]->sql)},
                     {"inputType", sqlTypeOf(c.args[i]->type)}});
}

Status checkArgCount(const FunctionCall& c, size_t min, size_t max) {
  if (c.args.size() >= min && c.args.size() <= max) return Status::OK();
  std::string expected = min == max ? std::to_string(min)
                         : max == SIZE_MAX ? fmt::format(">= {}", min)
                                           : fmt::format("[{}, {}]", min, max);
  return wrongNumArgs(c, expected);
}

Status implicitCast(FunctionCall& c, size_t i, Type to, std::string_view required) {
  const Field& from = c.args[i]->type;
  if (from.type == to) return Status::OK();
  Field target = typeField(to);
  // ImplicitCastInputTypes: null, numbers among themselves, strings to atomic types (ANSI's
  // implicit string casts), numbers and timestamps to strings.
  bool ok = from.type == Type::kNull || (isNumericType(from.type) && isNumericType(to)) ||
            (from.type == Type::kString && to != Type::kStruct && to != Type::kArray && to != Type::kMap) ||
            (to == Type::kString && (isNumericType(from.type) || from.type == Type::kTimestamp || from.type == Type::kBoolean ||
                                     from.type == Type::kDate || from.type == Type::kBinary)) ||
            (from.type == Type::kDate && to == Type::kTimestamp) || (from.type == Type::kTimestamp && to == Type::kDate) ||
            (from.type == Type::kTimestamp && to == Type::kLong && false);
  if (!ok) return unexpectedInputType(c, i, required);
  c.args[i] = castIfNeeded(c.args[i], target, *c.conf);
  return Status::OK();
}

Result<Value> constantArg(const FunctionCall& c, size_t i, std::string_view inputName) {
  if (!c.args[i]->foldable)
    return sparkError(Status::Code::kInvalidArgument, "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
                      {{"sqlExpr", fmt::format("\"{}\"", callSql(c.name, c.args))}, {"inputName", sparkSqlId(inputName)},
                       {"inputType", sqlTypeOf(c.args[i]->type)}, {"inputExpr", fmt::format("\"{}\"", c.args[i]->sql)}});
  return evalConstant(*c.args[i], *c.conf);
}

std::optional<Field> widerType(const Field& a, const Field& b) {
  if (sameType(a, b)) return a;
  if (a.type == Type::kNull) return b;
  if (b.type == Type::kNull) return a;
  if (isNumericType(a.type) && isNumericType(b.type)) return typeField(std::max(a.type, b.type));
  // TypeCoercion.findWiderTypeForTwo: a date and a timestamp widen to the timestamp.
  if ((a.type == Type::kDate && b.type == Type::kTimestamp) || (a.type == Type::kTimestamp && b.type == Type::kDate))
    return typeField(Type::kTimestamp);
  return std::nullopt;
}

}  // namespace streamsim::expr
