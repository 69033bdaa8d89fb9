// Order-preserving binary encoding of Values and Rows, used for state-store keys so that
// bytewise key order equals value order (ascending key order inside a partition, DESIGN.md §2),
// and a compact value encoding for state values. Format documented in docs/state-format.md.
#pragma once

#include <string>
#include <string_view>

#include "streamsim/status.h"
#include "streamsim/value.h"

namespace streamsim {

// Appends an order-preserving encoding of `v` (a type tag, then the payload: big-endian with the
// sign bit flipped for integers, ordered bits for doubles, escaped 0x00 terminated strings).
void encodeOrderedValue(const Value& v, std::string& out);
// Reads one value written by encodeOrderedValue from `in`, advancing it.
Result<Value> decodeOrderedValue(std::string_view& in);
// The same into `out`, reusing the buffer of the string it holds (a row decoded per key into the
// previous key's row). On an error `out` is left unspecified.
Status decodeOrderedValueInto(std::string_view& in, Value& out);

// All values of `row` in order (its schema is not stored: the caller knows it).
std::string encodeOrderedRow(const Row& row);
Result<Row> decodeOrderedRow(std::string_view in, const SchemaPtr& schema);

}  // namespace streamsim
