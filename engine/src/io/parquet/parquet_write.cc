// Rows -> a Parquet file (streamsim/io/parquet.h), from parquet-format README.md ("File
// format": "PAR1", column chunks, footer, its 4-byte length, "PAR1"; "Nested Encoding" for
// the levels), Encodings.md (PLAIN values, RLE levels with their 4-byte length in a v1 data
// page) and Compression.md (SNAPPY: the raw Snappy format, no framing).
#include <algorithm>
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




struct LeafOut {
  std::vector<uint32_t> rep, def;
  std::string values;  // PLAIN
  std::vector<bool> bools;
  int64_t count = 0;
};

// Splits rows into the leaves' levels and values (the Dremel "striping").
class Shredder {
 public:
  Shredder(const ColumnTree& tree, std::vector<LeafOut>& out) : tree_(tree), out_(out) {}

  Status row(const Row& r) {
    for (size_t i = 0; i < tree_.root.children.size(); ++i)
      STREAMSIM_RETURN_IF_ERROR(shred(tree_.root.children[i], r[i], 0, 0, tree_.root.children[i].field.name));
    return Status::OK();
  }

 private:
  void empty(const ColumnNode& n, uint32_t rep, uint32_t def) {
    for (int l = n.firstLeaf; l < n.endLeaf; ++l) {
      LeafOut& o = out_[static_cast<size_t>(l)];
      o.rep.push_back(rep);
      o.def.push_back(def);
      ++o.count;
    }
  }

  static Status mismatch(const std::string& path, const Field& f, const Value& v) {
    return Status::InvalidArgument(fmt::format("writing Parquet: column '{}' is {} but a row holds {} ({})", path,
                                               typeDDL(f), typeName(v.type()), v.toString()));
  }

  Status shred(const ColumnNode& n, const Value& v, uint32_t rep, uint32_t parentDef, const std::string& path) {
    if (v.isNull()) {
      if (!n.optional)
        return Status::InvalidArgument(fmt::format("writing Parquet: column '{}' is not nullable but a row holds null", path));
      empty(n, rep, parentDef);
      return Status::OK();
    }
    const uint32_t def = static_cast<uint32_t>(n.def);
    switch (n.kind) {
      case ColumnNode::Kind::kLeaf: {
        Value x = v;
        if (v.type() != n.field.type) {
          auto c = v.castTo(n.field.type);
          if (!c.ok() || c->isNull()) return mismatch(path, n.field, v);
          x = *c;
        }
        LeafOut& o = out_[static_cast<size_t>(n.leaf)];
        o.rep.push_back(rep);
        o.def.push_back(def);
        ++o.count;
        plain(tree_.leaves[static_cast<size_t>(n.leaf)], x, o);
        return Status::OK();
      }
      case ColumnNode::Kind::kStruct: {
        if (v.type() != Type::kStruct || v.items().size() != n.children.size()) return mismatch(path, n.field, v);
        for (size_t i = 0; i < n.children.size(); ++i)
          STREAMSIM_RETURN_IF_ERROR(shred(n.children[i], v.items()[i], rep, def, path + "." + n.children[i].field.name));
        return Status::OK();
      }
      case ColumnNode::Kind::kList: {
        if (v.type() != Type::kArray) return mismatch(path, n.field, v);
        if (v.items().empty()) {
          empty(n, rep, def);
          return Status::OK();
        }
        for (size_t i = 0; i < v.items().size(); ++i)
          STREAMSIM_RETURN_IF_ERROR(shred(n.children[0], v.items()[i], i == 0 ? rep : static_cast<uint32_t>(n.repRep),
                                          static_cast<uint32_t>(n.repDef), path + ".element"));
        return Status::OK();
      }
      case ColumnNode::Kind::kMap: {
        if (v.type() != Type::kMap) return mismatch(path, n.field, v);
        if (v.mapSize() == 0) {
          empty(n, rep, def);
          return Status::OK();
        }
        for (size_t i = 0; i < v.mapSize(); ++i) {
          uint32_t r = i == 0 ? rep : static_cast<uint32_t>(n.repRep);
          STREAMSIM_RETURN_IF_ERROR(shred(n.children[0], v.mapKey(i), r, static_cast<uint32_t>(n.repDef), path + ".key"));
          STREAMSIM_RETURN_IF_ERROR(shred(n.children[1], v.mapValue(i), r, static_cast<uint32_t>(n.repDef), path + ".value"));
        }
        return Status::OK();
      }
    }
    return Status::OK();
  }

