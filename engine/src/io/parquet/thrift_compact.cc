// The Thrift compact protocol (thrift_compact.h), written from
// apache/thrift doc/specs/thrift-compact-protocol.md.
#include "io/parquet/thrift_compact.h"

#include <cstring>

#include <fmt/format.h>

namespace streamsim::parquet {

namespace {

class Decoder {
 public:
  Decoder(std::string_view bytes, size_t pos, int64_t base, std::string_view fileName)
      : b_(bytes), pos_(pos), base_(base), file_(fileName) {}

  size_t pos() const { return pos_; }

  Status error(std::string_view expected) const {
    return Status::Corruption(fmt::format("{}: offset {}: expected {} (Thrift compact protocol)",
                                          file_, base_ + static_cast<int64_t>(pos_), expected));
  }

  Result<uint8_t> byte(std::string_view what) {
    if (pos_ >= b_.size()) return error(fmt::format("{}, found the end of the bytes", what));
    return static_cast<uint8_t>(b_[pos_++]);
  }

  // ULEB128 varint of at most 10 bytes.
  Result<uint64_t> varint(std::string_view what) {
    uint64_t v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      STREAMSIM_ASSIGN_OR_RETURN(uint8_t c, byte(what));
      if (shift == 63 && c > 1) return error(fmt::format("{} (a varint of at most 64 bits)", what));
      v |= static_cast<uint64_t>(c & 0x7f) << shift;
      if ((c & 0x80) == 0) return v;
    }
    return error(fmt::format("{} (a varint of at most 10 bytes)", what));
  }

  Result<int64_t> zigzag(std::string_view what) {
    STREAMSIM_ASSIGN_OR_RETURN(uint64_t u, varint(what));
    return static_cast<int64_t>(u >> 1) ^ -static_cast<int64_t>(u & 1);
  }

  Result<ThriftValue> value(ThriftType t, int depth, bool inList) {
    ThriftValue out;
    out.offset = base_ + static_cast<int64_t>(pos_);
    switch (t) {
      case ThriftType::kTrue:
      case ThriftType::kFalse:
        if (inList) {  // a list's bools are one byte each: 1 true, anything else false
          STREAMSIM_ASSIGN_OR_RETURN(uint8_t c, byte("a bool"));
          out.v = c == 1;
        } else {
          out.v = t == ThriftType::kTrue;
        }
        return out;
      case ThriftType::kByte: {
        STREAMSIM_ASSIGN_OR_RETURN(uint8_t c, byte("a byte"));
        out.v = int64_t{static_cast<int8_t>(c)};
        return out;
      }
      case ThriftType::kI16:
      case ThriftType::kI32:
      case ThriftType::kI64: {
        STREAMSIM_ASSIGN_OR_RETURN(int64_t v, zigzag("an integer"));
        out.v = v;
        return out;
      }
      case ThriftType::kDouble: {
        if (b_.size() - pos_ < 8) return error("an 8-byte double");
        uint64_t bits = 0;
        for (int i = 0; i < 8; ++i) bits |= static_cast<uint64_t>(static_cast<uint8_t>(b_[pos_ + i])) << (8 * i);
        pos_ += 8;
        double d;
        static_assert(sizeof d == sizeof bits);
        std::memcpy(&d, &bits, 8);
        out.v = d;
        return out;
      }
      case ThriftType::kBinary: {
        STREAMSIM_ASSIGN_OR_RETURN(uint64_t n, varint("a binary's length"));
        if (n > b_.size() - pos_)
          return error(fmt::format("{} bytes of a binary, found {} left", n, b_.size() - pos_));
        out.v = std::string(b_.substr(pos_, n));
        pos_ += n;
        return out;
      }
      case ThriftType::kList:
      case ThriftType::kSet: {
        if (depth >= kMaxThriftDepth) return error("nesting of at most 64 levels");
        STREAMSIM_ASSIGN_OR_RETURN(uint8_t h, byte("a list header"));
        uint64_t n = h >> 4;
        if (n == 15) {
          STREAMSIM_ASSIGN_OR_RETURN(n, varint("a list's size"));
        }
        auto elem = static_cast<ThriftType>(h & 0x0f);
        // Every element takes at least one byte (except a struct-less empty one: none exist).
        if (n > b_.size() - pos_)
          return error(fmt::format("a list of {} elements, found {} bytes left", n, b_.size() - pos_));
        auto list = std::make_shared<ThriftList>();
        list->reserve(n);
        for (uint64_t i = 0; i < n; ++i) {
          STREAMSIM_ASSIGN_OR_RETURN(ThriftValue e, value(elem, depth + 1, true));
          list->push_back(std::move(e));
        }
        out.v = std::move(list);
        return out;
      }
      case ThriftType::kStruct: {
        if (depth >= kMaxThriftDepth) return error("nesting of at most 64 levels");
        auto s = std::make_shared<ThriftStruct>();
        STREAMSIM_RETURN_IF_ERROR(structBody(*s, depth + 1));
        out.v = std::move(s);
        return out;
      }
      case ThriftType::kMap: {
        if (depth >= kMaxThriftDepth) return error("nesting of at most 64 levels");
        STREAMSIM_ASSIGN_OR_RETURN(uint64_t n, varint("a map's size"));
        if (n == 0) {
          out.v = std::make_shared<ThriftList>();
          return out;
        }
        if (n > b_.size() - pos_) return error(fmt::format("a map of {} entries", n));
        STREAMSIM_ASSIGN_OR_RETURN(uint8_t kv, byte("a map's key and value types"));
        auto list = std::make_shared<ThriftList>();
        for (uint64_t i = 0; i < n; ++i) {
          STREAMSIM_ASSIGN_OR_RETURN(ThriftValue k, value(static_cast<ThriftType>(kv >> 4), depth + 1, true));
          STREAMSIM_ASSIGN_OR_RETURN(ThriftValue v, value(static_cast<ThriftType>(kv & 0x0f), depth + 1, true));
          list->push_back(std::move(k));
          list->push_back(std::move(v));
        }
        out.v = std::move(list);
        return out;
      }
      case ThriftType::kStop: break;
    }
    return error(fmt::format("a Thrift compact type id (1-12), found {}", static_cast<int>(t)));
  }

