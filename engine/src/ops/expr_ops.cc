// Expression operators (ops/expr_ops.h): Project / Generate / Filter over compiled expressions.
// Rows of one input shape in a row are evaluated as one batch, column at a time.
#include "streamsim/ops/expr_ops.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "streamsim/expr/analyzer.h"
#include "streamsim/spark_errors.h"

namespace streamsim {
namespace {

using expr::Column;
using expr::CompiledExpr;
using expr::Node;

Status parseErrorIn(const expr::NodePtr& n);

bool isGenerator(const Column& c, std::string* name, Column* arg, std::vector<std::string>* aliases) {
  const Node* n = c.node().get();
  std::vector<std::string> as;
  if (n && n->kind == Node::Kind::kAlias) {
    as.push_back(n->name);
    n = n->args[0].get();
  }
  if (!n || n->kind != Node::Kind::kCall) return false;
  std::string l = n->name;
  for (auto& ch : l) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (l != "explode" && l != "explode_outer" && l != "posexplode" && l != "posexplode_outer" && l != "json_tuple") return false;
  if (name) *name = l;
  if (arg && l == "json_tuple") *arg = Column(c.node()->kind == Node::Kind::kAlias ? c.node()->args[0] : c.node());
  else if (arg && n->args.size() == 1) *arg = Column(n->args[0]);
  if (aliases) *aliases = as;
  return true;
}

// A compiled select list for one input schema.
struct Plan;
Status compileJsonTuple(const Column& call, const Schema& input, const expr::SqlConf& conf, Plan& p, size_t i,
                        int* errorIndex, int* errorPos);
Status runJsonTuple(const Plan& plan, std::span<const Row* const> rows, const expr::EvalContext& ctx,
                    std::vector<std::vector<Value>>& out);
struct Plan {
  SchemaPtr input;
  std::vector<CompiledExpr> exprs;  // the non-generator columns in order; generator slot marked
  int generatorAt = -1;             // position in the output of the generator's first column
  std::string generator;            // explode / explode_outer / posexplode / posexplode_outer
  CompiledExpr generatorArg;
  std::vector<CompiledExpr> jsonTupleArgs;  // json_tuple: the JSON, then the field names
  std::vector<Field> generatorFields;
  SchemaPtr output;
};

Result<Plan> compile(const std::vector<Column>& columns, const SchemaPtr& input, const expr::SqlConf& conf,
                     int* errorIndex, int* errorPos) {
  Plan p;
  p.input = input;
  std::vector<Column> plain;
  std::vector<int> plainIndex;
  int genIndex = -1;
  std::vector<std::string> genAliases;
  for (size_t i = 0; i < columns.size(); ++i) {
    std::string g;
    Column arg;
    std::vector<std::string> as;
    if (isGenerator(columns[i], &g, &arg, &as)) {
      if (genIndex >= 0) {
        if (errorIndex) *errorIndex = static_cast<int>(i);
        return sparkError(Status::Code::kInvalidArgument, "UNSUPPORTED_GENERATOR.MULTI_GENERATOR",
                          {{"clause", "SELECT"}, {"num", "2"}, {"generators", fmt::format("\"{}\", \"{}\"", p.generator, g)}});
      }
      if (!arg.node()) {
        if (errorIndex) *errorIndex = static_cast<int>(i);
        return sparkError(Status::Code::kInvalidArgument, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                          {{"functionName", sparkSqlId(g)}, {"expectedNum", "1"}, {"actualNum", "?"}});
      }
      genIndex = static_cast<int>(i);
      p.generator = g;
      genAliases = as;
      if (g == "json_tuple") {
        STREAMSIM_RETURN_IF_ERROR(compileJsonTuple(arg, *input, conf, p, i, errorIndex, errorPos));
        if (!genAliases.empty()) {
          if (genAliases.size() != p.generatorFields.size()) {
            if (errorIndex) *errorIndex = static_cast<int>(i);
            return sparkError(Status::Code::kInvalidArgument, "UDTF_ALIAS_NUMBER_MISMATCH",
                              {{"aliasesSize", std::to_string(genAliases.size())}, {"aliasesNames", genAliases[0]}},
                              fmt::format("json_tuple gives {} columns", p.generatorFields.size()));
          }
          p.generatorFields[0].name = genAliases[0];
        }
        continue;
      }
      int pos = -1;
      auto a = expr::analyze(arg, *input, conf, &pos);
      if (!a.ok()) {
        if (errorIndex) *errorIndex = static_cast<int>(i);
        if (errorPos) *errorPos = pos;
        return a.status();
      }
      p.generatorArg = *a;
      const Field& t = a->field();
      bool withPos = g.starts_with("posexplode");
      if (withPos) p.generatorFields.push_back(Field{"pos", Type::kInt, false, nullptr});
      if (t.type == Type::kArray) {
        Field el = t.nested ? t.nested->field(0) : Field{"col", Type::kString, true, nullptr};
        el.name = "col";
        el.nullable = true;
        p.generatorFields.push_back(el);
      } else if (t.type == Type::kMap) {
        Field k = t.nested ? t.nested->field(0) : Field{"key", Type::kString, false, nullptr};
        Field v = t.nested ? t.nested->field(1) : Field{"value", Type::kString, true, nullptr};
        k.name = "key";
        v.name = "value";
        v.nullable = true;
        p.generatorFields.push_back(k);
        p.generatorFields.push_back(v);
      } else {
        if (errorIndex) *errorIndex = static_cast<int>(i);
        return sparkError(Status::Code::kInvalidArgument, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                          {{"sqlExpr", fmt::format("\"{}({})\"", g, a->sql())}, {"paramIndex", "first"},
                           {"requiredType", "(\"ARRAY\" or \"MAP\")"}, {"inputSql", fmt::format("\"{}\"", a->sql())},
                           {"inputType", sparkSqlType(t.type)}});
      }
      if (!genAliases.empty()) {
        if (genAliases.size() != 1 || p.generatorFields.size() != 1) {
          if (errorIndex) *errorIndex = static_cast<int>(i);
          return sparkError(Status::Code::kInvalidArgument, "UDTF_ALIAS_NUMBER_MISMATCH",
                            {{"aliasesSize", std::to_string(genAliases.size())}, {"aliasesNames", genAliases[0]}},
                            fmt::format("{} gives {} columns", g, p.generatorFields.size()));
        }
        p.generatorFields[0].name = genAliases[0];
      }
      continue;
    }
    plain.push_back(columns[i]);
    plainIndex.push_back(static_cast<int>(i));
  }
  int idx = -1, pos = -1;
  auto compiled = expr::analyzeSelect(plain, *input, conf, &idx, &pos);
  if (!compiled.ok()) {
    if (errorIndex) *errorIndex = idx >= 0 && idx < static_cast<int>(plainIndex.size()) ? plainIndex[idx] : -1;
    if (errorPos) *errorPos = pos;
    return compiled.status();
  }
  p.exprs = std::move(compiled).value();
  // Where the generator's columns go: after the outputs of the columns before it (a `*` before
  // it expands to several).
  std::vector<Field> fields;
  if (genIndex >= 0) {
    // Count the outputs of the plain columns before the generator.
    std::vector<Column> before;
    for (size_t k = 0; k < plainIndex.size() && plainIndex[k] < genIndex; ++k) before.push_back(plain[k]);
    auto b = expr::analyzeSelect(before, *input, conf);
    p.generatorAt = b.ok() ? static_cast<int>(b->size()) : 0;
  }
  for (size_t i = 0; i <= p.exprs.size(); ++i) {
    if (static_cast<int>(i) == p.generatorAt)
      for (const auto& f : p.generatorFields) fields.push_back(f);
    if (i < p.exprs.size()) fields.push_back(p.exprs[i].field());
  }
  p.output = makeSchema(std::move(fields));
  return p;
}

// Evaluates `plan` over rows [begin, end) (one input shape) and appends the output rows.
Status runPlan(const Plan& plan, std::vector<Row>& input, size_t begin, size_t end, const expr::EvalContext& ctx,
               std::vector<Row>& out) {
  std::vector<const Row*> ptrs;
  ptrs.reserve(end - begin);
  for (size_t i = begin; i < end; ++i) ptrs.push_back(&input[i]);
  std::vector<std::vector<Value>> cols(plan.exprs.size());
  for (size_t k = 0; k < plan.exprs.size(); ++k) STREAMSIM_RETURN_IF_ERROR(plan.exprs[k].evaluate(ptrs, ctx, cols[k]));
  size_t width = plan.output->size();
  if (plan.generatorAt < 0) {
    for (size_t r = 0; r < ptrs.size(); ++r) {
      std::vector<Value> vals;
      vals.reserve(width);
      for (auto& c : cols) vals.push_back(std::move(c[r]));
      out.emplace_back(plan.output, std::move(vals));
    }
    return Status::OK();
  }
  if (plan.generator == "json_tuple") {  // one output row per input row
    std::vector<std::vector<Value>> fields;
    STREAMSIM_RETURN_IF_ERROR(runJsonTuple(plan, ptrs, ctx, fields));
    size_t at = static_cast<size_t>(plan.generatorAt);
    for (size_t r = 0; r < ptrs.size(); ++r) {
      std::vector<Value> vals;
      vals.reserve(width);
      for (size_t k = 0; k <= cols.size(); ++k) {
        if (k == at)
          for (auto& f : fields) vals.push_back(std::move(f[r]));
        if (k < cols.size()) vals.push_back(std::move(cols[k][r]));
      }
      out.emplace_back(plan.output, std::move(vals));
    }
    return Status::OK();
  }
  std::vector<Value> gen;
  STREAMSIM_RETURN_IF_ERROR(plan.generatorArg.evaluate(ptrs, ctx, gen));
  bool outer = plan.generator.ends_with("_outer");
  bool withPos = plan.generator.starts_with("posexplode");
  bool isMap = plan.generatorArg.field().type == Type::kMap;
  size_t at = static_cast<size_t>(plan.generatorAt);
  for (size_t r = 0; r < ptrs.size(); ++r) {
    auto emit = [&](std::vector<Value> genVals) {
      std::vector<Value> vals;
      vals.reserve(width);
      for (size_t k = 0; k <= cols.size(); ++k) {
        if (k == at)
          for (auto& g : genVals) vals.push_back(std::move(g));
        if (k < cols.size()) vals.push_back(cols[k][r]);
      }
      out.emplace_back(plan.output, std::move(vals));
    };
    const Value& g = gen[r];
    size_t n = g.isNull() ? 0 : (isMap ? g.mapSize() : g.items().size());
    if (n == 0) {
      // Generate(outer = true) keeps the row with nulls for the generator's columns.
      if (outer) emit(std::vector<Value>(plan.generatorFields.size()));
      continue;
    }
    for (size_t i = 0; i < n; ++i) {
      std::vector<Value> gv;
      if (withPos) gv.emplace_back(static_cast<int32_t>(i));
      if (isMap) {
        gv.push_back(g.mapKey(i));
        gv.push_back(g.mapValue(i));
      } else {
        gv.push_back(g.items()[i]);
      }
      emit(std::move(gv));
    }
  }
  return Status::OK();
}

// json_tuple(json, name1, name2, ...) (jsonExpressions.scala JsonTuple): every argument a
// STRING ("json_tuple requires that all arguments are strings"), at least two; output columns
// c0, c1, ... (STRING). One row per input row: a null, unparsable or non-object JSON gives a row
// of nulls; a string field its text, a JSON null a null, any other value its JSON text.
Status compileJsonTuple(const Column& call, const Schema& input, const expr::SqlConf& conf, Plan& p, size_t i,
                        int* errorIndex, int* errorPos) {
  const Node& n = *call.node();
  auto fail = [&](Status st, int pos) {
    if (errorIndex) *errorIndex = static_cast<int>(i);
    if (errorPos) *errorPos = pos;
    return st;
  };
  if (n.args.size() < 2) {
    return fail(sparkError(Status::Code::kInvalidArgument, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                           {{"functionName", "`json_tuple`"}, {"expectedNum", "> 1"}, {"actualNum", std::to_string(n.args.size())},
                            {"docroot", "https://spark.apache.org/docs/latest"}}),
                n.pos);
  }
  for (size_t k = 0; k < n.args.size(); ++k) {
    int pos = -1;
    auto a = expr::analyze(Column(n.args[k]), input, conf, &pos);
    if (!a.ok()) return fail(a.status(), pos);
    if (a->field().type != Type::kString && a->field().type != Type::kNull) {
      return fail(sparkError(Status::Code::kInvalidArgument, "DATATYPE_MISMATCH.NON_STRING_TYPE",
                             {{"sqlExpr", fmt::format("\"{}\"", call.toString())}, {"funcName", "`json_tuple`"}}),
                  n.args[k]->pos);
    }
    p.jsonTupleArgs.push_back(std::move(a).value());
    if (k > 0) p.generatorFields.push_back(Field{fmt::format("c{}", k - 1), Type::kString, true, nullptr});
  }
  return Status::OK();
}

Status runJsonTuple(const Plan& plan, std::span<const Row* const> rows, const expr::EvalContext& ctx,
                    std::vector<std::vector<Value>>& out) {
  std::vector<std::vector<Value>> args(plan.jsonTupleArgs.size());
  for (size_t k = 0; k < args.size(); ++k) STREAMSIM_RETURN_IF_ERROR(plan.jsonTupleArgs[k].evaluate(rows, ctx, args[k]));
  out.assign(args.size() - 1, std::vector<Value>(rows.size()));
  for (size_t r = 0; r < rows.size(); ++r) {
    if (args[0][r].isNull()) continue;
    auto doc = nlohmann::json::parse(args[0][r].asString(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) continue;
    for (size_t k = 1; k < args.size(); ++k) {
      if (args[k][r].isNull()) continue;
      auto it = doc.find(args[k][r].asString());
      if (it == doc.end() || it->is_null()) continue;
      out[k - 1][r] = it->is_string() ? Value(it->get<std::string>()) : Value(it->dump());
    }
  }
  return Status::OK();
}

// Keeps compiled forms per input shape (the last few; rows of one source share one schema).
class PlanCache {
 public:
  template <typename Compile>
  Result<const Plan*> get(const SchemaPtr& schema, Compile&& compileFn) {
    for (const auto& p : plans_)
      if (p.input == schema || *p.input == *schema) return &p;
    STREAMSIM_ASSIGN_OR_RETURN(Plan p, compileFn(schema));
    if (plans_.size() >= 8) plans_.erase(plans_.begin());
    plans_.push_back(std::move(p));
    return &plans_.back();
  }

 private:
  std::vector<Plan> plans_;
};

class ProjectOperator final : public Operator {
 public:
  ProjectOperator(std::vector<Column> cols, std::string d) : cols_(std::move(cols)), d_(std::move(d)) {}
  std::string name() const override { return d_; }
  std::string realTimeUnsupported() const override { return ""; }
  Status start(const OperatorStartContext& ctx) override {
    conf_ = ctx.sqlConf;
    run_seed_ = expr::runSeedOf(ctx.runId);
    for (const auto& c : cols_) STREAMSIM_RETURN_IF_ERROR(parseErrorIn(c.node()));
    return Status::OK();
  }
  Result<std::vector<Row>> process(std::vector<Row> input, BatchContext& ctx) override {
    std::vector<Row> out;
    out.reserve(input.size());
    expr::EvalContext ectx{&conf_, ctx.batchTimestampMs, run_seed_};
    size_t i = 0;
    while (i < input.size()) {
      size_t j = i + 1;
      while (j < input.size() && input[j].schema() == input[i].schema()) ++j;
      auto plan = cache_.get(input[i].schema(), [&](const SchemaPtr& s) { return compile(cols_, s, conf_, nullptr, nullptr); });
      if (!plan.ok()) return plan.status().withContext(d_);
      STREAMSIM_RETURN_IF_ERROR(runPlan(**plan, input, i, j, ectx, out));
      i = j;
    }
    return out;
  }

 private:
  std::vector<Column> cols_;
  std::string d_;
  expr::SqlConf conf_;
  int64_t run_seed_ = 0;
  PlanCache cache_;
};

class WhereOperator final : public Operator {
 public:
  explicit WhereOperator(Column cond) : cond_(std::move(cond)) {}
  std::string name() const override { return fmt::format("where({})", cond_.toString()); }
  std::string realTimeUnsupported() const override { return ""; }
  Status start(const OperatorStartContext& ctx) override {
    conf_ = ctx.sqlConf;
    run_seed_ = expr::runSeedOf(ctx.runId);
    return parseErrorIn(cond_.node());
  }
  Result<std::vector<Row>> process(std::vector<Row> input, BatchContext& ctx) override {
    std::vector<Row> out;
    out.reserve(input.size());
    expr::EvalContext ectx{&conf_, ctx.batchTimestampMs, run_seed_};
    std::vector<Value> keep;
    size_t i = 0;
    while (i < input.size()) {
      size_t j = i + 1;
      while (j < input.size() && input[j].schema() == input[i].schema()) ++j;
      const CompiledExpr* c = nullptr;
      for (const auto& [s, e] : compiled_)
        if (s == input[i].schema() || *s == *input[i].schema()) c = &e;
      if (c == nullptr) {
        auto e = expr::analyze(cond_, *input[i].schema(), conf_);
        if (!e.ok()) return e.status().withContext(name());
        if (e->field().type != Type::kBoolean && e->field().type != Type::kNull)
          return sparkError(Status::Code::kInvalidArgument, "DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN",
                            {{"sqlExpr", fmt::format("\"{}\"", e->sql())}, {"filter", fmt::format("\"{}\"", e->sql())},
                             {"type", sparkSqlType(e->field().type)}});
        if (compiled_.size() >= 8) compiled_.erase(compiled_.begin());
        compiled_.emplace_back(input[i].schema(), std::move(e).value());
        c = &compiled_.back().second;
      }
      std::vector<const Row*> ptrs;
      for (size_t k = i; k < j; ++k) ptrs.push_back(&input[k]);
      STREAMSIM_RETURN_IF_ERROR(c->evaluate(ptrs, ectx, keep));
      for (size_t k = i; k < j; ++k)
        if (!keep[k - i].isNull() && keep[k - i].asBool()) out.push_back(std::move(input[k]));
      i = j;
    }
    return out;
  }

 private:
  Column cond_;
  expr::SqlConf conf_;
  int64_t run_seed_ = 0;
  std::vector<std::pair<SchemaPtr, CompiledExpr>> compiled_;
};

// withColumn / withColumnRenamed / drop: a projection decided per input shape.
class ShapeOperator final : public Operator {
 public:
  using Decide = std::function<Result<std::vector<Column>>(const Schema&, const expr::SqlConf&)>;
  ShapeOperator(std::string d, Decide decide) : d_(std::move(d)), decide_(std::move(decide)) {}
  std::string name() const override { return d_; }
  std::string realTimeUnsupported() const override { return ""; }
  Status start(const OperatorStartContext& ctx) override {
    conf_ = ctx.sqlConf;
    run_seed_ = expr::runSeedOf(ctx.runId);
    return Status::OK();
  }
  Result<std::vector<Row>> process(std::vector<Row> input, BatchContext& ctx) override {
    std::vector<Row> out;
    out.reserve(input.size());
    expr::EvalContext ectx{&conf_, ctx.batchTimestampMs, run_seed_};
    size_t i = 0;
    while (i < input.size()) {
      size_t j = i + 1;
      while (j < input.size() && input[j].schema() == input[i].schema()) ++j;
      auto plan = cache_.get(input[i].schema(), [&](const SchemaPtr& s) -> Result<Plan> {
        STREAMSIM_ASSIGN_OR_RETURN(auto cols, decide_(*s, conf_));
        return compile(cols, s, conf_, nullptr, nullptr);
      });
      if (!plan.ok()) return plan.status().withContext(d_);
      STREAMSIM_RETURN_IF_ERROR(runPlan(**plan, input, i, j, ectx, out));
      i = j;
    }
    return out;
  }

 private:
  std::string d_;
  Decide decide_;
  expr::SqlConf conf_;
  int64_t run_seed_ = 0;
  PlanCache cache_;
};

Column columnAt(const Schema& s, size_t i) {
  auto n = std::make_shared<Node>();
  n->kind = Node::Kind::kColumn;
  n->parts = {s.field(i).name};
  return Column(n);
}

// A Column holding a parse error (functions::expr of a bad string) fails start().
Status parseErrorIn(const expr::NodePtr& n) {
  if (!n) return Status::OK();
  if (n->kind == Node::Kind::kError) return n->error;
  for (const auto& a : n->args) STREAMSIM_RETURN_IF_ERROR(parseErrorIn(a));
  return Status::OK();
}

bool sameName(std::string_view a, std::string_view b, const expr::SqlConf& conf) {
  if (conf.caseSensitive) return a == b;
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

}  // namespace

Result<std::vector<Field>> projectedFields(const std::vector<Column>& columns, const Schema& input,
                                           const expr::SqlConf& conf, int* errorIndex, int* errorPos) {
  STREAMSIM_ASSIGN_OR_RETURN(Plan p, compile(columns, std::make_shared<const Schema>(input), conf, errorIndex, errorPos));
  return p.output->fields();
}

std::unique_ptr<Operator> makeProjectOperator(std::vector<Column> columns, std::string description) {
  return std::make_unique<ProjectOperator>(std::move(columns), std::move(description));
}

std::unique_ptr<Operator> makeWhereOperator(Column condition) {
  return std::make_unique<WhereOperator>(std::move(condition));
}

std::vector<Column> withColumnsProjection(const Schema& s, const std::vector<std::string>& names,
                                          const std::vector<Column>& values, const expr::SqlConf& conf) {
  std::vector<Column> cols;
  std::vector<bool> used(names.size(), false);
  for (size_t i = 0; i < s.size(); ++i) {
    bool replaced = false;
    for (size_t k = 0; k < names.size() && !replaced; ++k) {
      if (sameName(s.field(i).name, names[k], conf)) {
        cols.push_back(values[k].alias(names[k]));
        used[k] = replaced = true;
      }
    }
    if (!replaced) cols.push_back(columnAt(s, i));
  }
  for (size_t k = 0; k < names.size(); ++k)
    if (!used[k]) cols.push_back(values[k].alias(names[k]));
  return cols;
}

std::vector<Column> renameProjection(const Schema& s, const std::vector<std::pair<std::string, std::string>>& renames,
                                     const expr::SqlConf& conf) {
  std::vector<Column> cols;
  for (size_t i = 0; i < s.size(); ++i) {
    Column c = columnAt(s, i);
    for (const auto& [from, to] : renames) {
      if (sameName(s.field(i).name, from, conf)) {
        c = c.alias(to);
        break;
      }
    }
    cols.push_back(c);
  }
  return cols;
}

std::vector<Column> dropProjection(const Schema& s, const std::vector<std::string>& names, const expr::SqlConf& conf) {
  std::vector<Column> cols;
  for (size_t i = 0; i < s.size(); ++i) {
    bool dropped = false;
    for (const auto& n : names) dropped = dropped || sameName(s.field(i).name, n, conf);
    if (!dropped) cols.push_back(columnAt(s, i));
  }
  return cols;
}

std::unique_ptr<Operator> makeWithColumnsOperator(std::vector<std::string> names, std::vector<Column> values) {
  std::string d = "withColumns(";
  for (size_t i = 0; i < names.size(); ++i) d += (i ? ", " : "") + names[i];
  return std::make_unique<ShapeOperator>(d + ")", [names, values](const Schema& s, const expr::SqlConf& conf) -> Result<std::vector<Column>> {
    return withColumnsProjection(s, names, values, conf);
  });
}

std::unique_ptr<Operator> makeWithColumnOperator(std::string name, Column value) {
  return makeWithColumnsOperator({std::move(name)}, {std::move(value)});
}

std::unique_ptr<Operator> makeWithColumnsRenamedOperator(std::vector<std::pair<std::string, std::string>> renames) {
  std::string d = "withColumnsRenamed(";
  for (size_t i = 0; i < renames.size(); ++i) d += (i ? ", " : "") + renames[i].first + " -> " + renames[i].second;
  return std::make_unique<ShapeOperator>(d + ")", [renames](const Schema& s, const expr::SqlConf& conf) -> Result<std::vector<Column>> {
    return renameProjection(s, renames, conf);
  });
}

std::unique_ptr<Operator> makeWithColumnRenamedOperator(std::string existing, std::string newName) {
  return makeWithColumnsRenamedOperator({{std::move(existing), std::move(newName)}});
}

namespace {

std::string ordinalNumber(size_t i) {  // QueryErrorsBase.ordinalNumber (0-based)
  static const char* kNames[] = {"first", "second", "third"};
  return i < 3 ? kNames[i] : fmt::format("{}th", i + 1);
}

bool isNumeric(Type t) { return t == Type::kInt || t == Type::kLong || t == Type::kDouble; }
bool isAtomic(Type t) { return t != Type::kArray && t != Type::kMap && t != Type::kStruct && t != Type::kNull; }

// WidenSetOperationTypes with findWiderTypeForTwo: TypeCoercion (legacy) or AnsiTypeCoercion
// with AnsiStringPromotionTypeCoercion.findWiderTypeForString (ANSI: string with an integral
// type is BIGINT, with a fractional type DOUBLE, with another atomic type that type; legacy: a
// string absorbs every atomic type but boolean).
std::optional<Field> widerForSetOperation(const Field& a, const Field& b, bool ansi) {
  if (a == b || (a.type == b.type && isAtomic(a.type))) return a;
  if (a.type == Type::kNull) return b;
  if (b.type == Type::kNull) return a;
  if (isNumeric(a.type) && isNumeric(b.type)) return Field{a.name, std::max(a.type, b.type), true, nullptr};
  if (a.type == Type::kString || b.type == Type::kString) {
    const Field& other = a.type == Type::kString ? b : a;
    if (!isAtomic(other.type)) return std::nullopt;
    if (!ansi) {
      if (other.type == Type::kBoolean) return std::nullopt;
      return Field{a.name, Type::kString, true, nullptr};
    }
    if (other.type == Type::kInt || other.type == Type::kLong) return Field{a.name, Type::kLong, true, nullptr};
    return Field{a.name, other.type, true, nullptr};
  }
  return std::nullopt;
}

}  // namespace

Result<Schema> unionByPositionSchema(const std::vector<Schema>& inputs, const expr::SqlConf& conf) {
  if (inputs.empty()) return Status::InvalidArgument("union of no inputs");
  const Schema& first = inputs[0];
  for (size_t t = 1; t < inputs.size(); ++t) {
    if (inputs[t].size() != first.size()) {
      return sparkError(Status::Code::kInvalidArgument, "NUM_COLUMNS_MISMATCH",
                        {{"operator", "UNION"}, {"firstNumColumns", std::to_string(first.size())},
                         {"invalidOrdinalNum", ordinalNumber(t)}, {"invalidNumColumns", std::to_string(inputs[t].size())}});
    }
  }
  std::vector<Field> out;
  for (size_t c = 0; c < first.size(); ++c) {
    Field f = first.field(c);
    for (size_t t = 1; t < inputs.size(); ++t) {
      auto w = widerForSetOperation(f, inputs[t].field(c), conf.ansi);
      if (!w) {
        return sparkError(Status::Code::kInvalidArgument, "INCOMPATIBLE_COLUMN_TYPE",
                          {{"operator", "UNION"}, {"columnOrdinalNumber", ordinalNumber(c)},
                           {"tableOrdinalNumber", ordinalNumber(t)},
                           {"dataType1", sparkSqlType(inputs[t].field(c).type)},
                           {"dataType2", sparkSqlType(f.type)}, {"hint", ""}});
      }
      f.type = w->type;
      f.nested = w->nested;
      f.nullable = f.nullable || inputs[t].field(c).nullable;
    }
    f.name = first.field(c).name;
    out.push_back(std::move(f));
  }
  return Schema(std::move(out));
}

std::unique_ptr<Operator> makeUnionByPositionOperator(Schema output) {
  auto out = std::make_shared<const Schema>(std::move(output));
  return std::make_unique<ShapeOperator>("union", [out](const Schema& s, const expr::SqlConf&) -> Result<std::vector<Column>> {
    if (s.size() != out->size()) {
      return sparkError(Status::Code::kInvalidArgument, "NUM_COLUMNS_MISMATCH",
                        {{"operator", "UNION"}, {"firstNumColumns", std::to_string(out->size())},
                         {"invalidOrdinalNum", "second"}, {"invalidNumColumns", std::to_string(s.size())}},
                        fmt::format("a row of the union has the columns {}", s.toDDL()));
    }
    std::vector<Column> cols;
    for (size_t i = 0; i < s.size(); ++i) {
      Column c = columnAt(s, i);
      bool cast = s.field(i).type != out->field(i).type;
      if (cast) c = c.cast(typeDDL(out->field(i)));
      cols.push_back(!cast && s.field(i).name == out->field(i).name ? c : c.alias(out->field(i).name));
    }
    return cols;
  });
}

std::unique_ptr<Operator> makeDropOperator(std::vector<std::string> names) {
  std::string d = "drop(";
  for (size_t i = 0; i < names.size(); ++i) d += (i ? ", " : "") + names[i];
  return std::make_unique<ShapeOperator>(d + ")", [names](const Schema& s, const expr::SqlConf& conf) -> Result<std::vector<Column>> {
    return dropProjection(s, names, conf);
  });
}

}  // namespace streamsim
