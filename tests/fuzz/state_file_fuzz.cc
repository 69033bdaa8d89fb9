// Fuzzes the state file reader (engine/src/state/state_files.cc): a changelog and a snapshot
// read from the same bytes either parse (and the records visited lie inside the input) or are
// Corruption; no abort, no allocation past the input's size.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "streamsim/state/state_files.h"

using namespace streamsim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto inside = [&](std::string_view part) {
    return part.empty() || (part.data() >= bytes.data() &&
                            part.data() + part.size() <= bytes.data() + bytes.size());
  };
  // The version the header names (bytes 9..16, big-endian), so inputs get past that check.
  int64_t version = 0;
  for (size_t i = 9; i < 17 && i < size; ++i) version = (version << 8) | data[i];
  for (StateFileKind kind : {StateFileKind::kChangelog, StateFileKind::kSnapshot}) {
    Status st = parseStateFile(bytes, "/chk/state/0/0/1.delta", kind, version,
                               [&](const StateRecordView& r) {
                                 if (!inside(r.cf) || !inside(r.key) || !inside(r.value))
                                   std::abort();
                               });
    if (!st.ok() && st.code() != Status::Code::kCorruption) std::abort();
  }
  return 0;
}
