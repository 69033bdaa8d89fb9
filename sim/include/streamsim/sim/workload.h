// Workload generators (DESIGN.md §4): keyed event streams with key skew, bounded event-time
// disorder, rows late beyond a given delay and duplicate rows, cut into JSON-lines landing files
// that arrive at virtual times; plus the landing actions (puts, half-written files, resends,
// touches) that carry a plan's landing faults. Plain data, deterministic from a Random and the
// spec; applyLandingAction puts an action into a SimFileSystem. Not thread-safe (plain values).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/sim/fault_plan.h"
#include "streamsim/sim/random.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/time.h"

namespace streamsim::sim {

// The schema of every generated row (Spark DDL).
inline constexpr std::string_view kEventSchema = "event_id string, key string, event_time timestamp, value long";

struct WorkloadSpec {
  int64_t events = 100;               // rows in total, duplicates included
  int keys = 10;                      // keys "k0".."k<keys-1>"
  double zipfExponent = 0;            // key skew: P(key i) ~ 1/(i+1)^s; 0 = uniform
  double hotKeyFraction = 0;          // this fraction of rows goes to "k0" (before the zipf draw)
  TimeMs startEventTime = 1767225600000;  // 2026-01-01T00:00:00Z
  DurationMs eventSpacing = 1000;     // event time advances this much per row
  DurationMs maxOutOfOrder = 0;       // an on-time row is at most this far behind the max so far
  double lateFraction = 0;            // rows placed more than `lateBy` behind the max so far
  DurationMs lateBy = 0;              // usually the watermark delay
  double duplicateFraction = 0;       // rows repeating an earlier row (same event_id and content)
  int64_t maxValue = 100;             // values are uniform in [1, maxValue]
  int64_t eventsPerFile = 10;         // rows per landing file (the last file may have fewer)
  TimeMs firstArrival = 0;            // virtual time the first file lands
  DurationMs arrivalInterval = 1000;  // between two files' arrivals
  std::string dir = "/landing";
  std::string filePrefix = "part-";   // files are <dir>/<prefix><00000>.json
  bool operator==(const WorkloadSpec&) const = default;
};

// Every number must be in range (counts >= 0, keys >= 1, fractions in [0, 1], ...).
Status validate(const WorkloadSpec& spec);

struct Event {
  std::string eventId;
  std::string key;
  TimeMs eventTime = 0;
  int64_t value = 0;
  bool late = false;       // more than spec.lateBy behind the max event time of the rows before it
  bool duplicate = false;  // a repeat of an earlier row
  // {"event_id":"e000001","key":"k3","event_time":"2026-01-01T00:00:01Z","value":42}
  std::string toJsonLine() const;
  void appendJsonLine(std::string& out) const;  // the same line, appended (no newline)
  bool operator==(const Event&) const = default;
};

struct LandingFile {
  std::string path;
  TimeMs arrivalTime = 0;
  TimeMs mtime = 0;
  std::string content;     // JSON lines, each ending in '\n'
  size_t firstEvent = 0;   // index into Workload::events
  size_t eventCount = 0;
  bool operator==(const LandingFile&) const = default;
};

struct Workload {
  std::vector<Event> events;       // in generation (arrival) order
  std::vector<LandingFile> files;  // in arrival order
  bool operator==(const Workload&) const = default;
};

// A workload, a pure function of (rng's seed, spec): it draws from streams split off `rng`
// ("keys", "times", "late", "duplicates", "values"), so changing e.g. the duplicate fraction
// does not reshuffle keys. REQUIRES: validate(spec).ok().
Workload generateWorkload(const Random& rng, const WorkloadSpec& spec);

// The JSON lines of `events`, each ending in '\n'.
std::string toJsonLines(const std::vector<Event>& events);

enum class LandingActionKind {
  kPut,         // the file appears atomically (durable), then its mtime is set
  kPutPartial,  // the file appears with its first `visibleBytes` bytes
  kComplete,    // a partial file gets the rest of its content
  kTouch,       // only the mtime changes
};
std::string_view landingActionKindName(LandingActionKind kind);

struct LandingAction {
  TimeMs at = 0;  // virtual time the action happens
  LandingActionKind kind = LandingActionKind::kPut;
  std::string path;
  std::string content;      // kPut / kPutPartial: the full final content
  size_t visibleBytes = 0;  // kPutPartial
  TimeMs mtime = 0;         // the file's modification time after the action
  int64_t file = -1;        // the workload file it comes from
  std::string describe() const;
  bool operator==(const LandingAction&) const = default;
};

// The workload's files as landing actions, with `faults` applied (docs/faults.md "Landing
// faults"), sorted by time (stable). Faults naming a file index the workload does not have are
// ignored.
std::vector<LandingAction> landingActions(const Workload& workload, const std::vector<LandingFault>& faults,
                                          const WorkloadSpec& spec);

// Performs one action on `fs` (the caller moves the clock to action.at first).
Status applyLandingAction(SimFileSystem& fs, const LandingAction& action);

}  // namespace streamsim::sim
