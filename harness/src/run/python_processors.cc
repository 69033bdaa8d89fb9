#include "streamsim/harness/python_processors.h"

#include <atomic>

namespace streamsim::harness {
namespace {
std::atomic<PythonProcessorLoader> g_loader{nullptr};
}  // namespace

void setPythonProcessorLoader(PythonProcessorLoader loader) { g_loader.store(loader); }

Result<ProcessorFactory> loadPythonProcessor(const PythonProcessorSpec& spec) {
  PythonProcessorLoader loader = g_loader.load();
  if (loader == nullptr)
    return Status::FailedPrecondition(
        "processor '" + spec.file + "' is a Python processor, but this runner was built without "
        "Python support (link streamsim_python into it)");
  return loader(spec);
}

}  // namespace streamsim::harness
