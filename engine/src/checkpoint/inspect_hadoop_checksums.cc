// The inspector's check of Hadoop's .crc checksum files (checkpoint_inspector.h).
#include <algorithm>

#include <fmt/format.h>

#include "byte_order.h"
#include "checkpoint/checkpoint_inspector.h"
#include "state/crc32.h"

namespace streamsim::detail {

// Hadoop's ChecksumFileSystem writes .<name>.crc next to each file: "crc\0", the bytes per
// checksum (big-endian int), then a big-endian CRC-32 per chunk.
void CheckpointInspector::checkHadoopChecksums(const std::string& dir, int depth) {
  auto entries = env_.fs->list(dir);
  if (!entries.ok() || depth > 4) return;
  for (const FileInfo& e : *entries) {
    std::string name = baseName(e.path);
    if (e.isDir) {
      checkHadoopChecksums(e.path, depth + 1);
      continue;
    }
    if (name.size() < 6 || name[0] != '.' || name.substr(name.size() - 4) != ".crc") continue;
    std::string target = joinPath(dir, name.substr(1, name.size() - 5));
    if (baseName(target).rfind("temp-", 0) == 0 || !env_.fs->exists(target)) continue;
    auto crc = env_.fs->read(e.path);
    auto data = env_.fs->read(target);
    if (!crc.ok() || !data.ok()) continue;
    std::string_view c = *crc;
    auto be32 = [](std::string_view s) { return detail::loadBig32(s.data()); };
    if (c.size() < 8 || c.substr(0, 4) != std::string_view("crc\0", 4) || be32(c.substr(4)) == 0) {
      add(DiagnosisKind::kUnreadable,
          fmt::format("{}: not a Hadoop checksum file (expected \"crc\\0\" and the bytes per "
                      "checksum)", e.path),
          {}, {e.path});
      continue;
    }
    uint32_t perChunk = be32(c.substr(4));
    size_t chunks = (data->size() + perChunk - 1) / perChunk;
    std::optional<size_t> bad;
    if (c.size() != 8 + 4 * chunks) {
      bad = std::min<size_t>(chunks, (c.size() - 8) / 4);
    } else {
      for (size_t k = 0; k < chunks && !bad; ++k) {
        std::string_view chunk = std::string_view(*data).substr(k * perChunk, perChunk);
        if (detail::crc32Ieee(chunk) != be32(c.substr(8 + 4 * k))) bad = k;
      }
    }
    if (bad) {
      add(DiagnosisKind::kChecksumMismatch,
          fmt::format("{} does not match its Hadoop checksum {} (from byte {}): the file changed "
                      "after Spark wrote it (edited, truncated or copied in part)",
                      target, e.path, *bad * perChunk),
          {}, {target, e.path});
    } else {
      ++report_.checksumsVerified;
    }
  }
}

}  // namespace streamsim::detail