  // PLAIN (Encodings.md): little endian; BYTE_ARRAY a 4-byte length then the bytes; INT96
  // the nanoseconds of the day (8 bytes) then the Julian day (4 bytes); booleans bit-packed.
  static void plain(const LeafColumn& leaf, const Value& v, LeafOut& o) {
    switch (leaf.type) {
      case PhysicalType::kBoolean: o.bools.push_back(v.asBool()); break;
      case PhysicalType::kInt32: detail::storeLittle32(static_cast<uint32_t>(static_cast<int32_t>(v.asLong())), o.values); break;
      case PhysicalType::kInt64: detail::storeLittle64(static_cast<uint64_t>(v.asLong()), o.values); break;
      case PhysicalType::kDouble: detail::storeLittle64(std::bit_cast<uint64_t>(v.asDouble()), o.values); break;
      case PhysicalType::kFloat: detail::storeLittle32(std::bit_cast<uint32_t>(static_cast<float>(v.asDouble())), o.values); break;
      case PhysicalType::kInt96: {
        // Spark's DateTimeUtils.toJulianDay of the microseconds (wrapping as its Long does).
        uint64_t julianUs = static_cast<uint64_t>(v.asLong()) * 1000 +
                            static_cast<uint64_t>(kJulianDayOfEpoch) * uint64_t{86400000000};
        int64_t us = static_cast<int64_t>(julianUs);
        detail::storeLittle64(static_cast<uint64_t>((us % 86400000000) * 1000), o.values);
        detail::storeLittle32(static_cast<uint32_t>(static_cast<int32_t>(us / 86400000000)), o.values);
        break;
      }
      case PhysicalType::kByteArray:
      case PhysicalType::kFixedLenByteArray:
        detail::storeLittle32(static_cast<uint32_t>(v.asString().size()), o.values);
        o.values += v.asString();
        break;
    }
  }

  const ColumnTree& tree_;
  std::vector<LeafOut>& out_;
};

}  // namespace
}  // namespace parquet

Result<ParquetCodec> parseParquetCodec(std::string_view name) {
  std::string n(name);
  std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (n == "none" || n == "uncompressed") return ParquetCodec::kUncompressed;
  if (n == "snappy") return ParquetCodec::kSnappy;
  if (n == "gzip") return ParquetCodec::kGzip;
  if (n == "lzo" || n == "brotli" || n == "lz4" || n == "lz4_raw" || n == "zstd")
    return Status::InvalidArgument(fmt::format(
        "Parquet compression '{}' is a codec Spark has but streamsim's Parquet writer does not "
        "(none, uncompressed, snappy, gzip; docs/python.md)", name));
  // ParquetOptions.scala's error for an unknown codec.
  return Status::InvalidArgument(fmt::format(
      "Codec [{}] is not available. Available codecs are brotli, uncompressed, lz4, gzip, lzo, snappy, none, zstd, lz4_raw.",
      n));
}

std::string_view parquetCodecFileInfix(ParquetCodec codec) {
  // parquet-mr's CompressionCodecName extensions.
  return codec == ParquetCodec::kSnappy ? ".snappy" : codec == ParquetCodec::kGzip ? ".gz" : "";
}

