// Built-in processor "nested_history" (docs/processors.md): nested values as state, for the
// scenario library (scenarios/types/). Parameters: `value`, the DDL of the input columns kept
// (default "value string"; struct, array and map columns welcome), and `keep`, how many of the
// key's last rows are kept (default 3). State per key:
//   ValueState<Row> "latest"               the last row's `value` columns;
//   ListState<Row> "history"                the last `keep` of them;
//   ValueState<std::vector<long>> "batches" the rows of each of the key's last `keep` batches;
//   ValueState<std::optional<long>> "count"  the rows seen (an optional: absent before the first).
// Emits {key..., count long, latest struct<...>, history array<struct<...>>} per key with input.
// One instance per partition task; not thread-safe.
#include <charconv>

#include "streamsim/processors/builtin.h"
#include "streamsim/tws/processor_registry.h"
#include "streamsim/tws/stateful_processor.h"

namespace streamsim {
namespace processors {
namespace {

class NestedHistoryProcessor : public StatefulProcessor {
 public:
  NestedHistoryProcessor(SchemaPtr value, size_t keep) : value_(std::move(value)), keep_(keep) {}

  void init(StatefulProcessorHandle& handle) override {
    latest_ = handle.getValueState<Row>("latest", StateCodec<Row>(value_));
    history_ = handle.getListState<Row>("history", StateCodec<Row>(value_));
    batches_ = handle.getValueState<std::vector<int64_t>>("batches");
    count_ = handle.getValueState<std::optional<int64_t>>("count");
  }

  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    int64_t count = count_.get().value_or(0);
    std::vector<Row> history = history_.get();
    Row latest;
    for (const Row& row : rows) {
      latest = project(row, columnNames());
      history.push_back(latest);
      ++count;
    }
    if (history.size() > keep_) history.erase(history.begin(), history.end() - static_cast<ptrdiff_t>(keep_));
    std::vector<int64_t> batches = batches_.get();
    batches.push_back(static_cast<int64_t>(rows.size()));
    if (batches.size() > keep_) batches.erase(batches.begin());
    latest_.update(latest);
    history_.put(history);
    batches_.update(batches);
    count_.update(count);
    // Read back: the values as stored (cast to the declared types).
    std::vector<Value> kept;
    for (const Row& r : history_.get()) kept.push_back(Value::structOf(r));
    out.emit(withKey(shapes_, key, {{"count", count},
                           {"latest", Value::structOf(latest_.get())},
                           {"history", Value::arrayOf(std::move(kept))}}));
  }

 private:
  const std::vector<std::string>& columnNames() {
    if (names_.empty())
      for (const Field& f : value_->fields()) names_.push_back(f.name);
    return names_;
  }

  SchemaPtr value_;
  size_t keep_;
  std::vector<std::string> names_;
  ValueState<Row> latest_;
  ListState<Row> history_;
  ValueState<std::vector<int64_t>> batches_;
  ValueState<std::optional<int64_t>> count_;
  RowShapes shapes_;
};

ParamProcessor nestedHistoryProcessor() {
  return {
    "nested_history", {"value", "keep"}, [](const ProcessorParams& params) -> Result<ProcessorFactory> {
      std::string ddl = "value string";
      if (auto it = params.find("value"); it != params.end()) ddl = it->second;
      auto schema = parseSchema(ddl);
      if (!schema.ok()) return schema.status().withContext("nested_history parameter 'value'");
      if ((*schema)->size() == 0)
        return Status::InvalidArgument("nested_history parameter 'value' names no column");
      size_t keep = 3;
      if (auto it = params.find("keep"); it != params.end()) {
        const std::string& s = it->second;
        auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), keep);
        if (ec != std::errc() || p != s.data() + s.size() || keep == 0 || keep > 1000)
          return Status::InvalidArgument(fmt::format(
              "nested_history parameter 'keep' must be a whole number from 1 to 1000; got '{}'", s));
      }
      SchemaPtr value = *schema;
      return ProcessorFactory([value, keep] {
        return asStatefulProcessor(std::make_unique<NestedHistoryProcessor>(value, keep));
      });
    }};
}

}  // namespace
}  // namespace processors

namespace detail {
// This file's processors, added to a set by registerExampleProcessors (processors/examples.h).
void registerNestedProcessors(ProcessorSet& set) {
  processors::nestedHistoryProcessor().addTo(set);
}
}  // namespace detail

}  // namespace streamsim
