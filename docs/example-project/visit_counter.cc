#include "visit_counter.h"

#include "streamsim/tws/processor_registry.h"

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

}  // namespace visits

// Nothing references this object: the runner links the library whole (streamsim_add_runner).
STREAMSIM_REGISTER_PROCESSOR("visit_counter", visits::VisitCounter);
