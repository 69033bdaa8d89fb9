// The `reference` oracle (issue 13 §1): the user names a plain reference function — the whole
// input (the rows each source delivered, in order) to the final view the query should leave —
// and the run's final view must equal it under every fault plan. References are named in a
// ReferenceSet that the runner hands its runs (RunRegistries::references: the built-in ones and
// the runner's own, added by its REGISTER_RUN functions) for scenarios (`oracles: [{reference:
// NAME}]`), or given as a function in C++ (OracleArgs "function"). A ReferenceSet is a value whose
// const use is safe from several threads; a DeliveredRows belongs to one run (one thread).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/harness/oracles.h"
#include "streamsim/named_registry.h"
#include "streamsim/query.h"
#include "streamsim/status.h"
#include "streamsim/value.h"

namespace streamsim::harness {

// What a reference function reads.
struct ReferenceInput {
  // Per source (the query's order): the rows it delivered, batch by batch (a re-run batch once).
  std::vector<std::vector<Row>> sources;
  // Every source's rows, batch by batch (inside a batch in source order).
  std::vector<Row> rows;
  // The grouping columns of the query's last transformWithState (empty: none).
  std::vector<std::string> groupBy;
};

// The final view the query should leave: in update mode one row per output key (the last), in
// append mode every row. Compared as a multiset.
using ReferenceFunction = std::function<std::vector<Row>(const ReferenceInput&)>;

// `file.py:function` (a Python reference function, the python adapter loads it:
// loadPythonReference) -> {file, function}; nullopt for a registered name.
std::optional<std::pair<std::string, std::string>> splitPythonReference(std::string_view name);

// Reference functions by name (one registry mechanism: named_registry.h). A new set holds the
// built-in ones: "count" (rows per grouping key, {key columns..., count}) and "simple_counter"
// (seed 001's: {id, countAsString}, keyed by id).
class ReferenceSet {
 public:
  ReferenceSet();
  // `keyColumns`: the output columns that hold the key when they are not the grouping columns
  // (a processor that emits {id, ...} for grouping column `key`). A name added twice is refused on
  // lookup.
  void add(std::string_view name, ReferenceFunction function, std::vector<std::string> keyColumns = {});
  // NotFound: "unknown reference 'x'; registered: a, b".
  Result<ReferenceFunction> function(std::string_view name) const;
  // The columns that key the reference's view in update mode (empty: the grouping columns).
  std::vector<std::string> keyColumns(std::string_view name) const;
  std::vector<std::string> names() const;  // sorted

 private:
  struct Entry {
    ReferenceFunction function;
    std::vector<std::string> keyColumns;
  };
  NamedRegistry<Entry> entries_;
};

// The rows the sources of one run delivered, recorded by recordingSource: batch -> source ->
// rows (a re-run of the batch replaces them; Spark re-reads the logged offsets, the same rows).
class DeliveredRows {
 public:
  void record(int64_t batch, int source, std::vector<Row> rows);
  ReferenceInput input(size_t sources, std::vector<std::string> groupBy) const;

 private:
  std::map<int64_t, std::map<int, std::vector<Row>>> batches_;
};

// `inner` with every batch it delivers recorded in `rows` as source `index`.
SourceFactory recordingSource(SourceFactory inner, int index, std::shared_ptr<DeliveredRows> rows);

// The latest row per key (rows in batch order): the reader's view of an update-mode output.
// Rows without every key column are kept as they are; no keys: the rows as they are.
std::vector<Row> latestPerKey(const std::vector<Row>& rows, const std::vector<std::string>& keys);

// The last row each transformWithState grouping key emitted, read from a trace recorded with
// QueryOptions::traceOutputRows (its `tws.output` events, in order): one row (operator, key,
// output) per operator and grouping key that emitted anything, the key and output as JSON text.
// Keyed by the key the processor was called for, not by an output column (a processor need not
// emit its key, or may emit a column of that name holding something else).
std::vector<Row> lastOutputPerGroupingKey(const std::vector<std::string>& trace);

// The reference oracle's two views: the reference function's and the run's.
struct ReferenceViews {
  std::string name;  // the reference's
  std::vector<Row> expected, actual;
};

// reference: the run's final view equals the reference function's as a multiset; the violation
// lists the missing and the unexpected rows (row_diff).
std::optional<Violation> checkReference(const ReferenceViews& views);

}  // namespace streamsim::harness
