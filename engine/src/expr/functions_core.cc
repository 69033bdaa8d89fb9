// Operators and conditional expressions (bound.h): arithmetic (catalyst/expressions/
// arithmetic.scala: Add, Subtract, Multiply, Divide, Remainder, IntegralDivide, UnaryMinus),
// comparisons (predicates.scala: EqualTo, EqualNullSafe, LessThan, ...), three-valued AND / OR /
// NOT, IS [NOT] NULL, IN, BETWEEN (conditionalExpressions.scala: CaseWhen, If; nullExpressions.scala:
// Coalesce, Nvl, NullIf), with Spark's coercion (AnsiTypeCoercion / TypeCoercion: string
// promotion, numeric widening, DivisionTypeCoercion, IntegralDivisionTypeCoercion).
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "expr/bound.h"

namespace streamsim::expr {

namespace {

std::string infixSql(const BoundPtr& l, std::string_view op, const BoundPtr& r) {
  return fmt::format("({} {} {})", l->sql, op, r->sql);
}

BoundPtr named(BoundPtr n, std::string sql) {
  auto* m = const_cast<Bound*>(n.get());
  m->sql = sql;
  m->autoName = std::move(sql);
  return n;
}

Status binaryDiffTypes(const std::string& sql, const Field& l, const Field& r) {
  return sparkError(Status::Code::kInvalidArgument, "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES",
                    {{"sqlExpr", fmt::format("\"{}\"", sql)}, {"left", sqlTypeOf(l)}, {"right", sqlTypeOf(r)}});
}
Status binaryWrongType(const std::string& sql, std::string_view required, const Field& t) {
  return sparkError(Status::Code::kInvalidArgument, "DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE",
                    {{"sqlExpr", fmt::format("\"{}\"", sql)}, {"inputType", std::string(required)}, {"actualDataType", sqlTypeOf(t)}});
}

// The common type of a binary operator's operands after Spark's string promotion
// (AnsiStringPromotionTypeCoercion.findWiderTypeForString under ANSI; TypeCoercion's
// PromoteStrings otherwise: double for arithmetic, the other side's type for comparisons).
std::optional<Field> binaryCommonType(const Field& l, const Field& r, bool comparison, const SqlConf& conf) {
  if (auto w = widerType(l, r)) return w;
  auto promote = [&](const Field& other) -> std::optional<Field> {
    if (conf.ansi) {
      if (other.type == Type::kInt || other.type == Type::kLong) return typeField(Type::kLong);
      if (other.type == Type::kDouble) return typeField(Type::kDouble);
      if (other.type == Type::kBoolean || other.type == Type::kTimestamp) return typeField(other.type);
      return std::nullopt;
    }
    if (!comparison && isNumericType(other.type)) return typeField(Type::kDouble);
    if (comparison && (isNumericType(other.type) || other.type == Type::kBoolean || other.type == Type::kTimestamp))
      return typeField(other.type);
    return std::nullopt;
  };
  if (l.type == Type::kString) return promote(r);
  if (r.type == Type::kString) return promote(l);
  return std::nullopt;
}

enum class ArithOp { kAdd, kSub, kMul };

Result<Value> intArith(ArithOp op, int64_t a, int64_t b, bool isInt, bool ansi) {
  int64_t r = 0;
  bool of = false;
  if (isInt) {
    int32_t x = static_cast<int32_t>(a), y = static_cast<int32_t>(b), z = 0;
    of = op == ArithOp::kAdd ? __builtin_add_overflow(x, y, &z)
         : op == ArithOp::kSub ? __builtin_sub_overflow(x, y, &z)
                               : __builtin_mul_overflow(x, y, &z);
    if (of && ansi)
      return arithmeticOverflow("integer overflow", op == ArithOp::kAdd ? "try_add" : op == ArithOp::kSub ? "try_subtract" : "try_multiply");
    return Value(z);
  }
  of = op == ArithOp::kAdd ? __builtin_add_overflow(a, b, &r)
       : op == ArithOp::kSub ? __builtin_sub_overflow(a, b, &r)
                             : __builtin_mul_overflow(a, b, &r);
  if (of && ansi)
    return arithmeticOverflow("long overflow", op == ArithOp::kAdd ? "try_add" : op == ArithOp::kSub ? "try_subtract" : "try_multiply");
  return Value(r);
}

Value typed(Type t, int64_t v) { return t == Type::kInt ? Value(static_cast<int32_t>(v)) : Value(v); }

// + - * % div / over numbers; timestamp +/- INTERVAL.
FunctionBuilder arithmetic(std::string op) {
  return [op](FunctionCall& c) -> Result<BoundPtr> {
    STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 2, 2));
    BoundPtr l = c.args[0], r = c.args[1];
    std::string sql = infixSql(l, op, r);
    const SqlConf& conf = *c.conf;
    // Timestamp +/- interval (TimestampAddInterval): the interval in milliseconds.
    if ((op == "+" || op == "-") && r->isInterval &&
        (l->type.type == Type::kTimestamp || l->type.type == Type::kString || l->type.type == Type::kNull)) {
      BoundPtr ts = castIfNeeded(l, typeField(Type::kTimestamp), conf);
      int sign = op == "+" ? 1 : -1;
      return named(makeScalar(op, {ts, r}, typeField(Type::kTimestamp),
                              [sign](const Value* a, const EvalContext&) -> Result<Value> {
                                int64_t out = 0;
                                if (__builtin_add_overflow(a[0].asLong(), sign * a[1].asLong(), &out))
                                  return sparkError(Status::Code::kTaskFailed, "DATETIME_OVERFLOW",
                                                    {{"operation", "add interval"}});
                                return Value::timestamp(out);
                              }),
                   sql);
    }
    if (op == "+" && l->isInterval && r->type.type == Type::kTimestamp) {
      FunctionCall swapped{c.name, {r, l}, c.conf};
      return arithmetic(op)(swapped);
    }
    auto common = binaryCommonType(l->type, r->type, false, conf);
    if (!common) {
      if (!sameType(l->type, r->type)) return binaryDiffTypes(sql, l->type, r->type);
      return binaryWrongType(sql, "\"NUMERIC\"", l->type);
    }
    Field t = *common;
    if (t.type == Type::kNull) t = typeField(op == "/" ? Type::kDouble : Type::kInt);
    if (!isNumericType(t.type)) return binaryWrongType(sql, "\"NUMERIC\"", t);
    if (op == "/") t = typeField(Type::kDouble);  // DivisionTypeCoercion (no decimals here)
    if (op == "div") t = typeField(Type::kLong);  // IntegralDivisionTypeCoercion
    l = castIfNeeded(l, t, conf);
    r = castIfNeeded(r, t, conf);
    bool ansi = conf.ansi;
    Type tt = t.type;
    RowFn fn;
    if (op == "+" || op == "-" || op == "*") {
      ArithOp aop = op == "+" ? ArithOp::kAdd : op == "-" ? ArithOp::kSub : ArithOp::kMul;
      fn = [aop, tt, ansi](const Value* a, const EvalContext&) -> Result<Value> {
        if (tt == Type::kDouble) {
          double x = a[0].asDouble(), y = a[1].asDouble();
          return Value(aop == ArithOp::kAdd ? x + y : aop == ArithOp::kSub ? x - y : x * y);
        }
        return intArith(aop, a[0].asLong(), a[1].asLong(), tt == Type::kInt, ansi);
      };
    } else if (op == "/") {
      fn = [ansi](const Value* a, const EvalContext&) -> Result<Value> {
        double y = a[1].asDouble();
        if (y == 0) {
          if (ansi) return divideByZero();
          return Value();
        }
        return Value(a[0].asDouble() / y);
      };
    } else if (op == "%") {
      fn = [tt, ansi](const Value* a, const EvalContext&) -> Result<Value> {
        if (tt == Type::kDouble) {
          double y = a[1].asDouble();
          if (y == 0) return ansi ? Result<Value>(divideByZero()) : Result<Value>(Value());
          return Value(std::fmod(a[0].asDouble(), y));
        }
        int64_t y = a[1].asLong();
        if (y == 0) return ansi ? Result<Value>(divideByZero()) : Result<Value>(Value());
        if (y == -1) return typed(tt, 0);
        return typed(tt, a[0].asLong() % y);
      };
    } else {  // div
      fn = [ansi](const Value* a, const EvalContext&) -> Result<Value> {
        int64_t x = a[0].asLong(), y = a[1].asLong();
        if (y == 0) return ansi ? Result<Value>(divideByZero()) : Result<Value>(Value());
        if (x == std::numeric_limits<int64_t>::min() && y == -1) {
          if (ansi) return arithmeticOverflow("Overflow in integral divide", "try_divide");
          return Value(x);
        }
        return Value(x / y);
      };
    }
    Field result = t;
    return named(makeScalar(op, {l, r}, result, fn), sql);
  };
}