Result<std::string> writeParquet(const Schema& schema, const std::vector<Row>& rows, ParquetCodec codec) {
  using namespace parquet;
  FileMetaData md;
  md.schema = schemaElements(schema);
  STREAMSIM_ASSIGN_OR_RETURN(ColumnTree tree, columnTree(md.schema, "<writer>"));
  std::vector<LeafOut> leaves(tree.leaves.size());
  Shredder shredder(tree, leaves);
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].size() != schema.size())
      return Status::InvalidArgument(fmt::format("writing Parquet: row {} has {} values, the schema {} columns", i,
                                                 rows[i].size(), schema.size()));
    STREAMSIM_RETURN_IF_ERROR(shredder.row(rows[i]).withContext(fmt::format("row {}", i)));
  }
  std::string file = "PAR1";
  md.numRows = static_cast<int64_t>(rows.size());
  md.createdBy = "streamsim parquet writer (parquet-format 2.x, PLAIN, data page v1)";
  const int32_t codecId = codec == ParquetCodec::kSnappy ? kSnappy : codec == ParquetCodec::kGzip ? kGzip : kUncompressed;
  if (!rows.empty()) {
    RowGroup rg;
    rg.numRows = md.numRows;
    for (size_t c = 0; c < leaves.size(); ++c) {
      const LeafColumn& leaf = tree.leaves[c];
      LeafOut& o = leaves[c];
      std::string page;
      auto levels = [&](const std::vector<uint32_t>& v, int maxLevel) {
        if (maxLevel == 0) return;
        std::string enc;
        encodeRleHybrid(v, bitWidthFor(static_cast<uint32_t>(maxLevel)), enc);
        detail::storeLittle32(static_cast<uint32_t>(enc.size()), page);
        page += enc;
      };
      levels(o.rep, leaf.maxRep);
      levels(o.def, leaf.maxDef);
      if (leaf.type == PhysicalType::kBoolean) {
        std::string bits((o.bools.size() + 7) / 8, '\0');
        for (size_t i = 0; i < o.bools.size(); ++i)
          if (o.bools[i]) bits[i / 8] = static_cast<char>(bits[i / 8] | (1 << (i % 8)));
        page += bits;
      } else {
        page += o.values;
      }
      std::string body = codec == ParquetCodec::kSnappy ? snappyCompress(page)
                         : codec == ParquetCodec::kGzip ? gzipCompress(page)
                                                        : page;
      PageHeader h;
      h.type = kDataPage;
      h.uncompressedPageSize = static_cast<int32_t>(page.size());
      h.compressedPageSize = static_cast<int32_t>(body.size());
      DataPageHeader d;
      d.numValues = static_cast<int32_t>(o.count);
      d.encoding = kPlain;
      d.definitionLevelEncoding = kRle;
      d.repetitionLevelEncoding = kRle;
      h.dataPage = d;
      ThriftWriter hw;
      encodePageHeader(h, hw);
      ColumnChunk cc;
      ColumnMetaData m;
      m.type = leaf.type;
      m.encodings = {kPlain, kRle};
      m.path = leaf.path;
      m.codec = codecId;
      m.numValues = o.count;
      m.totalUncompressedSize = static_cast<int64_t>(hw.bytes().size() + page.size());
      m.totalCompressedSize = static_cast<int64_t>(hw.bytes().size() + body.size());
      m.dataPageOffset = static_cast<int64_t>(file.size());
      cc.fileOffset = m.dataPageOffset;
      rg.totalByteSize += m.totalUncompressedSize;
      file += hw.bytes();
      file += body;
      cc.metaData = std::move(m);
      rg.columns.push_back(std::move(cc));
    }
    md.rowGroups.push_back(std::move(rg));
  }
  ThriftWriter fw;
  encodeFileMetaData(md, fw);
  file += fw.bytes();
  detail::storeLittle32(static_cast<uint32_t>(fw.bytes().size()), file);
  file += "PAR1";
  return file;
}

}  // namespace streamsim
