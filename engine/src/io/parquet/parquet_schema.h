// Parquet's schema (a depth-first list of SchemaElements) <-> Spark's, and the column tree the
// reader and the writer walk: per node its definition and repetition levels (parquet-format
// README "Nested Encoding", the Dremel levels) and per leaf column its physical type and how
// its values become the engine's Values. Thread-safety: plain values.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "io/parquet/parquet_metadata.h"
#include "streamsim/status.h"
#include "streamsim/value.h"

namespace streamsim::parquet {

inline constexpr int kMaxSchemaDepth = 32;

// How a leaf column's values become Values.
enum class LeafConversion {
  kBoolean, kInt, kUint32AsLong, kLong, kFloat, kDouble, kString, kBinary, kDate, kInt96Timestamp,
  kMillisTimestamp, kMicrosTimestamp, kNanosTimestamp,
};

struct LeafColumn {
  std::vector<std::string> path;  // path_in_schema
  std::string dottedPath;          // for messages: "a.list.element"
  PhysicalType type = PhysicalType::kInt32;
  int32_t typeLength = 0;          // FIXED_LEN_BYTE_ARRAY
  LeafConversion conversion = LeafConversion::kInt;
  int maxDef = 0;
  int maxRep = 0;
};

struct ColumnNode {
  enum class Kind { kLeaf, kStruct, kList, kMap };
  Kind kind = Kind::kLeaf;
  Field field;            // the Spark field this node reads as
  bool optional = false;  // may be null (OPTIONAL)
  int def = 0;            // the definition level at which this node is not null
  int repDef = 0;         // list/map: the definition level of one element (the repeated node)
  int repRep = 0;         // list/map: the repetition level of the repeated node
  int leaf = -1;          // kLeaf: its index in ColumnTree::leaves
  int firstLeaf = 0;      // leaves under this node: [firstLeaf, endLeaf)
  int endLeaf = 0;
  std::vector<ColumnNode> children;  // struct: fields; list: {element}; map: {key, value}
};

struct ColumnTree {
  ColumnNode root;  // a struct: the file's columns
  std::vector<LeafColumn> leaves;
  SchemaPtr schema;  // the Spark schema (root's fields)
};

// The tree of a file's schema (elements[0] the root). Corruption naming the file and the
// element's offset for a malformed list; InvalidArgument naming the column for a type streamsim
// does not read.
Result<ColumnTree> columnTree(const std::vector<SchemaElement>& elements, std::string_view fileName);

// The SchemaElements Spark writes for `schema` (SparkToParquetSchemaConverter, standard
// layout: spark.sql.parquet.writeLegacyFormat=false), root "spark_schema" first.
std::vector<SchemaElement> schemaElements(const Schema& schema);

}  // namespace streamsim::parquet
