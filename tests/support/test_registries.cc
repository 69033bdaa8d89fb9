// testRegistries (test_registries.h).
#include "test_registries.h"

#include "streamsim/harness/oracles/bug_class_processors.h"
#include "streamsim/processors/examples.h"

namespace streamsim::test {

// A test file with processors of its own defines its addTestProcessors; this one is used otherwise.
__attribute__((weak)) void addTestProcessors(ProcessorSet&) {}

std::shared_ptr<const ProcessorSet> testProcessors() {
  auto set = std::make_shared<ProcessorSet>();
  registerExampleProcessors(*set);
  harness::registerBugClassProcessors(*set);
  addTestProcessors(*set);
  return set;
}

std::shared_ptr<const harness::RunRegistries> testRegistries() {
  auto r = std::make_shared<harness::RunRegistries>();
  r->processors = testProcessors();
  return r;
}

harness::LoaderOptions testLoader() {
  harness::LoaderOptions lo;
  lo.registries = testRegistries();
  return lo;
}

}  // namespace streamsim::test
