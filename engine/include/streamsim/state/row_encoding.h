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
// The same, typed by `f` (a struct gets f's field names; a value of another type is Corruption).
Result<Value> decodeOrderedValue(std::string_view& in, const Field& f);
// The same into `out`, reusing the buffer of the string it holds (a row decoded per key into the
// previous key's row). On an error `out` is left unspecified.
Status decodeOrderedValueInto(std::string_view& in, Value& out);

// The pieces of an array's encoding, for codecs writing their elements themselves
// (tws/state_codec.h): begin, then before each element orderedArrayElement, then end.
void beginOrderedArray(std::string& out);
void orderedArrayElement(std::string& out);
void endOrderedArray(std::string& out);
// Reading them back: readOrderedArrayBegin, then while readOrderedArrayNext gives true, one
// element.
Status readOrderedArrayBegin(std::string_view& in);
Result<bool> readOrderedArrayNext(std::string_view& in);
// Consumes a null's encoding if one comes next (true), else leaves `in` as it is.
bool readOrderedNull(std::string_view& in);

// A struct value from its fields' encodings written one after another (each one ordered value:
// how a Row or tuple codec writes its columns); Corruption when `fields` is not such a sequence.
Status encodeOrderedStructOf(std::string_view fields, std::string& out);
// Reads one struct value and gives back its fields' encodings one after another (the input of
// encodeOrderedStructOf), advancing `in`.
Result<std::string> readOrderedStructFields(std::string_view& in);

// All values of `row` in order (its schema is not stored: the caller knows it).
std::string encodeOrderedRow(const Row& row);
Result<Row> decodeOrderedRow(std::string_view in, const SchemaPtr& schema);

}  // namespace streamsim
