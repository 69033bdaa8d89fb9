// Resolved expressions (internal to the expression layer): a tree of Bound nodes with their
// result type, evaluated column at a time over a batch of row pointers. Conditional nodes (AND,
// OR, CASE WHEN, coalesce, if) evaluate a child only on the rows that need it, so an error on a
// row a condition skips is not raised -- as Spark's interpreted eval short-circuits.
#pragma once

#include <functional>
#include <optional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "streamsim/expr/analyzer.h"
#include "streamsim/spark_errors.h"

namespace streamsim::expr {

struct Batch {
  std::span<const Row* const> rows;
  const EvalContext* ctx = nullptr;
  size_t size() const { return rows.size(); }
};

class Bound;
using BoundPtr = std::shared_ptr<const Bound>;

class Bound {
 public:
  virtual ~Bound() = default;
  // out is resized to b.size().
  virtual Status eval(const Batch& b, std::vector<Value>& out) const = 0;
  Field type;           // name unused
  std::string sql;      // Spark's pretty SQL of the node
  std::string autoName; // the output name Spark gives it (column: its name; else sql)
  bool foldable = false;
  bool isInterval = false;
  bool isNamed = false;  // a column, a struct field or an alias: struct() keeps its name  // an INTERVAL literal (a BIGINT of milliseconds)
  std::vector<BoundPtr> children;
};

// Evaluates a foldable expression once (a literal argument such as a format or a schema).
Result<Value> evalConstant(const Bound& e, const SqlConf& conf);

// Type helpers.
Field typeField(Type t, bool nullable = true);
Field arrayOf(const Field& element);
bool isNumericType(Type t);  // int, long, double
bool sameType(const Field& a, const Field& b);  // by type, nested included, nullability ignored
std::string sqlTypeOf(const Field& f);  // Spark's toSQLType: "\"INT\"", "\"ARRAY<BIGINT>\""

// Spark's toSQLValue of a literal: 'abc', 12, 12L, 1.5D, TIMESTAMP '...', NULL.
std::string sqlValue(const Value& v, const SqlConf& conf);

// Nodes the analyzer and the function groups build.
BoundPtr makeLiteral(Value v, Field type);
BoundPtr makeCastNode(BoundPtr child, Field to, bool tryCast, bool ansi);
// A scalar function over its children's values: `fn` sees one row's argument values; with
// nullIntolerant, a null argument gives null without calling fn.
using RowFn = std::function<Result<Value>(const Value* args, const EvalContext& ctx)>;
BoundPtr makeScalar(std::string name, std::vector<BoundPtr> args, Field result, RowFn fn,
                    bool nullIntolerant = true);
// A call of a user-defined function (user_functions.h) over its analysed arguments.
struct UserFunction;
BoundPtr makeUserFunctionCall(const UserFunction& f, std::vector<BoundPtr> args);
// Casts `e` to `to` unless it already has that type (a null literal becomes a typed null).
BoundPtr castIfNeeded(const BoundPtr& e, const Field& to, const SqlConf& conf);

// Cast semantics (cast.cc): Spark's Cast.scala between the supported types.
bool canCast(const Field& from, const Field& to, bool ansi);
Result<Value> castValue(const Value& v, const Field& from, const Field& to, const EvalContext& ctx,
                        bool tryCast);

// Timestamp <-> text in the session zone (time_format.cc).
std::string formatTimestampSpark(TimeMs t, const TimeZone& zone);  // 2026-01-01 00:00:00.25
// Spark's stringToTimestamp: "yyyy[-mm[-dd]][( |T)hh:mm[:ss[.fff]]][zone]"; a missing zone is
// the session zone. nullopt when malformed.
std::optional<TimeMs> parseTimestampSpark(std::string_view s, const TimeZone& sessionZone);
// Proleptic Gregorian days since 1970-01-01 and back: streamsim/time.h's daysFromCivil and
// civilFromDays.
// Java's Double.toString ("1.0", "1.0E10", "NaN", "Infinity").
std::string javaDoubleString(double d);

// Spark's error conditions raised at evaluation.
Status castInvalidInput(const Value& v, const Field& from, const Field& to, const SqlConf& conf);
Status castOverflow(const Value& v, const Field& from, const Field& to, const SqlConf& conf);
Status arithmeticOverflow(std::string_view message, std::string_view tryFunction);
Status divideByZero();

// The function table: a builder per Spark function name (lower case), given the analysed
// arguments; returns the node or an analysis error (wrong argument count or types).
struct FunctionCall {
  std::string name;  // as written
  std::vector<BoundPtr> args;
  const SqlConf* conf = nullptr;
  int pos = -1;  // the call's offset in its text (random functions' per-call seed)
};
using FunctionBuilder = std::function<Result<BoundPtr>(FunctionCall&)>;
using FunctionTable = std::vector<std::pair<std::string_view, FunctionBuilder>>;
// Each group adds its functions (functions_*.cc).
void addCoreFunctions(FunctionTable& t);
void addMathFunctions(FunctionTable& t);
void addStringFunctions(FunctionTable& t);
void addTimeFunctions(FunctionTable& t);
void addJsonFunctions(FunctionTable& t);
void addCollectionFunctions(FunctionTable& t);
void addRandomFunctions(FunctionTable& t);
// The builder for `name` (case-insensitive), or nullptr.
const FunctionBuilder* findFunction(std::string_view name);

// Analysis errors of function calls.
Status wrongNumArgs(const FunctionCall& c, std::string_view expected);
Status unexpectedInputType(const FunctionCall& c, size_t paramIndex, std::string_view required);
std::string callSql(std::string_view name, const std::vector<BoundPtr>& args);

// Helpers for the function groups.
Status checkArgCount(const FunctionCall& c, size_t min, size_t max);
// Implicit casts of Spark's ImplicitCastInputTypes: argument i to `to` when the cast is allowed,
// else DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE naming `required`.
Status implicitCast(FunctionCall& c, size_t i, Type to, std::string_view required);
// A foldable argument's value (a format string, a schema), or NON_FOLDABLE_INPUT.
Result<Value> constantArg(const FunctionCall& c, size_t i, std::string_view inputName);
// The wider of two types for coercion (int < long < double; string with a number by ANSI rules).
std::optional<Field> widerType(const Field& a, const Field& b);

}  // namespace streamsim::expr
