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

static const std::pair<std::string_view, AggregateFunction> kFns[] = {
    {"count", AggregateFunction::kCount},      {"sum", AggregateFunction::kSum},
    {"avg", AggregateFunction::kAvg},          {"mean", AggregateFunction::kAvg},
    {"min", AggregateFunction::kMin},          {"max", AggregateFunction::kMax},
    {"first", AggregateFunction::kFirst},      {"last", AggregateFunction::kLast},
    {"first_value", AggregateFunction::kFirst}, {"last_value", AggregateFunction::kLast},
    {"collect_list", AggregateFunction::kCollectList}, {"array_agg", AggregateFunction::kCollectList},
    {"collect_set", AggregateFunction::kCollectSet},
    {"approx_count_distinct", AggregateFunction::kApproxCountDistinct},
    {"approxcountdistinct", AggregateFunction::kApproxCountDistinct}};

const AggregateFunction* aggregateFunctionOf(const Node& n) {
  if (n.kind != Node::Kind::kCall) return nullptr;
  std::string lower = n.name;
  for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  for (const auto& [name, f] : kFns)
    if (lower == name) return &f;
  return nullptr;
}

// `n` with count(*) written count(1), as Spark names the expressions around it: (count(1) * 2).
NodePtr withCountOne(const NodePtr& n) {
  if (!n || n->args.empty()) return n;
  auto copy = std::make_shared<Node>(*n);
  bool count = aggregateFunctionOf(*n) && *aggregateFunctionOf(*n) == AggregateFunction::kCount;
  for (auto& a : copy->args) {
    if (count && a->kind == Node::Kind::kStar && a->parts.empty()) {
      auto one = std::make_shared<Node>();
      one->kind = Node::Kind::kLiteral;
      one->literal = Value(int32_t{1});
      one->type = Field{"", Type::kInt, false, nullptr};
      a = one;
    } else {
      a = withCountOne(a);
    }
  }
  return copy;
}