Result<BoundPtr> buildNegative(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 1, 1));
  BoundPtr e = c.args[0];
  if (e->isInterval) {
    auto n = makeScalar("negative", {e}, e->type, [](const Value* a, const EvalContext&) -> Result<Value> {
      return Value(-a[0].asLong());
    });
    const_cast<Bound*>(n.get())->isInterval = true;
    return named(n, fmt::format("(- {})", e->sql));
  }
  if (e->type.type == Type::kString) e = castIfNeeded(e, typeField(Type::kDouble), *c.conf);
  if (e->type.type == Type::kNull) e = castIfNeeded(e, typeField(Type::kDouble), *c.conf);
  if (!isNumericType(e->type.type)) return unexpectedInputType(c, 0, "(\"NUMERIC\" or \"INTERVAL DAY TO SECOND\" or \"INTERVAL YEAR TO MONTH\" or \"INTERVAL\")");
  Type t = e->type.type;
  bool ansi = c.conf->ansi;
  return named(makeScalar("negative", {e}, e->type, [t, ansi](const Value* a, const EvalContext&) -> Result<Value> {
                 if (t == Type::kDouble) return Value(-a[0].asDouble());
                 int64_t x = a[0].asLong();
                 if (t == Type::kInt && x == INT32_MIN) {
                   if (ansi) return arithmeticOverflow("integer overflow", "");
                   return Value(int32_t{INT32_MIN});
                 }
                 if (t == Type::kLong && x == INT64_MIN) {
                   if (ansi) return arithmeticOverflow("long overflow", "");
                   return Value(x);
                 }
                 return typed(t, -x);
               }),
               fmt::format("(- {})", e->sql));
}

