// Reads what a transformWithState query committed for one grouping key, straight from its
// checkpoint files (state layout: docs/processors.md "State layout"): the value of a state
// variable and the pending timers. Used by the scenario runner's `expect state` / `expect
// timers`. Plain functions over a FileSystem; no shared state.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "streamsim/env.h"
#include "streamsim/state/state_store.h"
#include "streamsim/status.h"
#include "streamsim/value.h"

namespace streamsim::harness {

// One state variable of one key as committed. Values are decoded from the codec bytes; a value
// written by a Row codec (several columns) is a string "{v1, v2}".
struct CommittedVariable {
  enum class Kind { kAbsent, kValue, kList, kMap };
  Kind kind = Kind::kAbsent;
  Value value;
  std::vector<Value> list;
  std::vector<std::pair<Value, Value>> map;  // ascending user key
  // The TTL expiry of the value / of each list element / map entry (nullopt: no TTL), as stored:
  // the read enforces no TTL (as Spark's state reader and its getWithoutEnforcingTTL).
  std::optional<TimeMs> valueExpiresAt;
  std::vector<std::optional<TimeMs>> listExpiresAt;
  std::vector<std::optional<TimeMs>> mapExpiresAt;
  // A copy without what expired at `now` (now >= expiresAt), as a handler at `now` sees it.
  CommittedVariable visibleAt(TimeMs now) const;
  std::string toString() const;               // "absent", "5", "[1, 2]", "{a: 1, b: 2}"
};

// The newest batch id in <root>/commits (nullopt: nothing committed yet).
Result<std::optional<int64_t>> lastCommittedBatch(FileSystem& fs, const std::string& root);

// The variable `variable` of `key` (a Row of the grouping columns, typed as the query's input)
// in the state committed by the last committed batch, searched in every stateful operator and
// partition of the checkpoint. NotFound when no operator declares `variable` (the message
// names the declared ones).
Result<CommittedVariable> readCommittedVariable(const Env& env, const std::string& root,
                                                StateStoreKind kind, const Row& key,
                                                const std::string& variable);

// The timers registered for `key` in the last committed state, ascending.
Result<std::vector<TimeMs>> readCommittedTimers(const Env& env, const std::string& root,
                                                StateStoreKind kind, const Row& key);

// Every entry of the last committed state of every stateful operator and partition, one line
// each ("op/partition cf key=value", bytes in hex), in (operator, partition, cf, key) order — a
// value to compare two runs' committed state with. The engine's own column families
// ('$'-prefixed: timers) only with `withInternal` (the interleaving oracle compares them; the
// mode_equivalence oracle does not: the two modes fire timers at different times).
// The state rows each grouping key holds in the last committed state of every transformWithState
// operator — a value 1, a list one per element, a map one per entry; the engine's own families
// (timers, TTL index) not counted — keyed "operator N key [v1, v2]" (the state_bound oracle per
// key). Operators of other kinds are left out.
Result<std::map<std::string, int64_t>> committedStateRowsPerKey(const Env& env, const std::string& root,
                                                                StateStoreKind kind);

Result<std::vector<std::string>> dumpCommittedState(const Env& env, const std::string& root,
                                                    StateStoreKind kind, bool withInternal);

}  // namespace streamsim::harness