bool containsAggregate(const NodePtr& n) {
  if (!n) return false;
  if (aggregateFunctionOf(*n)) return true;
  for (const auto& a : n->args)
    if (containsAggregate(a)) return true;
  return false;
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

    const AggregateFunction* fn = aggregateFunctionOf(*n);
    if (fn == nullptr && !containsAggregate(n)) {
      std::string what = c.toString();
      return Status::InvalidArgument(fmt::format(
          "agg: '{}' is not an aggregate expression; streamsim's agg takes count, sum, avg / mean, "
          "min, max, first, last, collect_list, collect_set, approx_count_distinct and expressions "
          "over them and the grouping columns (sum(x) + 1, count(*) * 2 AS c)",
          what));
    }
    if (fn == nullptr) return aggregateExpression(c, n, alias);
    for (const auto& a : n->args) {
      if (containsAggregate(a)) {
        // CheckAnalysis: "It is not allowed to use an aggregate function in the argument of
        // another aggregate function."
        return sparkError(Status::Code::kInvalidArgument, "NESTED_AGGREGATE_FUNCTION", {});
      }
    }
    if (n->distinct) {
      // UnsupportedOperationChecker.checkForStreaming (Aggregate with a distinct aggregate).
      std::string msg = "Distinct aggregations are not supported on streaming DataFrames/Datasets. Consider using approx_count_distinct() instead.";
      return sparkError(Status::Code::kInvalidArgument, "_LEGACY_ERROR_TEMP_3102", {{"msg", msg}});
    }
    Aggregate a;
    a.function = *fn;
    bool first = *fn == AggregateFunction::kFirst || *fn == AggregateFunction::kLast;
    bool approx = *fn == AggregateFunction::kApproxCountDistinct;
    size_t maxArgs = first || approx ? 2 : 1;
    if (n->args.empty() || n->args.size() > maxArgs) {
      return sparkError(Status::Code::kInvalidArgument, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                        {{"functionName", sparkSqlId(n->name)},
                         {"expectedNum", first || approx ? "[1, 2]" : "1"},
                         {"actualNum", std::to_string(n->args.size())},
                         {"docroot", "https://spark.apache.org/docs/latest"}});
    }
    std::string sqlName = std::string(*fn == AggregateFunction::kAvg ? "avg" : n->name == "first_value" ? "first" : n->name == "last_value" ? "last" : n->name == "array_agg" ? "collect_list" : approx ? "approx_count_distinct" : n->name);
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
    if (approx && n->args.size() == 2) {
      // HyperLogLogPlusPlus.validateDoubleLiteral: a DOUBLE (or DECIMAL) literal; the output
      // name stays approx_count_distinct(x) (the rsd is not a child).
      const NodePtr& rsd = n->args[1];
      if (rsd->kind != Node::Kind::kLiteral || rsd->literal.type() != Type::kDouble) {
        return sparkError(Status::Code::kInvalidArgument, "_LEGACY_ERROR_TEMP_1104", {},
                          "The second argument should be a double literal.");
      }
      a.relativeSD = rsd->literal.asDouble();
    }
    // Spark plans one aggregate for equal aggregate expressions: an item already planned is
    // shared (sum(x) and sum(x) + 1 read one sum).
    for (const Aggregate& have : plan.spec.aggregates) {
      if (have.function == a.function && have.column == a.column && have.ignoreNulls == a.ignoreNulls &&
          have.relativeSD == a.relativeSD && have.resolvedName() == a.resolvedName()) {
        lastName = have.resolvedName();
        items.push_back(expr::Column(columnNode(lastName)).alias(lastName));
        hasExpressionItems = true;  // the shared column is output twice: by the projection
        return Status::OK();
      }
    }
    lastName = a.resolvedName();
    items.push_back(expr::Column(columnNode(lastName)).alias(lastName));
    plan.spec.aggregates.push_back(std::move(a));
    return Status::OK();
  }

  static NodePtr columnNode(const std::string& name) {
    auto n = std::make_shared<Node>();
    n->kind = Node::Kind::kColumn;
    n->parts = {name};
    return n;
  }

  // An item over aggregates (Spark's Aggregate resultExpressions: sum(x) + 1, count(*) * 2 AS c):
  // each aggregate call becomes an aggregate of the operator, referenced by its output column in
  // a projection after it; other columns must be grouping columns (MISSING_AGGREGATION).
  Status aggregateExpression(const expr::Column& c, const NodePtr& n, const std::string& alias) {
    std::string name = alias.empty() ? expr::Column(withCountOne(n)).toString() : alias;
    size_t before = items.size();
    auto rewritten = rewrite(n, n);
    if (!rewritten.ok()) return rewritten.status();
    items.resize(before);  // the inner aggregates' own items are not outputs
    items.push_back(expr::Column(*rewritten).alias(name));
    hasExpressionItems = true;
    (void)c;
    return Status::OK();
  }

  Result<NodePtr> rewrite(const NodePtr& n, const NodePtr& item) {
    if (aggregateFunctionOf(*n)) {
      STREAMSIM_RETURN_IF_ERROR(aggregate(expr::Column(n)));  // NESTED_AGGREGATE_FUNCTION there
      return columnNode(lastName);
    }
    if (n->kind == Node::Kind::kColumn) {
      std::string first = n->parts.empty() ? std::string() : n->parts[0];
      auto same = [&](const std::string& g) {
        if (g.size() != first.size()) return false;
        for (size_t i = 0; i < g.size(); ++i)
          if (std::tolower(static_cast<unsigned char>(g[i])) != std::tolower(static_cast<unsigned char>(first[i]))) return false;
        return true;
      };
      bool grouped = same(plan.spec.windowColumn);
      for (const std::string& g : plan.spec.groupBy) grouped = grouped || same(g);
      if (!grouped) {
        std::string sql = expr::Column(n).toString();
        return sparkError(Status::Code::kInvalidArgument, "MISSING_AGGREGATION",
                          {{"expression", fmt::format("\"{}\"", sql)},
                           {"expressionAnyValue", fmt::format("\"any_value({})\"", sql)}});
      }
      return n;
    }
    if (n->args.empty()) return n;
    auto copy = std::make_shared<Node>(*n);
    for (auto& a : copy->args) {
      STREAMSIM_ASSIGN_OR_RETURN(a, rewrite(a, item));
    }
    return NodePtr(copy);
  }

  // The aggregation's output columns for the result projection: the grouping columns and the
  // window as the operator emits them.
  std::vector<expr::Column> keyColumns() const {
    std::vector<std::string> names = plan.spec.groupBy;
    if (plan.spec.kind != WindowKind::kNone) {
      if (plan.spec.windowColumn.empty()) {
        names.push_back("window_start");
        names.push_back("window_end");
      } else {
        names.insert(names.begin() + static_cast<std::ptrdiff_t>(plan.spec.windowPosition), plan.spec.windowColumn);
      }
    }
    std::vector<expr::Column> out;
    for (const auto& k : names) out.emplace_back(columnNode(k));
    return out;
  }

  std::vector<expr::Column> items;  // one per agg item: its output column
  std::string lastName;             // the last planned aggregate's output column
  bool hasExpressionItems = false;
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
  if (p.hasExpressionItems) {
    p.plan.resultColumns = p.keyColumns();
    for (auto& c : p.items) p.plan.resultColumns.push_back(std::move(c));
  }
  return std::move(p.plan);
}

}  // namespace streamsim
