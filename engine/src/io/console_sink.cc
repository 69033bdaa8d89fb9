// The console sink (io/console_sink.h). showString follows Spark's Dataset.showString and
// getRows (cells through ToPrettyString, SchemaUtils.escapeMetaCharacters, truncation to
// `truncate - 3` characters and "...", widths in half-width units as Utils.stringHalfWidth counts
// them, a minimum width of 3).
#include "streamsim/io/console_sink.h"

#include <charconv>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "streamsim/time.h"

namespace streamsim {

namespace {

// Java's Double.toString: decimal notation for 1e-3 <= |d| < 1e7, else "d.dddE[-]n"; always a
// digit after the point; the shortest digits that read back as `d`.
std::string javaDouble(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
  if (d == 0) return std::signbit(d) ? "-0.0" : "0.0";
  char buf[64];
  double a = std::fabs(d);
  if (a >= 1e-3 && a < 1e7) {
    auto r = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::fixed);
    std::string s(buf, r.ptr);
    if (s.find('.') == std::string::npos) s += ".0";
    return s;
  }
  auto r = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  std::string s(buf, r.ptr);  // "1.5e+07", "1e-05"
  size_t e = s.find('e');
  std::string mantissa = s.substr(0, e);
  if (mantissa.find('.') == std::string::npos) mantissa += ".0";
  int exponent = std::stoi(s.substr(e + 1));
  return fmt::format("{}E{}", mantissa, exponent);
}

// Cast of a timestamp to string in UTC: "2026-01-01 10:00:00", with the fraction's trailing
// zeros dropped ("...:00.25").
std::string prettyTimestamp(TimeMs t) {
  std::string s = formatTimestamp(t);  // "2026-01-01T10:00:00.250Z" or "...:00Z"
  if (!s.empty() && s.back() == 'Z') s.pop_back();
  if (auto p = s.find('T'); p != std::string::npos) s[p] = ' ';
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

std::string prettyCell(const Value& v) {
  if (v.isNull()) return "NULL";
  switch (v.type()) {
    case Type::kBoolean: return v.asBool() ? "true" : "false";
    case Type::kInt:
    case Type::kLong: return std::to_string(v.asLong());
    case Type::kDouble: return javaDouble(v.asDouble());
    case Type::kTimestamp: return prettyTimestamp(v.asLong());
    case Type::kString: return v.asString();
    case Type::kDate: return formatDate(v.asLong());
    case Type::kBinary: return v.toString();  // [53 70 61]: ToPrettyString's hex bytes
    // ToPrettyString of nested values (Cast's form, nulls inside as NULL): {1, x}, [1, NULL],
    // {a -> 1}.
    case Type::kStruct:
    case Type::kArray: {
      std::string out(1, v.type() == Type::kStruct ? '{' : '[');
      for (size_t i = 0; i < v.items().size(); ++i) {
        if (i) out += ", ";
        out += prettyCell(v.items()[i]);
      }
      out.push_back(v.type() == Type::kStruct ? '}' : ']');
      return out;
    }
    case Type::kMap: {
      std::string out = "{";
      for (size_t i = 0; i < v.mapSize(); ++i) {
        if (i) out += ", ";
        out += prettyCell(v.mapKey(i)) + " -> " + prettyCell(v.mapValue(i));
      }
      out.push_back('}');
      return out;
    }
    default: return v.asString();
  }
}

// SchemaUtils.escapeMetaCharacters.
std::string escapeMeta(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\f': out += "\\f"; break;
      case '\b': out += "\\b"; break;
      case '\v': out += "\\v"; break;
      case '\a': out += "\\a"; break;
      default: out += c;
    }
  }
  return out;
}

// One code point of UTF-8 at s[i] (advancing i); a byte that does not start a sequence is one
// code point of its own.
uint32_t nextCodePoint(const std::string& s, size_t& i) {
  auto b = static_cast<unsigned char>(s[i]);
  int extra = b >= 0xF0 ? 3 : b >= 0xE0 ? 2 : b >= 0xC0 ? 1 : 0;
  uint32_t cp = extra == 0 ? b : b & (0x3F >> extra);
  ++i;
  for (int k = 0; k < extra && i < s.size(); ++k, ++i) cp = (cp << 6) | (static_cast<unsigned char>(s[i]) & 0x3F);
  return cp;
}

bool fullWidth(uint32_t cp) {  // Utils.fullWidthRegex
  return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) ||
         (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
         (cp >= 0xFE10 && cp <= 0xFE19) || (cp >= 0xFE30 && cp <= 0xFE6F) ||
         (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0xFFE0 && cp <= 0xFFE6);
}

