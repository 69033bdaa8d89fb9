// Resolution of an unresolved Column against a Schema (expr/analyzer.h), following Spark's
// Analyzer: column names by spark.sql.caseSensitive (ResolveReferences, LogicalPlan.resolve),
// struct fields and map keys after the column (ExtractValue), functions through the function
// table (FunctionRegistry), casts checked by Cast.canCast, errors with Spark's conditions.
#include <algorithm>

#include <fmt/format.h>

#include "expr/bound.h"
#include "streamsim/expr/user_functions.h"

namespace streamsim::expr {
namespace {

std::string lowerCopy(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool nameEquals(std::string_view a, std::string_view b, bool caseSensitive) {
  if (caseSensitive) return a == b;
  return a.size() == b.size() && lowerCopy(a) == lowerCopy(b);
}

// Levenshtein distance (commons-text LevenshteinDistance, as Spark orders its suggestions).
size_t levenshtein(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// Spark's quoteIfNeeded: a name of letters, digits and _ not starting with a digit stays bare.
std::string quoteIfNeeded(std::string_view n) {
  bool plain = !n.empty() && !std::isdigit(static_cast<unsigned char>(n[0]));
  for (char c : n) plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  return plain ? std::string(n) : sparkSqlId(n);
}

std::string quotedParts(const std::vector<std::string>& parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? "." : "") + sparkSqlId(parts[i]);
  return out;
}

class PassNode final : public Bound {
 public:
  Status eval(const Batch& b, std::vector<Value>& out) const override { return children[0]->eval(b, out); }
};

class ColumnRefNode final : public Bound {
 public:
  explicit ColumnRefNode(size_t index) : index_(index) {}
  Status eval(const Batch& b, std::vector<Value>& out) const override {
    out.resize(b.size());
    for (size_t i = 0; i < b.size(); ++i) out[i] = (*b.rows[i])[index_];
    return Status::OK();
  }

 private:
  size_t index_;
};

class Analyzer {
 public:
  Analyzer(const Schema& input, const SqlConf& conf) : input_(input), conf_(conf) {}

  Result<BoundPtr> resolve(const Node& n) {
    auto r = resolveInner(n);
    if (!r.ok() && error_pos_ < 0) error_pos_ = n.pos;
    return r;
  }
  int errorPos() const { return error_pos_; }
  const SqlConf& conf() const { return conf_; }

  Status unresolvedColumn(const std::vector<std::string>& parts, int pos) {
    std::vector<std::string> cands;
    for (const Field& f : input_.fields()) cands.push_back(quoteIfNeeded(f.name));
    std::string base;
    for (size_t i = 0; i < parts.size(); ++i) base += (i ? "." : "") + parts[i];
    std::stable_sort(cands.begin(), cands.end(), [&](const std::string& a, const std::string& b) {
      return levenshtein(a, base) < levenshtein(b, base);
    });
    error_pos_ = pos;
    if (cands.empty())
      return sparkError(Status::Code::kInvalidArgument, "UNRESOLVED_COLUMN.WITHOUT_SUGGESTION",
                        {{"objectName", quotedParts(parts)}});
    std::string proposal;
    for (size_t i = 0; i < cands.size() && i < 5; ++i) proposal += (i ? ", " : "") + sparkSqlId(cands[i]);
    return sparkError(Status::Code::kInvalidArgument, "UNRESOLVED_COLUMN.WITH_SUGGESTION",
                      {{"objectName", quotedParts(parts)}, {"proposal", proposal}});
  }

  // The input column named `name`: its index, -1 when none, or AMBIGUOUS_REFERENCE.
  Result<int> findColumn(std::string_view name, int pos) {
    int found = -1;
    std::vector<std::string> matches;
    for (size_t i = 0; i < input_.size(); ++i) {
      if (nameEquals(input_.field(i).name, name, conf_.caseSensitive)) {
        if (found < 0) found = static_cast<int>(i);
        matches.push_back(sparkSqlId(input_.field(i).name));
      }
    }
    if (matches.size() > 1) {
      error_pos_ = pos;
      std::string refs;
      for (size_t i = 0; i < matches.size(); ++i) refs += (i ? ", " : "") + matches[i];
      return sparkError(Status::Code::kInvalidArgument, "AMBIGUOUS_REFERENCE",
                        {{"name", sparkSqlId(name)}, {"referenceNames", "[" + refs + "]"}});
    }
    return found;
  }

  // base.field: a struct's field (case rules as columns) or a map's value for a string key.
  Result<BoundPtr> extractField(BoundPtr base, const std::string& field, int pos) {
    const Field& t = base->type;
    if (t.type == Type::kStruct && t.nested) {
      int found = -1;
      int count = 0;
      for (size_t i = 0; i < t.nested->size(); ++i) {
        if (nameEquals(t.nested->field(i).name, field, conf_.caseSensitive)) {
          if (found < 0) found = static_cast<int>(i);
          ++count;
        }
      }
      if (count > 1) {
        error_pos_ = pos;
        return sparkError(Status::Code::kInvalidArgument, "AMBIGUOUS_REFERENCE_TO_FIELDS",
                          {{"field", sparkSqlId(field)}, {"count", std::to_string(count)}});
      }
      if (found < 0) {
        error_pos_ = pos;
        std::string fields;
        for (size_t i = 0; i < t.nested->size(); ++i) fields += (i ? ", " : "") + sparkSqlId(t.nested->field(i).name);
        return sparkError(Status::Code::kInvalidArgument, "FIELD_NOT_FOUND",
                          {{"fieldName", sparkSqlId(field)}, {"fields", fields}});
      }
      Field ft = t.nested->field(found);
      ft.nullable = true;
      size_t idx = static_cast<size_t>(found);
      std::string name = t.nested->field(found).name;
      auto n = makeScalar("getfield", {base}, ft, [idx](const Value* a, const EvalContext&) -> Result<Value> {
        return a[0].items()[idx];
      });
      auto* m = const_cast<Bound*>(n.get());
      m->sql = fmt::format("{}.{}", base->sql, name);
      m->autoName = name;
      m->isNamed = true;
      return n;
    }
    if (t.type == Type::kMap) {
      FunctionCall c{"subscript", {base, makeLiteral(Value(field), typeField(Type::kString))}, &conf_};
      const FunctionBuilder* b = findFunction("subscript");
      return (*b)(c);
    }
    error_pos_ = pos;
    return sparkError(Status::Code::kInvalidArgument, "INVALID_EXTRACT_BASE_FIELD_TYPE",
                      {{"base", fmt::format("\"{}\"", base->sql)}, {"other", sqlTypeOf(t)}});
  }

 private:
  Result<BoundPtr> resolveInner(const Node& n) {
    switch (n.kind) {
      case Node::Kind::kError:
        error_pos_ = n.pos;
        return n.error;
      case Node::Kind::kLiteral: return makeLiteral(n.literal, n.type);
      case Node::Kind::kStar:
        error_pos_ = n.pos;
        return sparkError(Status::Code::kInvalidArgument, "INVALID_USAGE_OF_STAR_OR_REGEX",
                          {{"elem", "'*'"}, {"prettyName", "expression"}},
                          "`*` expands only at the top of a select list");
      case Node::Kind::kColumn: {
        STREAMSIM_ASSIGN_OR_RETURN(int idx, findColumn(n.parts[0], n.pos));
        if (idx < 0) return unresolvedColumn(n.parts, n.pos);
        auto ref = std::make_shared<ColumnRefNode>(static_cast<size_t>(idx));
        ref->type = input_.field(idx);
        ref->type.name.clear();
        ref->sql = input_.field(idx).name;
        ref->autoName = input_.field(idx).name;
        ref->isNamed = true;
        BoundPtr e = ref;
        for (size_t i = 1; i < n.parts.size(); ++i) {
          auto f = extractField(e, n.parts[i], n.pos);
          if (!f.ok()) {
            // Spark reports a.b on a non-struct column as an unresolved a.b.
            if (e->type.type != Type::kStruct && e->type.type != Type::kMap) return unresolvedColumn(n.parts, n.pos);
            return f.status();
          }
          e = *f;
        }
        return e;
      }
      case Node::Kind::kAlias: {
        STREAMSIM_ASSIGN_OR_RETURN(BoundPtr child, resolve(*n.args[0]));
        auto a = std::make_shared<PassNode>();
        a->type = child->type;
        a->foldable = child->foldable;
        a->sql = child->sql;
        a->autoName = n.name;
        a->isNamed = true;
        a->children = {child};
        return BoundPtr(a);
      }
      case Node::Kind::kField: {
        STREAMSIM_ASSIGN_OR_RETURN(BoundPtr base, resolve(*n.args[0]));
        return extractField(base, n.name, n.pos);
      }
      case Node::Kind::kCast: {
        STREAMSIM_ASSIGN_OR_RETURN(BoundPtr child, resolve(*n.args[0]));
        if (!canCast(child->type, n.type, conf_.ansi)) {
          error_pos_ = n.pos;
          auto tmp = makeCastNode(child, n.type, n.tryCast, conf_.ansi);
          // Cast.typeCheckFailureMessage: a function to suggest, the legacy conf, or nothing.
          ErrorParams params{{"sqlExpr", fmt::format("\"{}\"", tmp->sql)}, {"srcType", sqlTypeOf(child->type)},
                             {"targetType", sqlTypeOf(n.type)}};
          Type f = child->type.type, t = n.type.type;
          if ((isNumericType(f) && t == Type::kDate) || (f == Type::kDate && isNumericType(t))) {
            params.emplace_back("functionNames", f == Type::kDate ? "`UNIX_DATE`" : "`DATE_FROM_UNIX_DATE`");
            return sparkError(Status::Code::kInvalidArgument, "DATATYPE_MISMATCH.CAST_WITH_FUNC_SUGGESTION", params);
          }
          if (conf_.ansi && canCast(child->type, n.type, false)) {
            params.emplace_back("config", "\"spark.sql.ansi.enabled\"");
            params.emplace_back("configVal", "'false'");
            return sparkError(Status::Code::kInvalidArgument, "DATATYPE_MISMATCH.CAST_WITH_CONF_SUGGESTION", params);
          }
          return sparkError(Status::Code::kInvalidArgument, "DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION", params);
        }
        auto c = makeCastNode(child, n.type, n.tryCast, conf_.ansi);
        if (n.name == "typed_literal") {
          // TIMESTAMP '...': checked now (Spark's AstBuilder: INVALID_TYPED_LITERAL).
          auto v = evalConstant(*c, conf_);
          if (!v.ok() || v->isNull()) {
            error_pos_ = n.pos;
            return sparkError(Status::Code::kInvalidArgument, "INVALID_TYPED_LITERAL",
                              {{"valueType", sqlTypeOf(n.type)}, {"value", sqlValue(n.args[0]->literal, conf_)}});
          }
          auto l = makeLiteral(*v, n.type);
          auto* m = const_cast<Bound*>(l.get());
          m->sql = sqlValue(*v, conf_);
          m->autoName = m->sql;
          return l;
        }
        return c;
      }
      case Node::Kind::kCall: {
        FunctionCall c;
        c.name = lowerCopy(n.name);
        c.conf = &conf_;
        c.pos = n.pos;
        for (const auto& a : n.args) {
          if (a->kind == Node::Kind::kStar && (c.name == "count")) {
            c.args.push_back(makeLiteral(Value(int32_t{1}), typeField(Type::kInt)));
            continue;
          }
          STREAMSIM_ASSIGN_OR_RETURN(BoundPtr b, resolve(*a));
          c.args.push_back(std::move(b));
        }
        // A user-defined function replaces a built-in one of the same name (UDFRegistration
        // registers a temporary function over it).
        if (conf_.userFunctions != nullptr)
          if (const UserFunction* u = conf_.userFunctions->find(c.name)) return makeUserFunctionCall(*u, std::move(c.args));
        const FunctionBuilder* fn = findFunction(c.name);
        if (fn == nullptr) {
          error_pos_ = n.pos;
          return sparkError(Status::Code::kInvalidArgument, "UNRESOLVED_ROUTINE",
                            {{"routineName", sparkSqlId(n.name)},
                             {"searchPath", "[`system`.`builtin`, `system`.`session`, `spark_catalog`.`default`]"}},
                            "streamsim's functions: docs/scenarios.md \"Expressions\"");
        }
        auto r = (*fn)(c);
        if (!r.ok()) error_pos_ = n.pos;
        return r;
      }
    }
    return Status::InvalidArgument("unknown expression node");
  }

  const Schema& input_;
  const SqlConf& conf_;
  int error_pos_ = -1;
};

}  // namespace

int64_t runSeedOf(std::string_view runId) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
  for (unsigned char ch : runId) {
    h ^= ch;
    h *= 0x100000001b3ull;
  }
  return static_cast<int64_t>(h);
}

CompiledExpr::CompiledExpr(std::shared_ptr<const Bound> bound, std::string name)
    : bound_(std::move(bound)), name_(std::move(name)) {
  field_ = bound_->type;
  field_.name = name_;
}

const Field& CompiledExpr::field() const { return field_; }

std::string CompiledExpr::sql() const { return bound_ ? bound_->sql : std::string(); }

Status CompiledExpr::evaluate(std::span<const Row* const> rows, const EvalContext& ctx, std::vector<Value>& out) const {
  return bound_->eval(Batch{rows, &ctx}, out);
}

Result<CompiledExpr> analyze(const Column& column, const Schema& input, const SqlConf& conf, int* errorPos) {
  if (!column.node()) return Status::InvalidArgument("an empty Column");
  Analyzer a(input, conf);
  auto r = a.resolve(*column.node());
  if (!r.ok()) {
    if (errorPos) *errorPos = a.errorPos();
    return r.status();
  }
  return CompiledExpr(*r, (*r)->autoName);
}

Result<CompiledExpr> analyze(const Column& column, const Schema& input, const SqlConf& conf) {
  return analyze(column, input, conf, nullptr);
}

Result<std::vector<CompiledExpr>> analyzeSelect(const std::vector<Column>& columns, const Schema& input,
                                                const SqlConf& conf, int* errorIndex, int* errorPos) {
  std::vector<CompiledExpr> out;
  for (size_t k = 0; k < columns.size(); ++k) {
    const Column& c = columns[k];
    auto fail = [&](Status st, int pos) -> Status {
      if (errorIndex) *errorIndex = static_cast<int>(k);
      if (errorPos) *errorPos = pos;
      return st;
    };
    if (c.node() && c.node()->kind == Node::Kind::kStar) {
      const Node& n = *c.node();
      if (n.parts.empty()) {
        for (size_t i = 0; i < input.size(); ++i) {
          // By position: a duplicate name must not be ambiguous here.
          auto ref = std::make_shared<ColumnRefNode>(i);
          ref->type = input.field(i);
          ref->type.name.clear();
          ref->sql = input.field(i).name;
          ref->autoName = input.field(i).name;
          ref->isNamed = true;
          out.emplace_back(ref, input.field(i).name);
        }
        continue;
      }
      // s.*: the struct's fields.
      auto colNode = std::make_shared<Node>();
      colNode->kind = Node::Kind::kColumn;
      colNode->parts = n.parts;
      Analyzer a(input, conf);
      auto base = a.resolve(*colNode);
      if (!base.ok() || (*base)->type.type != Type::kStruct) {
        std::string cols;
        for (size_t i = 0; i < input.size(); ++i) cols += (i ? ", " : "") + sparkSqlId(input.field(i).name);
        return fail(sparkError(Status::Code::kInvalidArgument, "CANNOT_RESOLVE_STAR_EXPAND",
                               {{"targetString", quotedParts(n.parts)}, {"columns", cols}}),
                    n.pos);
      }
      for (size_t i = 0; i < (*base)->type.nested->size(); ++i) {
        auto f = a.extractField(*base, (*base)->type.nested->field(i).name, n.pos);
        if (!f.ok()) return fail(f.status(), n.pos);
        out.emplace_back(*f, (*base)->type.nested->field(i).name);
      }
      continue;
    }
    int pos = -1;
    auto r = analyze(c, input, conf, &pos);
    if (!r.ok()) return fail(r.status(), pos);
    out.push_back(std::move(r).value());
  }
  return out;
}

Result<std::vector<CompiledExpr>> analyzeSelect(const std::vector<Column>& columns, const Schema& input,
                                                const SqlConf& conf) {
  return analyzeSelect(columns, input, conf, nullptr, nullptr);
}

Result<int> resolveColumnIndex(std::string_view name, const Schema& input, const SqlConf& conf) {
  Analyzer a(input, conf);
  return a.findColumn(name, -1);
}

}  // namespace streamsim::expr
