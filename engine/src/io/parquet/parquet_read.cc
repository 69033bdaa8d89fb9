// Parquet file -> Rows (streamsim/io/parquet.h), from parquet-format README.md ("File format",
// "Column chunks", "Data Pages", "Nested Encoding"), Encodings.md and parquet.thrift.
// Reading goes: the footer (last 8 bytes: its length and "PAR1"), the column tree of its
// schema (parquet_schema.h), each column chunk's pages into repetition levels, definition
// levels and non-null values, then the records put back together from the levels (Dremel
// record assembly) walking the column tree.
#include <bit>
#include <cctype>
#include <cstring>

#include <fmt/format.h>

#include "byte_order.h"
#include "io/parquet/parquet_encoding.h"
#include "io/parquet/parquet_metadata.h"
#include "io/parquet/parquet_schema.h"
#include "streamsim/io/parquet.h"

namespace streamsim {

namespace parquet {
namespace {

constexpr std::string_view kMagic = "PAR1";
// Refuses claims no test file needs and a hostile file could use to exhaust memory.
constexpr int64_t kMaxValuesPerColumn = int64_t{1} << 26;
constexpr int64_t kMaxPageSize = int64_t{1} << 30;



// One leaf column's levels and values, and the assembler's position in them.
struct ColumnData {
  std::vector<uint32_t> rep;  // empty when maxRep == 0 (all 0)
  std::vector<uint32_t> def;  // empty when maxDef == 0 (all 0)
  std::vector<Value> values;  // the non-null values
  size_t entries = 0;
  size_t pos = 0;
  size_t valuePos = 0;
  uint32_t repAt(size_t i) const { return rep.empty() ? 0 : rep[i]; }
  uint32_t defAt(size_t i) const { return def.empty() ? 0 : def[i]; }
};

class ChunkReader {
 public:
  ChunkReader(std::string_view file, std::string_view fileName, const LeafColumn& leaf,
              const ColumnMetaData& md, ColumnData& out)
      : file_(file), name_(fileName), leaf_(leaf), md_(md), out_(out) {}

  Status read() {
    int64_t start = md_.dataPageOffset;
    if (md_.dictionaryPageOffset && *md_.dictionaryPageOffset > 0 && *md_.dictionaryPageOffset < start)
      start = *md_.dictionaryPageOffset;
    const int64_t dataEnd = static_cast<int64_t>(file_.size()) - 8;
    if (start < 4 || start >= dataEnd || md_.totalCompressedSize < 0 || md_.totalCompressedSize > dataEnd - start)
      return Status::Corruption(fmt::format(
          "{}: column '{}': expected its chunk (offset {}, {} bytes) to lie between the header and the footer",
          name_, leaf_.dottedPath, start, md_.totalCompressedSize));
    if (md_.numValues < 0 || md_.numValues > kMaxValuesPerColumn)
      return Status::Corruption(fmt::format("{}: column '{}': expected num_values of 0 to {}, found {}", name_,
                                            leaf_.dottedPath, kMaxValuesPerColumn, md_.numValues));
    const int64_t end = start + md_.totalCompressedSize;
    size_t pos = static_cast<size_t>(start);
    std::string_view chunk = file_.substr(0, static_cast<size_t>(end));
    while (static_cast<int64_t>(out_.entries) < md_.numValues) {
      if (static_cast<int64_t>(pos) >= end)
        return Status::Corruption(fmt::format(
            "{}: offset {}: column '{}': expected more pages ({} of its {} values read), found the chunk's end",
            name_, pos, leaf_.dottedPath, out_.entries, md_.numValues));
      size_t headerAt = pos;
      STREAMSIM_ASSIGN_OR_RETURN(PageHeader h, decodePageHeader(chunk, pos, 0, name_));
      if (h.compressedPageSize > static_cast<int64_t>(chunk.size() - pos) || h.uncompressedPageSize > kMaxPageSize)
        return Status::Corruption(fmt::format(
            "{}: offset {}: column '{}': expected a page of {} bytes inside the chunk, found {} bytes left",
            name_, headerAt, leaf_.dottedPath, h.compressedPageSize, chunk.size() - pos));
      std::string_view page = chunk.substr(pos, static_cast<size_t>(h.compressedPageSize));
      int64_t pageAt = static_cast<int64_t>(pos);
      pos += static_cast<size_t>(h.compressedPageSize);
      if (h.type == kDictionaryPage) {
        STREAMSIM_RETURN_IF_ERROR(dictionaryPage(h, page, pageAt));
      } else if (h.type == kDataPage) {
        STREAMSIM_RETURN_IF_ERROR(dataPageV1(h, page, pageAt));
      } else if (h.type == kDataPageV2) {
        STREAMSIM_RETURN_IF_ERROR(dataPageV2(h, page, pageAt));
      }  // index pages and unknown page types are skipped
    }
    if (static_cast<int64_t>(out_.entries) != md_.numValues)
      return Status::Corruption(fmt::format("{}: column '{}': expected {} values (num_values), its pages hold {}",
                                            name_, leaf_.dottedPath, md_.numValues, out_.entries));
    return Status::OK();
  }