// = <=> < <= > >=
FunctionBuilder comparison(std::string op) {
  return [op](FunctionCall& c) -> Result<BoundPtr> {
    STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 2, 2));
    BoundPtr l = c.args[0], r = c.args[1];
    std::string sql = infixSql(l, op, r);
    auto common = binaryCommonType(l->type, r->type, true, *c.conf);
    if (!common) return binaryDiffTypes(sql, l->type, r->type);
    if (common->type == Type::kMap)
      return sparkError(Status::Code::kInvalidArgument, "DATATYPE_MISMATCH.INVALID_ORDERING_TYPE",
                        {{"sqlExpr", fmt::format("\"{}\"", sql)}, {"functionName", sparkSqlId(op)}, {"dataType", sqlTypeOf(*common)}});
    l = castIfNeeded(l, *common, *c.conf);
    r = castIfNeeded(r, *common, *c.conf);
    bool nullSafe = op == "<=>";
    RowFn fn = [op, nullSafe](const Value* a, const EvalContext&) -> Result<Value> {
      if (nullSafe) {
        if (a[0].isNull() || a[1].isNull()) return Value(a[0].isNull() && a[1].isNull());
        return Value(compare(a[0], a[1]) == 0);
      }
      int cmp = compare(a[0], a[1]);
      if (op == "=") return Value(cmp == 0);
      if (op == "<") return Value(cmp < 0);
      if (op == "<=") return Value(cmp <= 0);
      if (op == ">") return Value(cmp > 0);
      return Value(cmp >= 0);
    };
    Field bt = typeField(Type::kBoolean, !nullSafe);
    return named(makeScalar(op, {l, r}, bt, fn, !nullSafe), sql);
  };
}

