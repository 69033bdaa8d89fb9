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

// How rows are compared. Loose by default: the same column names hold equal values
// (Row::operator==; int and long compare numerically), columns in any order.
struct RowMatch {
  // Also the value types must be equal (a long is not an int is not a timestamp), as Spark's
  // checkAnswer compares typed rows; a null matches a null of any type.
  bool strictTypes = false;
  // An expected row lists only the columns it checks; the actual row may have more.
  bool partial = false;
};
bool rowMatches(const Row& expected, const Row& actual, const RowMatch& match);

// The report lists the actual rows with their columns in the expected rows' order (then any
// others), so both sides read alike; with strictTypes it shows each value's type.
RowDiff diffRows(const std::vector<Row>& expected, const std::vector<Row>& actual,
                 RowOrder order = RowOrder::kAnyOrder, RowMatch match = {});

// {key=a, count=2}
std::string formatRow(const Row& row);
// One row per line, each indented by `indent` spaces; "(none)" for an empty list.
std::string formatRows(const std::vector<Row>& rows, int indent = 2);

}  // namespace streamsim::harness