 private:
  std::string what(std::string_view part) const { return fmt::format("column '{}', {}", leaf_.dottedPath, part); }

  Status dictionaryPage(const PageHeader& h, std::string_view page, int64_t at) {
    if (!h.dictionaryPage)
      return Status::Corruption(fmt::format("{}: offset {}: expected a DICTIONARY_PAGE's dictionary_page_header",
                                            name_, at));
    std::string w = what("dictionary page");
    std::string bytes;
    STREAMSIM_RETURN_IF_ERROR(decompressPage(md_.codec, ByteSpan{page, at, name_, w}, h.uncompressedPageSize, bytes));
    if (h.dictionaryPage->encoding != kPlain && h.dictionaryPage->encoding != kPlainDictionary)
      return unsupportedEncoding(h.dictionaryPage->encoding, at);
    if (h.dictionaryPage->numValues < 0 || h.dictionaryPage->numValues > kMaxValuesPerColumn)
      return Status::Corruption(fmt::format("{}: offset {}: {}: expected a dictionary of 0 to {} values", name_, at, w,
                                            kMaxValuesPerColumn));
    dictionary_.clear();
    size_t pos = 0;
    return plainValues(ByteSpan{bytes, at, name_, w}, pos, static_cast<size_t>(h.dictionaryPage->numValues),
                       dictionary_);
  }

  Status checkCount(int32_t numValues, int64_t at) {
    if (numValues < 0 || static_cast<int64_t>(out_.entries) + numValues > md_.numValues)
      return Status::Corruption(fmt::format(
          "{}: offset {}: column '{}': expected a page of at most the {} values left of the chunk's num_values, found {}",
          name_, at, leaf_.dottedPath, md_.numValues - static_cast<int64_t>(out_.entries), numValues));
    return Status::OK();
  }

  // Levels of a v1 page: a 4-byte little-endian length, then the hybrid encoding (RLE), or
  // BIT_PACKED levels (Encodings.md).
  Status levelsV1(const ByteSpan& all, size_t& pos, int32_t encoding, int maxLevel, size_t count,
                  std::vector<uint32_t>& out, std::string_view part) {
    std::string w = what(part);
    ByteSpan span{all.bytes, all.base, all.file, w};
    int width = bitWidthFor(static_cast<uint32_t>(maxLevel));
    if (encoding == kBitPacked) {
      size_t bytes = (count * static_cast<size_t>(width) + 7) / 8;
      if (bytes > all.bytes.size() - pos) return span.error(pos, fmt::format("{} bytes of BIT_PACKED levels", bytes));
      ByteSpan sub{all.bytes.substr(pos, bytes), all.base + static_cast<int64_t>(pos), all.file, w};
      STREAMSIM_RETURN_IF_ERROR(decodeBitPacked(sub, width, count, out));
      pos += bytes;
    } else if (encoding == kRle) {
      if (all.bytes.size() - pos < 4) return span.error(pos, "a 4-byte length of the levels");
      uint32_t len = detail::loadLittle32(all.bytes.data() + pos);
      pos += 4;
      if (len > all.bytes.size() - pos) return span.error(pos - 4, fmt::format("{} bytes of levels, found {}", len, all.bytes.size() - pos));
      ByteSpan sub{all.bytes.substr(pos, len), all.base + static_cast<int64_t>(pos), all.file, w};
      size_t p = 0;
      STREAMSIM_RETURN_IF_ERROR(decodeRleHybrid(sub, width, count, out, p));
      pos += len;
    } else {
      return span.error(pos, fmt::format("levels encoded RLE or BIT_PACKED, found {}", encodingName(encoding)));
    }
    return checkLevels(out, count, maxLevel, span);
  }

