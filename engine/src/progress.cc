#include "streamsim/progress.h"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "json_text.h"

#include "streamsim/trigger.h"
#include "streamsim/json_nesting.h"

namespace streamsim {

namespace {

// True when `text` is a one-field object {"name":N} (a plain name, an integer without a leading
// zero, no spaces) — the offsets both built-in sources write —, which nlohmann's parse + dump
// gives back unchanged.
bool isCompactIntObject(std::string_view text) {
  if (text.size() < 7 || text.substr(0, 2) != "{\"" || text.back() != '}') return false;
  size_t i = 2;
  const size_t nameStart = i;
  while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_')) ++i;
  if (i == nameStart || text.substr(i, 2) != "\":") return false;
  i += 2;
  const bool negative = i < text.size() && text[i] == '-';
  if (negative) ++i;
  const size_t digits = i;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
  const size_t n = i - digits;
  if (n == 0 || n > 18 || (text[digits] == '0' && (n > 1 || negative))) return false;
  return i + 1 == text.size();
}

// An offset as the progress JSON shows it: re-serialised compactly by nlohmann (null when
// empty; a text that does not parse shows as nlohmann's discarded value), the common compact
// offsets copied as they are (the same bytes).
void appendOffset(std::string& out, const std::string& offset) {
  if (offset.empty()) {
    out += "null";
  } else if (isCompactIntObject(offset)) {
    out += offset;
  } else {
    out += parseJsonBounded<nlohmann::ordered_json>(offset).dump();
  }
}

}  // namespace

// Field names follow Spark's StreamingQueryProgress JSON. Written straight into the string (a
// DOM built per batch and dumped was ~78k instructions a call); the bytes are those of the
// nlohmann::ordered_json this replaced (pinned by tests/engine/progress_test.cc).
std::string QueryProgress::toJson() const {
  using detail::appendJsonInt;
  using detail::appendJsonString;
  std::string out;
  out.reserve(512);
  auto intField = [&out](std::string_view name, int64_t v) {  // ,"name":v
    out += ",\"";
    out += name;
    out += "\":";
    appendJsonInt(out, v);
  };
  out += "{\"id\":";
  appendJsonString(out, id);
  out += ",\"runId\":";
  appendJsonString(out, runId);
  intField("batchId", batchId);
  out += ",\"timestamp\":\"";
  appendTimestamp(out, timestamp);
  out += "\",\"batchTimestampMs\":";
  appendJsonInt(out, timestamp);
  intField("numInputRows", numInputRows);
  intField("numOutputRows", numOutputRows);
  intField("numRowsDroppedByWatermark", numRowsDroppedByWatermark);
  out += rerun ? ",\"rerun\":true" : ",\"rerun\":false";
  out += ",\"eventTime\":{";
  auto timestampField = [&out](const char* name, TimeMs t) {
    out += name;
    appendTimestamp(out, t);
    out += "\",";
  };
  if (eventTime.min) timestampField("\"min\":\"", *eventTime.min);
  if (eventTime.max) timestampField("\"max\":\"", *eventTime.max);
  if (eventTime.avg) timestampField("\"avg\":\"", static_cast<TimeMs>(*eventTime.avg));
  out += "\"watermark\":\"";
  appendTimestamp(out, eventTime.watermark);
  out += "\"},\"stateOperators\":[";
  for (size_t i = 0; i < stateOperators.size(); ++i) {
    const StateOperatorProgress& s = stateOperators[i];
    if (i > 0) out.push_back(',');
    out += "{\"operatorName\":";
    appendJsonString(out, s.operatorName);
    intField("numRowsTotal", s.numRowsTotal);
    intField("numRowsUpdated", s.numRowsUpdated);
    intField("numRowsRemoved", s.numRowsRemoved);
    intField("numRowsDroppedByWatermark", s.numRowsDroppedByWatermark);
    intField("numShufflePartitions", s.numShufflePartitions);
    out += ",\"customMetrics\":{\"numTimersFired\":";
    appendJsonInt(out, s.numTimersFired);
    intField("numValuesRemovedByTTL", s.numValuesRemovedByTTL);
    if (s.operatorName == "transformWithState") {  // Spark's names of its custom metrics
      intField("numExpiredTimers", s.numTimersFired);
      intField("numRegisteredTimers", s.numRegisteredTimers);
      intField("numDeletedTimers", s.numDeletedTimers);
      intField("numValuesRemovedDueToTTLExpiry", s.numValuesRemovedByTTL);
      intField("numValueStateVars", s.numValueStateVars);
      intField("numListStateVars", s.numListStateVars);
      intField("numMapStateVars", s.numMapStateVars);
      intField("numDeletedStateVars", s.numDeletedStateVars);
      intField("numValueStateWithTTLVars", s.numValueStateWithTTLVars);
      intField("numListStateWithTTLVars", s.numListStateWithTTLVars);
      intField("numMapStateWithTTLVars", s.numMapStateWithTTLVars);
      if (!s.ttlRemovedByVariable.empty()) {
        out += ",\"ttlRemovedByVariable\":{";
        for (size_t v = 0; v < s.ttlRemovedByVariable.size(); ++v) {
          if (v > 0) out.push_back(',');
          appendJsonString(out, s.ttlRemovedByVariable[v].first);
          out.push_back(':');
          appendJsonInt(out, s.ttlRemovedByVariable[v].second);
        }
        out.push_back('}');
      }
    }
    out += "}}";
  }
  out += "],\"sources\":[";
  for (size_t i = 0; i < sources.size(); ++i) {
    const SourceProgress& s = sources[i];
    if (i > 0) out.push_back(',');
    out += "{\"description\":";
    appendJsonString(out, s.description);
    out += ",\"startOffset\":";
    appendOffset(out, s.startOffset);
    out += ",\"endOffset\":";
    appendOffset(out, s.endOffset);
    intField("numInputRows", s.numInputRows);
    out.push_back('}');
  }
  out += ']';
  if (batchDurationMs) intField("batchDurationMs", *batchDurationMs);
  if (latency) {
    out += ",\"latencyMs\":{\"count\":";
    appendJsonInt(out, latency->count);
    intField("p50", latency->p50);
    intField("p95", latency->p95);
    intField("p99", latency->p99);
    intField("max", latency->max);
    out.push_back('}');
  }
  out.push_back('}');
  return out;
}

LatencyStats LatencyStats::of(std::vector<DurationMs> latencies) {
  LatencyStats s;
  s.count = static_cast<int64_t>(latencies.size());
  if (latencies.empty()) return s;
  std::sort(latencies.begin(), latencies.end());
  auto rank = [&](int pct) {  // nearest rank: the smallest value with >= pct% at or below it
    size_t n = latencies.size();
    size_t r = (static_cast<size_t>(pct) * n + 99) / 100;
    return latencies[r == 0 ? 0 : r - 1];
  };
  s.p50 = rank(50);
  s.p95 = rank(95);
  s.p99 = rank(99);
  s.max = latencies.back();
  return s;
}

std::string Trigger::toString() const {
  switch (kind) {
    case Kind::kDefault: return "default";
    case Kind::kProcessingTime: return "processingTime(" + formatDuration(intervalMs) + ")";
    case Kind::kAvailableNow: return "availableNow";
    case Kind::kOnce: return "once";
    case Kind::kRealTime: return "realTime(" + formatDuration(intervalMs) + ")";
  }
  return "?";
}

}  // namespace streamsim
