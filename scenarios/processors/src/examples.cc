// registerExampleProcessors (processors/examples.h): each file of this folder adds its processors.
#include "streamsim/processors/examples.h"

namespace streamsim {
namespace detail {
void registerAsyncProcessors(ProcessorSet& set);
void registerBuiltinProcessors(ProcessorSet& set);
void registerListTtlProcessor(ProcessorSet& set);
void registerNestedProcessors(ProcessorSet& set);
void registerRealTimeProcessors(ProcessorSet& set);  // with the Spark real-time suite's
void registerTimerAtProcessor(ProcessorSet& set);
}  // namespace detail

void registerExampleProcessors(ProcessorSet& set) {
  detail::registerAsyncProcessors(set);
  detail::registerBuiltinProcessors(set);
  detail::registerListTtlProcessor(set);
  detail::registerTimerAtProcessor(set);
  detail::registerRealTimeProcessors(set);
  detail::registerNestedProcessors(set);
}

}  // namespace streamsim