  Status checkLevels(const std::vector<uint32_t>& levels, size_t count, int maxLevel, const ByteSpan& span) {
    for (size_t i = levels.size() - count; i < levels.size(); ++i)
      if (levels[i] > static_cast<uint32_t>(maxLevel))
        return span.error(0, fmt::format("levels of at most {}, found {}", maxLevel, levels[i]));
    return Status::OK();
  }

  Status dataPageV1(const PageHeader& h, std::string_view page, int64_t at) {
    if (!h.dataPage)
      return Status::Corruption(fmt::format("{}: offset {}: expected a DATA_PAGE's data_page_header", name_, at));
    const DataPageHeader& d = *h.dataPage;
    STREAMSIM_RETURN_IF_ERROR(checkCount(d.numValues, at));
    std::string w = what("data page");
    std::string bytes;
    STREAMSIM_RETURN_IF_ERROR(decompressPage(md_.codec, ByteSpan{page, at, name_, w}, h.uncompressedPageSize, bytes));
    ByteSpan all{bytes, at, name_, w};
    size_t pos = 0;
    const size_t n = static_cast<size_t>(d.numValues);
    if (leaf_.maxRep > 0)
      STREAMSIM_RETURN_IF_ERROR(levelsV1(all, pos, d.repetitionLevelEncoding, leaf_.maxRep, n, out_.rep, "repetition levels"));
    if (leaf_.maxDef > 0)
      STREAMSIM_RETURN_IF_ERROR(levelsV1(all, pos, d.definitionLevelEncoding, leaf_.maxDef, n, out_.def, "definition levels"));
    return values(d.encoding, ByteSpan{std::string_view(bytes).substr(pos), at + static_cast<int64_t>(pos), name_, w}, n);
  }

  Status dataPageV2(const PageHeader& h, std::string_view page, int64_t at) {
    if (!h.dataPageV2)
      return Status::Corruption(fmt::format("{}: offset {}: expected a DATA_PAGE_V2's data_page_header_v2", name_, at));
    const DataPageHeader& d = *h.dataPageV2;
    STREAMSIM_RETURN_IF_ERROR(checkCount(d.numValues, at));
    std::string w = what("data page v2");
    ByteSpan all{page, at, name_, w};
    if (d.repetitionLevelsByteLength < 0 || d.definitionLevelsByteLength < 0 ||
        static_cast<int64_t>(d.repetitionLevelsByteLength) + d.definitionLevelsByteLength > static_cast<int64_t>(page.size()) ||
        static_cast<int64_t>(d.repetitionLevelsByteLength) + d.definitionLevelsByteLength > h.uncompressedPageSize)
      return all.error(0, "level byte lengths within the page");
    const size_t n = static_cast<size_t>(d.numValues);
    size_t pos = 0;
    // v2 levels: the hybrid encoding without a length prefix, never compressed.
    auto levels = [&](size_t len, int maxLevel, std::vector<uint32_t>& out, std::string_view part) -> Status {
      std::string pw = what(part);
      ByteSpan sub{page.substr(pos, len), at + static_cast<int64_t>(pos), name_, pw};
      size_t p = 0;
      if (maxLevel > 0) {
        STREAMSIM_RETURN_IF_ERROR(decodeRleHybrid(sub, bitWidthFor(static_cast<uint32_t>(maxLevel)), n, out, p));
        STREAMSIM_RETURN_IF_ERROR(checkLevels(out, n, maxLevel, sub));
      }
      pos += len;
      return Status::OK();
    };
    STREAMSIM_RETURN_IF_ERROR(levels(static_cast<size_t>(d.repetitionLevelsByteLength), leaf_.maxRep, out_.rep, "repetition levels"));
    STREAMSIM_RETURN_IF_ERROR(levels(static_cast<size_t>(d.definitionLevelsByteLength), leaf_.maxDef, out_.def, "definition levels"));
    std::string_view rest = page.substr(pos);
    size_t restSize = static_cast<size_t>(h.uncompressedPageSize) - pos;
    std::string bytes;
    if (d.isCompressed && md_.codec != kUncompressed && !(rest.empty() && restSize == 0)) {
      STREAMSIM_RETURN_IF_ERROR(decompressPage(md_.codec, ByteSpan{rest, at + static_cast<int64_t>(pos), name_, w}, restSize, bytes));
    } else {
      bytes.assign(rest);
    }
    return values(d.encoding, ByteSpan{bytes, at + static_cast<int64_t>(pos), name_, w}, n);
  }