Status requireBoolean(FunctionCall& c, size_t i) {
  Type t = c.args[i]->type.type;
  if (t == Type::kBoolean) return Status::OK();
  if (t == Type::kNull || (t == Type::kString && c.conf->ansi) || t == Type::kString) {
    c.args[i] = castIfNeeded(c.args[i], typeField(Type::kBoolean), *c.conf);
    return Status::OK();
  }
  return unexpectedInputType(c, i, "\"BOOLEAN\"");
}

// AND / OR with SQL's three-valued logic; the right side runs only on rows the left does not decide.
class LogicNode final : public Bound {
 public:
  explicit LogicNode(bool isAnd) : and_(isAnd) {}
  Status eval(const Batch& b, std::vector<Value>& out) const override {
    STREAMSIM_RETURN_IF_ERROR(children[0]->eval(b, out));
    std::vector<const Row*> rest;
    std::vector<size_t> at;
    for (size_t i = 0; i < b.size(); ++i) {
      const Value& v = out[i];
      bool decided = !v.isNull() && v.asBool() == !and_;
      if (!decided) {
        rest.push_back(b.rows[i]);
        at.push_back(i);
      }
    }
    if (rest.empty()) return Status::OK();
    std::vector<Value> right;
    STREAMSIM_RETURN_IF_ERROR(children[1]->eval(Batch{rest, b.ctx}, right));
    for (size_t k = 0; k < at.size(); ++k) {
      Value& l = out[at[k]];
      const Value& r = right[k];
      if (!r.isNull() && r.asBool() == !and_) {
        l = Value(!and_);
      } else if (l.isNull() || r.isNull()) {
        l = Value();
      } else {
        l = Value(and_);
      }
    }
    return Status::OK();
  }

 private:
  bool and_;
};

FunctionBuilder logic(bool isAnd) {
  return [isAnd](FunctionCall& c) -> Result<BoundPtr> {
    STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 2, 2));
    STREAMSIM_RETURN_IF_ERROR(requireBoolean(c, 0));
    STREAMSIM_RETURN_IF_ERROR(requireBoolean(c, 1));
    auto n = std::make_shared<LogicNode>(isAnd);
    n->type = typeField(Type::kBoolean);
    n->foldable = c.args[0]->foldable && c.args[1]->foldable;
    n->sql = infixSql(c.args[0], isAnd ? "AND" : "OR", c.args[1]);
    n->autoName = n->sql;
    n->children = {c.args[0], c.args[1]};
    return BoundPtr(n);
  };
}

// CASE WHEN c1 THEN v1 ... [ELSE e] END; args c1, v1, c2, v2, ..., [e]. Each branch's value is
// evaluated only on the rows that take it.
class CaseWhenNode final : public Bound {
 public:
  Status eval(const Batch& b, std::vector<Value>& out) const override {
    size_t n = b.size();
    out.assign(n, Value());
    std::vector<size_t> pending(n);
    for (size_t i = 0; i < n; ++i) pending[i] = i;
    size_t pairs = children.size() / 2;
    for (size_t p = 0; p < pairs && !pending.empty(); ++p) {
      std::vector<const Row*> rows;
      for (size_t i : pending) rows.push_back(b.rows[i]);
      std::vector<Value> cond;
      STREAMSIM_RETURN_IF_ERROR(children[2 * p]->eval(Batch{rows, b.ctx}, cond));
      std::vector<size_t> take, next;
      std::vector<const Row*> takeRows;
      for (size_t k = 0; k < pending.size(); ++k) {
        if (!cond[k].isNull() && cond[k].asBool()) {
          take.push_back(pending[k]);
          takeRows.push_back(b.rows[pending[k]]);
        } else {
          next.push_back(pending[k]);
        }
      }
      if (!take.empty()) {
        std::vector<Value> vals;
        STREAMSIM_RETURN_IF_ERROR(children[2 * p + 1]->eval(Batch{takeRows, b.ctx}, vals));
        for (size_t k = 0; k < take.size(); ++k) out[take[k]] = std::move(vals[k]);
      }
      pending = std::move(next);
    }
    if (children.size() % 2 == 1 && !pending.empty()) {
      std::vector<const Row*> rows;
      for (size_t i : pending) rows.push_back(b.rows[i]);
      std::vector<Value> vals;
      STREAMSIM_RETURN_IF_ERROR(children.back()->eval(Batch{rows, b.ctx}, vals));
      for (size_t k = 0; k < pending.size(); ++k) out[pending[k]] = std::move(vals[k]);
    }
    return Status::OK();
  }
};

