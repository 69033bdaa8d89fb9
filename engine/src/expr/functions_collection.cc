// Collection functions and constructors (catalyst/expressions/collectionOperations.scala,
// complexTypeCreator.scala, complexTypeExtractors.scala): struct / named_struct, array, map /
// create_map, a[i] / m[k] (GetArrayItem 0-based, GetMapValue), element_at (1-based, negative from
// the end; ANSI: INVALID_ARRAY_INDEX_IN_ELEMENT_AT, INVALID_INDEX_OF_ZERO), size (null: -1 unless
// ANSI, as spark.sql.legacy.sizeOfNull follows it), array_contains, map_keys, map_values.
// Generators (explode, posexplode and _outer) are operators: expr/generator.h.
#include <fmt/format.h>

#include "expr/bound.h"

namespace streamsim::expr {
namespace {

Result<BoundPtr> buildStruct(FunctionCall& c) {
  std::vector<Field> fields;
  for (size_t i = 0; i < c.args.size(); ++i) {
    Field f = c.args[i]->type;
    // Spark names struct(a, b) fields by the named expressions' names, else col1, col2, ...
    f.name = c.args[i]->isNamed ? c.args[i]->autoName : fmt::format("col{}", i + 1);
    fields.push_back(std::move(f));
  }
  auto schema = makeSchema(fields);
  size_t n = c.args.size();
  auto b = makeScalar("struct", c.args, structField("", schema, false), [schema, n](const Value* a, const EvalContext&) -> Result<Value> {
    return Value::structOf(schema, std::vector<Value>(a, a + n));
  }, false);
  return b;
}

Result<BoundPtr> buildNamedStruct(FunctionCall& c) {
  if (c.args.size() % 2 != 0 || c.args.empty()) return wrongNumArgs(c, "2n (n > 0)");
  std::vector<Field> fields;
  std::vector<BoundPtr> values;
  for (size_t i = 0; i < c.args.size(); i += 2) {
    STREAMSIM_ASSIGN_OR_RETURN(Value name, constantArg(c, i, "name"));
    if (name.type() != Type::kString)
      return sparkError(Status::Code::kInvalidArgument, "DATATYPE_MISMATCH.CREATE_NAMED_STRUCT_WITHOUT_FOLDABLE_STRING",
                        {{"sqlExpr", fmt::format("\"{}\"", callSql("named_struct", c.args))}, {"inputExprs", c.args[i]->sql}});
    Field f = c.args[i + 1]->type;
    f.name = name.asString();
    fields.push_back(f);
    values.push_back(c.args[i + 1]);
  }
  auto schema = makeSchema(fields);
  size_t n = values.size();
  return makeScalar("named_struct", values, structField("", schema, false), [schema, n](const Value* a, const EvalContext&) -> Result<Value> {
    return Value::structOf(schema, std::vector<Value>(a, a + n));
  }, false);
}

Result<Field> commonElementType(FunctionCall& c, size_t from, size_t step, std::string_view fn) {
  Field t = typeField(Type::kNull);
  for (size_t i = from; i < c.args.size(); i += step) {
    auto w = widerType(t, c.args[i]->type);
    if (!w && (t.type == Type::kString || c.args[i]->type.type == Type::kString)) {
      // findWiderTypeWithoutStringPromotion fails; Spark then casts to string for array().
      if (t.type != Type::kStruct && c.args[i]->type.type < Type::kStruct) w = typeField(Type::kString);
    }
    if (!w) {
      std::string types;
      for (size_t j = from; j < c.args.size(); j += step) types += (j > from ? ", " : "") + sqlTypeOf(c.args[j]->type);
      return sparkError(Status::Code::kInvalidArgument, "DATATYPE_MISMATCH.DATA_DIFF_TYPES",
                        {{"sqlExpr", fmt::format("\"{}\"", callSql(fn, c.args))}, {"functionName", sparkSqlId(fn)},
                         {"dataType", "(" + types + ")"}});
    }
    t = *w;
  }
  if (t.type == Type::kNull) t = typeField(Type::kString);
  for (size_t i = from; i < c.args.size(); i += step) c.args[i] = castIfNeeded(c.args[i], t, *c.conf);
  return t;
}

Result<BoundPtr> buildArray(FunctionCall& c) {
  STREAMSIM_ASSIGN_OR_RETURN(Field el, commonElementType(c, 0, 1, "array"));
  el.nullable = true;
  size_t n = c.args.size();
  Field t = arrayOf(el);
  t.nullable = false;
  return makeScalar("array", c.args, t, [n](const Value* a, const EvalContext&) -> Result<Value> {
    return Value::arrayOf(std::vector<Value>(a, a + n));
  }, false);
}

Result<BoundPtr> buildMap(FunctionCall& c) {
  if (c.args.size() % 2 != 0) return wrongNumArgs(c, "2n (n >= 0)");
  STREAMSIM_ASSIGN_OR_RETURN(Field k, commonElementType(c, 0, 2, "map"));
  STREAMSIM_ASSIGN_OR_RETURN(Field v, commonElementType(c, 1, 2, "map"));
  k.name = "key";
  k.nullable = false;
  v.name = "value";
  v.nullable = true;
  size_t n = c.args.size();
  return makeScalar("map", c.args, mapField("", k, v, false), [n](const Value* a, const EvalContext&) -> Result<Value> {
    std::vector<std::pair<Value, Value>> entries;
    for (size_t i = 0; i < n; i += 2) {
      if (a[i].isNull())
        return sparkError(Status::Code::kTaskFailed, "NULL_MAP_KEY", {});
      for (const auto& e : entries)
        if (compare(e.first, a[i]) == 0)
          return sparkError(Status::Code::kTaskFailed, "DUPLICATED_MAP_KEY",
                            {{"key", a[i].toString()}, {"mapKeyDedupPolicy", "\"spark.sql.mapKeyDedupPolicy\""}});
      entries.emplace_back(a[i], a[i + 1]);
    }
    return Value::mapOf(std::move(entries));
  }, false);
}

Status invalidIndex(std::string condition, int64_t index, size_t size) {
  return sparkError(Status::Code::kTaskFailed, std::move(condition),
                    {{"indexValue", std::to_string(index)}, {"arraySize", std::to_string(size)}});
}

// a[i] (0-based) and m[k]; element_at(a, i) (1-based) and element_at(m, k).
FunctionBuilder extract(bool elementAt) {
  return [elementAt](FunctionCall& c) -> Result<BoundPtr> {
    STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 2, 2));
    const Field& base = c.args[0]->type;
    bool ansi = c.conf->ansi;
    std::string sql = elementAt ? callSql("element_at", c.args) : fmt::format("{}[{}]", c.args[0]->sql, c.args[1]->sql);
    BoundPtr n;
    if (base.type == Type::kArray) {
      STREAMSIM_RETURN_IF_ERROR(implicitCast(c, 1, Type::kInt, "\"INT\""));
      Field el = base.nested ? base.nested->field(0) : typeField(Type::kString);
      el.nullable = true;
      n = makeScalar(elementAt ? "element_at" : "subscript", c.args, el, [=](const Value* a, const EvalContext&) -> Result<Value> {
        const auto& items = a[0].items();
        int64_t i = a[1].asLong();
        int64_t size = static_cast<int64_t>(items.size());
        if (elementAt) {
          if (i == 0) return sparkError(Status::Code::kTaskFailed, "INVALID_INDEX_OF_ZERO", {});
          int64_t k = i > 0 ? i - 1 : size + i;
          if (k < 0 || k >= size) {
            if (ansi) return invalidIndex("INVALID_ARRAY_INDEX_IN_ELEMENT_AT", i, items.size());
            return Value();
          }
          return items[k];
        }
        if (i < 0 || i >= size) {
          if (ansi) return invalidIndex("INVALID_ARRAY_INDEX", i, items.size());
          return Value();
        }
        return items[i];
      });
    } else if (base.type == Type::kMap) {
      Field key = base.nested ? base.nested->field(0) : typeField(Type::kString);
      Field val = base.nested ? base.nested->field(1) : typeField(Type::kString);
      val.nullable = true;
      if (!sameType(c.args[1]->type, key)) {
        if (!canCast(c.args[1]->type, key, ansi)) return unexpectedInputType(c, 1, sqlTypeOf(key));
        c.args[1] = castIfNeeded(c.args[1], key, *c.conf);
      }
      n = makeScalar(elementAt ? "element_at" : "subscript", c.args, val, [](const Value* a, const EvalContext&) -> Result<Value> {
        for (size_t i = 0; i < a[0].mapSize(); ++i)
          if (compare(a[0].mapKey(i), a[1]) == 0) return a[0].mapValue(i);
        return Value();
      });
    } else if (base.type == Type::kStruct && !elementAt && c.args[1]->foldable) {
      STREAMSIM_ASSIGN_OR_RETURN(Value k, evalConstant(*c.args[1], *c.conf));
      if (k.type() != Type::kString) return unexpectedInputType(c, 1, "\"STRING\"");
      for (size_t i = 0; i < base.nested->size(); ++i) {
        if (base.nested->field(i).name == k.asString()) {
          Field ft = base.nested->field(i);
          ft.nullable = true;
          n = makeScalar("getfield", {c.args[0]}, ft, [i](const Value* a, const EvalContext&) -> Result<Value> { return a[0].items()[i]; });
        }
      }
      if (!n)
        return sparkError(Status::Code::kInvalidArgument, "FIELD_NOT_FOUND",
                          {{"fieldName", sparkSqlId(k.asString())}, {"fields", sparkStructTypeString(*base.nested)}});
      sql = fmt::format("{}.{}", c.args[0]->sql, k.asString());
    } else {
      return sparkError(Status::Code::kInvalidArgument, "INVALID_EXTRACT_BASE_FIELD_TYPE",
                        {{"base", fmt::format("\"{}\"", c.args[0]->sql)}, {"other", sqlTypeOf(base)}});
    }
    auto* m = const_cast<Bound*>(n.get());
    m->sql = sql;
    m->autoName = sql;
    return n;
  };
}

