// Fuzzes the checkpoint log readers (engine/src/checkpoint/): offsets, commits, metadata, the
// file source log and the file sink log, each with the same bytes. Every one either parses or
// returns a Status; none aborts or reads past the input.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "streamsim/checkpoint/checkpoint_metadata.h"
#include "streamsim/checkpoint/commit_log.h"
#include "streamsim/checkpoint/file_sink_log.h"
#include "streamsim/checkpoint/file_source_log.h"
#include "streamsim/checkpoint/offset_log.h"
#include "streamsim/checkpoint/operator_metadata.h"

using namespace streamsim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)OffsetLogCodec::parse(text, "/chk/offsets/0");
  (void)CommitLogCodec::parse(text, "/chk/commits/0");
  (void)parseStreamMetadata(text, "/chk/metadata");
  (void)parseFileSourceOffset(text, "/chk/offsets/0");
  (void)FileSourceLog::parse(text, "/chk/sources/0/0");
  (void)FileSinkLog::parse(text, "/out/_spark_metadata/0");
  (void)parseOperatorMetadata(text, "/chk/state/0/_metadata/metadata");
  return 0;
}
