// RLE/bit-packed hybrid and page codecs (parquet_encoding.h), from parquet-format Encodings.md
// and Compression.md.
#include "io/parquet/parquet_encoding.h"

#include <snappy.h>
#include <zlib.h>

#include <fmt/format.h>

#include "io/parquet/parquet_metadata.h"

namespace streamsim::parquet {

Status ByteSpan::error(size_t at, std::string_view expected) const {
  return Status::Corruption(fmt::format("{}: offset {}: {}: expected {}", file,
                                        base + static_cast<int64_t>(at), what, expected));
}

int bitWidthFor(uint32_t maxValue) {
  int w = 0;
  while (w < 32 && (maxValue >> w) != 0) ++w;
  return w;
}

Status decodeRleHybrid(const ByteSpan& span, int bitWidth, size_t count, std::vector<uint32_t>& out,
                       size_t& pos) {
  if (bitWidth < 0 || bitWidth > 32) return span.error(pos, "a bit width of 0 to 32");
  const std::string_view b = span.bytes;
  const size_t byteWidth = (static_cast<size_t>(bitWidth) + 7) / 8;
  const uint32_t mask = bitWidth == 32 ? 0xffffffffu : ((1u << bitWidth) - 1);
  size_t left = count;
  while (left > 0) {
    // The run's header: a ULEB128 varint.
    uint64_t header = 0;
    int shift = 0;
    for (;;) {
      if (pos >= b.size())
        return span.error(pos, fmt::format("a run header ({} more values), found the end of the data", left));
      uint8_t c = static_cast<uint8_t>(b[pos++]);
      if (shift >= 35) return span.error(pos - 1, "a run header of at most 5 bytes");
      header |= static_cast<uint64_t>(c & 0x7f) << shift;
      shift += 7;
      if ((c & 0x80) == 0) break;
    }
    if (header & 1) {  // bit-packed: (header >> 1) groups of 8 values
      uint64_t groups = header >> 1;
      if (groups == 0) return span.error(pos, "a bit-packed run of at least one group");
      uint64_t bytes = groups * static_cast<uint64_t>(bitWidth);
      if (bytes > b.size() - pos)
        return span.error(pos, fmt::format("{} bytes of bit-packed values, found {}", bytes, b.size() - pos));
      uint64_t n = groups * 8;
      for (uint64_t i = 0; i < n && left > 0; ++i, --left) {
        uint64_t bit = i * static_cast<uint64_t>(bitWidth);
        uint64_t v = 0;
        for (int k = 0; k < bitWidth; ++k) {
          uint64_t at = bit + static_cast<uint64_t>(k);
          v |= static_cast<uint64_t>((static_cast<uint8_t>(b[pos + at / 8]) >> (at % 8)) & 1) << k;
        }
        out.push_back(static_cast<uint32_t>(v));
      }
      pos += bytes;
    } else {  // RLE: (header >> 1) copies of one value in byteWidth bytes, little endian
      uint64_t n = header >> 1;
      if (byteWidth > b.size() - pos) return span.error(pos, fmt::format("a {}-byte repeated value", byteWidth));
      uint32_t v = 0;
      for (size_t k = 0; k < byteWidth; ++k) v |= static_cast<uint32_t>(static_cast<uint8_t>(b[pos + k])) << (8 * k);
      pos += byteWidth;
      if ((v & ~mask) != 0) return span.error(pos - byteWidth, fmt::format("a value of {} bits", bitWidth));
      if (n == 0) return span.error(pos, "an RLE run of at least one value");
      uint64_t take = std::min<uint64_t>(n, left);
      out.insert(out.end(), take, v);
      left -= take;
    }
  }
  return Status::OK();
}

Status decodeBitPacked(const ByteSpan& span, int bitWidth, size_t count, std::vector<uint32_t>& out) {
  uint64_t bits = static_cast<uint64_t>(count) * static_cast<uint64_t>(bitWidth);
  if ((bits + 7) / 8 > span.bytes.size())
    return span.error(0, fmt::format("{} bytes of BIT_PACKED levels", (bits + 7) / 8));
  for (size_t i = 0; i < count; ++i) {
    uint32_t v = 0;
    for (int k = 0; k < bitWidth; ++k) {
      uint64_t at = static_cast<uint64_t>(i) * bitWidth + k;
      v = (v << 1) | ((static_cast<uint8_t>(span.bytes[at / 8]) >> (7 - at % 8)) & 1);
    }
    out.push_back(v);
  }
  return Status::OK();
}

namespace {

void putVarint(uint64_t v, std::string& out) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

}  // namespace

void encodeRleHybrid(const std::vector<uint32_t>& values, int bitWidth, std::string& out) {
  const size_t byteWidth = (static_cast<size_t>(bitWidth) + 7) / 8;
  size_t i = 0;
  while (i < values.size()) {
    size_t j = i;
    while (j < values.size() && values[j] == values[i]) ++j;
    putVarint(static_cast<uint64_t>(j - i) << 1, out);  // an RLE run
    for (size_t k = 0; k < byteWidth; ++k) out.push_back(static_cast<char>((values[i] >> (8 * k)) & 0xff));
    i = j;
  }
}

Status decompressPage(int32_t codec, const ByteSpan& span, size_t uncompressedSize, std::string& out) {
  out.clear();
  switch (codec) {
    case kUncompressed:
      if (span.bytes.size() != uncompressedSize)
        return span.error(0, fmt::format("an uncompressed page of {} bytes (its header's size), found {}",
                                         uncompressedSize, span.bytes.size()));
      out.assign(span.bytes);
      return Status::OK();
    case kSnappy: {
      size_t n = 0;
      if (!snappy::GetUncompressedLength(span.bytes.data(), span.bytes.size(), &n))
        return span.error(0, "a Snappy block (its length preamble does not parse)");
      if (n != uncompressedSize)
        return span.error(0, fmt::format("a Snappy block of {} bytes (the page header's), found one of {}",
                                         uncompressedSize, n));
      out.resize(n);
      if (!snappy::RawUncompress(span.bytes.data(), span.bytes.size(), out.data()))
        return span.error(0, "a valid Snappy block");
      return Status::OK();
    }
    case kGzip: {
      out.resize(uncompressedSize);
      z_stream z{};
      if (inflateInit2(&z, 15 + 32) != Z_OK) return span.error(0, "zlib to start");  // gzip or zlib header
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(span.bytes.data()));
      z.avail_in = static_cast<uInt>(span.bytes.size());
      z.next_out = reinterpret_cast<Bytef*>(out.data());
      z.avail_out = static_cast<uInt>(out.size());
      // Several gzip members may follow each other (RFC 1952 2.2): inflate each in turn.
      int rc;
      for (;;) {
        rc = inflate(&z, Z_NO_FLUSH);
        if (rc == Z_STREAM_END && z.avail_in > 0 && z.avail_out > 0 && inflateReset(&z) == Z_OK) continue;
        if (rc != Z_OK) break;
      }
      size_t produced = out.size() - z.avail_out;
      inflateEnd(&z);
      if ((rc != Z_STREAM_END && rc != Z_BUF_ERROR) || produced != uncompressedSize)
        return span.error(0, fmt::format("a GZIP page of {} bytes (the page header's), inflated {}",
                                         uncompressedSize, produced));
      return Status::OK();
    }
    default: break;
  }
  return Status::InvalidArgument(fmt::format("{}: offset {}: {}: compressed with {}, which streamsim's Parquet "
                                             "reader does not read (UNCOMPRESSED, SNAPPY and GZIP; docs/python.md)",
                                             span.file, span.base, span.what, codecName(codec)));
}

std::string gzipCompress(std::string_view bytes) {
  z_stream z{};
  // windowBits 15 + 16: a gzip wrapper; no deflateSetHeader, so the header's mtime is 0 and the
  // bytes are the same on every run.
  deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, static_cast<uLong>(bytes.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);  // deflateBound's room: one call finishes the stream
  out.resize(out.size() - z.avail_out);
  deflateEnd(&z);
  return out;
}

std::string snappyCompress(std::string_view bytes) {
  std::string out;
  snappy::Compress(bytes.data(), bytes.size(), &out);
  return out;
}

}  // namespace streamsim::parquet