// The common type of several values (TypeCoercion.findWiderCommonType), or DATA_DIFF_TYPES.
Result<Field> commonType(FunctionCall& c, const std::vector<size_t>& idx, std::string_view fnName) {
  std::optional<Field> t = typeField(Type::kNull);
  for (size_t i : idx) {
    auto w = widerType(*t, c.args[i]->type);
    if (!w) w = binaryCommonType(*t, c.args[i]->type, false, *c.conf);
    if (!w) {
      std::string types;
      for (size_t j = 0; j < idx.size(); ++j) types += (j ? " or " : "") + sqlTypeOf(c.args[idx[j]]->type);
      return sparkError(Status::Code::kInvalidArgument, "DATATYPE_MISMATCH.DATA_DIFF_TYPES",
                        {{"sqlExpr", fmt::format("\"{}\"", callSql(fnName, c.args))}, {"functionName", sparkSqlId(fnName)},
                         {"dataType", "[" + types + "]"}});
    }
    t = w;
  }
  for (size_t i : idx) c.args[i] = castIfNeeded(c.args[i], *t, *c.conf);
  return *t;
}

Result<BoundPtr> buildCaseWhen(FunctionCall& c) {
  if (c.args.size() < 2) return wrongNumArgs(c, "> 1");
  std::vector<size_t> values;
  for (size_t i = 0; i + 1 < c.args.size(); i += 2) {
    STREAMSIM_RETURN_IF_ERROR(requireBoolean(c, i));
    values.push_back(i + 1);
  }
  if (c.args.size() % 2 == 1) values.push_back(c.args.size() - 1);
  STREAMSIM_ASSIGN_OR_RETURN(Field t, commonType(c, values, "casewhen"));
  auto n = std::make_shared<CaseWhenNode>();
  n->type = t;
  n->type.nullable = true;
  std::string sql = "CASE";
  for (size_t i = 0; i + 1 < c.args.size(); i += 2) sql += fmt::format(" WHEN {} THEN {}", c.args[i]->sql, c.args[i + 1]->sql);
  if (c.args.size() % 2 == 1) sql += " ELSE " + c.args.back()->sql;
  n->sql = sql + " END";
  n->autoName = n->sql;
  n->children = c.args;
  return BoundPtr(n);
}

// coalesce(a, b, ...): the first non-null; later arguments run only where needed.
class CoalesceNode final : public Bound {
 public:
  Status eval(const Batch& b, std::vector<Value>& out) const override {
    STREAMSIM_RETURN_IF_ERROR(children[0]->eval(b, out));
    for (size_t k = 1; k < children.size(); ++k) {
      std::vector<const Row*> rows;
      std::vector<size_t> at;
      for (size_t i = 0; i < out.size(); ++i)
        if (out[i].isNull()) {
          rows.push_back(b.rows[i]);
          at.push_back(i);
        }
      if (rows.empty()) break;
      std::vector<Value> vals;
      STREAMSIM_RETURN_IF_ERROR(children[k]->eval(Batch{rows, b.ctx}, vals));
      for (size_t j = 0; j < at.size(); ++j) out[at[j]] = std::move(vals[j]);
    }
    return Status::OK();
  }
};