  // The page's non-null values (those whose definition level is the column's maximum).
  Status values(int32_t encoding, const ByteSpan& span, size_t n) {
    size_t present = n;
    if (leaf_.maxDef > 0) {
      present = 0;
      for (size_t i = out_.def.size() - n; i < out_.def.size(); ++i)
        present += out_.def[i] == static_cast<uint32_t>(leaf_.maxDef) ? 1 : 0;
    }
    out_.entries += n;
    size_t pos = 0;
    if (encoding == kPlain) return plainValues(span, pos, present, out_.values);
    if (encoding == kPlainDictionary || encoding == kRleDictionary) {
      if (present == 0) return Status::OK();
      if (span.bytes.empty()) return span.error(0, "the dictionary indices' bit width");
      int width = static_cast<uint8_t>(span.bytes[0]);
      if (width > 32) return span.error(0, fmt::format("a bit width of at most 32, found {}", width));
      std::vector<uint32_t> idx;
      ByteSpan sub{span.bytes.substr(1), span.base + 1, span.file, span.what};
      STREAMSIM_RETURN_IF_ERROR(decodeRleHybrid(sub, width, present, idx, pos));
      for (uint32_t i : idx) {
        if (i >= dictionary_.size())
          return sub.error(0, fmt::format("dictionary indices below the dictionary's {} values, found {}",
                                          dictionary_.size(), i));
        out_.values.push_back(dictionary_[i]);
      }
      return Status::OK();
    }
    if (encoding == kRle && leaf_.type == PhysicalType::kBoolean) {
      // Booleans: a 4-byte length, then the hybrid encoding of bit width 1 (Encodings.md).
      if (span.bytes.size() < 4) return span.error(0, "a 4-byte length of RLE booleans");
      uint32_t len = detail::loadLittle32(span.bytes.data());
      if (len > span.bytes.size() - 4) return span.error(0, fmt::format("{} bytes of RLE booleans", len));
      std::vector<uint32_t> bits;
      ByteSpan sub{span.bytes.substr(4, len), span.base + 4, span.file, span.what};
      STREAMSIM_RETURN_IF_ERROR(decodeRleHybrid(sub, 1, present, bits, pos));
      for (uint32_t b : bits) out_.values.emplace_back(b != 0);
      return Status::OK();
    }
    return unsupportedEncoding(encoding, span.base);
  }

  Status unsupportedEncoding(int32_t encoding, int64_t at) const {
    return Status::InvalidArgument(fmt::format(
        "{}: offset {}: column '{}' is encoded {}, which streamsim's Parquet reader does not read "
        "(PLAIN, dictionaries, RLE booleans; docs/python.md)",
        name_, at, leaf_.dottedPath, encodingName(encoding)));
  }

