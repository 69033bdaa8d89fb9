// testRegistries (test_registries.h).
#include "test_registries.h"

#include "streamsim/processors/bug_classes.h"
#include "streamsim/processors/examples.h"

namespace streamsim::test {

// A test file with processors of its own defines its addTestProcessors; this one is used otherwise.
__attribute__((weak)) void addTestProcessors(ProcessorSet&) {}
__attribute__((weak)) void addTestRegistries(harness::RunRegistries&) {}

std::shared_ptr<const ProcessorSet> testProcessors() {
  auto set = std::make_shared<ProcessorSet>();
  registerExampleProcessors(*set);
  registerBugClassProcessors(*set);
  addTestProcessors(*set);
  return set;
}

std::shared_ptr<const harness::RunRegistries> testRegistries() {
  auto r = std::make_shared<harness::RunRegistries>();
  r->processors = testProcessors();
  addTestRegistries(*r);
  return r;
}

harness::LoaderOptions testLoader() {
  harness::LoaderOptions lo;
  lo.registries = testRegistries();
  return lo;
}

harness::WorkloadConfig testWorkload(harness::WorkloadKind kind, std::string stateStore) {
  return harness::standardWorkload(kind, std::move(stateStore), testRegistries());
}

}  // namespace streamsim::test
