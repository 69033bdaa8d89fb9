#include "streamsim/progress.h"

#include <nlohmann/json.hpp>

#include "streamsim/trigger.h"

namespace streamsim {

// Field names follow Spark's StreamingQueryProgress JSON.
std::string QueryProgress::toJson() const {
  nlohmann::ordered_json j;
  j["id"] = id;
  j["runId"] = runId;
  j["batchId"] = batchId;
  j["timestamp"] = formatTimestamp(timestamp);
  j["batchTimestampMs"] = timestamp;
  j["numInputRows"] = numInputRows;
  j["numOutputRows"] = numOutputRows;
  j["numRowsDroppedByWatermark"] = numRowsDroppedByWatermark;
  j["rerun"] = rerun;
  nlohmann::ordered_json et = nlohmann::ordered_json::object();
  if (eventTime.min) et["min"] = formatTimestamp(*eventTime.min);
  if (eventTime.max) et["max"] = formatTimestamp(*eventTime.max);
  if (eventTime.avg) et["avg"] = formatTimestamp(static_cast<TimeMs>(*eventTime.avg));
  et["watermark"] = formatTimestamp(eventTime.watermark);
  j["eventTime"] = et;
  j["stateOperators"] = nlohmann::ordered_json::array();
  for (const auto& s : stateOperators) {
    nlohmann::ordered_json o;
    o["operatorName"] = s.operatorName;
    o["numRowsTotal"] = s.numRowsTotal;
    o["numRowsUpdated"] = s.numRowsUpdated;
    o["numRowsRemoved"] = s.numRowsRemoved;
    o["numRowsDroppedByWatermark"] = s.numRowsDroppedByWatermark;
    o["numShufflePartitions"] = s.numShufflePartitions;
    o["customMetrics"] = {{"numTimersFired", s.numTimersFired},
                          {"numValuesRemovedByTTL", s.numValuesRemovedByTTL}};
    j["stateOperators"].push_back(o);
  }
  j["sources"] = nlohmann::ordered_json::array();
  for (const auto& s : sources) {
    nlohmann::ordered_json o;
    o["description"] = s.description;
    o["startOffset"] = s.startOffset.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json::parse(s.startOffset, nullptr, false);
    o["endOffset"] = s.endOffset.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json::parse(s.endOffset, nullptr, false);
    o["numInputRows"] = s.numInputRows;
    j["sources"].push_back(o);
  }
  return j.dump();
}

std::string Trigger::toString() const {
  switch (kind) {
    case Kind::kDefault: return "default";
    case Kind::kProcessingTime: return "processingTime(" + formatDuration(intervalMs) + ")";
    case Kind::kAvailableNow: return "availableNow";
    case Kind::kOnce: return "once";
  }
  return "?";
}

}  // namespace streamsim
