// Comparing rows the way tests need it (Spark's CheckAnswer): as a multiset by default or in
// order, with a readable report of what was expected, what came, what is missing and what is
// extra. Used by the ProcessorTester matchers, the stream-test actions and the oracles.
// Pure functions on values; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "streamsim/value.h"

namespace streamsim::harness {

enum class RowOrder { kAnyOrder, kInOrder };

struct RowDiff {
  bool equal = true;
  std::vector<Row> missing;     // expected but not emitted (multiset difference)
  std::vector<Row> unexpected;  // emitted but not expected
  int firstMismatch = -1;       // kInOrder: first position where the lists differ
  // Empty when equal; otherwise expected, actual, missing and unexpected rows, one per line.
  std::string report;
};

// Rows are equal when the same column names hold equal values (Row::operator==; int and long
// compare numerically), so expectations may list columns in any order.
RowDiff diffRows(const std::vector<Row>& expected, const std::vector<Row>& actual,
                 RowOrder order = RowOrder::kAnyOrder);

// {key=a, count=2}
std::string formatRow(const Row& row);
// One row per line, each indented by `indent` spaces; "(none)" for an empty list.
std::string formatRows(const std::vector<Row>& rows, int indent = 2);

}  // namespace streamsim::harness
