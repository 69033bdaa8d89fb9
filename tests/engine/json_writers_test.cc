// Row::toJson and QueryProgress::toJson write their JSON straight into a string; these tests pin
// their bytes to what the nlohmann::ordered_json DOM they replaced dumps for the same values
// (sink files, trace events and sweep fingerprints depend on them byte for byte).
#include <cmath>
#include <limits>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "streamsim/progress.h"
#include "streamsim/time.h"
#include "streamsim/value.h"

namespace streamsim {
namespace {

using OJson = nlohmann::ordered_json;

// The DOM writers as they were, but for the non-finite doubles: Spark writes them as the strings
// "NaN", "Infinity", "-Infinity" (nlohmann wrote null).
OJson domValue(const Value& v) {
  switch (v.type()) {
    case Type::kNull: return nullptr;
    case Type::kBoolean: return v.asBool();
    case Type::kInt:
    case Type::kLong: return v.asLong();
    case Type::kDouble:
      if (std::isnan(v.asDouble())) return "NaN";
      if (std::isinf(v.asDouble())) return v.asDouble() > 0 ? "Infinity" : "-Infinity";
      return v.asDouble();
    case Type::kString: return v.asString();
    case Type::kTimestamp: return formatTimestamp(v.asLong());
    case Type::kStruct:
    case Type::kArray:
    case Type::kMap: break;  // the old writers had no nested values (the tests compare scalars)
  }
  return nullptr;
}

std::string domRow(const Row& r) {
  OJson j = OJson::object();
  for (size_t i = 0; i < r.size() && i < r.schema()->size(); ++i) {
    if (r[i].isNull()) continue;
    j[r.schema()->field(i).name] = domValue(r[i]);
  }
  return j.dump();
}

std::string domProgress(const QueryProgress& p) {
  OJson j;
  j["id"] = p.id;
  j["runId"] = p.runId;
  j["batchId"] = p.batchId;
  j["timestamp"] = formatTimestamp(p.timestamp);
  j["batchTimestampMs"] = p.timestamp;
  j["numInputRows"] = p.numInputRows;
  j["numOutputRows"] = p.numOutputRows;
  j["numRowsDroppedByWatermark"] = p.numRowsDroppedByWatermark;
  j["rerun"] = p.rerun;
  OJson et = OJson::object();
  if (p.eventTime.min) et["min"] = formatTimestamp(*p.eventTime.min);
  if (p.eventTime.max) et["max"] = formatTimestamp(*p.eventTime.max);
  if (p.eventTime.avg) et["avg"] = formatTimestamp(static_cast<TimeMs>(*p.eventTime.avg));
  et["watermark"] = formatTimestamp(p.eventTime.watermark);
  j["eventTime"] = et;
  j["stateOperators"] = OJson::array();
  for (const auto& s : p.stateOperators) {
    OJson o;
    o["operatorName"] = s.operatorName;
    o["numRowsTotal"] = s.numRowsTotal;
    o["numRowsUpdated"] = s.numRowsUpdated;
    o["numRowsRemoved"] = s.numRowsRemoved;
    o["numRowsDroppedByWatermark"] = s.numRowsDroppedByWatermark;
    o["numShufflePartitions"] = s.numShufflePartitions;
    o["customMetrics"] = {{"numTimersFired", s.numTimersFired},
                          {"numValuesRemovedByTTL", s.numValuesRemovedByTTL}};
    if (s.operatorName == "transformWithState") {  // Spark's names of its custom metrics
      OJson& m = o["customMetrics"];
      m["numExpiredTimers"] = s.numTimersFired;
      m["numRegisteredTimers"] = s.numRegisteredTimers;
      m["numDeletedTimers"] = s.numDeletedTimers;
      m["numValuesRemovedDueToTTLExpiry"] = s.numValuesRemovedByTTL;
      m["numValueStateVars"] = s.numValueStateVars;
      m["numListStateVars"] = s.numListStateVars;
      m["numMapStateVars"] = s.numMapStateVars;
      m["numDeletedStateVars"] = s.numDeletedStateVars;
      m["numValueStateWithTTLVars"] = s.numValueStateWithTTLVars;
      m["numListStateWithTTLVars"] = s.numListStateWithTTLVars;
      m["numMapStateWithTTLVars"] = s.numMapStateWithTTLVars;
      if (!s.ttlRemovedByVariable.empty()) {
        OJson byVar = OJson::object();
        for (const auto& [name, n] : s.ttlRemovedByVariable) byVar[name] = n;
        m["ttlRemovedByVariable"] = byVar;
      }
    }
    j["stateOperators"].push_back(o);
  }
  j["sources"] = OJson::array();
  for (const auto& s : p.sources) {
    OJson o;
    o["description"] = s.description;
    o["startOffset"] = s.startOffset.empty() ? OJson(nullptr) : OJson::parse(s.startOffset, nullptr, false);
    o["endOffset"] = s.endOffset.empty() ? OJson(nullptr) : OJson::parse(s.endOffset, nullptr, false);
    o["numInputRows"] = s.numInputRows;
    j["sources"].push_back(o);
  }
  return j.dump();
}

SchemaPtr schemaOf(std::vector<std::pair<std::string, Type>> cols) {
  std::vector<Field> fields;
  for (auto& [name, type] : cols) fields.push_back(Field{name, type, true, nullptr});
  return makeSchema(std::move(fields));
}

TEST(RowToJson, WritesWhatTheDomWrote) {
  auto s = schemaOf({{"s", Type::kString}, {"l", Type::kLong}, {"i", Type::kInt}, {"b", Type::kBoolean},
                     {"d", Type::kDouble}, {"t", Type::kTimestamp}});
  const std::vector<std::string> strings = {"", "plain", "quote\"d", "back\\slash", "tab\there",
                                            "nl\n", std::string("nul\0x", 5), "\x1f", "del\x7f",
                                            "caf\xc3\xa9", "\xe2\x82\xac uro"};
  const std::vector<double> doubles = {0.0, -0.0, 1.5, 0.1, 1e300, -2.5e-300, 123456789.0,
                                       std::numeric_limits<double>::quiet_NaN(),
                                       std::numeric_limits<double>::infinity()};
  const std::vector<int64_t> longs = {0, -1, 42, std::numeric_limits<int64_t>::min(),
                                      std::numeric_limits<int64_t>::max()};
  const std::vector<TimeMs> times = {0, 1767225600250, -1000, 253402300800000, -62167219200001};
  int rows = 0;
  for (size_t k = 0; k < 11; ++k) {
    Row r(s, {Value(strings[k % strings.size()]), Value(longs[k % longs.size()]),
              Value(static_cast<int32_t>(k) - 5), Value(k % 2 == 0), Value(doubles[k % doubles.size()]),
              Value::timestamp(times[k % times.size()])});
    EXPECT_EQ(r.toJson(), domRow(r)) << k;
    for (size_t null = 0; null < s->size(); ++null) {  // each column null in turn (omitted)
      Row n = r;
      n[null] = Value();
      EXPECT_EQ(n.toJson(), domRow(n)) << k << " null " << null;
      ++rows;
    }
  }
  EXPECT_EQ(rows, 66);
  // Column names that need escaping; no columns; all null.
  Row odd(schemaOf({{"a \"b\"", Type::kLong}, {"\xc3\xa9t\xc3\xa9", Type::kString}}), {Value(int64_t{1}), Value("x")});
  EXPECT_EQ(odd.toJson(), domRow(odd));
  EXPECT_EQ(Row().toJson(), "{}");
  Row nulls(schemaOf({{"a", Type::kLong}}), {Value()});
  EXPECT_EQ(nulls.toJson(), "{}");
  EXPECT_EQ(Row({{"device", "d1"}, {"count", int64_t{3}}}).toJson(), R"({"device":"d1","count":3})");
}

// A schema naming a column twice: the DOM kept the first one's place with the later value.
TEST(RowToJson, DuplicateColumnNamesKeepTheFirstPlaceAndTheLastValue) {
  Row r(schemaOf({{"a", Type::kLong}, {"b", Type::kLong}, {"a", Type::kString}}),
        {Value(int64_t{1}), Value(int64_t{2}), Value("x")});
  EXPECT_EQ(r.toJson(), R"({"a":"x","b":2})");
  EXPECT_EQ(r.toJson(), domRow(r));
}

// A byte that is not UTF-8 (a landing file's stray byte in a corrupt record) is written as U+FFFD,
// as Java's decoder makes it; it threw nlohmann's type_error and aborted the run (issue 18).
TEST(RowToJson, InvalidUtf8IsWrittenAsTheReplacementCharacter) {
  Row r(schemaOf({{"s", Type::kString}}), {Value(std::string("a\xff" "b"))});
  EXPECT_EQ(r.toJson(), "{\"s\":\"a\xef\xbf\xbd" "b\"}");
}

QueryProgress sampleProgress() {
  QueryProgress p;
  p.id = "0f6e2c1a-8d7e-4f3b-9a6b-2c1d0e9f8a7b";
  p.runId = "run \"1\"";
  p.batchId = 7;
  p.timestamp = 1767225601500;
  p.numInputRows = 100;
  p.numOutputRows = 12;
  p.numRowsDroppedByWatermark = 3;
  p.rerun = true;
  p.eventTime.min = 1767225600000;
  p.eventTime.max = 1767225600999;
  p.eventTime.avg = 1767225600499.75;
  p.eventTime.watermark = 1767225590000;
  StateOperatorProgress s;
  s.operatorName = "transformWithState";
  s.numRowsTotal = 10;
  s.numRowsUpdated = 4;
  s.numRowsRemoved = 1;
  s.numRowsDroppedByWatermark = 3;
  s.numTimersFired = 2;
  s.numValuesRemovedByTTL = 5;
  s.numRegisteredTimers = 3;
  s.numDeletedTimers = 2;
  s.numDeletedStateVars = 4;
  s.numValueStateWithTTLVars = 1;
  s.numListStateVars = 1;
  s.ttlRemovedByVariable = {{"count", 5}, {"w\"eird", 0}};
  s.numShufflePartitions = 2;
  p.stateOperators = {s, s};
  p.stateOperators[1].operatorName = "dedupe\twith tab";
  p.sources = {SourceProgress{"FileStreamSource[/landing]", R"({"logOffset":3})", R"({"logOffset":4})", 100},
               SourceProgress{"MemoryStream", "", R"({"offset":0})", 0}};
  return p;
}

TEST(ProgressToJson, WritesWhatTheDomWrote) {
  QueryProgress p = sampleProgress();
  EXPECT_EQ(p.toJson(), domProgress(p));
  QueryProgress empty;  // no event times, operators or sources
  EXPECT_EQ(empty.toJson(), domProgress(empty));
  EXPECT_EQ(empty.toJson(),
            R"({"id":"","runId":"","batchId":-1,"timestamp":"1970-01-01T00:00:00Z","batchTimestampMs":0,)"
            R"("numInputRows":0,"numOutputRows":0,"numRowsDroppedByWatermark":0,"rerun":false,)"
            R"("eventTime":{"watermark":"1970-01-01T00:00:00Z"},"stateOperators":[],"sources":[]})");
}

// Offsets are shown re-serialised by nlohmann; the compact {"name":N} ones are copied, every
// other text still goes through the parser (spaces, leading zeros, several fields, not JSON).
TEST(ProgressToJson, OffsetsReadTheSameWhetherCopiedOrReSerialised) {
  const std::vector<std::string> offsets = {
      R"({"logOffset":0})", R"({"logOffset":-1})", R"({"logOffset":123456789012345678})",
      R"({"logOffset":1234567890123456789})", R"({"logOffset":99999999999999999999})",
      R"({"logOffset":-0})", R"({"logOffset":007})", R"({ "logOffset" : 3 })", R"({"a":1,"b":2})",
      R"({"a":1,"a":2})", R"({"x\u0041":1})", R"({"logOffset":1.0})", R"({"logOffset":1e3})",
      R"({"logOffset":"3"})", R"({"logOffset":3}x)", R"({"logOffset":})", R"({"":1})", "not json",
      "3", "[1,2]", R"({"offset":{"p0":1}})", R"({"log-offset":1})"};
  for (const std::string& o : offsets) {
    QueryProgress p;
    p.sources = {SourceProgress{"s", o, o, 1}};
    EXPECT_EQ(p.toJson(), domProgress(p)) << o;
  }
}

}  // namespace
}  // namespace streamsim
