// One side's join state in one partition (ops/stream_join_state.h), after Spark's
// SymmetricHashJoinStateManager (state format 2).
#include "ops/stream_join_state.h"

#include <fmt/format.h>

#include "streamsim/state/row_encoding.h"

namespace streamsim::ops {

namespace {

std::string encodeLong(int64_t n) {
  std::string out;
  encodeOrderedValue(Value(n), out);
  return out;
}

Result<int64_t> decodeLong(std::string_view in, std::string_view what) {
  STREAMSIM_ASSIGN_OR_RETURN(Value v, decodeOrderedValue(in));
  if (v.type() != Type::kLong || !in.empty())
    return Status::Corruption(fmt::format("join state: {} is not a long", what));
  return v.asLong();
}

}  // namespace

JoinSideState::JoinSideState(StateStore& store, std::string_view side, SchemaPtr rows)
    : store_(store),
      num_values_cf_(std::string(side) + "-keyToNumValues"),
      values_cf_(std::string(side) + "-keyWithIndexToValue"),
      rows_(std::move(rows)) {}

std::string JoinSideState::indexKey(std::string_view key, int64_t index) const {
  std::string out(key);
  encodeOrderedValue(Value(index), out);
  return out;
}

Result<int64_t> JoinSideState::numValues(std::string_view key) {
  std::optional<std::string> v = store_.get(num_values_cf_, key);
  if (!v) return int64_t{0};
  return decodeLong(*v, num_values_cf_ + " value");
}

Result<JoinSideState::Entry> JoinSideState::entryAt(std::string_view key, int64_t index) {
  std::optional<std::string> v = store_.get(values_cf_, indexKey(key, index));
  if (!v)
    return Status::Corruption(fmt::format("join state: {} has no row at index {} of a key that counts it",
                                          values_cf_, index));
  std::string_view in = *v;
  Entry e;
  e.index = index;
  std::vector<Value> values;
  values.reserve(rows_->size());
  for (size_t i = 0; i < rows_->size(); ++i) {
    STREAMSIM_ASSIGN_OR_RETURN(Value value, decodeOrderedValue(in));
    values.push_back(std::move(value));
  }
  STREAMSIM_ASSIGN_OR_RETURN(Value matched, decodeOrderedValue(in));
  if (matched.type() != Type::kBoolean || !in.empty())
    return Status::Corruption(fmt::format("join state: a {} value does not end with the matched flag", values_cf_));
  e.row = Row(rows_, std::move(values));
  e.matched = matched.asBool();
  return e;
}

void JoinSideState::putEntry(std::string_view key, int64_t index, const Row& row, bool matched) {
  std::string value = encodeOrderedRow(row);
  encodeOrderedValue(Value(matched), value);
  store_.put(values_cf_, indexKey(key, index), value);
}

Result<std::vector<JoinSideState::Entry>> JoinSideState::get(std::string_view key) {
  STREAMSIM_ASSIGN_OR_RETURN(int64_t n, numValues(key));
  std::vector<Entry> out;
  out.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    STREAMSIM_ASSIGN_OR_RETURN(Entry e, entryAt(key, i));
    out.push_back(std::move(e));
  }
  return out;
}

Status JoinSideState::append(std::string_view key, const Row& row, bool matched) {
  STREAMSIM_ASSIGN_OR_RETURN(int64_t n, numValues(key));
  putEntry(key, n, row, matched);
  store_.put(num_values_cf_, key, encodeLong(n + 1));
  return Status::OK();
}

void JoinSideState::markMatched(std::string_view key, const Entry& entry) {
  putEntry(key, entry.index, entry.row, true);
}

Result<std::vector<std::pair<std::string, int64_t>>> JoinSideState::allKeys() {
  std::vector<std::pair<std::string, std::string>> raw;
  store_.scan(num_values_cf_, "", "", [&](std::string_view k, std::string_view v) {
    raw.emplace_back(std::string(k), std::string(v));
    return true;
  });
  std::vector<std::pair<std::string, int64_t>> out;
  out.reserve(raw.size());
  for (auto& [k, v] : raw) {
    STREAMSIM_ASSIGN_OR_RETURN(int64_t n, decodeLong(v, num_values_cf_ + " value"));
    out.emplace_back(std::move(k), n);
  }
  return out;
}

int64_t JoinSideState::countRows() {
  int64_t n = 0;
  store_.scan(values_cf_, "", "", [&](std::string_view, std::string_view) {
    ++n;
    return true;
  });
  return n;
}

Result<std::vector<JoinSideState::Removed>> JoinSideState::removeByKey(
    const std::function<bool(std::string_view key)>& evict) {
  STREAMSIM_ASSIGN_OR_RETURN(auto keys, allKeys());
  std::vector<Removed> out;
  for (const auto& [key, n] : keys) {
    if (!evict(key)) continue;
    store_.remove(num_values_cf_, key);
    for (int64_t i = 0; i < n; ++i) {
      STREAMSIM_ASSIGN_OR_RETURN(Entry e, entryAt(key, i));
      store_.remove(values_cf_, indexKey(key, i));
      out.push_back(Removed{key, std::move(e.row), e.matched});
    }
  }
  return out;
}

Result<std::vector<JoinSideState::Removed>> JoinSideState::removeByValue(
    const std::function<bool(const Row& row)>& evict) {
  STREAMSIM_ASSIGN_OR_RETURN(auto keys, allKeys());
  std::vector<Removed> out;
  for (const auto& [key, count] : keys) {
    int64_t n = count;
    bool removed = false;
    int64_t index = 0;
    while (index < n) {
      STREAMSIM_ASSIGN_OR_RETURN(Entry e, entryAt(key, index));
      if (!evict(e.row)) {
        ++index;
        continue;
      }
      // Spark: the key's last row takes the freed index, then the last index goes; the moved
      // row is looked at next (the index does not advance).
      if (index != n - 1) {
        STREAMSIM_ASSIGN_OR_RETURN(Entry last, entryAt(key, n - 1));
        putEntry(key, index, last.row, last.matched);
      }
      store_.remove(values_cf_, indexKey(key, n - 1));
      --n;
      removed = true;
      out.push_back(Removed{key, std::move(e.row), e.matched});
    }
    if (!removed) continue;
    if (n >= 1) {
      store_.put(num_values_cf_, key, encodeLong(n));
    } else {
      store_.remove(num_values_cf_, key);
    }
  }
  return out;
}

}  // namespace streamsim::ops
