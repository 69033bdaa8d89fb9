// CSV and text files as Rows (io/csv_rows.h), following Spark's CSVOptions / UnivocityParser and
// TextFileFormat.
#include "streamsim/io/csv_rows.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cstdlib>

#include "streamsim/time.h"

#include "csv_options.h"

namespace streamsim {
namespace {


using detail::csvBoolOption;
using detail::csvCharOption;
using detail::csvLower;

// The records of a text: lines split at \n, \r\n or \r (Spark's default lineSep).
std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' || text[i] == '\r') {
      lines.push_back(text.substr(start, i - start));
      if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      start = i + 1;
    }
  }
  if (start < text.size()) lines.push_back(text.substr(start));
  return lines;
}

struct Token {
  std::string text;
  bool quoted = false;
};

// One line's tokens (univocity's CSV parser with Spark's settings): a quoted value may hold the
// separator and escaped quotes (\" or ""); whitespace is kept unless the ignore options say so.
Result<std::vector<Token>> tokenize(std::string_view line, const CsvReadOptions& o) {
  std::vector<Token> out;
  size_t i = 0;
  const size_t n = line.size();
  while (true) {
    Token t;
    if (o.ignoreLeadingWhiteSpace)
      while (i < n && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i < n && o.quote != '\0' && line[i] == o.quote) {
      t.quoted = true;
      ++i;
      bool closed = false;
      while (i < n) {
        char c = line[i];
        if (o.escape != '\0' && c == o.escape && i + 1 < n && (line[i + 1] == o.quote || line[i + 1] == o.escape)) {
          t.text += line[i + 1];
          i += 2;
        } else if (c == o.quote && i + 1 < n && line[i + 1] == o.quote) {
          t.text += o.quote;
          i += 2;
        } else if (c == o.quote) {
          ++i;
          closed = true;
          break;
        } else {
          t.text += c;
          ++i;
        }
      }
      if (!closed) return Status::InvalidArgument("an unclosed quote");
      // what follows the closing quote up to the separator is kept, as univocity keeps it
      while (i < n && line[i] != o.sep) t.text += line[i++];
    } else {
      while (i < n && line[i] != o.sep) t.text += line[i++];
    }
    if (o.ignoreTrailingWhiteSpace && !t.quoted)
      while (!t.text.empty() && (t.text.back() == ' ' || t.text.back() == '\t')) t.text.pop_back();
    out.push_back(std::move(t));
    if (i >= n) break;
    ++i;  // the separator
  }
  return out;
}

bool parseLongJava(std::string_view s, int64_t& out) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  if (s.empty() || s[0] == '+') return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

// Java's Double.parseDouble: surrounding whitespace allowed, a trailing d/D/f/F, no hex here.
bool parseDoubleJava(std::string_view s, double& out) {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= ' ') s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= ' ') s.remove_suffix(1);
  if (!s.empty() && (s.back() == 'd' || s.back() == 'D' || s.back() == 'f' || s.back() == 'F')) s.remove_suffix(1);
  if (s.empty()) return false;
  std::string text(s);
  if (text == "NaN" || text == "+NaN" || text == "-NaN") {
    out = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  if (text == "Infinity" || text == "+Infinity" || text == "-Infinity") {
    out = text[0] == '-' ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    return true;
  }
  for (char c : text)
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'))
      return false;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

// One token as a value of `f` (UnivocityParser.makeConverter); nullopt when it does not cast.
std::optional<Value> castToken(const Token& t, const Field& f, const CsvReadOptions& o) {
  if (!t.quoted && t.text == o.nullValue) return Value();
  switch (f.type) {
    case Type::kString: return Value(t.text);
    case Type::kInt: {
      int64_t v = 0;
      if (!parseLongJava(t.text, v) || v < INT32_MIN || v > INT32_MAX) return std::nullopt;
      return Value(static_cast<int32_t>(v));
    }
    case Type::kLong: {
      int64_t v = 0;
      if (!parseLongJava(t.text, v)) return std::nullopt;
      return Value(v);
    }
    case Type::kDouble: {
      if (t.text == o.nanValue) return Value(std::numeric_limits<double>::quiet_NaN());
      if (t.text == o.positiveInf) return Value(std::numeric_limits<double>::infinity());
      if (t.text == o.negativeInf) return Value(-std::numeric_limits<double>::infinity());
      double v = 0;
      if (!parseDoubleJava(t.text, v)) return std::nullopt;
      return Value(v);
    }
    case Type::kBoolean: {
      std::string v = csvLower(t.text);
      if (v == "true") return Value(true);
      if (v == "false") return Value(false);
      return std::nullopt;
    }
    case Type::kTimestamp: {
      if (o.timestampFormat) {
        auto ts = expr::datetime::parseWith(*o.timestampFormat, t.text, detail::fileTimeZone());
        if (!ts) return std::nullopt;
        return Value::timestamp(*ts);
      }
      auto ts = parseTimestamp(t.text);
      if (!ts.ok()) return std::nullopt;
      return Value::timestamp(*ts);
    }
    case Type::kDate: {
      static const auto isoDate = std::make_shared<const std::vector<expr::datetime::PatternPart>>(
          *expr::datetime::parsePattern("yyyy-MM-dd"));
      auto ms = expr::datetime::parseWith(o.dateFormat ? *o.dateFormat : *isoDate, t.text, detail::fileTimeZone());
      if (!ms) return std::nullopt;
      return Value::date(expr::datetime::floorDivMs(*ms, 86400000));
    }
    default: return std::nullopt;
  }
}

}  // namespace

