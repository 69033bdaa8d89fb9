// Reads the entries of a zip archive held in memory: the snapshot `N.zip` of Spark's RocksDB
// state store (RocksDBFileManager zips a checkpoint's metadata, CURRENT, MANIFEST and OPTIONS
// with java.util.zip.ZipOutputStream; entries stored or DEFLATE-compressed, inflated with zlib).
// Read-only, plain functions; thread-safe.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "streamsim/status.h"

namespace streamsim {

// Every entry of the archive `data`, by name, uncompressed; each entry's CRC-32 checked.
// Corruption naming `path`, the entry and the byte offset when the end record, a central
// directory or local header, the compressed data or a checksum does not hold; a ZIP64 or
// encrypted archive, or a compression method other than stored (0) and DEFLATE (8), is
// FailedPrecondition, said so.
Result<std::map<std::string, std::string>> readZipArchive(std::string_view data,
                                                          const std::string& path);

}  // namespace streamsim