// Java's String.length (UTF-16 units) and Utils.stringHalfWidth of a UTF-8 string.
struct Width {
  size_t units = 0;
  size_t half = 0;
};
Width widthOf(const std::string& s) {
  Width w;
  for (size_t i = 0; i < s.size();) {
    uint32_t cp = nextCodePoint(s, i);
    size_t u = cp >= 0x10000 ? 2 : 1;
    w.units += u;
    w.half += u + (fullWidth(cp) ? 1 : 0);
  }
  return w;
}

// The first `units` UTF-16 units of `s` (substring(0, units)), not splitting a code point.
std::string prefixUnits(const std::string& s, size_t units) {
  size_t i = 0, n = 0;
  while (i < s.size()) {
    size_t start = i;
    uint32_t cp = nextCodePoint(s, i);
    n += cp >= 0x10000 ? 2 : 1;
    if (n > units) return s.substr(0, start);
  }
  return s;
}

std::string truncated(std::string s, bool truncate) {
  constexpr size_t kTruncate = 20;  // show(numRows, truncate = true) is show(numRows, 20)
  if (!truncate || widthOf(s).units <= kTruncate) return s;
  return prefixUnits(s, kTruncate - 3) + "...";
}

}  // namespace

std::string showString(const Schema& schema, const std::vector<Row>& rows, int numRows, bool truncate) {
  size_t shown = static_cast<size_t>(std::max(numRows, 0));
  bool hasMore = rows.size() > shown;
  std::vector<std::vector<std::string>> table;
  std::vector<std::string> header;
  for (const Field& f : schema.fields()) header.push_back(truncated(escapeMeta(f.name), truncate));
  table.push_back(std::move(header));
  for (size_t r = 0; r < rows.size() && r < shown; ++r) {
    std::vector<std::string> cells;
    for (size_t i = 0; i < schema.size(); ++i)
      cells.push_back(truncated(escapeMeta(prettyCell(i < rows[r].size() ? rows[r][i] : Value())), truncate));
    table.push_back(std::move(cells));
  }
  std::vector<size_t> widths(schema.size(), 3);
  for (const auto& row : table)
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], widthOf(row[i]).half);
  std::string sep = "+";
  for (size_t w : widths) sep += std::string(w, '-') + "+";
  sep += "\n";
  auto line = [&](const std::vector<std::string>& row) {
    std::string out = "|";
    for (size_t i = 0; i < row.size(); ++i) {
      std::string pad(widths[i] - widthOf(row[i]).half, ' ');
      out += truncate ? pad + row[i] : row[i] + pad;
      out += "|";
    }
    return out + "\n";
  };
  std::string out = sep + line(table[0]) + sep;
  for (size_t r = 1; r < table.size(); ++r) out += line(table[r]);
  out += sep;
  if (hasMore) out += fmt::format("only showing top {} {}\n", shown, shown == 1 ? "row" : "rows");
  return out + "\n";  // show() is println(showString(...))
}

void ConsoleOutput::print(int64_t batchId, std::vector<Row> rows, std::string text) {
  text_ += text;
  printed_.push_back({batchId, std::move(rows), std::move(text)});
}

std::string ConsoleOutput::latestText() const {
  std::map<int64_t, const std::string*> latest;
  for (const Printed& p : printed_) latest[p.batchId] = &p.text;
  std::string out;
  for (const auto& [batch, text] : latest) out += *text;
  return out;
}

std::string ConsoleSink::description() const {
  return fmt::format("ConsoleWriter[numRows={}, truncate={}]", options_.numRows, options_.truncate);
}

Status ConsoleSink::addBatch(const SinkContext& ctx, const std::vector<Row>& rows) {
  if (!rows.empty()) last_schema_ = rows.front().schema();
  static const Schema kNoColumns;
  const Schema& schema = last_schema_ != nullptr ? *last_schema_ : kNoColumns;
  std::string text = "-------------------------------------------\n";
  text += fmt::format("Batch: {}\n", ctx.batchId);
  text += "-------------------------------------------\n";
  text += showString(schema, rows, options_.numRows, options_.truncate);
  out_->print(ctx.batchId, rows, std::move(text));
  return Status::OK();
}

std::function<std::unique_ptr<Sink>()> makeConsoleSink(std::shared_ptr<ConsoleOutput> out,
                                                       ConsoleSinkOptions options) {
  return [out, options] { return std::make_unique<ConsoleSink>(out, options); };
}

}  // namespace streamsim
