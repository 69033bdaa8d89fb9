// `run --update` (scenario_runner.h updateExpectedRows): the expected rows of a scenario file
// rewritten with the rows a run saw, keeping each list's form (flow or block) and the rest of
// the file as written.
#include "streamsim/harness/scenario_runner.h"

#include <algorithm>

#include <fmt/format.h>

namespace streamsim::harness {

namespace {

std::string flowRow(const Row& r) {
  std::string out = "{";
  for (size_t c = 0; c < r.size(); ++c) {
    std::string v = r[c].isNull() ? "null" : r[c].toString();
    if (r[c].type() == Type::kString || r[c].type() == Type::kTimestamp || r[c].type() == Type::kDate || r[c].type() == Type::kBinary)
      v = "\"" + v + "\"";
    out += fmt::format("{}{}: {}", c ? ", " : "", r.schema()->field(c).name, v);
  }
  return out + "}";
}

size_t indentOf(const std::string& line) {
  size_t i = line.find_first_not_of(' ');
  return i == std::string::npos ? line.size() : i;
}

bool blank(const std::string& line) {
  size_t i = line.find_first_not_of(" \t");
  return i == std::string::npos || line[i] == '#';
}

}  // namespace

Result<std::string> updateExpectedRows(const std::string& fileText,
                                       const std::vector<ActualRows>& actual, std::string* diff) {
  // Replace each located list that did not match with the actual rows, bottom-up so that
  // earlier locations stay valid: a flow list (`sink: [...]` on one line) stays a flow list, a
  // block list (`sink:` then `- {...}` lines) stays a block list with one row per line.
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= fileText.size()) {
    size_t end = fileText.find('\n', start);
    if (end == std::string::npos) end = fileText.size();
    lines.push_back(fileText.substr(start, end - start));
    start = end + 1;
  }
  std::vector<ActualRows> sorted;
  for (const auto& a : actual)
    if (!a.matches) sorted.push_back(a);
  std::sort(sorted.begin(), sorted.end(), [](const ActualRows& a, const ActualRows& b) {
    return a.where.line > b.where.line;
  });
  std::string d;
  for (const auto& a : sorted) {
    if (a.where.line <= 0 || a.where.line > static_cast<int>(lines.size()))
      return Status::InvalidArgument(fmt::format("no line {} to update", a.where.line));
    size_t li = a.where.line - 1;
    std::string& line = lines[li];
    size_t col = a.where.column - 1;
    if (col < line.size() && line[col] == '-' &&
        line.find_first_not_of(' ') == col) {
      // A block list: the items start at this indent; an item's continuation lines are deeper.
      size_t indent = col;
      size_t last = li;
      for (size_t i = li + 1; i < lines.size(); ++i) {
        if (blank(lines[i])) continue;
        size_t in = indentOf(lines[i]);
        if (in > indent || (in == indent && lines[i].compare(in, 2, "- ") == 0)) {
          last = i;
          continue;
        }
        break;
      }
      std::vector<std::string> replacement;
      if (a.rows.empty()) {
        // No rows: the list becomes `[]` after its key on the line before.
        if (li == 0) return Status::InvalidArgument(a.where.toString() + ": no key before the list");
        std::string& keyLine = lines[li - 1];
        std::string before = keyLine;
        keyLine += " []";
        std::string hunk = fmt::format("@@ line {}\n-{}\n+{}\n", li, before, keyLine);
        for (size_t i = li; i <= last; ++i) hunk += "-" + lines[i] + "\n";
        d = hunk + d;
        lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(li),
                    lines.begin() + static_cast<std::ptrdiff_t>(last + 1));
        continue;
      }
      for (const Row& r : a.rows) replacement.push_back(std::string(indent, ' ') + "- " + flowRow(r));
      std::string hunk = fmt::format("@@ line {}\n", a.where.line);
      for (size_t i = li; i <= last; ++i) hunk += "-" + lines[i] + "\n";
      for (const auto& r : replacement) hunk += "+" + r + "\n";
      d = hunk + d;
      lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(li),
                  lines.begin() + static_cast<std::ptrdiff_t>(last + 1));
      lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(li), replacement.begin(),
                   replacement.end());
      continue;
    }
    if (col >= line.size() || line[col] != '[')
      return Status::InvalidArgument(fmt::format(
          "{}: --update rewrites a flow list ({}: [...], on one line or several) or a block list "
          "({}: then one `- {{...}}` line per row)",
          a.where.toString(), a.key, a.key));
    // The matching ']', on this line or a later one (brackets inside quoted strings don't count).
    size_t closeLine = li, close = std::string::npos;
    {
      int depth = 0;
      char quote = 0;
      for (size_t l = li; l < lines.size() && close == std::string::npos; ++l) {
        const std::string& text = lines[l];
        for (size_t i = l == li ? col : 0; i < text.size(); ++i) {
          char c = text[i];
          if (quote) {
            if (c == '\\' && quote == '"') ++i;
            else if (c == quote) quote = 0;
            continue;
          }
          if (c == '"' || c == '\'') quote = c;
          else if (c == '#' && (i == 0 || text[i - 1] == ' ')) break;  // a comment to the line's end
          else if (c == '[') ++depth;
          else if (c == ']' && --depth == 0) {
            closeLine = l;
            close = i;
            break;
          }
        }
      }
    }
    if (close == std::string::npos)
      return Status::InvalidArgument(a.where.toString() + ": --update: the flow list's closing ] is missing");
    std::string rows;
    if (closeLine != li) {
      // A flow list over several lines stays one: a row per line at its second line's indent.
      std::string contIndent(indentOf(lines[li + 1]), ' ');
      std::string text = lines[li].substr(0, col) + "[";
      for (size_t i = 0; i < a.rows.size(); ++i) text += (i ? ",\n" + contIndent : "") + flowRow(a.rows[i]);
      text += "]" + lines[closeLine].substr(close + 1);
      std::vector<std::string> replacement;
      for (size_t at = 0;;) {
        size_t nl = text.find('\n', at);
        replacement.push_back(text.substr(at, nl == std::string::npos ? std::string::npos : nl - at));
        if (nl == std::string::npos) break;
        at = nl + 1;
      }
      std::string hunk = fmt::format("@@ line {}\n", a.where.line);
      for (size_t i = li; i <= closeLine; ++i) hunk += "-" + lines[i] + "\n";
      for (const auto& r : replacement) hunk += "+" + r + "\n";
      d = hunk + d;
      lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(li),
                  lines.begin() + static_cast<std::ptrdiff_t>(closeLine + 1));
      lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(li), replacement.begin(), replacement.end());
      continue;
    }
    for (size_t i = 0; i < a.rows.size(); ++i) rows += (i ? ", " : "") + flowRow(a.rows[i]);
    std::string updated = line.substr(0, col) + "[" + rows + "]" + line.substr(close + 1);
    if (updated != line) {
      d = fmt::format("@@ line {}\n-{}\n+{}\n", a.where.line, line, updated) + d;
      line = updated;
    }
  }
  if (diff) *diff = d;
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) out += (i ? "\n" : "") + lines[i];
  return out;
}

}  // namespace streamsim::harness
