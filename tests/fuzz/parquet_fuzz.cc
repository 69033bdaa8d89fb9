// Fuzzes the Parquet reader (engine/src/io/parquet/, streamsim/io/parquet.h) on any bytes:
// an error or rows, never a crash, a hang or an unbounded allocation; the rows it reads are
// written back (writeParquet) and read again equal, so the writer handles whatever the reader
// produces. Seeds: tests/fixtures/parquet/ (tools/fuzz).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "streamsim/io/parquet.h"

using namespace streamsim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto read = readParquet(bytes, "fuzz.parquet");
  if (!read.ok()) return 0;
  auto written = writeParquet(*read->schema, read->rows, ParquetCodec::kSnappy);
  if (!written.ok()) return 0;  // e.g. a null in a REQUIRED column of a hostile file
  auto back = readParquet(*written, "roundtrip.parquet");
  if (!back.ok() || back->rows.size() != read->rows.size()) std::abort();
  for (size_t i = 0; i < back->rows.size(); ++i)
    if (back->rows[i].values() != read->rows[i].values()) std::abort();
  return 0;
}
