#include "visit_counter.h"

namespace visits {

void VisitCounter::init(streamsim::StatefulProcessorHandle& handle) {
  count_ = handle.getValueState<int64_t>("count", streamsim::TTLConfig{60 * 60 * 1000});
}

void VisitCounter::handleInputRows(const streamsim::Row& key, streamsim::RowRange rows,
                                   const streamsim::TimerValues&, streamsim::Output& out) {
  int64_t total = (count_.exists() ? count_.get() : 0) + static_cast<int64_t>(rows.size());
  count_.update(total);
  out.emit({{"user", key[0]}, {"visits", total}});
}

void registerProcessors(streamsim::ProcessorSet& set) {
  set.add("visit_counter", streamsim::processorFactoryOf<VisitCounter>());
}

}  // namespace visits
