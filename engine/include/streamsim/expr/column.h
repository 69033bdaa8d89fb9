// Spark's Column: an unresolved expression tree, as the DataFrame API (col("a") + 1) and the
// SQL expression parser (expr/parser.h) build it. Nothing is checked here: names, functions and
// types are resolved against an input schema by expr/analyzer.h, which reports Spark's error
// conditions. A Column is an immutable value sharing its nodes; safe to share between threads.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "streamsim/status.h"
#include "streamsim/value.h"

namespace streamsim::expr {

struct Node;
using NodePtr = std::shared_ptr<const Node>;

// One node of an unresolved expression. Operators and special forms are calls by Spark's
// function name ("+", "=", "and", "not", "isnull", "in", "like", "between", "casewhen",
// "subscript" for a[i]); `pos` is the offset in the parsed text (-1: built in C++).
struct Node {
  enum class Kind {
    kColumn,   // parts: a, a.b.c (resolution decides which parts are struct fields)
    kLiteral,  // literal + type
    kCall,     // name(args...)
    kCast,     // CAST(args[0] AS type); tryCast for try_cast
    kAlias,    // args[0] AS name
    kField,    // args[0].name on a non-column expression
    kStar,     // * (select only)
    kError,    // a parse error kept for analysis (expr() of a bad string)
  };
  Kind kind = Kind::kLiteral;
  std::vector<std::string> parts;
  Value literal;
  Field type;  // a literal's type, a cast's target
  std::string name;
  std::vector<NodePtr> args;
  bool tryCast = false;
  bool distinct = false;  // count(DISTINCT x)
  int pos = -1;
  Status error;  // kError
};

class Column {
 public:
  Column() = default;
  explicit Column(NodePtr node) : node_(std::move(node)) {}
  const NodePtr& node() const { return node_; }

  // Spark's Column methods.
  Column alias(std::string name) const;
  Column as(std::string name) const { return alias(std::move(name)); }
  Column name(std::string n) const { return alias(std::move(n)); }
  // "int", "bigint", "string", "timestamp", "array<int>", ... (Spark's DDL type names); a bad
  // name becomes an analysis error.
  Column cast(std::string_view type) const;
  Column astype(std::string_view type) const { return cast(type); }
  Column isNull() const;
  Column isNotNull() const;
  Column isin(std::vector<Column> values) const;
  Column between(Column lower, Column upper) const;
  Column startswith(Column s) const;
  Column endswith(Column s) const;
  Column contains(Column s) const;
  Column like(std::string pattern) const;
  Column rlike(std::string pattern) const;
  Column getItem(Column key) const;
  Column getField(std::string name) const;
  Column when(Column condition, Column value) const;  // on a when(...) column
  Column otherwise(Column value) const;               // on a when(...) column
  Column operator[](Column key) const { return getItem(std::move(key)); }

  // The SQL text of the tree, as Spark prints an unresolved expression.
  std::string toString() const;

 private:
  NodePtr node_;
};

// Builders.
NodePtr call(std::string name, std::vector<NodePtr> args, int pos = -1);
Column callColumn(std::string name, std::vector<Column> args);

Column operator+(const Column& a, const Column& b);
Column operator-(const Column& a, const Column& b);
Column operator*(const Column& a, const Column& b);
Column operator/(const Column& a, const Column& b);
Column operator%(const Column& a, const Column& b);
Column operator-(const Column& a);
Column operator==(const Column& a, const Column& b);  // Spark's === (equalTo)
Column operator!=(const Column& a, const Column& b);
Column operator<(const Column& a, const Column& b);
Column operator<=(const Column& a, const Column& b);
Column operator>(const Column& a, const Column& b);
Column operator>=(const Column& a, const Column& b);
Column operator&&(const Column& a, const Column& b);
Column operator||(const Column& a, const Column& b);
Column operator!(const Column& a);

}  // namespace streamsim::expr
