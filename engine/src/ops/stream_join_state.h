// One side's state of a stream–stream join in one partition (ops/stream_stream_join.h), as Spark
// 4.1's SymmetricHashJoinStateManager with state format 2
// (sql/core/.../operators/stateful/join/SymmetricHashJoinStateManager.scala):
// - <side>-keyToNumValues: join key -> how many rows the key holds (a long);
// - <side>-keyWithIndexToValue: (join key, index 0..n-1) -> the row and its `matched` flag.
// Each is a column family of the partition's store named as Spark names the store. Keys are the
// ordered encoding of the key values (state/row_encoding.h), then for the second the index as a
// long; values: the count as a long, the row's values then `matched` (docs/state-format.md).
// Used by one partition task; not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/state/state_store.h"
#include "streamsim/status.h"
#include "streamsim/value.h"

namespace streamsim::ops {

class JoinSideState {
 public:
  // `side` is "left" or "right"; `rows` the schema of the side's rows (to decode them).
  JoinSideState(StateStore& store, std::string_view side, SchemaPtr rows);

  struct Entry {
    int64_t index = 0;
    Row row;
    bool matched = false;
  };
  // The rows `key` (an encoded key) holds, in index order.
  Result<std::vector<Entry>> get(std::string_view key);
  // Spark's append: the row goes at index numValues, the count grows by one.
  Status append(std::string_view key, const Row& row, bool matched);
  // Rewrites the row at `index` with matched = true (getJoinedRows marking a match).
  void markMatched(std::string_view key, const Entry& entry);

  struct Removed {
    std::string key;
    Row row;
    bool matched = false;
  };
  // Spark's removeByKeyCondition: every row of each key (ascending) for which `evict(key)` holds.
  Result<std::vector<Removed>> removeByKey(const std::function<bool(std::string_view key)>& evict);
  // Spark's removeByValueCondition: each row for which `evict(row)` holds; the key's last row
  // moves into the freed index (so indexes stay 0..n-1), as Spark does.
  Result<std::vector<Removed>> removeByValue(const std::function<bool(const Row& row)>& evict);

  // How many rows the side holds (Spark's join metrics count buffered rows: the entries of
  // keyWithIndexToValue).
  int64_t countRows();

  const std::string& numValuesFamily() const { return num_values_cf_; }
  const std::string& valuesFamily() const { return values_cf_; }

 private:
  Result<int64_t> numValues(std::string_view key);
  std::string indexKey(std::string_view key, int64_t index) const;
  Result<Entry> entryAt(std::string_view key, int64_t index);
  void putEntry(std::string_view key, int64_t index, const Row& row, bool matched);
  // Every key of keyToNumValues with its count, ascending.
  Result<std::vector<std::pair<std::string, int64_t>>> allKeys();

  StateStore& store_;
  std::string num_values_cf_;
  std::string values_cf_;
  SchemaPtr rows_;
};

}  // namespace streamsim::ops
