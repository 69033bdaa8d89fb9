#include "streamsim/trace_events.h"

#include <array>

#include "json_text.h"

namespace streamsim {
namespace events {
namespace {
constexpr auto kAll = std::to_array<EventInfo>({
    {kQueryStarted, "id, runId, name, options (the query's start)"},
    {kQueryFailed, "batch, error (the query stopped with an error)"},
    {kQueryStopped, "nextBatch"},
    {kBatchPlanned, "batch, rerun, timestamp, watermark (realTime, until in real-time mode)"},
    {kNoDataBatchWithheld, "batch (the no-data batch Spark does not run on a run's first trigger)"},
    {kOffsetsWritten, "batch (offsets/N written)"},
    {kInput, "batch, rows"},
    {kSinkWrite, "batch, rows (the query); sink, batch, rows, skipped or files (the sink)"},
    {kSinkSkip, "sink, batch, latestCommitted (a re-run batch the sink already has)"},
    {kCommit, "batch, nextWatermark (commits/N written)"},
    {kProgress, "progress (StreamingQueryProgress JSON)"},
    {kLogsPurged, "batch, below (offsets and commits below it deleted)"},
    {kFilesTaken, "batch, source, logOffset, files"},
    {kCleanSource, "batch, action, path (and the archive path)"},
    {kCleanSourceFailed, "batch, action or logOffset, path, error"},
    {kTaskAttempt, "operator, batch, partition, attempt (later events belong to this attempt)"},
    {kStateCommit, "operator, partition, version, keys"},
    {kStateFilesDeleted, "operator, partition, version, count"},
    {kStateFileReplaced, "path, reason (torn or content differs)"},
    {kStateSnapshotSkipped, "path, error (a snapshot that does not parse; recovery goes further back)"},
    {kTwsRows, "in, out (a handleInputRows call)"},
    {kTwsOutput, "rows (the rows one call emitted; only with QueryOptions::traceOutputRows)"},
    {kTwsSwitch, "an async context switch taken: the key that ran, where it resumed, instead of whom"},
    {kTimerRegistered, "ts"},
    {kTimerDeleted, "ts"},
    {kTimerFired, "ts"},
    {kTtlExpired, "state, count (values removed by TTL in a batch)"},
    {kTtlRead, "state, stored, returned, expiresAt"},
    {kTtlWrite, "state, expiresAt"},
    {kTtlClear, "state"},
    {kTtlListRead, "state, expiresAt (per element)"},
    {kTtlListWrite, "state, mode (put or append), count, expiresAt"},
    {kTtlListClear, "state"},
    {kTtlMapRead, "state, userKey, stored, returned, expiresAt"},
    {kTtlMapWrite, "state, userKey, expiresAt"},
    {kTtlMapIter, "state, expiresAt (per entry returned)"},
    {kTtlMapRemove, "state, userKey"},
    {kTtlMapClear, "state"},
    {kFaultInjected, "kind, point, batch, partition, pass, step (true: a scenario step's fault, not the plan's)"},
    {kCrashApplied, "the torn-write rules' effect on the files"},
    {kDriverDown, "after, batch, from, until (an outage's downtime)"},
});
}  // namespace

std::span<const EventInfo> allEvents() { return kAll; }

bool isEvent(std::string_view name) {
  for (const auto& e : allEvents())
    if (e.name == name) return true;
  return false;
}

}  // namespace events

TraceEvent::TraceEvent(std::string_view name) {
  text_ = "{\"event\":";
  detail::appendJsonString(text_, name);
}

TraceEvent::TraceEvent(std::string_view name, int64_t batch) {
  text_ = "{\"batch\":";
  detail::appendJsonInt(text_, batch);
  text_ += ",\"event\":";
  detail::appendJsonString(text_, name);
}

std::string_view traceEventName(std::string_view line) {
  constexpr std::string_view kEventFirst = "{\"event\":\"";
  constexpr std::string_view kBatchFirst = "{\"batch\":";
  constexpr std::string_view kEventAfterBatch = ",\"event\":\"";
  size_t at = std::string_view::npos;
  if (line.starts_with(kEventFirst)) {
    at = kEventFirst.size();
  } else if (line.starts_with(kBatchFirst)) {
    size_t i = kBatchFirst.size();
    while (i < line.size() && (line[i] == '-' || (line[i] >= '0' && line[i] <= '9'))) ++i;
    if (line.substr(i).starts_with(kEventAfterBatch)) at = i + kEventAfterBatch.size();
  }
  if (at == std::string_view::npos) {
    constexpr std::string_view kMember = "\"event\":\"";
    const size_t k = line.find(kMember);
    if (k == std::string_view::npos) return {};
    at = k + kMember.size();
  }
  const size_t end = line.find('"', at);
  if (end == std::string_view::npos) return {};
  const std::string_view name = line.substr(at, end - at);
  return name.find('\\') == std::string_view::npos ? name : std::string_view();
}

void TraceEvent::addKey(std::string_view key) {
  text_ += ',';
  detail::appendJsonString(text_, key);
  text_ += ':';
}

void TraceEvent::addInt(std::string_view key, int64_t v) {
  addKey(key);
  detail::appendJsonInt(text_, v);
}

TraceEvent& TraceEvent::add(std::string_view key, std::string_view s) {
  addKey(key);
  detail::appendJsonString(text_, s);
  return *this;
}

TraceEvent& TraceEvent::addJson(std::string_view key, std::string_view json) {
  addKey(key);
  text_ += json;
  return *this;
}

TraceEvent& TraceEvent::addMembers(std::string_view members) {
  if (!members.empty()) {
    text_ += ',';
    text_ += members;
  }
  return *this;
}

std::string TraceEvent::done() {
  text_ += '}';
  return std::move(text_);
}

void TraceEvent::emit(TraceSink* sink) {
  if (sink != nullptr) sink->event(done());
}

}  // namespace streamsim