  // PLAIN (Encodings.md "Plain: (PLAIN = 0)"): little-endian fixed widths, booleans one bit
  // each (LSB first), BYTE_ARRAY a 4-byte length and the bytes, INT96 12 bytes.
  Status plainValues(const ByteSpan& span, size_t& pos, size_t count, std::vector<Value>& out) {
    const std::string_view b = span.bytes;
    auto need = [&](size_t bytes) -> Status {
      if (bytes > b.size() - pos)
        return span.error(pos, fmt::format("{} more bytes of PLAIN {} values, found {}", bytes,
                                           physicalTypeName(leaf_.type), b.size() - pos));
      return Status::OK();
    };
    switch (leaf_.type) {
      case PhysicalType::kBoolean: {
        STREAMSIM_RETURN_IF_ERROR(need((count + 7) / 8));
        for (size_t i = 0; i < count; ++i) out.emplace_back(((static_cast<uint8_t>(b[pos + i / 8]) >> (i % 8)) & 1) != 0);
        pos += (count + 7) / 8;
        return Status::OK();
      }
      case PhysicalType::kInt32: {
        STREAMSIM_RETURN_IF_ERROR(need(count * 4));
        for (size_t i = 0; i < count; ++i, pos += 4) {
          int32_t v = static_cast<int32_t>(detail::loadLittle32(b.data() + pos));
          if (leaf_.conversion == LeafConversion::kDate) {
            out.push_back(Value::date(v));
          } else if (leaf_.conversion == LeafConversion::kUint32AsLong) {
            out.emplace_back(static_cast<int64_t>(static_cast<uint32_t>(v)));
          } else {
            out.emplace_back(v);
          }
        }
        return Status::OK();
      }
      case PhysicalType::kInt64: {
        STREAMSIM_RETURN_IF_ERROR(need(count * 8));
        for (size_t i = 0; i < count; ++i, pos += 8) {
          int64_t v = static_cast<int64_t>(detail::loadLittle64(b.data() + pos));
          switch (leaf_.conversion) {
            case LeafConversion::kMillisTimestamp: out.push_back(Value::timestamp(v)); break;
            case LeafConversion::kMicrosTimestamp: out.push_back(Value::timestamp(floorDiv(v, 1000))); break;
            case LeafConversion::kNanosTimestamp: out.push_back(Value::timestamp(floorDiv(v, 1000000))); break;
            default: out.emplace_back(v);
          }
        }
        return Status::OK();
      }
      case PhysicalType::kInt96: {
        // Nanoseconds of the day (8 bytes) then the Julian day (4 bytes), both little endian,
        // read as Spark's DateTimeUtils.fromJulianDay does: in wrapping 64-bit microseconds,
        // so a timestamp whose toJulianDay overflowed when Spark wrote it reads back as it was
        // (int96_from_spark.parquet's year 290000).
        STREAMSIM_RETURN_IF_ERROR(need(count * 12));
        for (size_t i = 0; i < count; ++i, pos += 12) {
          int64_t nanos = static_cast<int64_t>(detail::loadLittle64(b.data() + pos));
          int64_t day = static_cast<int32_t>(detail::loadLittle32(b.data() + pos + 8));
          uint64_t micros = static_cast<uint64_t>(day - kJulianDayOfEpoch) * uint64_t{86400000000} +
                            static_cast<uint64_t>(nanos / 1000);
          out.push_back(Value::timestamp(floorDiv(static_cast<int64_t>(micros), 1000)));
        }
        return Status::OK();
      }
      case PhysicalType::kFloat: {
        STREAMSIM_RETURN_IF_ERROR(need(count * 4));
        for (size_t i = 0; i < count; ++i, pos += 4) out.emplace_back(static_cast<double>(std::bit_cast<float>(detail::loadLittle32(b.data() + pos))));
        return Status::OK();
      }
      case PhysicalType::kDouble: {
        STREAMSIM_RETURN_IF_ERROR(need(count * 8));
        for (size_t i = 0; i < count; ++i, pos += 8) out.emplace_back(std::bit_cast<double>(detail::loadLittle64(b.data() + pos)));
        return Status::OK();
      }
      case PhysicalType::kByteArray: {
        for (size_t i = 0; i < count; ++i) {
          STREAMSIM_RETURN_IF_ERROR(need(4));
          uint32_t len = detail::loadLittle32(b.data() + pos);
          pos += 4;
          STREAMSIM_RETURN_IF_ERROR(need(len));
          std::string s(b.substr(pos, len));
          pos += len;
          if (leaf_.conversion == LeafConversion::kString) {
            out.emplace_back(std::move(s));
          } else {
            out.push_back(Value::binary(std::move(s)));
          }
        }
        return Status::OK();
      }
      case PhysicalType::kFixedLenByteArray: {
        size_t len = static_cast<size_t>(leaf_.typeLength);
        STREAMSIM_RETURN_IF_ERROR(need(count * len));
        for (size_t i = 0; i < count; ++i, pos += len) out.push_back(Value::binary(std::string(b.substr(pos, len))));
        return Status::OK();
      }
    }
    return span.error(pos, "a known physical type");
  }