FunctionBuilder coalesceLike(std::string name, size_t minArgs, size_t maxArgs) {
  return [name, minArgs, maxArgs](FunctionCall& c) -> Result<BoundPtr> {
    STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, minArgs, maxArgs));
    std::vector<size_t> all;
    for (size_t i = 0; i < c.args.size(); ++i) all.push_back(i);
    STREAMSIM_ASSIGN_OR_RETURN(Field t, commonType(c, all, name));
    auto n = std::make_shared<CoalesceNode>();
    n->type = t;
    n->type.nullable = true;
    n->sql = callSql(name, c.args);
    n->autoName = n->sql;
    n->children = c.args;
    return BoundPtr(n);
  };
}

Result<BoundPtr> buildIf(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 3, 3));
  STREAMSIM_RETURN_IF_ERROR(requireBoolean(c, 0));
  STREAMSIM_ASSIGN_OR_RETURN(Field t, commonType(c, {1, 2}, "if"));
  auto n = std::make_shared<CaseWhenNode>();
  n->type = t;
  n->type.nullable = true;
  n->sql = fmt::format("(IF({}, {}, {}))", c.args[0]->sql, c.args[1]->sql, c.args[2]->sql);
  n->autoName = n->sql;
  n->children = c.args;
  return BoundPtr(n);
}

Result<BoundPtr> buildNot(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 1, 1));
  STREAMSIM_RETURN_IF_ERROR(requireBoolean(c, 0));
  return named(makeScalar("not", c.args, typeField(Type::kBoolean),
                          [](const Value* a, const EvalContext&) -> Result<Value> { return Value(!a[0].asBool()); }),
               fmt::format("(NOT {})", c.args[0]->sql));
}

FunctionBuilder nullTest(bool isNull) {
  return [isNull](FunctionCall& c) -> Result<BoundPtr> {
    STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 1, 1));
    return named(makeScalar(isNull ? "isnull" : "isnotnull", c.args, typeField(Type::kBoolean, false),
                            [isNull](const Value* a, const EvalContext&) -> Result<Value> {
                              return Value(a[0].isNull() == isNull);
                            },
                            false),
                 fmt::format("({} IS {}NULL)", c.args[0]->sql, isNull ? "" : "NOT "));
  };
}

// x IN (a, b, ...): true on a match, null when no match and x or an item is null (In.eval).
Result<BoundPtr> buildIn(FunctionCall& c) {
  if (c.args.size() < 2) return wrongNumArgs(c, "> 1");
  std::vector<size_t> all;
  for (size_t i = 0; i < c.args.size(); ++i) all.push_back(i);
  auto t = commonType(c, all, "in");
  if (!t.ok()) {
    std::string list;
    for (size_t i = 1; i < c.args.size(); ++i) list += (i > 1 ? ", " : "") + c.args[i]->sql;
    return sparkError(Status::Code::kInvalidArgument, "DATATYPE_MISMATCH.DATA_DIFF_TYPES",
                      {{"sqlExpr", fmt::format("\"({} IN ({}))\"", c.args[0]->sql, list)}, {"functionName", "`in`"},
                       {"dataType", t.status().parameters().empty() ? "" : t.status().parameters().back().second}});
  }
  size_t n = c.args.size();
  std::string list;
  for (size_t i = 1; i < n; ++i) list += (i > 1 ? ", " : "") + c.args[i]->sql;
  return named(makeScalar("in", c.args, typeField(Type::kBoolean),
                          [n](const Value* a, const EvalContext&) -> Result<Value> {
                            if (a[0].isNull()) return Value();
                            bool sawNull = false;
                            for (size_t i = 1; i < n; ++i) {
                              if (a[i].isNull()) {
                                sawNull = true;
                              } else if (compare(a[0], a[i]) == 0) {
                                return Value(true);
                              }
                            }
                            return sawNull ? Value() : Value(false);
                          },
                          false),
               fmt::format("({} IN ({}))", c.args[0]->sql, list));
}

