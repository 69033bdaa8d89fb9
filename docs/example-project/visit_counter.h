// Counts rows per user; a user silent for an hour starts again from zero (TTL).
#pragma once

#include <cstdint>

#include "streamsim/tws/processor_registry.h"
#include "streamsim/tws/stateful_processor.h"

namespace visits {

class VisitCounter : public streamsim::StatefulProcessor {
 public:
  void init(streamsim::StatefulProcessorHandle& handle) override;
  void handleInputRows(const streamsim::Row& key, streamsim::RowRange rows,
                       const streamsim::TimerValues& timers, streamsim::Output& out) override;

 private:
  streamsim::ValueState<int64_t> count_;
};

// The project's processors, added to the set its runner hands its runs
// (streamsim_add_runner(... REGISTER visits::registerProcessors) in CMakeLists.txt).
void registerProcessors(streamsim::ProcessorSet& set);

}  // namespace visits
