#include "streamsim/harness/row_diff.h"

#include <fmt/format.h>

namespace streamsim::harness {

std::string formatRow(const Row& row) {
  std::string out = "{";
  for (size_t i = 0; i < row.size(); ++i) {
    if (i > 0) out += ", ";
    out += row.schema()->field(i).name;
    out += '=';
    const Value& v = row[i];
    if (v.type() == Type::kString) {
      out += '"' + v.asString() + '"';
    } else {
      out += v.toString();
    }
  }
  return out + "}";
}

std::string formatRows(const std::vector<Row>& rows, int indent) {
  std::string pad(static_cast<size_t>(indent), ' ');
  if (rows.empty()) return pad + "(none)\n";
  std::string out;
  for (const Row& r : rows) out += pad + formatRow(r) + "\n";
  return out;
}

RowDiff diffRows(const std::vector<Row>& expected, const std::vector<Row>& actual,
                 RowOrder order) {
  RowDiff diff;
  // Multiset difference by greedy matching (Row equality is an equivalence).
  std::vector<bool> used(actual.size(), false);
  for (const Row& e : expected) {
    bool found = false;
    for (size_t i = 0; i < actual.size(); ++i) {
      if (!used[i] && actual[i] == e) {
        used[i] = true;
        found = true;
        break;
      }
    }
    if (!found) diff.missing.push_back(e);
  }
  for (size_t i = 0; i < actual.size(); ++i)
    if (!used[i]) diff.unexpected.push_back(actual[i]);
  diff.equal = diff.missing.empty() && diff.unexpected.empty();
  if (order == RowOrder::kInOrder) {
    size_t n = std::min(expected.size(), actual.size());
    for (size_t i = 0; i < n; ++i) {
      if (!(expected[i] == actual[i])) {
        diff.firstMismatch = static_cast<int>(i);
        break;
      }
    }
    if (diff.firstMismatch < 0 && expected.size() != actual.size())
      diff.firstMismatch = static_cast<int>(n);
    if (diff.firstMismatch >= 0) diff.equal = false;
  }
  if (diff.equal) return diff;

  std::string& r = diff.report;
  r += fmt::format("expected {} row(s){}:\n", expected.size(),
                   order == RowOrder::kInOrder ? ", in this order" : " (any order)");
  r += formatRows(expected);
  r += fmt::format("actual {} row(s):\n", actual.size());
  r += formatRows(actual);
  if (!diff.missing.empty()) {
    r += "missing (expected, not emitted):\n";
    r += formatRows(diff.missing);
  }
  if (!diff.unexpected.empty()) {
    r += "unexpected (emitted, not expected):\n";
    r += formatRows(diff.unexpected);
  }
  if (diff.missing.empty() && diff.unexpected.empty() && diff.firstMismatch >= 0)
    r += fmt::format("same rows, different order: first difference at position {}\n",
                     diff.firstMismatch);
  return diff;
}

}  // namespace streamsim::harness
