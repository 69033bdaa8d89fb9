// Parquet schema <-> Spark schema (parquet_schema.h). The reading rules are LogicalTypes.md's
// ("Nested Types": Lists, Maps, and "Backward-compatibility rules"), with Spark's type choices
// (ParquetSchemaConverter.scala's ParquetToSparkSchemaConverter) where the engine has the type.
#include "io/parquet/parquet_schema.h"

#include <fmt/format.h>

namespace streamsim::parquet {

namespace {

struct ElementNode {
  const SchemaElement* e = nullptr;
  std::vector<ElementNode> kids;
};

Status corrupt(std::string_view file, const SchemaElement& e, std::string_view expected) {
  return Status::Corruption(fmt::format("{}: offset {}: schema element '{}': expected {}", file,
                                        e.offset, e.name, expected));
}

// Rebuilds the tree from the depth-first list (num_children says how many follow).
Result<ElementNode> buildTree(const std::vector<SchemaElement>& els, size_t& i, int depth,
                              std::string_view file) {
  if (i >= els.size())
    return Status::Corruption(fmt::format("{}: the footer's schema list ends before its num_children say", file));
  ElementNode n;
  n.e = &els[i++];
  if (n.e->type) return n;
  if (depth > kMaxSchemaDepth) return corrupt(file, *n.e, "a schema nested at most 32 levels deep");
  if (n.e->numChildren < 0 || static_cast<size_t>(n.e->numChildren) > els.size() - i)
    return corrupt(file, *n.e, fmt::format("num_children of at most the {} elements that follow", els.size() - i));
  for (int k = 0; k < n.e->numChildren; ++k) {
    STREAMSIM_ASSIGN_OR_RETURN(ElementNode kid, buildTree(els, i, depth + 1, file));
    n.kids.push_back(std::move(kid));
  }
  return n;
}

bool isList(const SchemaElement& e) {
  return e.logicalType.kind == LogicalType::Kind::kList || e.convertedType == ConvertedType::kList;
}
bool isMap(const SchemaElement& e) {
  return e.logicalType.kind == LogicalType::Kind::kMap || e.convertedType == ConvertedType::kMap ||
         e.convertedType == ConvertedType::kMapKeyValue;
}

class Builder {
 public:
  Builder(ColumnTree& tree, std::string_view file) : tree_(tree), file_(file) {}

  // `en` as a field whose repetition is `rep` (the element's own, or REQUIRED for an element a
  // list takes as required), under a parent at levels (parentDef, parentRep).
  Result<ColumnNode> field(const ElementNode& en, Repetition rep, int parentDef, int parentRep,
                           std::vector<std::string> path) {
    const SchemaElement& e = *en.e;
    path.push_back(e.name);
    if (rep == Repetition::kRepeated) {
      // A repeated field outside a LIST/MAP group: a required list of required elements.
      ColumnNode n;
      n.kind = ColumnNode::Kind::kList;
      n.def = parentDef;
      n.repDef = parentDef + 1;
      n.repRep = parentRep + 1;
      path.pop_back();
      STREAMSIM_ASSIGN_OR_RETURN(ColumnNode elem, field(en, Repetition::kRequired, n.repDef, n.repRep, path));
      n.firstLeaf = elem.firstLeaf;
      n.endLeaf = elem.endLeaf;
      n.field = arrayField(e.name, withName(elem.field, "element"), false);
      n.children.push_back(std::move(elem));
      return n;
    }
    ColumnNode n;
    n.optional = rep == Repetition::kOptional;
    n.def = parentDef + (n.optional ? 1 : 0);
    n.firstLeaf = static_cast<int>(tree_.leaves.size());
    if (e.type) {
      STREAMSIM_RETURN_IF_ERROR(leaf(e, n, parentRep, path));
    } else if (isList(e)) {
      STREAMSIM_RETURN_IF_ERROR(list(en, n, parentRep, path));
    } else if (isMap(e)) {
      STREAMSIM_RETURN_IF_ERROR(map(en, n, parentRep, path));
    } else {
      n.kind = ColumnNode::Kind::kStruct;
      if (en.kids.empty()) return corrupt(file_, e, "a group with at least one field");
      std::vector<Field> fields;
      for (const ElementNode& kid : en.kids) {
        STREAMSIM_ASSIGN_OR_RETURN(ColumnNode c, field(kid, kid.e->repetition.value_or(Repetition::kOptional),
                                                       n.def, parentRep, path));
        fields.push_back(c.field);
        n.children.push_back(std::move(c));
      }
      n.field = structField(e.name, makeSchema(std::move(fields)));
    }
    n.field.name = e.name;
    n.field.nullable = n.optional;
    n.endLeaf = static_cast<int>(tree_.leaves.size());
    return n;
  }

