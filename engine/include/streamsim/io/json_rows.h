// JSON lines <-> Rows of a Schema, the way Spark's JSON reader does it (SEMANTICS.md §3 malformed
// modes; apache/spark JacksonParser.scala for the casts). A JsonRowParser is immutable once built
// and may be shared by several threads; parse calls only touch their own output.
//
// Casts, following Spark's JSON reader (not Spark's SQL cast):
//   string    <- any token; a non-string token becomes its compact JSON text (5 -> "5").
//   int/long  <- JSON integers only (out of range, fractions and strings are malformed).
//   double    <- JSON numbers; the strings "NaN", "Infinity", "+Infinity", "-Infinity",
//                "+INF", "-INF" (what Spark's writer, and Row::toJson, write for them).
// Beyond strict JSON, Spark's defaults (JSONOptions allowSingleQuotes, allowNonNumericNumbers):
// 'single-quoted' strings and the bare tokens NaN, Infinity, +Infinity, -Infinity, +INF, -INF
// (io/json_lenient.h: a line that fails strict JSON is rewritten and read again).
//   boolean   <- true/false only.
//   timestamp <- a string read by parseTimestamp (time.h, UTC), or by the timestampFormat
//                pattern when one is given (then without fallback, as JacksonParser: see
//                JsonReadOptions); a JSON integer read as epoch *seconds* (Spark's
//                `getLongValue * 1000000L` micros); fractions are malformed.
//   date      <- a string yyyy-MM-dd (or the dateFormat pattern); with the fallback, a string
//                of an integer is days since the epoch (Spark 1.5's form).
//   null / a missing key -> null; keys not in the schema are ignored; the last duplicate wins.
// A line that is not a JSON object, or a value that does not cast, makes the record malformed:
//   PERMISSIVE (default): the fields that cast, the others null (JacksonParser's partial
//                         results; a line that is not a JSON object: all null), with the raw
//                         line in the corrupt-record column (`_corrupt_record` unless renamed)
//                         when the schema has that column;
//   DROPMALFORMED: the line is dropped;  FAILFAST: an InvalidArgument Status naming the file,
//   the line number, the reason and the line.
// Blank (whitespace-only) lines are skipped; "\r\n" endings are accepted.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/status.h"
#include "streamsim/value.h"

namespace streamsim {

enum class ParseMode { kPermissive, kDropMalformed, kFailFast };
// "PERMISSIVE" | "DROPMALFORMED" | "FAILFAST" (case-insensitive, as Spark).
Result<ParseMode> parseParseMode(std::string_view name);
std::string_view parseModeName(ParseMode mode);

namespace expr::datetime {
struct PatternPart;
}
// A datetime pattern (timestampFormat / dateFormat) parsed once (expr/datetime_pattern.h).
using DatetimePattern = std::shared_ptr<const std::vector<expr::datetime::PatternPart>>;

struct JsonReadOptions {
  ParseMode mode = ParseMode::kPermissive;
  std::string columnNameOfCorruptRecord = "_corrupt_record";
  // JSONOptions' timestampFormat / dateFormat (read in UTC): given, a string is parsed with the
  // pattern; when it does not match, JacksonParser falls back to the lenient parse only if
  // enableDateTimeParsingFallback says so -- by default exactly when no pattern was given.
  DatetimePattern timestampFormat;
  DatetimePattern dateFormat;
  std::optional<bool> enableDateTimeParsingFallback;
};

// The JSON reader's options by Spark's names (case-insensitive keys) -- timestampFormat,
// dateFormat, enableDateTimeParsingFallback -- on top of `base`; other keys are not looked at
// (the file source checks them with isFormatOption). InvalidArgument for a bad value (an
// unknown pattern letter is INVALID_DATETIME_PATTERN).
Result<JsonReadOptions> jsonReadOptions(const std::map<std::string, std::string>& options,
                                        JsonReadOptions base = {});

// Counts of one parse call (for progress / trace).
struct JsonParseStats {
  int64_t lines = 0;      // non-blank lines seen
  int64_t rows = 0;       // rows produced (including PERMISSIVE corrupt rows)
  int64_t malformed = 0;  // malformed lines (dropped, nulled or failing)
};

class JsonRowParser {
 public:
  // What the i-th key of the previous records of a file named: its column (-1 unknown), tried
  // before a search of the schema (lines of one file repeat their key order), and whether the
  // column's name is plain (printable ASCII without a quote or backslash: the flat-line reader
  // then matches the key's bytes against it, without scanning the key).
  struct KeyHint {
    int column = -1;
    bool plain = false;
  };

  // InvalidArgument if the corrupt-record column is in the schema but is not a string.
  static Result<JsonRowParser> make(SchemaPtr schema, JsonReadOptions options = {});

  const SchemaPtr& schema() const { return schema_; }
  const JsonReadOptions& options() const { return options_; }

  // Parses every line of `text` (the content of `fileName`, used in messages) and appends the
  // rows to `out`. Only FAILFAST returns a non-ok Status for a malformed line.
  Status parseLines(std::string_view text, std::string_view fileName, std::vector<Row>& out,
                    JsonParseStats* stats = nullptr) const;

  // Parses one JSON object into `out` (schema order). Returns InvalidArgument with the reason
  // when the record is malformed; the parse mode is not applied here. Malformed, `out` is the
  // row PERMISSIVE keeps: the fields that cast (Spark's partial results: a field that does not
  // cast is null) or, for a line that is not a JSON object, all nulls.
  Status parseRecord(std::string_view line, std::vector<Value>& out) const;

 private:
  Status parseRecord(std::string_view line, std::vector<Value>& out,
                     std::vector<KeyHint>* keyHints) const;

  JsonRowParser(SchemaPtr schema, JsonReadOptions options, int corrupt_index)
      : schema_(std::move(schema)), options_(std::move(options)), corrupt_index_(corrupt_index) {}

  SchemaPtr schema_;
  JsonReadOptions options_;
  int corrupt_index_ = -1;  // column receiving the raw line in PERMISSIVE mode; -1 none
};

// One-shot helper: parse `text` with a new parser.
Result<std::vector<Row>> parseJsonLines(std::string_view text, const SchemaPtr& schema,
                                        const JsonReadOptions& options = {},
                                        std::string_view fileName = "<input>");

// Appends `row` as one JSON line (Row::toJson form: nulls omitted, timestamps as ISO strings)
// followed by '\n'.
void appendJsonLine(const Row& row, std::string& out);
std::string toJsonLines(const std::vector<Row>& rows);

}  // namespace streamsim
