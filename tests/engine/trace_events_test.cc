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

// traceEventName reads the name where TraceEvent puts it (no parse), so the trace scans
// (harness run/clean_restarts.cc, traceMayHaveEvents) filter lines on it: it must give every
// registered name back from both shapes, whatever follows, and a line of another shape by its
// "event" member.
TEST(TraceEvent, EveryLineItWritesGivesItsNameBackWithoutAParse) {
  for (const auto& e : events::allEvents()) {
    EXPECT_EQ(traceEventName(TraceEvent(e.name).done()), e.name);
    EXPECT_EQ(traceEventName(TraceEvent(e.name).add("event", "other").add("batch", int64_t{2}).done()), e.name);
    EXPECT_EQ(traceEventName(TraceEvent(e.name, -1).add("point", "commits.after_write").done()), e.name);
    EXPECT_EQ(traceEventName(TraceEvent(e.name, 1234567890123).done()), e.name);
  }
  EXPECT_EQ(traceEventName(R"({"after":"crash","event":"driver_down","batch":3})"), "driver_down");
  EXPECT_EQ(traceEventName(R"({"batch":1,"x":2,"event":"commit"})"), "commit");
  // The name is the event's, not a value that looks like one.
  EXPECT_EQ(traceEventName(R"({"event":"sink_write","detail":"tws.timer_fired"})"), "sink_write");
  EXPECT_EQ(traceEventName(R"({"batch":3,"rows":"\"event\":\"commit\""})"), "");
  EXPECT_EQ(traceEventName(R"({"batch":3})"), "");
  EXPECT_EQ(traceEventName(""), "");
  EXPECT_EQ(traceEventName(R"({"event":"unterminated)"), "");
  EXPECT_EQ(traceEventName(R"({"event":"esc\"aped"})"), "");
}

}  // namespace
}  // namespace streamsim
