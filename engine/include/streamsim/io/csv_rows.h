// CSV and text files as Rows of a Schema, the way Spark's readers read them, for the file source
// and the batch reader (json_rows.h does JSON lines).
//
// CSV (apache/spark CSVOptions.scala defaults, UnivocityParser.scala casts), one record per line
// (multiLine is not built):
//   sep (alias delimiter) ",", quote '"', escape '\', header false (true: each file's first
//   record is skipped; enforceSchema: the schema is applied by position), nullValue "" (an
//   unquoted token equal to it is null; a quoted "" is the empty string), nanValue "NaN",
//   positiveInf "Inf", negativeInf "-Inf", comment (off; a line starting with it is skipped),
//   ignoreLeadingWhiteSpace / ignoreTrailingWhiteSpace false; empty lines are skipped.
//   Casts: int/long by Java's parseInt/parseLong (an optional sign, digits), double by
//   parseDouble (and the NaN/Inf words), boolean "true"/"false" in any case, timestamp by
//   parseTimestamp (time.h) or the timestampFormat pattern, date yyyy-MM-dd or the dateFormat
//   pattern (in UTC), string as it is.
//   A record with another number of tokens than the schema, or a token that does not cast, is
//   malformed: PERMISSIVE keeps the tokens that cast (the others, and missing ones, null) and puts
//   the line into the corrupt-record column when the schema has it; DROPMALFORMED drops the line;
//   FAILFAST fails naming the file, line and reason.
// Writers (csv_write.cc): CsvRowWriter and writeTextFile, below.
// Text (TextFileFormat): the schema is one string column; each line is a row (an empty line too;
// the newline ending the file makes no row); wholetext: the whole file is one row.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/io/json_rows.h"
#include "streamsim/status.h"
#include "streamsim/value.h"

namespace streamsim {
using CsvDatetimePattern = DatetimePattern;  // (io/json_rows.h)

struct CsvReadOptions {
  char sep = ',';
  char quote = '"';
  char escape = '\\';
  bool header = false;
  std::string nullValue;
  std::string nanValue = "NaN";
  std::string positiveInf = "Inf";
  std::string negativeInf = "-Inf";
  std::optional<char> comment;
  bool ignoreLeadingWhiteSpace = false;
  bool ignoreTrailingWhiteSpace = false;
  ParseMode mode = ParseMode::kPermissive;
  std::string columnNameOfCorruptRecord = "_corrupt_record";
  // timestampFormat / dateFormat (Spark's datetime patterns): given, a value is parsed with the
  // pattern only (UnivocityParser: no fallback when the format is set); unset, a timestamp as
  // parseTimestamp reads it and a date as yyyy-MM-dd.
  CsvDatetimePattern timestampFormat;
  CsvDatetimePattern dateFormat;
};

// The options a format takes besides the file source's own: "csv", "json" or "text".
bool isFormatOption(std::string_view format, std::string_view lowerKey);

class CsvRowParser {
 public:
  // `options`: the CSV options by Spark's names (case-insensitive keys); unknown keys are not
  // looked at (the caller checks them with isFormatOption). InvalidArgument for a bad value (a
  // sep that is not one character, header not true/false, ...).
  static Result<CsvRowParser> make(SchemaPtr schema, const std::map<std::string, std::string>& options,
                                   ParseMode mode, std::string columnNameOfCorruptRecord);
  // Every record of `text` (the content of `fileName`) appended to `out`.
  Status parseFile(std::string_view text, std::string_view fileName, std::vector<Row>& out) const;

 private:
  CsvRowParser(SchemaPtr schema, CsvReadOptions options, int corrupt)
      : schema_(std::move(schema)), options_(std::move(options)), corrupt_index_(corrupt) {}
  SchemaPtr schema_;
  CsvReadOptions options_;
  int corrupt_index_ = -1;
};

class TextRowParser {
 public:
  // InvalidArgument unless `schema` is one string column (Spark's text source's "value").
  static Result<TextRowParser> make(SchemaPtr schema, const std::map<std::string, std::string>& options);
  Status parseFile(std::string_view text, std::vector<Row>& out) const;

 private:
  TextRowParser(SchemaPtr schema, bool wholeText) : schema_(std::move(schema)), whole_text_(wholeText) {}
  SchemaPtr schema_;
  bool whole_text_ = false;
};

// The CSV writer's options (CSVOptions' write side, Spark's names and defaults): sep ",", quote
// '"', escape '\', charToEscapeQuoteEscaping (unset: the escape, unless it is the quote),
// comment (unset: univocity's '#': a first value starting with it is quoted), header false,
// nullValue "" (a null), emptyValue (unset: "" quoted, an empty string), quoteAll false,
// escapeQuotes true (a value holding the quote is quoted, the quote escaped),
// ignoreLeadingWhiteSpace / ignoreTrailingWhiteSpace true (values are trimmed as written).
struct CsvWriteOptions {
  char sep = ',';
  char quote = '"';
  char escape = '\\';
  std::optional<char> charToEscapeQuoteEscaping;
  std::optional<char> comment;
  bool header = false;
  std::string nullValue;
  std::optional<std::string> emptyValue;
  bool quoteAll = false;
  bool escapeQuotes = true;
  bool ignoreLeadingWhiteSpace = true;
  bool ignoreTrailingWhiteSpace = true;
  // timestampFormat / dateFormat: unset, Spark's write defaults (yyyy-MM-dd'T'HH:mm:ss.SSSXXX,
  // yyyy-MM-dd); the zone is UTC, as the reader's.
  CsvDatetimePattern timestampFormat;
  CsvDatetimePattern dateFormat;
};

// Rows as one CSV file, as Spark's CSV writer (UnivocityGenerator over univocity's CsvWriter)
// writes them: the header (option header) then one line per row; values as Spark converts them
// (timestamps yyyy-MM-dd'T'HH:mm:ss.SSSXXX in UTC, dates yyyy-MM-dd, doubles as Java's
// Double.toString, binary as "[01 FF]"), quoted and escaped by univocity's rules.
class CsvRowWriter {
 public:
  // InvalidArgument for a bad or unknown option; a struct, array or map column is Spark's
  // UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE (CSVFileFormat.supportDataType).
  static Result<CsvRowWriter> make(SchemaPtr schema, const std::map<std::string, std::string>& options);
  std::string writeFile(const std::vector<Row>& rows) const;

 private:
  CsvRowWriter(SchemaPtr schema, CsvWriteOptions options) : schema_(std::move(schema)), options_(std::move(options)) {}
  bool append(std::string& out, size_t column, bool quoted, bool nullOrEmpty, std::string_view element) const;
  void appendRecord(std::string& out, const std::vector<std::optional<std::string>>& values) const;
  SchemaPtr schema_;
  CsvWriteOptions options_;
};

// The text writer (TextFileFormat): OK for one string column; else Spark's
// UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE (a column not a string) or _LEGACY_ERROR_TEMP_1290 (not
// one column).
Status checkTextWriteSchema(const Schema& schema);
// TextOutputWriter: each row's string (nothing for a null) and "\n".
std::string writeTextFile(const std::vector<Row>& rows);

}  // namespace streamsim
