// Parquet's level and index encoding and its page codecs: the RLE/bit-packed hybrid
// (parquet-format Encodings.md "Run Length Encoding / Bit-Packing Hybrid (RLE = 3)"), the
// deprecated BIT_PACKED levels (Encodings.md "Bit-packed (Deprecated) (BIT_PACKED = 4)"), and
// UNCOMPRESSED / SNAPPY / GZIP pages (Compression.md). Bounds-checked; errors name the file,
// the offset and what was expected. Thread-safety: plain functions.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/status.h"

namespace streamsim::parquet {

// INT96 timestamps count Julian days; 1970-01-01 is day 2440588.
inline constexpr int64_t kJulianDayOfEpoch = 2440588;

inline int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// Where a byte range sits, for messages: "<file>: offset <base + i>: <what>: expected ...".
struct ByteSpan {
  std::string_view bytes;
  int64_t base = 0;  // file offset of bytes[0] (of the page's uncompressed bytes: its start)
  std::string_view file;
  std::string_view what;  // "column a.b, definition levels"
  Status error(size_t at, std::string_view expected) const;
};

// Bits needed for values 0..maxValue (0 for maxValue 0).
int bitWidthFor(uint32_t maxValue);

// Appends `count` values of the hybrid encoding at span.bytes[0..] (no length prefix); fewer
// values in the bytes is an error. `pos` is set past the bytes read.
Status decodeRleHybrid(const ByteSpan& span, int bitWidth, size_t count, std::vector<uint32_t>& out,
                       size_t& pos);
// Appends `count` BIT_PACKED (MSB first) values.
Status decodeBitPacked(const ByteSpan& span, int bitWidth, size_t count, std::vector<uint32_t>& out);
// Appends the hybrid encoding of `values` (RLE runs, bit-packing for runs shorter than 8).
void encodeRleHybrid(const std::vector<uint32_t>& values, int bitWidth, std::string& out);

// Page bytes -> uncompressed bytes of exactly `uncompressedSize`.
Status decompressPage(int32_t codec, const ByteSpan& span, size_t uncompressedSize, std::string& out);
// SNAPPY (libsnappy) compression of `bytes`.
std::string snappyCompress(std::string_view bytes);
// A gzip member (RFC 1952, zlib's deflate at its default level; header mtime 0), as Hadoop's
// GzipCodec writes a Parquet GZIP page.
std::string gzipCompress(std::string_view bytes);

}  // namespace streamsim::parquet
