// The byte layout of transformWithState's state in a state store (docs/processors.md "State
// layout"), written and read here only: by the operator (engine/src/tws), by the harness's view of
// a committed checkpoint (committed_state.h) and by `streamsim state`. Which kind a
// state variable is (value, list, map) is never guessed from the bytes: it is the kind recorded in
// the checkpoint's state/<op>/_stateSchema (state_schema.h). Plain functions; thread-safe.
//
// Per (operator, partition) store, column families:
//   <name>            a state variable. Key: the grouping key's order-preserving encoding
//                     (row_encoding.h); a MapState entry's key: grouping key + encoded user key.
//                     Value and map entry: flag byte (0 = no TTL, 1 = TTL), [8-byte expiry],
//                     codec bytes. List: elements one after another, each flag, [expiry], 4-byte
//                     big-endian length, codec bytes.
//   $ttl_<name>       TTL index: 8-byte expiry + the primary key, empty value.
//   $timers_key       grouping key + 8-byte time; $timers_ts: 8-byte time + grouping key.
// Times are 8 bytes big-endian with the sign bit flipped, so bytewise order is numeric order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/state/state_schema.h"
#include "streamsim/status.h"
#include "streamsim/time.h"
#include "streamsim/value.h"

namespace streamsim::state_layout {

inline constexpr std::string_view kTimersByKeyCf = "$timers_key";
inline constexpr std::string_view kTimersByTimeCf = "$timers_ts";
inline constexpr std::string_view kTtlIndexPrefix = "$ttl_";
std::string ttlIndexCf(std::string_view variable);

void appendOrderedTime(TimeMs t, std::string& out);
TimeMs readOrderedTime(std::string_view in);  // REQUIRES: in.size() >= 8
std::string orderedTime(TimeMs t);

// A value or map entry.
struct Entry {
  std::optional<TimeMs> expiresAt;
  std::string_view payload;  // the codec bytes (a view into the stored bytes)
};
std::string encodeEntry(std::optional<TimeMs> expiresAt, std::string_view payload);
// Appends an entry's header (the flag byte and the expiry); the payload follows it.
void appendEntryHeader(const std::optional<TimeMs>& expiresAt, std::string& out);
// Corruption naming what is wrong ("missing TTL flag", "bad TTL header").
Result<Entry> readEntry(std::string_view stored);

struct ListElement {
  std::optional<TimeMs> expiresAt;
  std::string payload;
};
std::string encodeList(const std::vector<ListElement>& elements);
Result<std::vector<ListElement>> readList(std::string_view stored);

enum class VariableKind { kValue, kList, kMap };
// "value" | "list" | "map" (the _stateSchema kind field); nullopt for anything else.
std::optional<VariableKind> parseVariableKind(std::string_view kind);
std::string_view variableKindName(VariableKind kind);

// What a store row of a transformWithState operator holds, decoded by its column family.
struct DecodedRow {
  enum class Family { kVariable, kTtlIndex, kTimersByKey, kTimersByTime };
  Family family = Family::kVariable;
  std::string variable;               // kVariable and kTtlIndex: the state variable's name
  VariableKind kind = VariableKind::kValue;  // kVariable
  std::vector<Value> groupingKey;
  std::vector<Value> userKey;         // a MapState entry's user key
  std::optional<TimeMs> time;         // a timer's time; a TTL index entry's expiry
  // A value or map entry: one; a list: one per element. Each with its expiry (TTL).
  struct Item {
    std::optional<TimeMs> expiresAt;
    std::vector<Value> values;  // the codec's values (a Row codec: one per column)
  };
  std::vector<Item> items;
};

// The layout of one operator's state, from its _stateSchema record: the variables' kinds and the
// number of grouping columns (to split a map entry's key).
struct OperatorLayout {
  std::vector<StateVariableSchema> variables;
  size_t groupingColumns = 0;
  const StateVariableSchema* find(std::string_view name) const;
};
Result<OperatorLayout> readOperatorLayout(const Env& env, const std::string& checkpointRoot, int operatorId);

// Decodes one row of column family `cf`. NotFound when `cf` is not transformWithState's (another
// operator's state, or a variable the schema does not record); Corruption naming the family for
// bytes that do not follow the layout.
Result<DecodedRow> decodeRow(const OperatorLayout& layout, std::string_view cf, std::string_view key,
                             std::string_view value);

// Ordered values one after another until `in` ends (a codec's payload, an encoded key).
Result<std::vector<Value>> decodeValues(std::string_view in);

}  // namespace streamsim::state_layout