Result<BoundPtr> buildSize(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 1, 1));
  Type t = c.args[0]->type.type;
  if (t != Type::kArray && t != Type::kMap && t != Type::kNull)
    return unexpectedInputType(c, 0, "(\"ARRAY\" or \"MAP\")");
  bool nullIsMinusOne = !c.conf->ansi;
  return makeScalar("size", c.args, typeField(Type::kInt, !nullIsMinusOne), [=](const Value* a, const EvalContext&) -> Result<Value> {
    if (a[0].isNull()) return nullIsMinusOne ? Value(int32_t{-1}) : Value();
    size_t n = a[0].type() == Type::kMap ? a[0].mapSize() : a[0].items().size();
    return Value(static_cast<int32_t>(n));
  }, false);
}

Result<BoundPtr> buildArrayContains(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 2, 2));
  const Field& base = c.args[0]->type;
  if (base.type != Type::kArray) return unexpectedInputType(c, 0, "\"ARRAY\"");
  Field el = base.nested ? base.nested->field(0) : typeField(Type::kString);
  auto w = widerType(el, c.args[1]->type);
  if (!w)
    return sparkError(Status::Code::kInvalidArgument, "DATATYPE_MISMATCH.ARRAY_FUNCTION_DIFF_TYPES",
                      {{"sqlExpr", fmt::format("\"{}\"", callSql("array_contains", c.args))}, {"functionName", "`array_contains`"},
                       {"dataType", "\"ARRAY\""}, {"leftType", sqlTypeOf(base)}, {"rightType", sqlTypeOf(c.args[1]->type)}});
  c.args[1] = castIfNeeded(c.args[1], *w, *c.conf);
  return makeScalar("array_contains", c.args, typeField(Type::kBoolean), [](const Value* a, const EvalContext&) -> Result<Value> {
    bool sawNull = false;
    for (const Value& e : a[0].items()) {
      if (e.isNull()) sawNull = true;
      else if (compare(e, a[1]) == 0) return Value(true);
    }
    return sawNull ? Value() : Value(false);
  });
}

