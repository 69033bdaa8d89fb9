// Fuzzes the scenario loader (harness/src/scenario/loader.cc): any bytes load or are rejected
// with errors that name the file; nothing aborts, hangs or reads out of bounds.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "streamsim/harness/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto load = streamsim::harness::parseScenario(text, "fuzz.yaml", {});
  if (load.ok() != load.errors.empty()) std::abort();  // a bad file has errors, a good one none
  for (const auto& e : load.errors)
    if (e.where.file != "fuzz.yaml" || e.message.empty()) std::abort();
  return 0;
}
