// Parquet's footer and page headers <-> Thrift compact (parquet_metadata.h). Field ids are
// parquet.thrift's (parquet-format); each struct's reader names the struct in its errors.
#include "io/parquet/parquet_metadata.h"

#include <fmt/format.h>

namespace streamsim::parquet {

namespace {

// Typed access to a decoded struct, with errors naming the file, the struct and its offset.
class Fields {
 public:
  Fields(const ThriftStruct& s, std::string_view structName, int64_t offset, std::string_view file)
      : s_(s), name_(structName), offset_(offset), file_(file) {}

  bool has(int16_t id) const { return s_.count(id) != 0; }

  Status error(int16_t id, std::string_view expected) const {
    auto it = s_.find(id);
    int64_t at = it == s_.end() ? offset_ : it->second.offset;
    return Status::Corruption(fmt::format("{}: offset {}: expected {} field {} to be {}", file_, at,
                                          name_, id, expected));
  }

  Result<int64_t> i64(int16_t id, std::string_view what) const {
    auto it = s_.find(id);
    if (it == s_.end()) return missing(id, what);
    if (auto* v = std::get_if<int64_t>(&it->second.v)) return *v;
    return error(id, fmt::format("an integer ({})", what));
  }
  Result<int32_t> i32(int16_t id, std::string_view what) const {
    STREAMSIM_ASSIGN_OR_RETURN(int64_t v, i64(id, what));
    if (v < INT32_MIN || v > INT32_MAX) return error(id, fmt::format("a 32-bit integer ({})", what));
    return static_cast<int32_t>(v);
  }
  std::optional<int64_t> optI64(int16_t id) const {
    auto it = s_.find(id);
    if (it == s_.end()) return std::nullopt;
    if (auto* v = std::get_if<int64_t>(&it->second.v)) return *v;
    return std::nullopt;
  }
  Result<std::optional<int32_t>> optI32(int16_t id, std::string_view what) const {
    if (!has(id)) return std::optional<int32_t>();
    STREAMSIM_ASSIGN_OR_RETURN(int32_t v, i32(id, what));
    return std::optional<int32_t>(v);
  }
  std::optional<bool> optBool(int16_t id) const {
    auto it = s_.find(id);
    if (it == s_.end()) return std::nullopt;
    if (auto* v = std::get_if<bool>(&it->second.v)) return *v;
    return std::nullopt;
  }
  Result<std::string> str(int16_t id, std::string_view what) const {
    auto it = s_.find(id);
    if (it == s_.end()) return missing(id, what);
    if (auto* v = std::get_if<std::string>(&it->second.v)) return *v;
    return error(id, fmt::format("a string ({})", what));
  }
  std::optional<std::string> optStr(int16_t id) const {
    auto it = s_.find(id);
    if (it == s_.end()) return std::nullopt;
    if (auto* v = std::get_if<std::string>(&it->second.v)) return *v;
    return std::nullopt;
  }
  Result<const ThriftList*> list(int16_t id, std::string_view what) const {
    auto it = s_.find(id);
    if (it == s_.end()) return missing(id, what);
    if (auto* v = std::get_if<std::shared_ptr<ThriftList>>(&it->second.v)) return v->get();
    return error(id, fmt::format("a list ({})", what));
  }
  Result<Fields> sub(int16_t id, std::string_view subName) const {
    auto it = s_.find(id);
    if (it == s_.end()) return missing(id, subName);
    if (auto* v = std::get_if<std::shared_ptr<ThriftStruct>>(&it->second.v))
      return Fields(**v, subName, it->second.offset, file_);
    return error(id, fmt::format("a struct ({})", subName));
  }
  static Result<Fields> element(const ThriftValue& v, std::string_view subName, std::string_view file) {
    if (auto* s = std::get_if<std::shared_ptr<ThriftStruct>>(&v.v)) return Fields(**s, subName, v.offset, file);
    return Status::Corruption(fmt::format("{}: offset {}: expected a {} struct", file, v.offset, subName));
  }
  int64_t offset() const { return offset_; }
  std::string_view file() const { return file_; }

