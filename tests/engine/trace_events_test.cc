// The trace's one writer and its registry of event names (trace_events.h).
#include "streamsim/trace_events.h"

#include <set>
#include <string>

#include <gtest/gtest.h>

namespace streamsim {
namespace {

TEST(TraceEvent, WritesFieldsInTheOrderAdded) {
  std::string json = TraceEvent(events::kSinkWrite)
                         .add("sink", "memory")
                         .add("batch", int64_t{3})
                         .add("rows", size_t{2})
                         .add("skipped", false)
                         .addJson("files", "[\"a\"]")
                         .done();
  EXPECT_EQ(json, R"({"event":"sink_write","sink":"memory","batch":3,"rows":2,"skipped":false,"files":["a"]})");
}

TEST(TraceEvent, BatchProtocolEventsPutTheBatchFirst) {
  EXPECT_EQ(TraceEvent(events::kCommit, 7).add("nextWatermark", int64_t{-1}).done(),
            R"({"batch":7,"event":"commit","nextWatermark":-1})");
}

TEST(TraceEvent, AStringLiteralIsAStringNotABoolean) {
  // const char* converts to bool before string_view: the writer must not take that path.
  EXPECT_EQ(TraceEvent(events::kCleanSource).add("action", "delete").done(),
            R"({"event":"clean_source","action":"delete"})");
}

TEST(TraceEvent, StringsAreEscapedAndBytesThatAreNotUtf8Replaced) {
  std::string path = "/in/a\"b\xff.json";
  std::string json = TraceEvent(events::kStateFileReplaced).add("path", path).done();
  EXPECT_EQ(json, "{\"event\":\"state_file_replaced\",\"path\":\"/in/a\\\"b\xef\xbf\xbd.json\"}");
}

TEST(TraceEvent, MembersAreAppendedAsWritten) {
  EXPECT_EQ(TraceEvent(events::kTimerFired).add("operator", 0).addMembers("\"ts\":5").done(),
            R"({"event":"tws.timer_fired","operator":0,"ts":5})");
  EXPECT_EQ(TraceEvent(events::kTtlClear).addMembers("").done(), R"({"event":"tws.ttl_clear"})");
}

TEST(TraceEvent, EmitsNothingWithoutASink) {
  TraceEvent(events::kInput, 0).emit(nullptr);  // must not crash
  struct Recorder : TraceSink {
    std::string last;
    void event(std::string_view json) override { last = json; }
  } recorder;
  TraceEvent(events::kInput, 0).add("rows", 1).emit(&recorder);
  EXPECT_EQ(recorder.last, R"({"batch":0,"event":"input","rows":1})");
}

TEST(TraceEvents, NamesAreUniqueAndRegistered) {
  std::set<std::string_view> seen;
  for (const auto& e : events::allEvents()) {
    EXPECT_TRUE(seen.insert(e.name).second) << "registered twice: " << e.name;
    EXPECT_FALSE(e.fields.empty()) << e.name;
    EXPECT_TRUE(events::isEvent(e.name));
  }
  EXPECT_FALSE(events::isEvent("no_such_event"));
  EXPECT_TRUE(events::isEvent(events::kDriverDown));
}

}  // namespace
}  // namespace streamsim
