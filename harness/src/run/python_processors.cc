#include "streamsim/harness/python_processors.h"
#include "streamsim/harness/run/registries.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "streamsim/sim/random.h"

namespace streamsim::harness {
Result<PythonReference> loadPythonReference(const RunRegistries* registries, const PythonReferenceSpec& spec) {
  PythonReferenceLoader loader = registries != nullptr ? registries->pythonReferences : nullptr;
  if (loader == nullptr)
    return Status::FailedPrecondition("the reference '" + spec.file + ":" + spec.function +
                                      "' is a Python function, but this runner was built without Python support "
                                      "(streamsim_add_runner(... MAIN streamsim_python_runner_main LIBRARIES streamsim_python) hands its runs the Python support)");
  return loader(spec);
}

const ProcessorSet& processorsOf(const RunRegistries* registries) {
  static const ProcessorSet kNone;
  return registries != nullptr && registries->processors != nullptr ? *registries->processors : kNone;
}

const ReferenceSet& referencesOf(const RunRegistries* registries) {
  static const ReferenceSet kBuiltIn;
  return registries != nullptr ? registries->references : kBuiltIn;
}

const ForeachWriterSet& foreachWritersOf(const RunRegistries* registries) {
  static const ForeachWriterSet kNone;
  return registries != nullptr ? registries->foreachWriters : kNone;
}

std::string pythonCliPath(const RunRegistries* registries) {
  return registries != nullptr ? registries->pythonCli : std::string();
}
uint32_t pythonInterpreterHashSeed(const RunRegistries* registries) {
  return registries != nullptr && registries->pythonHashSeed != nullptr ? registries->pythonHashSeed() : 0;
}

int64_t arrowMaxRecordsPerBatch(const std::map<std::string, std::string>& conf) {
  auto it = conf.find(kArrowMaxRecordsPerBatchConf);
  if (it == conf.end()) return kArrowMaxRecordsPerBatchDefault;
  char* end = nullptr;
  errno = 0;
  long long n = std::strtoll(it->second.c_str(), &end, 10);
  if (end == it->second.c_str() || *end != '\0' || errno != 0) return kArrowMaxRecordsPerBatchDefault;
  return n <= 0 || n > kArrowUnlimitedRecords ? kArrowUnlimitedRecords : static_cast<int64_t>(n);
}

int64_t pandasChunkRowsOf(uint64_t seed, int64_t max) {
  if (seed == 0) return max;
  sim::Random r = sim::Random(seed).split("pandas_chunks");
  if (r.index(4) == 0) return max;
  return std::min<int64_t>(max, r.uniformInt(1, 3));
}

uint32_t pythonHashSeedOf(uint64_t seed) {
  const uint64_t which = sim::Random(seed).split("hash_seed").next() % kPythonHashSeeds;
  // PYTHONHASHSEED takes [0, 4294967295]; 0 is the CLI's own.
  return static_cast<uint32_t>(1 + sim::Random(which).split("hash_seed_value").next() % 4294967295ULL);
}

Result<ProcessorFactory> loadPythonProcessor(const RunRegistries* registries, const PythonProcessorSpec& spec) {
  PythonProcessorLoader loader = registries != nullptr ? registries->pythonProcessors : nullptr;
  if (loader == nullptr)
    return Status::FailedPrecondition(
        "processor '" + spec.file + "' is a Python processor, but this runner was built without "
        "Python support (streamsim_add_runner(... MAIN streamsim_python_runner_main LIBRARIES streamsim_python) hands its runs the Python support)");
  return loader(spec);
}

}  // namespace streamsim::harness