// x BETWEEN lo AND hi = lo <= x AND x <= hi (Spark's AstBuilder rewrites it so).
Result<BoundPtr> buildBetween(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 3, 3));
  FunctionCall ge{">=", {c.args[0], c.args[1]}, c.conf};
  STREAMSIM_ASSIGN_OR_RETURN(BoundPtr a, comparison(">=")(ge));
  FunctionCall le{"<=", {c.args[0], c.args[2]}, c.conf};
  STREAMSIM_ASSIGN_OR_RETURN(BoundPtr b, comparison("<=")(le));
  FunctionCall both{"and", {a, b}, c.conf};
  STREAMSIM_ASSIGN_OR_RETURN(BoundPtr r, logic(true)(both));
  return named(r, fmt::format("({} BETWEEN {} AND {})", c.args[0]->sql, c.args[1]->sql, c.args[2]->sql));
}

Result<BoundPtr> buildNullIf(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 2, 2));
  FunctionCall eq{"=", {c.args[0], c.args[1]}, c.conf};
  STREAMSIM_ASSIGN_OR_RETURN(BoundPtr cond, comparison("=")(eq));
  auto n = std::make_shared<CaseWhenNode>();
  n->type = c.args[0]->type;
  n->type.nullable = true;
  n->sql = callSql("nullif", c.args);
  n->autoName = n->sql;
  n->children = {cond, makeLiteral(Value(), c.args[0]->type), c.args[0]};
  return BoundPtr(n);
}

Result<BoundPtr> buildInterval(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 1, 1));
  STREAMSIM_ASSIGN_OR_RETURN(Value v, constantArg(c, 0, "interval"));
  auto l = makeLiteral(v, typeField(Type::kLong));
  auto* m = const_cast<Bound*>(l.get());
  m->isInterval = true;
  m->sql = fmt::format("INTERVAL '{}'", formatDuration(v.asLong()));
  m->autoName = m->sql;
  return l;
}

Result<BoundPtr> buildPositive(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 1, 1));
  BoundPtr e = c.args[0];
  if (e->type.type == Type::kString) e = castIfNeeded(e, typeField(Type::kDouble), *c.conf);
  if (!isNumericType(e->type.type) && !e->isInterval) return unexpectedInputType(c, 0, "\"NUMERIC\"");
  return e;
}

}  // namespace

void addCoreFunctions(FunctionTable& t) {
  for (const char* op : {"+", "-", "*", "/", "%", "div"}) t.emplace_back(op, arithmetic(op));
  t.emplace_back("mod", arithmetic("%"));
  t.emplace_back("negative", buildNegative);
  t.emplace_back("positive", buildPositive);
  for (const char* op : {"=", "<=>", "<", "<=", ">", ">="}) t.emplace_back(op, comparison(op));
  t.emplace_back("==", comparison("="));
  t.emplace_back("and", logic(true));
  t.emplace_back("or", logic(false));
  t.emplace_back("not", buildNot);
  t.emplace_back("!", buildNot);
  t.emplace_back("isnull", nullTest(true));
  t.emplace_back("isnotnull", nullTest(false));
  t.emplace_back("in", buildIn);
  t.emplace_back("between", buildBetween);
  t.emplace_back("casewhen", buildCaseWhen);
  t.emplace_back("when", buildCaseWhen);
  t.emplace_back("if", buildIf);
  t.emplace_back("iff", buildIf);
  t.emplace_back("coalesce", coalesceLike("coalesce", 1, SIZE_MAX));
  t.emplace_back("nvl", coalesceLike("nvl", 2, 2));
  t.emplace_back("ifnull", coalesceLike("ifnull", 2, 2));
  t.emplace_back("nullif", buildNullIf);
  t.emplace_back("interval", buildInterval);
}

namespace {
FunctionTable buildTable() {
  FunctionTable t;
  addCoreFunctions(t);
  addMathFunctions(t);
  addStringFunctions(t);
  addTimeFunctions(t);
  addJsonFunctions(t);
  addCollectionFunctions(t);
  addRandomFunctions(t);
  return t;
}
}  // namespace

const FunctionBuilder* findFunction(std::string_view name) {
  // Built once and never changed: a constant table, not process-wide mutable state.
  static const FunctionTable kTable = buildTable();
  std::string n(name);
  for (auto& ch : n) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  for (const auto& [k, f] : kTable)
    if (k == n) return &f;
  return nullptr;
}

}  // namespace streamsim::expr
