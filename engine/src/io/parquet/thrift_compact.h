// The Thrift compact protocol, the encoding of Parquet's footer and page headers
// (apache/thrift doc/specs/thrift-compact-protocol.md; parquet-format README "File format":
// "the file metadata is ... serialized with the Thrift TCompactProtocol").
//
// Decoding is generic: a struct becomes a ThriftStruct (field id -> ThriftValue) and the
// Parquet-specific code (parquet_metadata.cc) picks the fields it knows, so unknown fields a
// newer writer adds are skipped as the protocol intends. Every read is bounds-checked; errors
// name the file, the byte offset and what was expected. Nesting deeper than kMaxThriftDepth
// and lists longer than the bytes left are refused (a hostile footer cannot exhaust memory).
// Thread-safety: plain values.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "streamsim/status.h"

namespace streamsim::parquet {

inline constexpr int kMaxThriftDepth = 64;

// Compact-protocol type ids (thrift-compact-protocol.md "Struct encoding").
enum class ThriftType : uint8_t {
  kStop = 0, kTrue = 1, kFalse = 2, kByte = 3, kI16 = 4, kI32 = 5, kI64 = 6, kDouble = 7,
  kBinary = 8, kList = 9, kSet = 10, kMap = 11, kStruct = 12,
};

struct ThriftValue;
using ThriftStruct = std::map<int16_t, ThriftValue>;
using ThriftList = std::vector<ThriftValue>;

struct ThriftValue {
  // bool, integers (all widths as int64), double, binary/string, list/set, struct. Maps are
  // skipped (Parquet's footer has none).
  std::variant<bool, int64_t, double, std::string, std::shared_ptr<ThriftList>,
               std::shared_ptr<ThriftStruct>>
      v;
  int64_t offset = 0;  // where the value starts in the file (for error messages)
};

// Reads one struct starting at `pos` in `bytes` (`base` is the offset of bytes[0] in the file);
// on success `pos` is just past the struct's stop byte.
Result<ThriftStruct> readThriftStruct(std::string_view bytes, size_t& pos, int64_t base,
                                      std::string_view fileName);

// Writes structs field by field: fields must come in increasing id order within a struct
// (the delta encoding of field ids needs the previous id).
class ThriftWriter {
 public:
  void beginStruct() { lastIds_.push_back(0); }
  void endStruct() {
    out_.push_back(0);  // stop
    lastIds_.pop_back();
  }
  void fieldBool(int16_t id, bool b) { fieldHeader(id, b ? ThriftType::kTrue : ThriftType::kFalse); }
  void fieldI32(int16_t id, int32_t v) {
    fieldHeader(id, ThriftType::kI32);
    varint(zigzag(v));
  }
  void fieldI64(int16_t id, int64_t v) {
    fieldHeader(id, ThriftType::kI64);
    varint(zigzag(v));
  }
  void fieldBinary(int16_t id, std::string_view s) {
    fieldHeader(id, ThriftType::kBinary);
    binary(s);
  }
  // A struct field: call beginStruct() ... endStruct() after it.
  void fieldStruct(int16_t id) { fieldHeader(id, ThriftType::kStruct); }
  // A list field of `size` elements of `elem`; then write each element (i32Element,
  // binaryElement, or beginStruct()/endStruct()).
  void fieldList(int16_t id, ThriftType elem, size_t size);
  void i32Element(int32_t v) { varint(zigzag(v)); }
  void binaryElement(std::string_view s) { binary(s); }

  const std::string& bytes() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  static uint64_t zigzag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
  void varint(uint64_t v);
  void binary(std::string_view s) {
    varint(s.size());
    out_.append(s);
  }
  void fieldHeader(int16_t id, ThriftType t);

  std::string out_;
  std::vector<int16_t> lastIds_;
};

}  // namespace streamsim::parquet
