// The one registry of trace events (DESIGN.md §4 "Trace") and their one writer. The engine, the
// simulator and the harness write every event with TraceEvent under a name from here; the
// oracles, `replay` and the reports read them by the same names. Names are stable: traces are
// fingerprinted, and the oracles match on them.
#pragma once

#include <concepts>
#include <span>
#include <string>
#include <string_view>

#include "streamsim/env.h"

namespace streamsim::events {

// The query's run (streaming_query.cc, real_time_execution.cc).
inline constexpr std::string_view kQueryStarted = "query_started";
inline constexpr std::string_view kQueryFailed = "query_failed";
inline constexpr std::string_view kQueryStopped = "query_stopped";
inline constexpr std::string_view kBatchPlanned = "batch_planned";
inline constexpr std::string_view kNoDataBatchWithheld = "no_data_batch_withheld";
inline constexpr std::string_view kOffsetsWritten = "offsets_written";
inline constexpr std::string_view kInput = "input";
inline constexpr std::string_view kSinkWrite = "sink_write";
inline constexpr std::string_view kSinkSkip = "sink_skip";
inline constexpr std::string_view kCommit = "commit";
inline constexpr std::string_view kProgress = "progress";
inline constexpr std::string_view kLogsPurged = "logs_purged";
// The file source.
inline constexpr std::string_view kFilesTaken = "files_taken";
inline constexpr std::string_view kCleanSource = "clean_source";
inline constexpr std::string_view kCleanSourceFailed = "clean_source_failed";
// Stateful operators and their state stores.
inline constexpr std::string_view kTaskAttempt = "task_attempt";
inline constexpr std::string_view kStateCommit = "state_commit";
inline constexpr std::string_view kStateFilesDeleted = "state_files_deleted";
inline constexpr std::string_view kStateFileReplaced = "state_file_replaced";
inline constexpr std::string_view kStateSnapshotSkipped = "state_snapshot_skipped";
// transformWithState (each with operator, batch, partition and key).
inline constexpr std::string_view kTwsRows = "tws.rows";
// The rows one call emitted, {"rows":[...]} (only with QueryOptions::traceOutputRows).
inline constexpr std::string_view kTwsOutput = "tws.output";
inline constexpr std::string_view kTwsSwitch = "tws.switch";
inline constexpr std::string_view kTimerRegistered = "tws.timer_registered";
inline constexpr std::string_view kTimerDeleted = "tws.timer_deleted";
inline constexpr std::string_view kTimerFired = "tws.timer_fired";
inline constexpr std::string_view kTtlExpired = "tws.ttl_expired";
inline constexpr std::string_view kTtlRead = "tws.ttl_read";
inline constexpr std::string_view kTtlWrite = "tws.ttl_write";
inline constexpr std::string_view kTtlClear = "tws.ttl_clear";
inline constexpr std::string_view kTtlListRead = "tws.ttl_list_read";
inline constexpr std::string_view kTtlListWrite = "tws.ttl_list_write";
inline constexpr std::string_view kTtlListClear = "tws.ttl_list_clear";
inline constexpr std::string_view kTtlMapRead = "tws.ttl_map_read";
inline constexpr std::string_view kTtlMapWrite = "tws.ttl_map_write";
inline constexpr std::string_view kTtlMapIter = "tws.ttl_map_iter";
inline constexpr std::string_view kTtlMapRemove = "tws.ttl_map_remove";
inline constexpr std::string_view kTtlMapClear = "tws.ttl_map_clear";
// The simulation (sim/, harness/): faults and outages.
inline constexpr std::string_view kFaultInjected = "fault_injected";
inline constexpr std::string_view kCrashApplied = "crash_applied";
inline constexpr std::string_view kDriverDown = "driver_down";

struct EventInfo {
  std::string_view name;
  std::string_view fields;  // what the event carries besides its name
};

// Every event, in the order of the names above.
std::span<const EventInfo> allEvents();
bool isEvent(std::string_view name);

}  // namespace streamsim::events

namespace streamsim {

// One trace event's JSON object, fields in the order they are added: `{"event":NAME,...}`, or
// for the batch protocol's own events `{"batch":B,"event":NAME,...}` (the order the trace has
// always had). Strings are JSON-escaped (bytes that are not UTF-8 become U+FFFD); add a ready
// JSON value with addJson. Cheap: one string, no DOM.
class TraceEvent {
 public:
  explicit TraceEvent(std::string_view name);
  TraceEvent(std::string_view name, int64_t batch);

  template <std::integral T>
  TraceEvent& add(std::string_view key, T v) {
    if constexpr (std::same_as<T, bool>) {
      addKey(key);
      text_ += v ? "true" : "false";
    } else {
      addInt(key, static_cast<int64_t>(v));
    }
    return *this;
  }
  TraceEvent& add(std::string_view key, std::string_view s);
  TraceEvent& add(std::string_view key, const char* s) { return add(key, std::string_view(s)); }
  TraceEvent& add(std::string_view key, const std::string& s) { return add(key, std::string_view(s)); }
  TraceEvent& addJson(std::string_view key, std::string_view json);
  // Fields already written as JSON members (`"ts":5,"in":2`), appended as they are.
  TraceEvent& addMembers(std::string_view members);

  std::string done();  // the JSON (the event is spent)
  // Writes the event to `sink` (nothing when null).
  void emit(TraceSink* sink);

 private:
  void addKey(std::string_view key);
  void addInt(std::string_view key, int64_t v);
  std::string text_;
};

// The name of the event a trace line holds, read off the line without parsing it: the shapes
// TraceEvent writes (`{"event":NAME` or `{"batch":B,"event":NAME`) at their fixed place, any other
// line by its first `"event":"` member. Empty when the line has none, or a name with an escape
// (no registered name has one). The trace scans filter on it before parsing the few lines they
// read (a run's trace has thousands of lines).
std::string_view traceEventName(std::string_view line);

}  // namespace streamsim