 private:
  static Field withName(Field f, std::string name) {
    f.name = std::move(name);
    return f;
  }

  Status unsupported(const std::vector<std::string>& path, std::string_view what) const {
    std::string dotted;
    for (const std::string& p : path) dotted += (dotted.empty() ? "" : ".") + p;
    return Status::InvalidArgument(fmt::format(
        "{}: column '{}' is {}, which streamsim's Parquet reader does not read (docs/python.md)",
        file_, dotted, what));
  }

  Status leaf(const SchemaElement& e, ColumnNode& n, int parentRep, const std::vector<std::string>& path) {
    n.kind = ColumnNode::Kind::kLeaf;
    LeafColumn c;
    c.path = path;
    for (const std::string& p : path) c.dottedPath += (c.dottedPath.empty() ? "" : ".") + p;
    c.type = *e.type;
    c.typeLength = e.typeLength;
    c.maxDef = n.def;
    c.maxRep = parentRep;
    const LogicalType& lt = e.logicalType;
    using K = LogicalType::Kind;
    int ct = e.convertedType.value_or(-1);
    Type t = Type::kLong;
    auto no = [&](std::string_view what) { return unsupported(path, what); };
    if (lt.kind == K::kDecimal || ct == ConvertedType::kDecimal) return no("a DECIMAL");
    if (lt.kind == K::kTime || ct == ConvertedType::kTimeMillis || ct == ConvertedType::kTimeMicros) return no("a TIME");
    if (ct == ConvertedType::kInterval) return no("an INTERVAL");
    if (lt.kind == K::kFloat16) return no("a FLOAT16");
    switch (*e.type) {
      case PhysicalType::kBoolean: c.conversion = LeafConversion::kBoolean; t = Type::kBoolean; break;
      case PhysicalType::kInt32:
        if (lt.kind == K::kDate || ct == ConvertedType::kDate) {
          c.conversion = LeafConversion::kDate;
          t = Type::kDate;
        } else if ((lt.kind == K::kInteger && !lt.isSigned && lt.bitWidth == 32) || ct == ConvertedType::kUint32) {
          c.conversion = LeafConversion::kUint32AsLong;  // Spark: UINT_32 -> LongType
          t = Type::kLong;
        } else {
          c.conversion = LeafConversion::kInt;
          t = Type::kInt;
        }
        break;
      case PhysicalType::kInt64:
        if ((lt.kind == K::kInteger && !lt.isSigned) || ct == ConvertedType::kUint64) return no("an unsigned 64-bit INTEGER");
        if (lt.kind == K::kTimestamp || ct == ConvertedType::kTimestampMillis || ct == ConvertedType::kTimestampMicros) {
          t = Type::kTimestamp;
          bool millis = lt.kind == K::kTimestamp ? lt.unit == LogicalType::TimeUnit::kMillis
                                                 : ct == ConvertedType::kTimestampMillis;
          bool nanos = lt.kind == K::kTimestamp && lt.unit == LogicalType::TimeUnit::kNanos;
          c.conversion = millis ? LeafConversion::kMillisTimestamp
                         : nanos ? LeafConversion::kNanosTimestamp
                                 : LeafConversion::kMicrosTimestamp;
        } else {
          c.conversion = LeafConversion::kLong;
          t = Type::kLong;
        }
        break;
      case PhysicalType::kInt96: c.conversion = LeafConversion::kInt96Timestamp; t = Type::kTimestamp; break;
      case PhysicalType::kFloat: c.conversion = LeafConversion::kFloat; t = Type::kDouble; break;
      case PhysicalType::kDouble: c.conversion = LeafConversion::kDouble; t = Type::kDouble; break;
      case PhysicalType::kByteArray:
        if (lt.kind == K::kString || lt.kind == K::kEnum || lt.kind == K::kJson || ct == ConvertedType::kUtf8 ||
            ct == ConvertedType::kEnum || ct == ConvertedType::kJson) {
          c.conversion = LeafConversion::kString;
          t = Type::kString;
        } else {
          c.conversion = LeafConversion::kBinary;
          t = Type::kBinary;
        }
        break;
      case PhysicalType::kFixedLenByteArray:
        if (e.typeLength <= 0) return corrupt(file_, e, "a FIXED_LEN_BYTE_ARRAY with a type_length above 0");
        c.conversion = LeafConversion::kBinary;
        t = Type::kBinary;
        break;
    }
    n.leaf = static_cast<int>(tree_.leaves.size());
    n.field = Field{e.name, t, n.optional, nullptr};
    tree_.leaves.push_back(std::move(c));
    return Status::OK();
  }

