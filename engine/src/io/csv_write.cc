// Rows as CSV and text files (io/csv_rows.h: CsvRowWriter, TextRowWriter), as Spark 4.1 writes
// them: sql/catalyst/.../csv/UnivocityGenerator.scala with CSVOptions.scala's asWriterSettings
// over univocity-parsers' CsvWriter (its quoting rules re-created here), CSVFileFormat.scala's
// supported types, and sql/core/.../datasources/text/TextFileFormat.scala / TextOutputWriter.scala.
#include "streamsim/io/csv_rows.h"

#include <fmt/format.h>

#include <cctype>

#include "expr/bound.h"
#include "streamsim/time.h"

#include "csv_options.h"

namespace streamsim {
namespace {

using detail::csvBoolOption;
using detail::csvCharOption;
using detail::csvLower;
using expr::javaDoubleString;
using expr::sqlTypeOf;

// univocity's whitespace: a character at or below ' ', but '\0'.
bool isWhite(char c) { return static_cast<unsigned char>(c) <= ' ' && c != '\0'; }

void trimTrailing(std::string& s, size_t from) {
  while (s.size() > from && isWhite(s.back())) s.pop_back();
}

// QueryCompilationErrors.dataTypeUnsupportedByDataSourceError.
Status unsupportedType(std::string_view format, const Field& f) {
  return Status::InvalidArgument(fmt::format(
                                     "[UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE] The {} datasource doesn't support the "
                                     "column `{}` of the type {}.", format, f.name, sqlTypeOf(f)))
      .withCondition("UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE",
                     {{"columnName", "`" + f.name + "`"}, {"columnType", sqlTypeOf(f)}, {"format", std::string(format)}});
}

// UnivocityGenerator's converters with CSVOptions' write defaults: timestamps as
// yyyy-MM-dd'T'HH:mm:ss.SSSXXX (in UTC here), dates yyyy-MM-dd, doubles as Java's
// Double.toString, binary as its hex bytes ("[01 FF]", SparkStringUtils.getHexString).
std::string csvText(const Value& v, const CsvWriteOptions& o) {
  switch (v.type()) {
    case Type::kDouble: return javaDoubleString(v.asDouble());
    case Type::kTimestamp: {
      if (o.timestampFormat) return expr::datetime::formatWith(*o.timestampFormat, v.asLong(), detail::fileTimeZone());
      std::string t = formatTimestamp(v.asLong());
      if (t.find('.') == std::string::npos && !t.empty() && t.back() == 'Z') t.insert(t.size() - 1, ".000");
      return t;
    }
    case Type::kDate:
      if (o.dateFormat) return expr::datetime::formatWith(*o.dateFormat, v.asLong() * 86400000, detail::fileTimeZone());
      return v.toString();
    default: return v.toString();
  }
}

}  // namespace

Result<CsvRowWriter> CsvRowWriter::make(SchemaPtr schema, const std::map<std::string, std::string>& options) {
  // CSVFileFormat.supportDataType: atomic types only.
  for (const Field& f : schema->fields())
    if (f.type == Type::kStruct || f.type == Type::kArray || f.type == Type::kMap) return unsupportedType("CSV", f);
  CsvWriteOptions o;
  for (const auto& [rawKey, value] : options) {
    const std::string key = csvLower(rawKey);
    STREAMSIM_ASSIGN_OR_RETURN(bool shared, detail::applySharedCsvOption(o, key, rawKey, value));
    if (shared) {
      continue;
    } else if (key == "chartoescapequoteescaping") {
      STREAMSIM_ASSIGN_OR_RETURN(char c, csvCharOption(rawKey, value));
      if (c != '\0') o.charToEscapeQuoteEscaping = c;
    } else if (key == "emptyvalue") {
      o.emptyValue = value;
    } else if (key == "quoteall") {
      STREAMSIM_ASSIGN_OR_RETURN(o.quoteAll, csvBoolOption(rawKey, value));
    } else if (key == "escapequotes") {
      STREAMSIM_ASSIGN_OR_RETURN(o.escapeQuotes, csvBoolOption(rawKey, value));
    } else {
      return Status::InvalidArgument(fmt::format(
          "the csv sink option '{}' is not built in streamsim (sep, quote, escape, charToEscapeQuoteEscaping, "
          "comment, header, nullValue, emptyValue, quoteAll, escapeQuotes, ignoreLeadingWhiteSpace, "
          "ignoreTrailingWhiteSpace, encoding, timestampFormat, dateFormat are)", rawKey));
    }
  }
  return CsvRowWriter(std::move(schema), std::move(o));
}

// univocity's CsvWriter.append: `element` appended to `out` as the writer settings say; true
// when the caller must enclose it in quotes. `nullOrEmpty`: the element is the nullValue or
// emptyValue standing for a null or an empty string.
bool CsvRowWriter::append(std::string& out, size_t column, bool quoted, bool nullOrEmpty,
                          std::string_view element) const {
  const CsvWriteOptions& o = options_;
  // Quotation triggers: the line separator's characters, and the quote when escapeQuotes.
  auto trigger = [&](char c) { return c == '\n' || c == '\r' || (o.escapeQuotes && c == o.quote); };
  // CsvFormat.getCharToEscapeQuoteEscaping: the escape itself unless it is the quote.
  const char escapeEscape = o.charToEscapeQuoteEscaping ? *o.charToEscapeQuoteEscaping
                            : o.quote == o.escape       ? '\0'
                                                        : o.escape;
  const size_t mark = out.size();
  size_t first = 0;
  if (o.ignoreLeadingWhiteSpace)
    while (first < element.size() && isWhite(element[first])) ++first;
  auto finish = [&]() {
    if (o.ignoreTrailingWhiteSpace) trimTrailing(out, mark);
  };
  // appendQuoted: from `first`, a quote preceded by the escape, the escape by escapeEscape.
  auto appendQuoted = [&]() {
    out.resize(mark);
    for (size_t i = first; i < element.size(); ++i) {
      const char ch = element[i];
      if (ch == o.quote) out.push_back(o.escape);
      else if (ch == o.escape && escapeEscape != '\0') out.push_back(escapeEscape);
      out.push_back(ch);
    }
    finish();
    return true;
  };
  // univocity's comment character is '#' unless the comment option sets another: a first
  // column starting with it is quoted.
  const char comment = o.comment.value_or('#');
  if (first < element.size() && (element[first] == o.quote || (column == 0 && element[0] == comment))) quoted = true;
  if (quoted) {
    if (nullOrEmpty && element.size() >= 2 && element.front() == o.quote && element.back() == o.quote) {
      out.append(element);
      return false;
    }
    return appendQuoted();
  }
  for (size_t i = first; i < element.size(); ++i) {
    const char ch = element[i];
    if (ch != o.quote && ch != o.sep && ch != o.escape && !trigger(ch)) continue;
    if (ch == o.quote || ch == o.escape) {
      // quoteElement: a separator or trigger from here on quotes the value; else it is written
      // as it is (escapeUnquoted is off).
      for (size_t j = i; j < element.size(); ++j)
        if (element[j] == o.sep || trigger(element[j])) return appendQuoted();
      out.append(element.substr(first));
      finish();
      return false;
    }
    return appendQuoted();  // the separator or a line break
  }
  out.append(element.substr(first));
  finish();
  return false;
}

// univocity's CsvWriter.processRow: a null is the nullValue, an empty string the emptyValue
// (Spark's default "\"\"": an empty string is written "", a null as nothing).
void CsvRowWriter::appendRecord(std::string& out, const std::vector<std::optional<std::string>>& values) const {
  const CsvWriteOptions& o = options_;
  const std::string emptyValue = o.emptyValue.value_or(std::string(2, o.quote));
  for (size_t i = 0; i < values.size(); ++i) {
    if (i != 0) out.push_back(o.sep);
    const bool nullOrEmpty = !values[i] || values[i]->empty();
    const std::string& element = !values[i] ? o.nullValue : values[i]->empty() ? emptyValue : *values[i];
    std::string text;
    const bool quoted = append(text, i, o.quoteAll, nullOrEmpty, element);
    // A value of whitespace only wrote nothing: univocity writes the emptyValue in its place.
    if (text.empty() && !nullOrEmpty) append(text, i, quoted, false, emptyValue);
    if (quoted) out.push_back(o.quote);
    out += text;
    if (quoted) out.push_back(o.quote);
  }
  out.push_back('\n');
}

std::string CsvRowWriter::writeFile(const std::vector<Row>& rows) const {
  std::string out;
  std::vector<std::optional<std::string>> values(schema_->size());
  if (options_.header) {
    for (size_t i = 0; i < schema_->size(); ++i) values[i] = schema_->fields()[i].name;
    appendRecord(out, values);
  }
  for (const Row& r : rows) {
    for (size_t i = 0; i < schema_->size(); ++i) {
      const Value& v = r.values()[i];
      values[i] = v.isNull() ? std::nullopt : std::optional<std::string>(csvText(v, options_));
    }
    appendRecord(out, values);
  }
  return out;
}

Status checkTextWriteSchema(const Schema& schema) {
  // FileFormatWriter: the types first (TextFileFormat.supportDataType: strings), then
  // TextFileFormat.verifySchema: one column.
  for (const Field& f : schema.fields())
    if (f.type != Type::kString) return unsupportedType("Text", f);
  if (schema.size() != 1)
    return Status::InvalidArgument(fmt::format("Text data source supports only a single column, and you have {} "
                                               "columns.", schema.size()))
        .withCondition("_LEGACY_ERROR_TEMP_1290", {{"schemaSize", std::to_string(schema.size())}});
  return Status::OK();
}

std::string writeTextFile(const std::vector<Row>& rows) {
  // TextOutputWriter: the string's bytes (nothing for a null), then the line separator.
  std::string out;
  for (const Row& r : rows) {
    const Value& v = r.values()[0];
    if (!v.isNull()) out += v.asString();
    out.push_back('\n');
  }
  return out;
}

}  // namespace streamsim
