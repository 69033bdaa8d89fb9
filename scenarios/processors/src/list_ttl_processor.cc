// Built-in processor "list_ttl" (docs/processors.md): TTL per element of a ListState, for the
// scenario library (scenarios/ttl/). Each input row appends its `item` column (as a string) to
// ListState<string> "items" with a 1-minute TTL; every element expires 1 minute after the batch
// that appended it (SEMANTICS.md §6 TTL: appendValue stamps only the new element). Emits
// {key..., items: <number of unexpired elements>} per key with input. Needs TimeMode
// ProcessingTime. One instance per partition task; not thread-safe.
#include "streamsim/processors/builtin.h"
#include "streamsim/tws/processor_registry.h"
#include "streamsim/tws/stateful_processor.h"

namespace streamsim {
namespace processors {
namespace {

constexpr DurationMs kListTtlMs = 60'000;

class ListTtlProcessor : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override {
    items_ = handle.getListState<std::string>("items", TTLConfig{kListTtlMs});
  }

  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    for (const Row& row : rows) {
      Value item = row.has("item") ? row.get("item") : Value();
      items_.appendValue(item.isNull() ? std::string() : item.toString());
    }
    out.emit(withKey(shapes_, key, {{"items", static_cast<int64_t>(items_.get().size())}}));
  }

 private:
  ListState<std::string> items_;
  RowShapes shapes_;
};

}  // namespace
}  // namespace processors

namespace detail {
// This file's processors, added to a set by registerExampleProcessors (processors/examples.h).
void registerListTtlProcessor(ProcessorSet& set) {
  set.add("list_ttl", processorFactoryOf<processors::ListTtlProcessor>());
}
}  // namespace detail

}  // namespace streamsim