  // LogicalTypes.md "Lists" and its backward-compatibility rules 1-4.
  Status list(const ElementNode& en, ColumnNode& n, int parentRep, std::vector<std::string> path) {
    const SchemaElement& e = *en.e;
    n.kind = ColumnNode::Kind::kList;
    if (en.kids.size() != 1 || en.kids[0].e->repetition != Repetition::kRepeated)
      return corrupt(file_, e, "a LIST group with exactly one repeated field");
    const ElementNode& r = en.kids[0];
    n.repDef = n.def + 1;
    n.repRep = parentRep + 1;
    bool repeatedIsElement = r.e->type.has_value() || r.kids.size() > 1 || r.e->name == "array" ||
                             r.e->name == e.name + "_tuple";
    ColumnNode elem;
    if (repeatedIsElement) {
      STREAMSIM_ASSIGN_OR_RETURN(elem, field(r, Repetition::kRequired, n.repDef, n.repRep, path));
    } else {
      path.push_back(r.e->name);
      const ElementNode& x = r.kids[0];
      STREAMSIM_ASSIGN_OR_RETURN(elem, field(x, x.e->repetition.value_or(Repetition::kOptional), n.repDef, n.repRep, path));
    }
    n.field = arrayField(e.name, withName(elem.field, "element"));
    n.children.push_back(std::move(elem));
    return Status::OK();
  }

  // LogicalTypes.md "Maps": a repeated group of a key and (optionally) a value.
  Status map(const ElementNode& en, ColumnNode& n, int parentRep, std::vector<std::string> path) {
    const SchemaElement& e = *en.e;
    n.kind = ColumnNode::Kind::kMap;
    if (en.kids.size() != 1 || en.kids[0].e->repetition != Repetition::kRepeated || en.kids[0].e->type)
      return corrupt(file_, e, "a MAP group with exactly one repeated group");
    const ElementNode& kv = en.kids[0];
    if (kv.kids.size() != 2) {
      path.push_back(e.name);
      return unsupported(path, "a MAP without exactly a key and a value");
    }
    n.repDef = n.def + 1;
    n.repRep = parentRep + 1;
    path.push_back(kv.e->name);
    STREAMSIM_ASSIGN_OR_RETURN(ColumnNode key, field(kv.kids[0], Repetition::kRequired, n.repDef, n.repRep, path));
    STREAMSIM_ASSIGN_OR_RETURN(ColumnNode value, field(kv.kids[1], kv.kids[1].e->repetition.value_or(Repetition::kOptional),
                                                       n.repDef, n.repRep, path));
    n.field = mapField(e.name, withName(key.field, "key"), withName(value.field, "value"));
    n.children.push_back(std::move(key));
    n.children.push_back(std::move(value));
    return Status::OK();
  }

