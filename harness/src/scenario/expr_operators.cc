// The scenario language's expression operators (operators.h): parse, static analysis against the
// known input columns (errors at the expression's own line and column), and apply onto a
// DataFrame (ops/expr_ops.h). Keys and forms: docs/scenarios.md "Expressions".
#include <fmt/format.h>

#include "scenario/operators.h"
#include "streamsim/expr/analyzer.h"
#include "streamsim/expr/functions.h"
#include "streamsim/expr/parser.h"
#include "streamsim/ops/expr_aggregation.h"
#include "streamsim/ops/expr_ops.h"
#include "streamsim/spark_errors.h"

namespace streamsim::harness::detail {
namespace {

// Where in the YAML file offset `pos` of the scalar `n`'s text is (a quoted scalar starts one
// column after its quote; a block scalar's offsets are not mapped: its own position is used).
YAML::Mark markAt(const YAML::Node& n, int pos) {
  YAML::Mark m = n.Mark();
  if (pos < 0 || !n.IsScalar()) return m;
  const std::string& text = n.Scalar();
  if (text.find('\n') != std::string::npos) return m;
  m.column += pos + (n.Tag() == "!" ? 1 : 0);
  return m;
}

struct ParsedExpr {
  expr::Column column;
  YAML::Node node;
  bool ok = false;
};

ParsedExpr parseAt(ParseContext& pc, const YAML::Node& n, std::string_view what) {
  ParsedExpr out;
  out.node = n;
  if (!n.IsScalar()) {
    pc.error(n, fmt::format("{} must be a Spark SQL expression string; got {}", what, nodeTypeName(n)));
    return out;
  }
  int pos = -1;
  auto parsed = expr::parseExpression(n.Scalar(), &pos);
  if (!parsed.ok()) {
    pc.error(markAt(n, pos), fmt::format("{}: {}", what, parsed.status().message()));
    return out;
  }
  out.column = *parsed;
  out.ok = true;
  return out;
}

// Analyses `cols` against the known input (when known): errors at the failing expression's
// position; the output columns become the next operator's input.
void analyzeProjection(ParseContext& pc, const std::vector<ParsedExpr>& items, const std::vector<expr::Column>& cols,
                       std::optional<std::vector<Field>>& columns, std::string_view what) {
  if (!columns) return;
  int idx = -1, pos = -1;
  auto fields = projectedFields(cols, Schema(*columns), pc.sqlConf(), &idx, &pos);
  if (!fields.ok()) {
    const YAML::Node& at = idx >= 0 && idx < static_cast<int>(items.size()) ? items[idx].node : items.front().node;
    pc.error(markAt(at, pos), fmt::format("{}: {}", what, fields.status().message()));
    columns.reset();
    return;
  }
  columns = std::move(fields).value();
}

bool isPlainName(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

}  // namespace

bool parseExprOperator(ParseContext& pc, const YAML::Node& n, std::optional<std::vector<Field>>& columns,
                       OperatorSpec& spec) {
  ExprOp op;
  const YAML::Node sel = n["select"] ? n["select"] : n["selectExpr"];
  if (sel) {
    op.keyword = n["select"] ? "select" : "selectExpr";
    if (!pc.expectList(sel, op.keyword)) return true;
    std::vector<std::string> items;
    bool allNames = op.keyword == "select";
    for (const auto& item : sel) {
      items.push_back(item.IsScalar() ? item.Scalar() : std::string());
      allNames = allNames && item.IsScalar() && isPlainName(item.Scalar());
    }
    // A list of plain column names stays the name projection it always was (select: [a, b]).
    if (allNames) return false;
    std::vector<ParsedExpr> parsed;
    std::vector<expr::Column> cols;
    for (const auto& item : sel) {
      parsed.push_back(parseAt(pc, item, op.keyword));
      if (!parsed.back().ok) {
        columns.reset();
        return true;
      }
      cols.push_back(parsed.back().column);
      op.exprs.push_back(item.Scalar());
    }
    op.kind = ExprOp::Kind::kSelect;
    analyzeProjection(pc, parsed, cols, columns, op.keyword);
    spec.op = op;
    return true;
  }
  const YAML::Node w = n["where"] ? n["where"] : n["filter"];
  if (w) {
    op.keyword = n["where"] ? "where" : "filter";
    op.kind = ExprOp::Kind::kWhere;
    ParsedExpr p = parseAt(pc, w, op.keyword);
    if (!p.ok) return true;
    op.exprs.push_back(w.Scalar());
    if (columns) {
      int pos = -1;
      auto c = expr::analyze(p.column, Schema(*columns), pc.sqlConf(), &pos);
      if (!c.ok()) {
        pc.error(markAt(w, pos), fmt::format("{}: {}", op.keyword, c.status().message()));
      } else if (c->field().type != Type::kBoolean && c->field().type != Type::kNull) {
        pc.error(w, fmt::format("{}: [DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN] Filter expression \"{}\" of type {} is not a boolean.",
                                op.keyword, c->sql(), sparkSqlType(c->field().type)));
      }
    }
    spec.op = op;
    return true;
  }
  const YAML::Node wc = n["withColumn"] ? n["withColumn"] : n["withColumns"];
  if (wc) {
    op.keyword = n["withColumn"] ? "withColumn" : "withColumns";
    op.kind = ExprOp::Kind::kWithColumn;
    if (!pc.expectMap(wc, op.keyword)) return true;
    std::vector<ParsedExpr> parsed;
    std::vector<expr::Column> values;
    for (auto it = wc.begin(); it != wc.end(); ++it) {
      std::string name = pc.str(it->first, "a column name");
      ParsedExpr p = parseAt(pc, it->second, fmt::format("{} {}", op.keyword, name));
      if (!p.ok) {
        columns.reset();
        return true;
      }
      op.names.push_back(name);
      op.exprs.push_back(it->second.Scalar());
      parsed.push_back(p);
      values.push_back(p.column);
    }
    if (columns && !parsed.empty()) {
      auto cols = withColumnsProjection(Schema(*columns), op.names, values, pc.sqlConf());
      // Errors point at the value that failed: map the projection's index back to a value.
      int idx = -1, pos = -1;
      auto fields = projectedFields(cols, Schema(*columns), pc.sqlConf(), &idx, &pos);
      if (!fields.ok()) {
        const YAML::Node* at = &parsed.front().node;
        std::string failed = idx >= 0 && idx < static_cast<int>(cols.size()) ? cols[idx].toString() : std::string();
        for (size_t k = 0; k < values.size(); ++k)
          if (values[k].alias(op.names[k]).toString() == failed) at = &parsed[k].node;
        pc.error(markAt(*at, pos), fmt::format("{}: {}", op.keyword, fields.status().message()));
        columns.reset();
      } else {
        columns = std::move(fields).value();
      }
    }
    spec.op = op;
    return true;
  }
  const YAML::Node r = n["withColumnRenamed"] ? n["withColumnRenamed"] : n["withColumnsRenamed"];
  if (r) {
    op.keyword = n["withColumnRenamed"] ? "withColumnRenamed" : "withColumnsRenamed";
    op.kind = ExprOp::Kind::kWithColumnRenamed;
    if (!pc.expectMap(r, op.keyword)) return true;
    std::vector<std::pair<std::string, std::string>> renames;
    for (auto it = r.begin(); it != r.end(); ++it) {
      op.names.push_back(pc.str(it->first, "a column name"));
      op.names.push_back(pc.str(it->second, "the new name"));
      renames.emplace_back(op.names[op.names.size() - 2], op.names.back());
    }
    if (columns) {
      auto fields = projectedFields(renameProjection(Schema(*columns), renames, pc.sqlConf()), Schema(*columns), pc.sqlConf());
      if (fields.ok()) columns = std::move(fields).value();
      else columns.reset();
    }
    spec.op = op;
    return true;
  }
  if (auto d = n["drop"]; d) {
    op.keyword = "drop";
    op.kind = ExprOp::Kind::kDrop;
    op.names = d.IsScalar() ? std::vector<std::string>{pc.str(d, "drop")} : pc.names(d, "drop");
    if (columns) {
      auto fields = projectedFields(dropProjection(Schema(*columns), op.names, pc.sqlConf()), Schema(*columns), pc.sqlConf());
      if (fields.ok()) columns = std::move(fields).value();
      else columns.reset();
    }
    spec.op = op;
    return true;
  }
  if (auto e = n["explode"]; e) {
    // explode: {column: EXPR, as: NAME, outer: false, position: false} = withColumn(as, explode(EXPR)).
    op.keyword = "explode";
    op.kind = ExprOp::Kind::kWithColumn;
    if (!pc.expectMap(e, "explode")) return true;
    pc.checkKeys(e, "explode", {"column", "as", "outer", "position"});
    auto c = e["column"];
    if (!c) {
      pc.error(e, "missing key 'column' in explode (the array or map expression)");
      return true;
    }
    ParsedExpr p = parseAt(pc, c, "explode column");
    if (!p.ok) return true;
    bool outer = e["outer"] && pc.boolean(e["outer"], "explode outer");
    bool position = e["position"] && pc.boolean(e["position"], "explode position");
    if (position) {
      pc.error(e["position"], "explode position: use select: [\"*\", \"posexplode(...)\"] (two output columns)");
      return true;
    }
    std::string fn = std::string(position ? "posexplode" : "explode") + (outer ? "_outer" : "");
    std::string as = e["as"] ? pc.str(e["as"], "explode as") : "col";
    op.names.push_back(as);
    op.exprs.push_back(fmt::format("{}({})", fn, c.Scalar()));
    if (columns) {
      auto value = functions::expr(op.exprs.back());
      auto cols = withColumnsProjection(Schema(*columns), op.names, {value}, pc.sqlConf());
      int pos = -1;
      auto fields = projectedFields(cols, Schema(*columns), pc.sqlConf(), nullptr, &pos);
      if (!fields.ok()) {
        pc.error(c, fmt::format("explode: {}", fields.status().message()));
        columns.reset();
      } else {
        columns = std::move(fields).value();
      }
    }
    spec.op = op;
    return true;
  }
  return false;
}

std::optional<WindowAggregationOp> parseExprAggregation(ParseContext& pc, const YAML::Node& n,
                                                        const std::optional<std::vector<Field>>& columns) {
  const YAML::Node g = n["groupBy"];
  const YAML::Node agg = n["agg"];
  bool exprForm = false;
  if (g.IsSequence())
    for (const auto& item : g) exprForm = exprForm || (item.IsScalar() && !isPlainName(item.Scalar()));
  if (agg && agg.IsSequence())
    for (const auto& item : agg) exprForm = exprForm || (item.IsScalar() && item.Scalar().find('(') != std::string::npos);
  if (!exprForm) return std::nullopt;
  WindowAggregationOp op;
  if (n["transformWithState"] || n["window"]) {
    pc.error(n, "groupBy with expressions takes only 'agg' (write the window as a groupBy item: \"window(ts, '10 minutes')\")");
    return op;
  }
  if (!agg) {
    pc.error(n, "groupBy with expressions needs 'agg' (e.g. agg: [\"count(*) AS n\"])");
    return op;
  }
  if (!pc.expectList(g, "groupBy") || !pc.expectList(agg, "agg")) return op;
  std::vector<ParsedExpr> items;
  std::vector<expr::Column> keys, aggs;
  for (const auto& item : g) {
    items.push_back(parseAt(pc, item, "groupBy"));
    if (!items.back().ok) return op;
    keys.push_back(items.back().column);
    op.groupByExprs.push_back(item.Scalar());
  }
  for (const auto& item : agg) {
    items.push_back(parseAt(pc, item, "agg"));
    if (!items.back().ok) return op;
    aggs.push_back(items.back().column);
    op.aggExprs.push_back(item.Scalar());
  }
  int failed = -1;
  auto plan = planAggregation(keys, aggs, &failed);
  if (!plan.ok()) {
    const YAML::Node& at = failed >= 0 && failed < static_cast<int>(items.size()) ? items[failed].node : n;
    pc.error(at, std::string(plan.status().message()));
    return op;
  }
  op.groupBy = plan->spec.groupBy;
  if (!plan->spec.windowColumn.empty())
    op.groupBy.insert(op.groupBy.begin() + static_cast<std::ptrdiff_t>(plan->spec.windowPosition), plan->spec.windowColumn);
  if (columns) {  // the derived columns, then every column the aggregation reads
    Schema input(*columns);
    auto cols = withColumnsProjection(input, plan->projectNames, plan->projectValues, pc.sqlConf());
    int idx = -1, pos = -1;
    auto fields = projectedFields(cols, input, pc.sqlConf(), &idx, &pos);
    if (!fields.ok()) {
      pc.error(n, fmt::format("groupBy/agg: {}", fields.status().message()));
      return op;
    }
    std::vector<std::string> read = plan->spec.groupBy;
    if (plan->spec.kind != WindowKind::kNone) read.push_back(plan->spec.window.timeColumn);
    for (const Aggregate& a : plan->spec.aggregates)
      if (!a.column.empty()) read.push_back(a.column);
    for (const std::string& c : read) {
      bool found = false;
      for (const Field& f : *fields) found = found || f.name == c;
      if (!found) {
        std::vector<std::string> names;
        for (const Field& f : *fields) names.push_back(f.name);
        pc.error(n, fmt::format("groupBy/agg: column '{}' is not in the input; columns: {}", c, joinNames(names)));
        return op;
      }
    }
  }
  return op;
}

Result<DataFrame> applyExprAggregation(DataFrame df, const WindowAggregationOp& op) {
  std::vector<expr::Column> keys, aggs;
  for (const auto& e : op.groupByExprs) keys.push_back(functions::expr(e));
  for (const auto& e : op.aggExprs) aggs.push_back(functions::expr(e));
  STREAMSIM_RETURN_IF_ERROR(planAggregation(keys, aggs).status());
  return df.groupBy(std::move(keys)).agg(std::move(aggs));
}

Result<DataFrame> applyExprOp(DataFrame df, const ExprOp& op) {
  switch (op.kind) {
    case ExprOp::Kind::kSelect: return df.selectExpr(op.exprs);
    case ExprOp::Kind::kWhere: return df.where(op.exprs.at(0));
    case ExprOp::Kind::kWithColumn: {
      std::vector<expr::Column> values;
      for (const auto& e : op.exprs) values.push_back(functions::expr(e));
      auto names = op.names;
      return df.transform([names, values] { return makeWithColumnsOperator(names, values); });
    }
    case ExprOp::Kind::kWithColumnRenamed: {
      std::vector<std::pair<std::string, std::string>> renames;
      for (size_t i = 0; i + 1 < op.names.size(); i += 2) renames.emplace_back(op.names[i], op.names[i + 1]);
      return df.transform([renames] { return makeWithColumnsRenamedOperator(renames); });
    }
    case ExprOp::Kind::kDrop: return df.drop(op.names);
  }
  return Status::InvalidArgument("unknown expression operator");
}

}  // namespace streamsim::harness::detail
