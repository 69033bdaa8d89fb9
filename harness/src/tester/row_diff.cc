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

bool rowMatches(const Row& expected, const Row& actual, const RowMatch& match) {
  if (!match.strictTypes && !match.partial) return expected == actual;
  if (!match.partial && expected.size() != actual.size()) return false;
  for (size_t i = 0; i < expected.size(); ++i) {
    int j = actual.schema()->indexOf(expected.schema()->field(i).name);
    if (j < 0) return false;
    const Value& e = expected[i];
    const Value& a = actual[static_cast<size_t>(j)];
    if (!(e == a)) return false;
    if (match.strictTypes && !e.isNull() && !a.isNull() && e.type() != a.type()) return false;
  }
  return true;
}

namespace {
// `row` with its columns in `reference`'s order first (when it has one), then its others.
std::string formatRowLike(const Row& row, const Row* reference, bool types) {
  std::vector<size_t> order;
  std::vector<bool> taken(row.size(), false);
  if (reference != nullptr)
    for (size_t i = 0; i < reference->size(); ++i) {
      int j = row.schema()->indexOf(reference->schema()->field(i).name);
      if (j >= 0 && !taken[static_cast<size_t>(j)]) {
        order.push_back(static_cast<size_t>(j));
        taken[static_cast<size_t>(j)] = true;
      }
    }
  for (size_t i = 0; i < row.size(); ++i)
    if (!taken[i]) order.push_back(i);
  std::string out = "{";
  for (size_t k = 0; k < order.size(); ++k) {
    const size_t i = order[k];
    if (k > 0) out += ", ";
    out += row.schema()->field(i).name;
    out += '=';
    const Value& v = row[i];
    out += v.type() == Type::kString ? '"' + v.asString() + '"' : v.toString();
    if (types && !v.isNull()) out += fmt::format(" ({})", typeName(v.type()));
  }
  return out + "}";
}
std::string formatRowsLike(const std::vector<Row>& rows, const Row* reference, bool types) {
  if (rows.empty()) return "  (none)\n";
  std::string out;
  for (const Row& r : rows) out += "  " + formatRowLike(r, reference, types) + "\n";
  return out;
}
}  // namespace

RowDiff diffRows(const std::vector<Row>& expected, const std::vector<Row>& actual,
                 RowOrder order, RowMatch match) {
  RowDiff diff;
  // Multiset difference by greedy matching (Row equality is an equivalence).
  std::vector<bool> used(actual.size(), false);
  for (const Row& e : expected) {
    bool found = false;
    for (size_t i = 0; i < actual.size(); ++i) {
      if (!used[i] && rowMatches(e, actual[i], match)) {
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
      if (!rowMatches(expected[i], actual[i], match)) {
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
  const Row* reference = expected.empty() ? nullptr : &expected.front();
  const bool types = match.strictTypes;
  r += fmt::format("expected {} row(s){}{}{}:\n", expected.size(),
                   order == RowOrder::kInOrder ? ", in this order" : " (any order)",
                   match.strictTypes ? ", types compared" : "",
                   match.partial ? ", only the listed columns" : "");
  r += formatRowsLike(expected, reference, types);
  r += fmt::format("actual {} row(s):\n", actual.size());
  r += formatRowsLike(actual, reference, types);
  if (!diff.missing.empty()) {
    r += "missing (expected, not emitted):\n";
    r += formatRowsLike(diff.missing, reference, types);
  }
  if (!diff.unexpected.empty()) {
    r += "unexpected (emitted, not expected):\n";
    r += formatRowsLike(diff.unexpected, reference, types);
  }
  if (diff.missing.empty() && diff.unexpected.empty() && diff.firstMismatch >= 0)
    r += fmt::format("same rows, different order: first difference at position {}\n",
                     diff.firstMismatch);
  return diff;
}

}  // namespace streamsim::harness