  ColumnTree& tree_;
  std::string_view file_;
};

void appendElements(const Field& f, Repetition rep, std::vector<SchemaElement>& out) {
  SchemaElement e;
  e.name = f.name;
  e.repetition = rep;
  switch (f.type) {
    case Type::kBoolean: e.type = PhysicalType::kBoolean; break;
    case Type::kInt: e.type = PhysicalType::kInt32; break;
    case Type::kLong: e.type = PhysicalType::kInt64; break;
    case Type::kDouble: e.type = PhysicalType::kDouble; break;
    case Type::kString:
    case Type::kNull:
      e.type = PhysicalType::kByteArray;
      e.convertedType = ConvertedType::kUtf8;
      e.logicalType.kind = LogicalType::Kind::kString;
      break;
    case Type::kBinary: e.type = PhysicalType::kByteArray; break;
    case Type::kDate:
      e.type = PhysicalType::kInt32;
      e.convertedType = ConvertedType::kDate;
      e.logicalType.kind = LogicalType::Kind::kDate;
      break;
    case Type::kTimestamp: e.type = PhysicalType::kInt96; break;
    case Type::kStruct: {
      e.numChildren = static_cast<int32_t>(f.nested->size());
      out.push_back(e);
      for (const Field& c : f.nested->fields())
        appendElements(c, c.nullable ? Repetition::kOptional : Repetition::kRequired, out);
      return;
    }
    case Type::kArray: {
      e.numChildren = 1;
      e.convertedType = ConvertedType::kList;
      e.logicalType.kind = LogicalType::Kind::kList;
      out.push_back(e);
      SchemaElement r;
      r.name = "list";
      r.repetition = Repetition::kRepeated;
      r.numChildren = 1;
      out.push_back(r);
      Field elem = f.nested->field(0);
      elem.name = "element";
      appendElements(elem, elem.nullable ? Repetition::kOptional : Repetition::kRequired, out);
      return;
    }
    case Type::kMap: {
      e.numChildren = 1;
      e.convertedType = ConvertedType::kMap;
      e.logicalType.kind = LogicalType::Kind::kMap;
      out.push_back(e);
      SchemaElement r;
      r.name = "key_value";
      r.repetition = Repetition::kRepeated;
      r.numChildren = 2;
      out.push_back(r);
      Field key = f.nested->field(0);
      key.name = "key";
      appendElements(key, Repetition::kRequired, out);
      Field value = f.nested->field(1);
      value.name = "value";
      appendElements(value, value.nullable ? Repetition::kOptional : Repetition::kRequired, out);
      return;
    }
  }
  out.push_back(e);
}

}  // namespace

Result<ColumnTree> columnTree(const std::vector<SchemaElement>& elements, std::string_view fileName) {
  if (elements.empty())
    return Status::Corruption(fmt::format("{}: the footer's schema is empty; expected a root element", fileName));
  size_t i = 0;
  STREAMSIM_ASSIGN_OR_RETURN(ElementNode root, buildTree(elements, i, 0, fileName));
  if (root.e->type) return corrupt(fileName, *root.e, "a group as the schema's root");
  if (i != elements.size())
    return corrupt(fileName, elements[i], "no schema element after the root's children");
  ColumnTree tree;
  Builder b(tree, fileName);
  tree.root.kind = ColumnNode::Kind::kStruct;
  std::vector<Field> fields;
  for (const ElementNode& kid : root.kids) {
    STREAMSIM_ASSIGN_OR_RETURN(ColumnNode c, b.field(kid, kid.e->repetition.value_or(Repetition::kOptional), 0, 0, {}));
    fields.push_back(c.field);
    tree.root.children.push_back(std::move(c));
  }
  tree.root.endLeaf = static_cast<int>(tree.leaves.size());
  tree.schema = makeSchema(std::move(fields));
  tree.root.field = structField("spark_schema", tree.schema, false);
  return tree;
}

std::vector<SchemaElement> schemaElements(const Schema& schema) {
  std::vector<SchemaElement> out;
  SchemaElement root;
  root.name = "spark_schema";
  root.numChildren = static_cast<int32_t>(schema.size());
  out.push_back(root);
  for (const Field& f : schema.fields())
    appendElements(f, f.nullable ? Repetition::kOptional : Repetition::kRequired, out);
  return out;
}

}  // namespace streamsim::parquet
