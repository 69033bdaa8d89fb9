// CRC-32 (IEEE, reflected 0xEDB88320, zlib's; computed by ISA-L): the checksum of streamsim's
// state files (state_files.cc, which defines it) and of Hadoop's .crc files next to Spark's checkpoint
// files (inspect_hadoop_checksums.cc). Stateless, thread-safe.
#pragma once

#include <cstdint>
#include <string_view>

namespace streamsim::detail {

uint32_t crc32Ieee(std::string_view data);

}  // namespace streamsim::detail