  Status structBody(ThriftStruct& s, int depth) {
    int16_t last = 0;
    for (;;) {
      STREAMSIM_ASSIGN_OR_RETURN(uint8_t h, byte("a field header or a struct's stop byte"));
      if (h == 0) return Status::OK();
      auto t = static_cast<ThriftType>(h & 0x0f);
      int delta = h >> 4;
      int16_t id;
      if (delta != 0) {
        id = static_cast<int16_t>(last + delta);
      } else {
        STREAMSIM_ASSIGN_OR_RETURN(int64_t v, zigzag("a field id"));
        if (v < INT16_MIN || v > INT16_MAX) return error("a 16-bit field id");
        id = static_cast<int16_t>(v);
      }
      STREAMSIM_ASSIGN_OR_RETURN(ThriftValue v, value(t, depth, false));
      s[id] = std::move(v);
      last = id;
    }
  }

 private:
  std::string_view b_;
  size_t pos_;
  int64_t base_;
  std::string_view file_;
};

}  // namespace

Result<ThriftStruct> readThriftStruct(std::string_view bytes, size_t& pos, int64_t base,
                                      std::string_view fileName) {
  Decoder d(bytes, pos, base, fileName);
  ThriftStruct s;
  STREAMSIM_RETURN_IF_ERROR(d.structBody(s, 1));
  pos = d.pos();
  return s;
}

void ThriftWriter::varint(uint64_t v) {
  while (v >= 0x80) {
    out_.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out_.push_back(static_cast<char>(v));
}

void ThriftWriter::fieldHeader(int16_t id, ThriftType t) {
  int16_t& last = lastIds_.back();
  int delta = id - last;
  if (delta > 0 && delta <= 15) {
    out_.push_back(static_cast<char>((delta << 4) | static_cast<int>(t)));
  } else {
    out_.push_back(static_cast<char>(t));
    varint(zigzag(id));
  }
  last = id;
}

void ThriftWriter::fieldList(int16_t id, ThriftType elem, size_t size) {
  fieldHeader(id, ThriftType::kList);
  if (size < 15) {
    out_.push_back(static_cast<char>((size << 4) | static_cast<int>(elem)));
  } else {
    out_.push_back(static_cast<char>(0xf0 | static_cast<int>(elem)));
    varint(size);
  }
}

}  // namespace streamsim::parquet
