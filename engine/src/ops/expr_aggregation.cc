// Planning groupBy(...).agg(...) with expressions (ops/expr_aggregation.h).
#include "streamsim/ops/expr_aggregation.h"

#include <fmt/format.h>

#include "streamsim/spark_errors.h"
#include "streamsim/time.h"

namespace streamsim {
namespace {

using expr::Node;
using expr::NodePtr;

// Spark's interval string of a window duration ('10 minutes', 'interval 1 hour', '30 seconds').
Result<DurationMs> intervalArg(const NodePtr& n, std::string_view fn, std::string_view what) {
  if (!n || n->kind != Node::Kind::kLiteral || n->literal.type() != Type::kString) {
    return Status::InvalidArgument(fmt::format(
        "{}(): the {} must be an interval string literal such as '10 minutes'", fn, what));
  }
  std::string text = n->literal.asString();
  if (text.size() > 9 && (text.compare(0, 9, "interval ") == 0 || text.compare(0, 9, "INTERVAL ") == 0)) text = text.substr(9);
  auto d = parseDuration(text);
  if (!d.ok()) return Status::InvalidArgument(fmt::format("{}(): the {} '{}': {}", fn, what, n->literal.asString(), d.status().message()));
  return *d;
}

struct Planner {
  AggregationPlan plan;

  // A plain column's name, or a projected column holding `n` named `name`.
  std::string columnFor(const NodePtr& n, const std::string& name) {
    if (n->kind == Node::Kind::kColumn && n->parts.size() == 1) return n->parts[0];
    for (size_t i = 0; i < plan.projectNames.size(); ++i)
      if (plan.projectNames[i] == name) return name;
    plan.projectNames.push_back(name);
    plan.projectValues.push_back(expr::Column(n));
    return name;
  }

  Status grouping(const expr::Column& c) {
    NodePtr n = c.node();
    std::string alias;
    if (n->kind == Node::Kind::kAlias) {
      alias = n->name;
      n = n->args.at(0);
    }
    if (n->kind == Node::Kind::kCall && (n->name == "window" || n->name == "session_window")) {
      WindowAggregationSpec& s = plan.spec;
      if (s.kind != WindowKind::kNone) {
        // ResolveTimeWindows: "Multiple time/session window expressions would result in a
        // cartesian product of rows, therefore they are currently not supported."
        return sparkError(Status::Code::kInvalidArgument, "_LEGACY_ERROR_TEMP_3102",
                          {{"msg", "Multiple time/session window expressions would result in a cartesian product of rows, therefore they are currently not supported."}});
      }
      bool session = n->name == "session_window";
      size_t maxArgs = session ? 2 : 4;
      if (n->args.size() < 2 || n->args.size() > maxArgs) {
        return Status::InvalidArgument(fmt::format(
            "{}() takes {} arguments, got {}", n->name, session ? "2 (timeColumn, gapDuration)" : "2 to 4 (timeColumn, windowDuration[, slideDuration[, startTime]])", n->args.size()));
      }
      s.window.timeColumn = columnFor(n->args[0], expr::Column(n->args[0]).toString());
      if (session) {
        s.kind = WindowKind::kSession;
        STREAMSIM_ASSIGN_OR_RETURN(s.sessionGap, intervalArg(n->args[1], "session_window", "gap duration"));
      } else {
        s.kind = WindowKind::kTime;
        STREAMSIM_ASSIGN_OR_RETURN(s.window.windowDuration, intervalArg(n->args[1], "window", "window duration"));
        if (n->args.size() > 2) {
          STREAMSIM_ASSIGN_OR_RETURN(s.window.slideDuration, intervalArg(n->args[2], "window", "slide duration"));
        }
        if (n->args.size() > 3) {
          STREAMSIM_ASSIGN_OR_RETURN(s.window.startTime, intervalArg(n->args[3], "window", "start time"));
        }
      }
      s.windowColumn = alias.empty() ? n->name : alias;
      s.windowPosition = s.groupBy.size();
      return Status::OK();
    }
    if (n->kind == Node::Kind::kStar) return Status::InvalidArgument("groupBy: '*' is not a grouping expression");
    plan.spec.groupBy.push_back(columnFor(n, alias.empty() ? expr::Column(n).toString() : alias));
    return Status::OK();
  }