bool isFormatOption(std::string_view format, std::string_view key) {
  if (format == "csv")
    return key == "sep" || key == "delimiter" || key == "quote" || key == "escape" || key == "header" ||
           key == "nullvalue" || key == "nanvalue" || key == "positiveinf" || key == "negativeinf" ||
           key == "comment" || key == "ignoreleadingwhitespace" || key == "ignoretrailingwhitespace" ||
           key == "enforceschema" || key == "inferschema" || key == "encoding" || key == "charset" ||
           key == "timestampformat" || key == "dateformat";
  if (format == "text") return key == "wholetext";
  if (format == "json")  // JSONOptions' datetime options (io/json_rows.h jsonReadOptions)
    return key == "timestampformat" || key == "dateformat" || key == "enabledatetimeparsingfallback";
  return false;
}

Result<CsvRowParser> CsvRowParser::make(SchemaPtr schema, const std::map<std::string, std::string>& options,
                                        ParseMode mode, std::string columnNameOfCorruptRecord) {
  CsvReadOptions o;
  o.mode = mode;
  o.columnNameOfCorruptRecord = std::move(columnNameOfCorruptRecord);
  for (const auto& [rawKey, value] : options) {
    const std::string key = csvLower(rawKey);
    STREAMSIM_ASSIGN_OR_RETURN(bool shared, detail::applySharedCsvOption(o, key, rawKey, value));
    if (shared) {
      continue;
    } else if (key == "nanvalue") {
      o.nanValue = value;
    } else if (key == "positiveinf") {
      o.positiveInf = value;
    } else if (key == "negativeinf") {
      o.negativeInf = value;
    } else if (key == "enforceschema" || key == "inferschema") {
      // enforceSchema: the schema given is applied by position (true, the default); inferSchema
      // is not used when a schema is given (a streaming source always has one).
      STREAMSIM_RETURN_IF_ERROR(csvBoolOption(rawKey, value).status());
      if (key == "enforceschema" && csvLower(value) == "false")
        return Status::InvalidArgument("csv option enforceSchema=false (checking the header against the "
                                       "schema) is not built in streamsim");
    }
  }
  int corrupt = -1;
  for (size_t i = 0; i < schema->size(); ++i)
    if (schema->fields()[i].name == o.columnNameOfCorruptRecord) {
      if (schema->fields()[i].type != Type::kString)
        return Status::InvalidArgument(fmt::format(
            "The field for corrupt records must be string type and nullable: {}", o.columnNameOfCorruptRecord));
      corrupt = static_cast<int>(i);
    }
  return CsvRowParser(std::move(schema), std::move(o), corrupt);
}

Status CsvRowParser::parseFile(std::string_view text, std::string_view fileName, std::vector<Row>& out) const {
  const auto& fields = schema_->fields();
  const size_t width = fields.size() - (corrupt_index_ >= 0 ? 1 : 0);
  bool headerSkipped = !options_.header;
  size_t lineNo = 0;
  for (std::string_view line : splitLines(text)) {
    ++lineNo;
    if (line.empty()) continue;  // univocity skips empty lines
    if (options_.comment && line[0] == *options_.comment) continue;
    if (!headerSkipped) {
      headerSkipped = true;
      continue;
    }
    std::string reason;
    std::vector<Value> values(fields.size());
    auto tokens = tokenize(line, options_);
    if (!tokens.ok()) {
      reason = std::string(tokens.status().message());
    } else {
      if (tokens->size() != width)
        reason = fmt::format("the record has {} tokens, the schema {} columns", tokens->size(), width);
      size_t t = 0;
      for (size_t i = 0; i < fields.size(); ++i) {
        if (static_cast<int>(i) == corrupt_index_) continue;
        if (t < tokens->size()) {
          auto v = castToken((*tokens)[t], fields[i], options_);
          if (v) {
            values[i] = std::move(*v);
          } else if (reason.empty()) {
            reason = fmt::format("'{}' is not a valid {} for column {}", (*tokens)[t].text, typeName(fields[i].type),
                                 fields[i].name);
          }
        }
        ++t;
      }
    }
    if (!reason.empty()) {
      if (options_.mode == ParseMode::kFailFast)
        return Status::InvalidArgument(fmt::format(
            "[MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION] Malformed records are detected in record "
            "parsing: {}:{}: {} (mode FAILFAST): {}", fileName, lineNo, reason, line));
      if (options_.mode == ParseMode::kDropMalformed) continue;
      if (corrupt_index_ >= 0) values[static_cast<size_t>(corrupt_index_)] = Value(std::string(line));
    }
    out.emplace_back(schema_, std::move(values));
  }
  return Status::OK();
}

Result<TextRowParser> TextRowParser::make(SchemaPtr schema, const std::map<std::string, std::string>& options) {
  if (schema->size() != 1 || schema->fields()[0].type != Type::kString)
    return Status::InvalidArgument(fmt::format(
        "[_LEGACY_ERROR_TEMP_1133] Text data source supports only a single column of string type, and you "
        "have {} columns ({}).", schema->size(), schema->toDDL()));
  bool whole = false;
  for (const auto& [rawKey, value] : options)
    if (csvLower(rawKey) == "wholetext") {
      STREAMSIM_ASSIGN_OR_RETURN(whole, csvBoolOption(rawKey, value));
    }
  return TextRowParser(std::move(schema), whole);
}

Status TextRowParser::parseFile(std::string_view text, std::vector<Row>& out) const {
  if (whole_text_) {
    out.emplace_back(schema_, std::vector<Value>{Value(text)});
    return Status::OK();
  }
  for (std::string_view line : splitLines(text)) out.emplace_back(schema_, std::vector<Value>{Value(line)});
  return Status::OK();
}

}  // namespace streamsim
