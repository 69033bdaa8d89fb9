// zip_reader.h. The format: PKWARE's APPNOTE.TXT (end of central directory record 4.3.16,
// central directory header 4.3.12, local file header 4.3.7); the sizes are taken from the
// central directory, since java.util.zip.ZipOutputStream writes DEFLATE entries with a data
// descriptor after the data and zero sizes in the local header.
#include "streamsim/checkpoint/zip_reader.h"

#include <cstdint>

#include <fmt/format.h>
#include <zlib.h>

#include "state/crc32.h"

namespace streamsim {
namespace {

constexpr uint32_t kEndSignature = 0x06054b50;
constexpr uint32_t kCentralSignature = 0x02014b50;
constexpr uint32_t kLocalSignature = 0x04034b50;
constexpr size_t kEndSize = 22, kCentralSize = 46, kLocalSize = 30;

uint16_t le16(std::string_view d, size_t pos) {
  return static_cast<uint16_t>(static_cast<unsigned char>(d[pos]) |
                               (static_cast<unsigned char>(d[pos + 1]) << 8));
}
uint32_t le32(std::string_view d, size_t pos) {
  return static_cast<uint32_t>(le16(d, pos)) | (static_cast<uint32_t>(le16(d, pos + 2)) << 16);
}

// Raw DEFLATE (no zlib header) of `compressed` into exactly `size` bytes.
Result<std::string> inflateRaw(std::string_view compressed, uint32_t size, const std::string& where) {
  std::string out(size, '\0');
  z_stream z{};
  if (inflateInit2(&z, -MAX_WBITS) != Z_OK)
    return Status::IOError(fmt::format("{}: zlib could not start inflating", where));
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  z.avail_in = static_cast<uInt>(compressed.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  // An empty output buffer makes zlib report Z_BUF_ERROR even for a good empty entry.
  char spare = 0;
  if (size == 0) {
    z.next_out = reinterpret_cast<Bytef*>(&spare);
    z.avail_out = 1;
  }
  int rc = inflate(&z, Z_FINISH);
  uLong produced = z.total_out;
  const char* msg = z.msg;
  inflateEnd(&z);
  if (rc != Z_STREAM_END || produced != size)
    return Status::Corruption(fmt::format("{}: DEFLATE data does not inflate to {} bytes ({}{})",
                                          where, size, rc == Z_STREAM_END ? "got " + std::to_string(produced)
                                                                          : "zlib error " + std::to_string(rc),
                                          msg ? fmt::format(": {}", msg) : ""));
  return out;
}

}  // namespace

Result<std::map<std::string, std::string>> readZipArchive(std::string_view data, const std::string& path) {
  // The end record: the last signature within the final 22 + 65535 (comment) bytes.
  if (data.size() < kEndSize)
    return Status::Corruption(fmt::format("{}: {} bytes is too short for a zip archive (no end of "
                                          "central directory record)", path, data.size()));
  size_t end = std::string_view::npos;
  size_t lowest = data.size() > kEndSize + 0xffff ? data.size() - kEndSize - 0xffff : 0;
  for (size_t pos = data.size() - kEndSize + 1; pos-- > lowest;)
    if (le32(data, pos) == kEndSignature) {
      end = pos;
      break;
    }
  if (end == std::string_view::npos)
    return Status::Corruption(fmt::format("{}: not a zip archive, or cut short: no end of central "
                                          "directory record", path));
  uint16_t entries = le16(data, end + 10);
  uint32_t cdSize = le32(data, end + 12), cdOffset = le32(data, end + 16);
  if (entries == 0xffff || cdOffset == 0xffffffffu)
    return Status::FailedPrecondition(fmt::format("{}: a ZIP64 archive, which is not read", path));
  if (cdOffset > end || cdSize > end - cdOffset)
    return Status::Corruption(fmt::format("{}: byte {}: the central directory ({} bytes at {}) lies "
                                          "outside the archive", path, end, cdSize, cdOffset));
  std::map<std::string, std::string> out;
  size_t pos = cdOffset;
  for (uint16_t i = 0; i < entries; ++i) {
    if (pos + kCentralSize > end || le32(data, pos) != kCentralSignature)
      return Status::Corruption(fmt::format("{}: byte {}: expected central directory header {} of {}",
                                            path, pos, i + 1, entries));
    uint16_t flags = le16(data, pos + 8), method = le16(data, pos + 10);
    uint32_t crc = le32(data, pos + 16), compressed = le32(data, pos + 20), size = le32(data, pos + 24);
    uint16_t nameLen = le16(data, pos + 28), extraLen = le16(data, pos + 30), commentLen = le16(data, pos + 32);
    uint32_t local = le32(data, pos + 42);
    if (pos + kCentralSize + nameLen > end)
      return Status::Corruption(fmt::format("{}: byte {}: central directory header {} is cut short", path,
                                            pos, i + 1));
    std::string name(data.substr(pos + kCentralSize, nameLen));
    const std::string where = fmt::format("{}: entry {}", path, name);
    if (flags & 1) return Status::FailedPrecondition(where + ": encrypted, which is not read");
    if (method != 0 && method != 8)
      return Status::FailedPrecondition(fmt::format("{}: compression method {} (only stored and DEFLATE "
                                                    "are read)", where, method));
    if (compressed == 0xffffffffu || size == 0xffffffffu)
      return Status::FailedPrecondition(where + ": ZIP64 sizes, which are not read");
    if (local + kLocalSize > data.size() || le32(data, local) != kLocalSignature)
      return Status::Corruption(fmt::format("{}: byte {}: expected its local file header", where, local));
    size_t start = local + kLocalSize + le16(data, local + 26) + le16(data, local + 28);
    if (start > data.size() || compressed > data.size() - start)
      return Status::Corruption(fmt::format("{}: byte {}: its {} bytes of data run past the end of the "
                                            "archive ({} bytes)", where, start, compressed, data.size()));
    std::string_view raw = data.substr(start, compressed);
    // DEFLATE expands at most about 1032:1: a larger claimed size is a damaged header, not a
    // reason to allocate gigabytes.
    if (method == 8 && size > uint64_t{compressed} * 1032 + 1024)
      return Status::Corruption(fmt::format("{}: claims {} bytes from {} compressed (more than DEFLATE can "
                                            "expand to)", where, size, compressed));
    std::string bytes;
    if (method == 0) {
      if (compressed != size)
        return Status::Corruption(fmt::format("{}: stored entry with sizes {} and {}", where, compressed, size));
      bytes.assign(raw);
    } else {
      STREAMSIM_ASSIGN_OR_RETURN(bytes, inflateRaw(raw, size, fmt::format("{} (byte {})", where, start)));
    }
    if (uint32_t got = detail::crc32Ieee(bytes); got != crc)
      return Status::Corruption(fmt::format("{}: CRC-32 0x{:08x} of its data does not match the stored "
                                            "0x{:08x}", where, got, crc));
    out[std::move(name)] = std::move(bytes);
    pos += kCentralSize + nameLen + extraLen + commentLen;
  }
  return out;
}

}  // namespace streamsim
