// Parquet's footer and page headers as plain structs, read from and written to the Thrift
// compact protocol (parquet-format src/main/thrift/parquet.thrift: FileMetaData, SchemaElement,
// RowGroup, ColumnChunk, ColumnMetaData, PageHeader, DataPageHeader, DataPageHeaderV2,
// DictionaryPageHeader, LogicalType). Only the fields streamsim reads or writes are kept; the
// others are skipped on reading. A missing required field is an error naming the file, the
// offset of the struct and the field. Thread-safety: plain values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/parquet/thrift_compact.h"
#include "streamsim/status.h"

namespace streamsim::parquet {

// parquet.thrift enum Type.
enum class PhysicalType { kBoolean = 0, kInt32 = 1, kInt64 = 2, kInt96 = 3, kFloat = 4, kDouble = 5,
                          kByteArray = 6, kFixedLenByteArray = 7 };
std::string_view physicalTypeName(PhysicalType t);
// parquet.thrift enum FieldRepetitionType.
enum class Repetition { kRequired = 0, kOptional = 1, kRepeated = 2 };
// parquet.thrift enum ConvertedType (the values streamsim looks at).
enum ConvertedType : int32_t {
  kUtf8 = 0, kMap = 1, kMapKeyValue = 2, kList = 3, kEnum = 4, kDecimal = 5, kDate = 6,
  kTimeMillis = 7, kTimeMicros = 8, kTimestampMillis = 9, kTimestampMicros = 10,
  kUint8 = 11, kUint16 = 12, kUint32 = 13, kUint64 = 14, kInt8 = 15, kInt16 = 16, kInt32 = 17,
  kInt64 = 18, kJson = 19, kBson = 20, kInterval = 21,
};
// parquet.thrift enum Encoding.
enum Encoding : int32_t {
  kPlain = 0, kPlainDictionary = 2, kRle = 3, kBitPacked = 4, kDeltaBinaryPacked = 5,
  kDeltaLengthByteArray = 6, kDeltaByteArray = 7, kRleDictionary = 8, kByteStreamSplit = 9,
};
std::string encodingName(int32_t e);
// parquet.thrift enum CompressionCodec.
enum Codec : int32_t { kUncompressed = 0, kSnappy = 1, kGzip = 2, kLzo = 3, kBrotli = 4, kLz4 = 5,
                       kZstd = 6, kLz4Raw = 7 };
std::string codecName(int32_t c);
// parquet.thrift enum PageType.
enum PageType : int32_t { kDataPage = 0, kIndexPage = 1, kDictionaryPage = 2, kDataPageV2 = 3 };

// The parts of LogicalType streamsim understands (union field ids in the comments).
struct LogicalType {
  enum class Kind { kNone, kString /*1*/, kMap /*2*/, kList /*3*/, kEnum /*4*/, kDecimal /*5*/,
                    kDate /*6*/, kTime /*7*/, kTimestamp /*8*/, kInteger /*10*/, kUnknown /*11*/,
                    kJson /*12*/, kBson /*13*/, kUuid /*14*/, kFloat16 /*15*/, kOther };
  enum class TimeUnit { kMillis, kMicros, kNanos };
  Kind kind = Kind::kNone;
  int otherId = 0;              // kOther: the union's field id
  TimeUnit unit = TimeUnit::kMicros;  // kTime, kTimestamp
  bool adjustedToUtc = true;    // kTime, kTimestamp
  int bitWidth = 0;             // kInteger
  bool isSigned = true;         // kInteger
};

struct SchemaElement {
  std::optional<PhysicalType> type;  // absent: a group
  int32_t typeLength = 0;
  std::optional<Repetition> repetition;  // absent only on the root
  std::string name;
  int32_t numChildren = 0;
  std::optional<int32_t> convertedType;
  LogicalType logicalType;
  int64_t offset = 0;  // where it was read (messages)
};

struct ColumnMetaData {
  PhysicalType type = PhysicalType::kInt32;
  std::vector<int32_t> encodings;
  std::vector<std::string> path;
  int32_t codec = kUncompressed;
  int64_t numValues = 0;
  int64_t totalUncompressedSize = 0;
  int64_t totalCompressedSize = 0;
  int64_t dataPageOffset = 0;
  std::optional<int64_t> dictionaryPageOffset;
};

struct ColumnChunk {
  std::optional<std::string> filePath;  // another file: not read by streamsim
  int64_t fileOffset = 0;
  std::optional<ColumnMetaData> metaData;
  int64_t offset = 0;
};

struct RowGroup {
  std::vector<ColumnChunk> columns;
  int64_t totalByteSize = 0;
  int64_t numRows = 0;
};

struct KeyValue {
  std::string key;
  std::optional<std::string> value;
};

struct FileMetaData {
  int32_t version = 1;
  std::vector<SchemaElement> schema;
  int64_t numRows = 0;
  std::vector<RowGroup> rowGroups;
  std::vector<KeyValue> keyValueMetadata;
  std::optional<std::string> createdBy;
  bool encrypted = false;  // encryption_algorithm present (plaintext footer mode)
};

struct DataPageHeader {  // v1 (field 5) and v2 (field 8) both land here
  int32_t numValues = 0;
  int32_t encoding = kPlain;
  int32_t definitionLevelEncoding = kRle;  // v1 only
  int32_t repetitionLevelEncoding = kRle;  // v1 only
  // v2 only:
  int32_t numNulls = 0;
  int32_t numRows = 0;
  int32_t definitionLevelsByteLength = 0;
  int32_t repetitionLevelsByteLength = 0;
  bool isCompressed = true;
};

struct DictionaryPageHeader {
  int32_t numValues = 0;
  int32_t encoding = kPlain;
};

struct PageHeader {
  int32_t type = kDataPage;
  int32_t uncompressedPageSize = 0;
  int32_t compressedPageSize = 0;
  std::optional<DataPageHeader> dataPage;      // DATA_PAGE
  std::optional<DataPageHeader> dataPageV2;    // DATA_PAGE_V2
  std::optional<DictionaryPageHeader> dictionaryPage;
};

Result<FileMetaData> decodeFileMetaData(std::string_view bytes, int64_t base, std::string_view fileName);
// Reads a page header at `pos` (advanced past it).
Result<PageHeader> decodePageHeader(std::string_view bytes, size_t& pos, int64_t base,
                                    std::string_view fileName);

void encodeFileMetaData(const FileMetaData& md, ThriftWriter& w);
void encodePageHeader(const PageHeader& h, ThriftWriter& w);

}  // namespace streamsim::parquet