  std::string_view file_;
  std::string_view name_;
  const LeafColumn& leaf_;
  const ColumnMetaData& md_;
  ColumnData& out_;
  std::vector<Value> dictionary_;
};

// Puts records back together from the leaves' levels (README.md "Nested Encoding").
class Assembler {
 public:
  Assembler(const ColumnTree& tree, std::vector<ColumnData>& cols, std::string_view file)
      : tree_(tree), cols_(cols), file_(file) {}

  Status record(std::vector<Value>& out) {
    for (const ColumnData& c : cols_)
      if (c.pos < c.entries && c.repAt(c.pos) != 0) return error(c, "a record's first value (repetition level 0)");
    for (const ColumnNode& child : tree_.root.children) {
      STREAMSIM_ASSIGN_OR_RETURN(Value v, read(child));
      out.push_back(std::move(v));
    }
    return Status::OK();
  }

  Status finish() {
    for (const ColumnData& c : cols_)
      if (c.pos != c.entries) return error(c, "no values after the row group's last record");
    return Status::OK();
  }

 private:
  Status error(const ColumnData& c, std::string_view expected) const {
    size_t i = static_cast<size_t>(&c - cols_.data());
    return Status::Corruption(fmt::format("{}: column '{}', value {}: expected {} (its levels do not fit the schema)",
                                          file_, tree_.leaves[i].dottedPath, c.pos, expected));
  }

  // One entry from each leaf under `n` (a null or an empty list there).
  Status skip(const ColumnNode& n) {
    for (int l = n.firstLeaf; l < n.endLeaf; ++l) {
      ColumnData& c = cols_[static_cast<size_t>(l)];
      if (c.pos >= c.entries) return error(c, "more values (the column ended before the row group's records)");
      ++c.pos;
    }
    return Status::OK();
  }

  Result<Value> read(const ColumnNode& n) {
    if (n.firstLeaf >= n.endLeaf) return Value();
    ColumnData& first = cols_[static_cast<size_t>(n.firstLeaf)];
    if (first.pos >= first.entries) return error(first, "more values (the column ended before the row group's records)");
    uint32_t d = first.defAt(first.pos);
    if (d < static_cast<uint32_t>(n.def)) {
      if (!n.optional) return error(first, fmt::format("a definition level of at least {}", n.def));
      STREAMSIM_RETURN_IF_ERROR(skip(n));
      return Value();
    }
    switch (n.kind) {
      case ColumnNode::Kind::kLeaf: {
        if (d != static_cast<uint32_t>(n.def)) return error(first, fmt::format("the definition level {}", n.def));
        if (first.valuePos >= first.values.size()) return error(first, "a value for a defined level");
        ++first.pos;
        return first.values[first.valuePos++];
      }
      case ColumnNode::Kind::kStruct: {
        std::vector<Value> fields;
        for (const ColumnNode& c : n.children) {
          STREAMSIM_ASSIGN_OR_RETURN(Value v, read(c));
          fields.push_back(std::move(v));
        }
        return Value::structOf(n.field.nested, std::move(fields));
      }
      case ColumnNode::Kind::kList:
      case ColumnNode::Kind::kMap: {
        std::vector<Value> items;
        std::vector<std::pair<Value, Value>> entries;
        if (d < static_cast<uint32_t>(n.repDef)) {
          STREAMSIM_RETURN_IF_ERROR(skip(n));  // empty
        } else {
          for (;;) {
            if (n.kind == ColumnNode::Kind::kList) {
              STREAMSIM_ASSIGN_OR_RETURN(Value v, read(n.children[0]));
              items.push_back(std::move(v));
            } else {
              STREAMSIM_ASSIGN_OR_RETURN(Value k, read(n.children[0]));
              STREAMSIM_ASSIGN_OR_RETURN(Value v, read(n.children[1]));
              if (k.isNull()) return error(first, "a map key that is not null");
              entries.emplace_back(std::move(k), std::move(v));
            }
            if (first.pos >= first.entries) break;
            uint32_t r = first.repAt(first.pos);
            if (r < static_cast<uint32_t>(n.repRep)) break;
            if (r > static_cast<uint32_t>(n.repRep))
              return error(first, fmt::format("a repetition level of at most {}", n.repRep));
          }
        }
        if (n.kind == ColumnNode::Kind::kList) return Value::arrayOf(std::move(items));
        auto m = Value::mapOf(std::move(entries));
        if (!m.ok()) return error(first, m.status().message());
        return *m;
      }
    }
    return Value();
  }