FunctionBuilder mapPart(bool keys) {
  return [keys](FunctionCall& c) -> Result<BoundPtr> {
    STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 1, 1));
    const Field& base = c.args[0]->type;
    if (base.type != Type::kMap) return unexpectedInputType(c, 0, "\"MAP\"");
    Field el = base.nested ? base.nested->field(keys ? 0 : 1) : typeField(Type::kString);
    return makeScalar(keys ? "map_keys" : "map_values", c.args, arrayOf(el), [keys](const Value* a, const EvalContext&) -> Result<Value> {
      std::vector<Value> out;
      for (size_t i = 0; i < a[0].mapSize(); ++i) out.push_back(keys ? a[0].mapKey(i) : a[0].mapValue(i));
      return Value::arrayOf(std::move(out));
    });
  };
}

Result<BoundPtr> generatorHere(FunctionCall& c) {
  return sparkError(Status::Code::kInvalidArgument, "UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS",
                    {{"expression", fmt::format("\"{}\"", callSql(c.name, c.args))}},
                    "a generator stands alone in a select list or as explode: in a scenario");
}

}  // namespace

void addCollectionFunctions(FunctionTable& t) {
  t.emplace_back("struct", buildStruct);
  t.emplace_back("named_struct", buildNamedStruct);
  t.emplace_back("array", buildArray);
  t.emplace_back("map", buildMap);
  t.emplace_back("create_map", buildMap);
  t.emplace_back("subscript", extract(false));
  t.emplace_back("element_at", extract(true));
  t.emplace_back("size", buildSize);
  t.emplace_back("cardinality", buildSize);
  t.emplace_back("array_contains", buildArrayContains);
  t.emplace_back("map_keys", mapPart(true));
  t.emplace_back("map_values", mapPart(false));
  for (const char* g : {"explode", "explode_outer", "posexplode", "posexplode_outer", "inline", "inline_outer", "stack", "json_tuple"})
    t.emplace_back(g, generatorHere);
}

}  // namespace streamsim::expr
