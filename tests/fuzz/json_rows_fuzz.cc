// Fuzzes the JSON-lines reader (engine/src/io/json_rows.cc) with a round trip: every row read
// from the bytes (PERMISSIVE) is written as the files sink writes it (Row::toJson) and read back
// equal. Nothing aborts; the round trip never changes a row -- except its `_corrupt_record`:
// Spark parses a line with the schema minus that column (JsonFileFormat's actualSchema), so a
// written `"_corrupt_record":"..."` key is a field like any unknown one and reads back null.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "streamsim/io/json_rows.h"
#include "streamsim/value.h"

using namespace streamsim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const SchemaPtr schema =
      *parseSchema("s string, n long, i int, d double, b boolean, t timestamp, _corrupt_record string");
  static const JsonRowParser parser = *JsonRowParser::make(schema);
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<Row> rows;
  if (!parser.parseLines(text, "fuzz.json", rows).ok()) std::abort();  // PERMISSIVE never fails
  const int corrupt = schema->indexOf("_corrupt_record");
  for (const Row& row : rows) {
    std::string line = row.toJson();
    Row expected = row;
    expected[corrupt] = Value();
    std::vector<Row> back;
    if (!parser.parseLines(line, "roundtrip.json", back).ok() || back.size() != 1) std::abort();
    // A row whose strings held bytes that are not UTF-8 comes back with U+FFFD: compare those
    // by their written form only.
    if (back[0].toJson() != expected.toJson()) std::abort();
  }
  return 0;
}