  const ColumnTree& tree_;
  std::vector<ColumnData>& cols_;
  std::string_view file_;
};

struct Footer {
  FileMetaData md;
  ColumnTree tree;
};

Result<Footer> readFooter(std::string_view bytes, std::string_view fileName) {
  if (bytes.size() < 12 || bytes.substr(0, 4) != kMagic)
    return Status::Corruption(fmt::format("{}: offset 0: expected the Parquet magic \"PAR1\" (a file of at least "
                                          "12 bytes), found {} bytes{}",
                                          fileName, bytes.size(), bytes.size() >= 4 ? " not starting PAR1" : ""));
  if (bytes.substr(bytes.size() - 4) == "PARE")
    return Status::InvalidArgument(fmt::format("{}: the footer is encrypted (PARE), which streamsim's Parquet reader does not read",
                                               fileName));
  if (bytes.substr(bytes.size() - 4) != kMagic)
    return Status::Corruption(fmt::format("{}: offset {}: expected the Parquet magic \"PAR1\" at the end of the file "
                                          "(a truncated file?)",
                                          fileName, bytes.size() - 4));
  uint32_t len = detail::loadLittle32(bytes.data() + bytes.size() - 8);
  if (len > bytes.size() - 12)
    return Status::Corruption(fmt::format("{}: offset {}: expected a footer length of at most {} bytes, found {}",
                                          fileName, bytes.size() - 8, bytes.size() - 12, len));
  int64_t start = static_cast<int64_t>(bytes.size() - 8 - len);
  STREAMSIM_ASSIGN_OR_RETURN(FileMetaData md, decodeFileMetaData(bytes.substr(static_cast<size_t>(start), len), start, fileName));
  if (md.encrypted)
    return Status::InvalidArgument(fmt::format("{}: the file's columns are encrypted, which streamsim's Parquet reader does not read",
                                               fileName));
  STREAMSIM_ASSIGN_OR_RETURN(ColumnTree tree, columnTree(md.schema, fileName));
  return Footer{std::move(md), std::move(tree)};
}

}  // namespace
}  // namespace parquet

Result<SchemaPtr> readParquetSchema(std::string_view bytes, std::string_view fileName) {
  STREAMSIM_ASSIGN_OR_RETURN(parquet::Footer f, parquet::readFooter(bytes, fileName));
  return f.tree.schema;
}

Result<ParquetContents> readParquet(std::string_view bytes, std::string_view fileName) {
  using namespace parquet;
  STREAMSIM_ASSIGN_OR_RETURN(Footer f, readFooter(bytes, fileName));
  ParquetContents out;
  out.schema = f.tree.schema;
  out.createdBy = f.md.createdBy.value_or("");
  for (size_t g = 0; g < f.md.rowGroups.size(); ++g) {
    const RowGroup& rg = f.md.rowGroups[g];
    if (rg.columns.size() != f.tree.leaves.size())
      return Status::Corruption(fmt::format("{}: row group {}: expected {} column chunks (the schema's leaves), found {}",
                                            fileName, g, f.tree.leaves.size(), rg.columns.size()));
    if (rg.numRows < 0 || rg.numRows > kMaxValuesPerColumn)
      return Status::Corruption(fmt::format("{}: row group {}: expected num_rows of 0 to {}, found {}", fileName, g,
                                            kMaxValuesPerColumn, rg.numRows));
    std::vector<ColumnData> cols(rg.columns.size());
    for (size_t c = 0; c < rg.columns.size(); ++c) {
      const ColumnChunk& cc = rg.columns[c];
      const LeafColumn& leaf = f.tree.leaves[c];
      if (cc.filePath)
        return Status::InvalidArgument(fmt::format("{}: column '{}' is stored in another file ({}), which streamsim "
                                                   "does not read",
                                                   fileName, leaf.dottedPath, *cc.filePath));
      if (!cc.metaData)
        return Status::Corruption(fmt::format("{}: offset {}: expected the ColumnChunk of '{}' to have its meta_data",
                                              fileName, cc.offset, leaf.dottedPath));
      if (cc.metaData->type != leaf.type)
        return Status::Corruption(fmt::format("{}: offset {}: column '{}': expected the chunk's type {} (the schema's), found {}",
                                              fileName, cc.offset, leaf.dottedPath, physicalTypeName(leaf.type),
                                              physicalTypeName(cc.metaData->type)));
      ChunkReader reader(bytes, fileName, leaf, *cc.metaData, cols[c]);
      STREAMSIM_RETURN_IF_ERROR(reader.read());
      if (static_cast<int64_t>(cols[c].entries) < rg.numRows)
        return Status::Corruption(fmt::format("{}: column '{}': expected at least {} values (the row group's rows), found {}",
                                              fileName, leaf.dottedPath, rg.numRows, cols[c].entries));
    }
    Assembler a(f.tree, cols, fileName);
    for (int64_t r = 0; r < rg.numRows; ++r) {
      std::vector<Value> values;
      STREAMSIM_RETURN_IF_ERROR(a.record(values));
      out.rows.emplace_back(out.schema, std::move(values));
    }
    STREAMSIM_RETURN_IF_ERROR(a.finish());
  }
  return out;
}

Result<std::vector<Row>> readParquetAs(std::string_view bytes, std::string_view fileName, const SchemaPtr& schema) {
  STREAMSIM_ASSIGN_OR_RETURN(ParquetContents c, readParquet(bytes, fileName));
  if (schema == nullptr || *schema == *c.schema) return std::move(c.rows);
  auto lower = [](std::string_view s) {
    std::string out(s);
    for (char& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return out;
  };
  std::vector<int> from(schema->size(), -1);
  for (size_t i = 0; i < schema->size(); ++i) {
    from[i] = c.schema->indexOf(schema->field(i).name);
    for (size_t j = 0; from[i] < 0 && j < c.schema->size(); ++j)
      if (lower(c.schema->field(j).name) == lower(schema->field(i).name)) from[i] = static_cast<int>(j);
  }
  std::vector<Row> out;
  out.reserve(c.rows.size());
  for (const Row& r : c.rows) {
    std::vector<Value> values(schema->size());
    for (size_t i = 0; i < schema->size(); ++i) {
      if (from[i] < 0) continue;
      const Value& v = r[static_cast<size_t>(from[i])];
      const Field& f = schema->field(i);
      if (v.isNull() || f == c.schema->field(static_cast<size_t>(from[i]))) {
        values[i] = v;
        continue;
      }
      auto cast = v.castTo(f);
      if (!cast.ok())
        return Status::InvalidArgument(fmt::format("{}: column '{}' is {} in the file, read as {}: {}", fileName, f.name,
                                                   typeDDL(c.schema->field(static_cast<size_t>(from[i]))), typeDDL(f),
                                                   cast.status().message()));
      values[i] = std::move(*cast);
    }
    out.emplace_back(schema, std::move(values));
  }
  return out;
}

}  // namespace streamsim