  Status aggregate(const expr::Column& c) {
    NodePtr n = c.node();
    std::string alias;
    if (n->kind == Node::Kind::kAlias) {
      alias = n->name;
      n = n->args.at(0);
    }
    static const std::pair<std::string_view, AggregateFunction> kFns[] = {
        {"count", AggregateFunction::kCount},      {"sum", AggregateFunction::kSum},
        {"avg", AggregateFunction::kAvg},          {"mean", AggregateFunction::kAvg},
        {"min", AggregateFunction::kMin},          {"max", AggregateFunction::kMax},
        {"first", AggregateFunction::kFirst},      {"last", AggregateFunction::kLast},
        {"first_value", AggregateFunction::kFirst}, {"last_value", AggregateFunction::kLast},
        {"collect_list", AggregateFunction::kCollectList}, {"array_agg", AggregateFunction::kCollectList},
        {"collect_set", AggregateFunction::kCollectSet}};
    const AggregateFunction* fn = nullptr;
    if (n->kind == Node::Kind::kCall)
      for (const auto& [name, f] : kFns)
        if (n->name == name) fn = &f;
    if (fn == nullptr) {
      std::string what = c.toString();
      if (n->kind == Node::Kind::kCall && n->name == "approx_count_distinct")
        return Status::InvalidArgument(fmt::format("agg: {}: approx_count_distinct (HyperLogLog++) is not in streamsim yet", what));
      return Status::InvalidArgument(fmt::format(
          "agg: '{}' is not an aggregate function call; streamsim's agg takes count, sum, avg / mean, "
          "min, max, first, last, collect_list, collect_set (each alone, optionally AS a name)",
          what));
    }
    if (n->distinct) {
      // UnsupportedOperationChecker.checkForStreaming (Aggregate with a distinct aggregate).
      std::string msg = "Distinct aggregations are not supported on streaming DataFrames/Datasets. Consider using approx_count_distinct() instead.";
      return sparkError(Status::Code::kInvalidArgument, "_LEGACY_ERROR_TEMP_3102", {{"msg", msg}});
    }
    Aggregate a;
    a.function = *fn;
    bool first = *fn == AggregateFunction::kFirst || *fn == AggregateFunction::kLast;
    size_t maxArgs = first ? 2 : 1;
    if (n->args.empty() || n->args.size() > maxArgs) {
      return sparkError(Status::Code::kInvalidArgument, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                        {{"functionName", sparkSqlId(n->name)},
                         {"expectedNum", first ? "[1, 2]" : "1"},
                         {"actualNum", std::to_string(n->args.size())},
                         {"docroot", "https://spark.apache.org/docs/latest"}});
    }
    std::string sqlName = std::string(*fn == AggregateFunction::kAvg ? "avg" : n->name == "first_value" ? "first" : n->name == "last_value" ? "last" : n->name == "array_agg" ? "collect_list" : n->name);
    const NodePtr& arg = n->args[0];
    bool star = arg->kind == Node::Kind::kStar && arg->parts.empty();
    bool one = arg->kind == Node::Kind::kLiteral && !arg->literal.isNull();  // count(1)
    if (*fn == AggregateFunction::kCount && (star || one)) {
      a.column.clear();  // count(*) = count(1): every row
      a.outputName = alias.empty() ? "count(1)" : alias;
    } else {
      if (star) return Status::InvalidArgument(fmt::format("{}(*): only count takes '*'", sqlName));
      std::string argSql = expr::Column(arg).toString();
      std::string hidden = arg->kind == Node::Kind::kColumn && arg->parts.size() == 1 ? arg->parts[0] : argSql;
      a.column = columnFor(arg, hidden);
      a.outputName = alias.empty() ? fmt::format("{}({})", sqlName, argSql) : alias;
    }
    if (first && n->args.size() == 2) {
      const NodePtr& ig = n->args[1];
      if (ig->kind != Node::Kind::kLiteral || ig->literal.type() != Type::kBoolean) {
        // First.scala: "The second argument in first should be a boolean literal."
        return sparkError(Status::Code::kInvalidArgument, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                          {{"sqlExpr", fmt::format("\"{}\"", c.toString())}, {"paramIndex", "second"},
                           {"requiredType", "\"BOOLEAN\""}, {"inputSql", fmt::format("\"{}\"", expr::Column(ig).toString())},
                           {"inputType", "a non-literal"}});
      }
      a.ignoreNulls = ig->literal.asBool();
    }
    plan.spec.aggregates.push_back(std::move(a));
    return Status::OK();
  }
};

}  // namespace

Result<AggregationPlan> planAggregation(const std::vector<expr::Column>& groupBy,
                                        const std::vector<expr::Column>& aggregates, int* errorItem) {
  Planner p;
  p.plan.spec.kind = WindowKind::kNone;
  auto fail = [&](Status st, size_t i) -> Status {
    if (errorItem) *errorItem = static_cast<int>(i);
    return st;
  };
  for (size_t i = 0; i < groupBy.size(); ++i) {
    if (!groupBy[i].node()) return fail(Status::InvalidArgument("groupBy: an empty column"), i);
    Status st = p.grouping(groupBy[i]);
    if (!st.ok()) return fail(st, i);
  }
  if (aggregates.empty()) return fail(Status::InvalidArgument("agg: no aggregates (e.g. count(*))"), groupBy.size());
  for (size_t i = 0; i < aggregates.size(); ++i) {
    if (!aggregates[i].node()) return fail(Status::InvalidArgument("agg: an empty column"), groupBy.size() + i);
    Status st = p.aggregate(aggregates[i]);
    if (!st.ok()) return fail(st, groupBy.size() + i);
  }
  Status st = validateWindowAggregation(p.plan.spec);
  if (!st.ok()) return fail(st, groupBy.size());
  return std::move(p.plan);
}

}  // namespace streamsim