 private:
  Status missing(int16_t id, std::string_view what) const {
    return Status::Corruption(fmt::format("{}: offset {}: {} has no field {} ({}), which is required",
                                          file_, offset_, name_, id, what));
  }
  const ThriftStruct& s_;
  std::string_view name_;
  int64_t offset_;
  std::string_view file_;
};

Result<LogicalType> logicalType(const Fields& f) {
  LogicalType t;
  // A union: exactly one field set. Unknown ids are kept as kOther (a newer writer's type).
  static const std::pair<int16_t, LogicalType::Kind> kinds[] = {
      {1, LogicalType::Kind::kString}, {2, LogicalType::Kind::kMap},     {3, LogicalType::Kind::kList},
      {4, LogicalType::Kind::kEnum},   {5, LogicalType::Kind::kDecimal}, {6, LogicalType::Kind::kDate},
      {7, LogicalType::Kind::kTime},   {8, LogicalType::Kind::kTimestamp}, {10, LogicalType::Kind::kInteger},
      {11, LogicalType::Kind::kUnknown}, {12, LogicalType::Kind::kJson}, {13, LogicalType::Kind::kBson},
      {14, LogicalType::Kind::kUuid},  {15, LogicalType::Kind::kFloat16}};
  for (auto [id, kind] : kinds) {
    if (!f.has(id)) continue;
    t.kind = kind;
    if (kind == LogicalType::Kind::kTime || kind == LogicalType::Kind::kTimestamp) {
      STREAMSIM_ASSIGN_OR_RETURN(Fields ts, f.sub(id, "TimestampType"));
      t.adjustedToUtc = ts.optBool(1).value_or(true);
      STREAMSIM_ASSIGN_OR_RETURN(Fields unit, ts.sub(2, "TimeUnit"));
      t.unit = unit.has(1) ? LogicalType::TimeUnit::kMillis
               : unit.has(2) ? LogicalType::TimeUnit::kMicros
                             : LogicalType::TimeUnit::kNanos;
    } else if (kind == LogicalType::Kind::kInteger) {
      STREAMSIM_ASSIGN_OR_RETURN(Fields it, f.sub(id, "IntType"));
      STREAMSIM_ASSIGN_OR_RETURN(t.bitWidth, it.i32(1, "bitWidth"));
      t.isSigned = it.optBool(2).value_or(true);
    }
    return t;
  }
  t.kind = LogicalType::Kind::kOther;
  return t;
}

Result<SchemaElement> schemaElement(const Fields& f) {
  SchemaElement e;
  e.offset = f.offset();
  STREAMSIM_ASSIGN_OR_RETURN(auto type, f.optI32(1, "type"));
  if (type) {
    if (*type < 0 || *type > 7) return f.error(1, "a physical type (0-7)");
    e.type = static_cast<PhysicalType>(*type);
  }
  STREAMSIM_ASSIGN_OR_RETURN(auto len, f.optI32(2, "type_length"));
  e.typeLength = len.value_or(0);
  STREAMSIM_ASSIGN_OR_RETURN(auto rep, f.optI32(3, "repetition_type"));
  if (rep) {
    if (*rep < 0 || *rep > 2) return f.error(3, "a repetition (0-2)");
    e.repetition = static_cast<Repetition>(*rep);
  }
  STREAMSIM_ASSIGN_OR_RETURN(e.name, f.str(4, "name"));
  STREAMSIM_ASSIGN_OR_RETURN(auto n, f.optI32(5, "num_children"));
  e.numChildren = n.value_or(0);
  STREAMSIM_ASSIGN_OR_RETURN(e.convertedType, f.optI32(6, "converted_type"));
  if (f.has(10)) {
    STREAMSIM_ASSIGN_OR_RETURN(Fields lt, f.sub(10, "LogicalType"));
    STREAMSIM_ASSIGN_OR_RETURN(e.logicalType, logicalType(lt));
  }
  return e;
}

Result<ColumnMetaData> columnMetaData(const Fields& f) {
  ColumnMetaData m;
  STREAMSIM_ASSIGN_OR_RETURN(int32_t type, f.i32(1, "type"));
  if (type < 0 || type > 7) return f.error(1, "a physical type (0-7)");
  m.type = static_cast<PhysicalType>(type);
  STREAMSIM_ASSIGN_OR_RETURN(const ThriftList* encs, f.list(2, "encodings"));
  for (const ThriftValue& v : *encs)
    if (auto* i = std::get_if<int64_t>(&v.v)) m.encodings.push_back(static_cast<int32_t>(*i));
  STREAMSIM_ASSIGN_OR_RETURN(const ThriftList* path, f.list(3, "path_in_schema"));
  for (const ThriftValue& v : *path) {
    auto* s = std::get_if<std::string>(&v.v);
    if (s == nullptr) return f.error(3, "a list of strings (path_in_schema)");
    m.path.push_back(*s);
  }
  STREAMSIM_ASSIGN_OR_RETURN(m.codec, f.i32(4, "codec"));
  STREAMSIM_ASSIGN_OR_RETURN(m.numValues, f.i64(5, "num_values"));
  STREAMSIM_ASSIGN_OR_RETURN(m.totalUncompressedSize, f.i64(6, "total_uncompressed_size"));
  STREAMSIM_ASSIGN_OR_RETURN(m.totalCompressedSize, f.i64(7, "total_compressed_size"));
  STREAMSIM_ASSIGN_OR_RETURN(m.dataPageOffset, f.i64(9, "data_page_offset"));
  m.dictionaryPageOffset = f.optI64(11);
  return m;
}

Result<DataPageHeader> dataPageHeader(const Fields& f, bool v2) {
  DataPageHeader h;
  STREAMSIM_ASSIGN_OR_RETURN(h.numValues, f.i32(1, "num_values"));
  if (!v2) {
    STREAMSIM_ASSIGN_OR_RETURN(h.encoding, f.i32(2, "encoding"));
    STREAMSIM_ASSIGN_OR_RETURN(h.definitionLevelEncoding, f.i32(3, "definition_level_encoding"));
    STREAMSIM_ASSIGN_OR_RETURN(h.repetitionLevelEncoding, f.i32(4, "repetition_level_encoding"));
    return h;
  }
  STREAMSIM_ASSIGN_OR_RETURN(h.numNulls, f.i32(2, "num_nulls"));
  STREAMSIM_ASSIGN_OR_RETURN(h.numRows, f.i32(3, "num_rows"));
  STREAMSIM_ASSIGN_OR_RETURN(h.encoding, f.i32(4, "encoding"));
  STREAMSIM_ASSIGN_OR_RETURN(h.definitionLevelsByteLength, f.i32(5, "definition_levels_byte_length"));
  STREAMSIM_ASSIGN_OR_RETURN(h.repetitionLevelsByteLength, f.i32(6, "repetition_levels_byte_length"));
  h.isCompressed = f.optBool(7).value_or(true);
  return h;
}

}  // namespace

std::string_view physicalTypeName(PhysicalType t) {
  static constexpr std::string_view names[] = {"BOOLEAN", "INT32",  "INT64",      "INT96",
                                               "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
  return names[static_cast<int>(t)];
}

std::string encodingName(int32_t e) {
  switch (e) {
    case kPlain: return "PLAIN";
    case kPlainDictionary: return "PLAIN_DICTIONARY";
    case kRle: return "RLE";
    case kBitPacked: return "BIT_PACKED";
    case kDeltaBinaryPacked: return "DELTA_BINARY_PACKED";
    case kDeltaLengthByteArray: return "DELTA_LENGTH_BYTE_ARRAY";
    case kDeltaByteArray: return "DELTA_BYTE_ARRAY";
    case kRleDictionary: return "RLE_DICTIONARY";
    case kByteStreamSplit: return "BYTE_STREAM_SPLIT";
  }
  return fmt::format("encoding {}", e);
}

std::string codecName(int32_t c) {
  static constexpr std::string_view names[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO",
                                               "BROTLI",       "LZ4",    "ZSTD", "LZ4_RAW"};
  if (c >= 0 && c <= 7) return std::string(names[c]);
  return fmt::format("codec {}", c);
}

Result<FileMetaData> decodeFileMetaData(std::string_view bytes, int64_t base, std::string_view fileName) {
  size_t pos = 0;
  STREAMSIM_ASSIGN_OR_RETURN(ThriftStruct s, readThriftStruct(bytes, pos, base, fileName));
  Fields f(s, "FileMetaData", base, fileName);
  FileMetaData md;
  STREAMSIM_ASSIGN_OR_RETURN(md.version, f.i32(1, "version"));
  STREAMSIM_ASSIGN_OR_RETURN(const ThriftList* schema, f.list(2, "schema"));
  for (const ThriftValue& v : *schema) {
    STREAMSIM_ASSIGN_OR_RETURN(Fields e, Fields::element(v, "SchemaElement", fileName));
    STREAMSIM_ASSIGN_OR_RETURN(SchemaElement el, schemaElement(e));
    md.schema.push_back(std::move(el));
  }
  STREAMSIM_ASSIGN_OR_RETURN(md.numRows, f.i64(3, "num_rows"));
  STREAMSIM_ASSIGN_OR_RETURN(const ThriftList* groups, f.list(4, "row_groups"));
  for (const ThriftValue& v : *groups) {
    STREAMSIM_ASSIGN_OR_RETURN(Fields g, Fields::element(v, "RowGroup", fileName));
    RowGroup rg;
    STREAMSIM_ASSIGN_OR_RETURN(rg.totalByteSize, g.i64(2, "total_byte_size"));
    STREAMSIM_ASSIGN_OR_RETURN(rg.numRows, g.i64(3, "num_rows"));
    STREAMSIM_ASSIGN_OR_RETURN(const ThriftList* cols, g.list(1, "columns"));
    for (const ThriftValue& cv : *cols) {
      STREAMSIM_ASSIGN_OR_RETURN(Fields c, Fields::element(cv, "ColumnChunk", fileName));
      ColumnChunk cc;
      cc.offset = c.offset();
      cc.filePath = c.optStr(1);
      cc.fileOffset = c.optI64(2).value_or(0);
      if (c.has(3)) {
        STREAMSIM_ASSIGN_OR_RETURN(Fields m, c.sub(3, "ColumnMetaData"));
        STREAMSIM_ASSIGN_OR_RETURN(cc.metaData, columnMetaData(m));
      }
      rg.columns.push_back(std::move(cc));
    }
    md.rowGroups.push_back(std::move(rg));
  }
  if (f.has(5)) {
    STREAMSIM_ASSIGN_OR_RETURN(const ThriftList* kvs, f.list(5, "key_value_metadata"));
    for (const ThriftValue& v : *kvs) {
      STREAMSIM_ASSIGN_OR_RETURN(Fields kv, Fields::element(v, "KeyValue", fileName));
      KeyValue k;
      STREAMSIM_ASSIGN_OR_RETURN(k.key, kv.str(1, "key"));
      k.value = kv.optStr(2);
      md.keyValueMetadata.push_back(std::move(k));
    }
  }
  md.createdBy = f.optStr(6);
  md.encrypted = f.has(8);
  return md;
}

Result<PageHeader> decodePageHeader(std::string_view bytes, size_t& pos, int64_t base,
                                    std::string_view fileName) {
  int64_t at = base + static_cast<int64_t>(pos);
  STREAMSIM_ASSIGN_OR_RETURN(ThriftStruct s, readThriftStruct(bytes, pos, base, fileName));
  Fields f(s, "PageHeader", at, fileName);
  PageHeader h;
  STREAMSIM_ASSIGN_OR_RETURN(h.type, f.i32(1, "type"));
  STREAMSIM_ASSIGN_OR_RETURN(h.uncompressedPageSize, f.i32(2, "uncompressed_page_size"));
  STREAMSIM_ASSIGN_OR_RETURN(h.compressedPageSize, f.i32(3, "compressed_page_size"));
  if (h.uncompressedPageSize < 0 || h.compressedPageSize < 0)
    return f.error(2, "a page size of at least 0");
  if (f.has(5)) {
    STREAMSIM_ASSIGN_OR_RETURN(Fields d, f.sub(5, "DataPageHeader"));
    STREAMSIM_ASSIGN_OR_RETURN(h.dataPage, dataPageHeader(d, false));
  }
  if (f.has(7)) {
    STREAMSIM_ASSIGN_OR_RETURN(Fields d, f.sub(7, "DictionaryPageHeader"));
    DictionaryPageHeader dh;
    STREAMSIM_ASSIGN_OR_RETURN(dh.numValues, d.i32(1, "num_values"));
    STREAMSIM_ASSIGN_OR_RETURN(dh.encoding, d.i32(2, "encoding"));
    h.dictionaryPage = dh;
  }
  if (f.has(8)) {
    STREAMSIM_ASSIGN_OR_RETURN(Fields d, f.sub(8, "DataPageHeaderV2"));
    STREAMSIM_ASSIGN_OR_RETURN(h.dataPageV2, dataPageHeader(d, true));
  }
  return h;
}

namespace {

void encodeLogicalType(const LogicalType& t, ThriftWriter& w) {
  auto empty = [&](int16_t id) {
    w.fieldStruct(id);
    w.beginStruct();
    w.endStruct();
  };
  w.beginStruct();
  switch (t.kind) {
    case LogicalType::Kind::kString: empty(1); break;
    case LogicalType::Kind::kMap: empty(2); break;
    case LogicalType::Kind::kList: empty(3); break;
    case LogicalType::Kind::kDate: empty(6); break;
    case LogicalType::Kind::kTimestamp:
      w.fieldStruct(8);
      w.beginStruct();
      w.fieldBool(1, t.adjustedToUtc);
      w.fieldStruct(2);
      w.beginStruct();
      empty(t.unit == LogicalType::TimeUnit::kMillis ? 1 : t.unit == LogicalType::TimeUnit::kMicros ? 2 : 3);
      w.endStruct();
      w.endStruct();
      break;
    default: break;  // the writer uses no other logical type
  }
  w.endStruct();
}

}  // namespace

void encodeFileMetaData(const FileMetaData& md, ThriftWriter& w) {
  w.beginStruct();
  w.fieldI32(1, md.version);
  w.fieldList(2, ThriftType::kStruct, md.schema.size());
  for (const SchemaElement& e : md.schema) {
    w.beginStruct();
    if (e.type) w.fieldI32(1, static_cast<int32_t>(*e.type));
    if (e.typeLength != 0) w.fieldI32(2, e.typeLength);
    if (e.repetition) w.fieldI32(3, static_cast<int32_t>(*e.repetition));
    w.fieldBinary(4, e.name);
    if (!e.type) w.fieldI32(5, e.numChildren);
    if (e.convertedType) w.fieldI32(6, *e.convertedType);
    if (e.logicalType.kind != LogicalType::Kind::kNone) {
      w.fieldStruct(10);
      encodeLogicalType(e.logicalType, w);
    }
    w.endStruct();
  }
  w.fieldI64(3, md.numRows);
  w.fieldList(4, ThriftType::kStruct, md.rowGroups.size());
  for (const RowGroup& rg : md.rowGroups) {
    w.beginStruct();
    w.fieldList(1, ThriftType::kStruct, rg.columns.size());
    for (const ColumnChunk& cc : rg.columns) {
      w.beginStruct();
      w.fieldI64(2, cc.fileOffset);
      if (cc.metaData) {
        const ColumnMetaData& m = *cc.metaData;
        w.fieldStruct(3);
        w.beginStruct();
        w.fieldI32(1, static_cast<int32_t>(m.type));
        w.fieldList(2, ThriftType::kI32, m.encodings.size());
        for (int32_t e : m.encodings) w.i32Element(e);
        w.fieldList(3, ThriftType::kBinary, m.path.size());
        for (const std::string& p : m.path) w.binaryElement(p);
        w.fieldI32(4, m.codec);
        w.fieldI64(5, m.numValues);
        w.fieldI64(6, m.totalUncompressedSize);
        w.fieldI64(7, m.totalCompressedSize);
        w.fieldI64(9, m.dataPageOffset);
        if (m.dictionaryPageOffset) w.fieldI64(11, *m.dictionaryPageOffset);
        w.endStruct();
      }
      w.endStruct();
    }
    w.fieldI64(2, rg.totalByteSize);
    w.fieldI64(3, rg.numRows);
    w.endStruct();
  }
  if (!md.keyValueMetadata.empty()) {
    w.fieldList(5, ThriftType::kStruct, md.keyValueMetadata.size());
    for (const KeyValue& kv : md.keyValueMetadata) {
      w.beginStruct();
      w.fieldBinary(1, kv.key);
      if (kv.value) w.fieldBinary(2, *kv.value);
      w.endStruct();
    }
  }
  if (md.createdBy) w.fieldBinary(6, *md.createdBy);
  w.endStruct();
}

void encodePageHeader(const PageHeader& h, ThriftWriter& w) {
  w.beginStruct();
  w.fieldI32(1, h.type);
  w.fieldI32(2, h.uncompressedPageSize);
  w.fieldI32(3, h.compressedPageSize);
  if (h.dataPage) {
    w.fieldStruct(5);
    w.beginStruct();
    w.fieldI32(1, h.dataPage->numValues);
    w.fieldI32(2, h.dataPage->encoding);
    w.fieldI32(3, h.dataPage->definitionLevelEncoding);
    w.fieldI32(4, h.dataPage->repetitionLevelEncoding);
    w.endStruct();
  }
  w.endStruct();
}

}  // namespace streamsim::parquet
