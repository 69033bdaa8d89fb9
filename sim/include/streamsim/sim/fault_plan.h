// A fault plan: the explicit list of faults one simulated run suffers (DESIGN.md §4, format in
// docs/faults.md). Driver-side faults (crash, task failure, I/O error) are executed by the
// FaultInjector, the torn-write rules by FaultInjector::applyCrash, landing faults by the
// workload (workload.h). A plan is a plain value: a vector of faults that a shrinker (RapidCheck
// or a caller) can drop elements from, serialisable to a compact JSON string for replay.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "streamsim/status.h"
#include "streamsim/time.h"

namespace streamsim::sim {

// The longest outage a plan may hold (a crash's downtime, a sweep's downtime range): 100 years of
// virtual time. Past it the virtual clock would run off the end of the timestamps Spark writes
// (year 9999) and, at INT64_MAX, overflow.
inline constexpr int64_t kMaxDowntimeMs = int64_t{100} * 36525 * 24 * 3600 * 1000 / 100;


class Random;

// Crash the driver (throw SimulatedCrash) at `point`, once: on the `nth` pass of the point that
// matches `batch` and `partition` (-1 = any). Counting spans restarts: the injector outlives
// the engine instances it crashes. A supervisor restarts the driver `downtime` virtual ms after
// the crash (an outage): meanwhile the clock moves on and the world (landing files) goes on.
struct CrashFault {
  std::string point;
  int64_t batch = -1;
  int partition = -1;
  int64_t nth = 1;
  DurationMs downtime = 0;
  bool operator==(const CrashFault&) const = default;
};

// A task fails (the hook returns Status::TaskFailed) on the first `count` passes of `point` that
// match `batch` and `partition` (-1 = any); later passes succeed (a retry can win).
struct TaskFailureFault {
  std::string point = "task.mid_partition";
  int64_t batch = -1;
  int partition = -1;
  int count = 1;
  bool operator==(const TaskFailureFault&) const = default;
};

// An I/O error (or a full disk with noSpace) on checkpoint writes.
// - pathPrefix set: once batch `batch` starts (the first fault point passed with a batch id
//   >= batch; -1 = the first point), the next `count` writes/appends/renames under the prefix
//   fail. Needs the injector to be given the SimFileSystem.
// - point set (and no prefix): the first `count` matching passes of the point return the error.
struct IoErrorFault {
  std::string pathPrefix;
  std::string point;
  int64_t batch = -1;
  bool noSpace = false;
  int count = 1;
  bool operator==(const IoErrorFault&) const = default;
};

enum class TornMode {
  kLoseUnsynced,  // keep only what was synced
  kTornPrefix,    // keep a prefix of the unsynced bytes
  kKeepAll,       // keep every written byte
};

// What a crash does to unsynced bytes of files under pathPrefix ("" = every file). The longest
// matching prefix wins (ties: the first in the plan). Without a rule a file loses its unsynced
// bytes. kTornPrefix keeps `bytes` unsynced bytes, or with bytes = -1 a count derived from the
// plan seed, the path and the crash number (deterministic, differs per file and per crash).
struct TornWriteFault {
  std::string pathPrefix;
  TornMode mode = TornMode::kTornPrefix;
  int64_t bytes = -1;
  bool operator==(const TornWriteFault&) const = default;
};

enum class LandingFaultKind {
  kResend,      // file i again under a new name, `param` ms after its arrival
  kDuplicate,   // file i rewritten under the same name, `param` ms after its arrival
  kOldMtime,    // file i's mtime set `param` ms before its arrival (0: 8 days, past maxFileAge)
  kOutOfOrder,  // file i arrives `param` ms later than planned (0: after every other file)
  kHalfWritten, // file i visible half written for `param` ms (0: 1 ms), then completed
};

// A workload-side fault on landing file number `file` (index into the workload's files).
struct LandingFault {
  LandingFaultKind kind = LandingFaultKind::kResend;
  int64_t file = 0;
  int64_t param = 0;
  bool operator==(const LandingFault&) const = default;
};

// A context switch of async processors (DESIGN.md §5a, docs/faults.md): at scheduling step
// `step` of the partition task (batch, partition), resume another ready coroutine instead of the
// sequential one — the `pick`-th other candidate (>= 1, taken modulo their number), or, where the
// sequential run would wait, the `pick`-th candidate. Applies to every attempt of that task. A
// plan without switches runs the sequential order; the shrinker drops switches like any fault.
struct SwitchFault {
  int64_t batch = 0;
  int partition = 0;
  int64_t step = 0;
  int pick = 1;
  bool operator==(const SwitchFault&) const = default;
};

// The driver is down, without a crash, right after batch `batch` commits (at
// commits.after_write), for `downtime` ms of virtual time: the clock moves on and the world goes
// on. batch -1: before the first start. The reference run's half of a crash with downtime
// (harness/run/clean_restarts.h): it takes the same downtime at the same batch boundary. A
// duration, not an absolute time: the reference may reach the boundary later than the run crashed
// (a scenario's `advance` step between a step's crash and the re-run's commit).
struct DowntimeFault {
  int64_t batch = -1;
  DurationMs downtime = 0;
  bool operator==(const DowntimeFault&) const = default;
};

using Fault = std::variant<CrashFault, TaskFailureFault, IoErrorFault, TornWriteFault, LandingFault,
                           SwitchFault, DowntimeFault>;

// One line, e.g. "crash at offsets.after_write batch 2".
std::string describe(const Fault& fault);
std::string_view tornModeName(TornMode mode);          // "lose" | "torn" | "keep"
std::string_view landingFaultKindName(LandingFaultKind kind);  // "resend" | "duplicate" | ...

struct FaultPlan {
  uint64_t seed = 0;          // derives torn byte counts (TornWriteFault::bytes = -1)
  std::vector<Fault> faults;  // in order; order matters only for ties between torn rules

  bool empty() const { return faults.empty(); }
  // Compact JSON (docs/faults.md), e.g. {"seed":7,"faults":[{"type":"crash","point":"..."}]}.
  std::string toJson() const;
  // Parses toJson()'s format; errors name the fault index and field.
  static Result<FaultPlan> fromJson(std::string_view json);
  // A readable multi-line listing for reports ("(no faults)" when empty).
  std::string toString() const;

  std::vector<LandingFault> landingFaults() const;
  std::vector<TornWriteFault> tornWrites() const;
  std::vector<SwitchFault> switches() const;
  std::vector<DowntimeFault> downtimes() const;

  bool operator==(const FaultPlan&) const = default;
};

// Checks a plan: known fault point names, non-negative counts. InvalidArgument naming the fault.
Status validate(const FaultPlan& plan);

// A place a fault-free run passed: `passes` passes of `point` in batch `batch`.
struct CrashTarget {
  std::string point;
  int64_t batch = -1;
  int64_t passes = 0;
  bool operator==(const CrashTarget&) const = default;
};

// A scheduling choice a fault-free run of an async processor met: at step `step` of the
// partition task (batch, partition) another coroutine could have run (PlannedScheduler).
struct SwitchTarget {
  int64_t batch = -1;
  int partition = 0;
  int64_t step = 0;
  auto operator<=>(const SwitchTarget&) const = default;
};

// Where a fault-free run went: the (point, batch) pairs it passed, and the scheduling choices of
// its async tasks. Generated plans aim at these so that their faults fire.
struct Reach {
  std::vector<CrashTarget> crashes;
  std::vector<SwitchTarget> switches;
};

// What generateFaultPlan may produce. Probabilities are per opportunity (see each field).
struct FaultKnobs {
  std::vector<std::string> points;     // crash points; empty or {"all"}: every fault point
  int maxCrashes = 1;                  // 0..maxCrashes crashes, uniformly
  bool tornWrites = false;             // add torn-write rules (otherwise crashes lose unsynced)
  double taskFailureProbability = 0;   // per (batch, partition)
  double ioErrorProbability = 0;       // per batch
  double landingFaultProbability = 0;  // per landing file
  int64_t batches = 10;                // faults target batch ids in [0, batches)
  int partitions = 4;                  // shuffle partitions of the query
  int64_t files = 0;                   // landing files that landing faults may target
  DurationMs fileInterval = 1000;      // scale of landing-fault delays
  std::string checkpointDir = "/chk";  // I/O errors hit its offsets/, commits/, state/, sources/
  double switchProbability = 0;        // per (batch, partition): context switches of async keys
  int64_t switchSteps = 8;             // switches target scheduling steps in [0, switchSteps)
  // Downtime of the plan's crashes (an outage): each seed draws one value from its "downtime"
  // stream — 0 in about half of the seeds, else uniform in [downtimeMin, downtimeMax] — and every
  // crash of its plan takes it. downtimeMax 0: no downtime.
  DurationMs downtimeMin = 0;
  DurationMs downtimeMax = 0;
  // Where the fault-free run went (FaultInjector::reach()). When set, crashes aim only at these
  // (point, batch) pairs of the knob points — on one of the passes the run made there — so that
  // they fire; and there are at least minCrashes of them.
  std::vector<CrashTarget> targets;
  int minCrashes = 0;
  // The scheduling choices of the fault-free run. When set, context switches aim only at these
  // steps (none when it has none: a processor that awaits one thing at a time has no choice);
  // otherwise at steps in [0, switchSteps) of every (batch, partition).
  std::optional<std::vector<SwitchTarget>> switchTargets;
  // A real-time query: "all" includes realtime.after_record (after 1..10 records); otherwise
  // that point, never passed in micro-batch mode, is left out of "all".
  bool realTime = false;
  bool operator==(const FaultKnobs&) const = default;
};

// InvalidArgument if a point name is unknown or a number is out of range.
Status validate(const FaultKnobs& knobs);
// Knob points resolved to names ("all" or empty -> every fault point in protocol order).
std::vector<std::string> crashPoints(const FaultKnobs& knobs);

// A random plan, a pure function of (rng's seed, knobs): it draws only from streams split off
// `rng` ("crashes", "task_failures", "io_errors", "torn", "landing"), so changing one knob does
// not change the faults of another kind (and "switches"). REQUIRES: validate(knobs).ok().
FaultPlan generateFaultPlan(const Random& rng, const FaultKnobs& knobs);
// generateFaultPlan aimed at where a fault-free run went (the one rule of scenario and
// generated-workload sweeps): crashes only at the (point, batch) pairs it passed, at least one
// when it passed any; context switches only at its scheduling choices; no faults at all when it reached no fault point and no choice (a query that
// fails when it starts, say).
FaultPlan generateFaultPlan(const Random& rng, FaultKnobs knobs, const Reach& reach);

}  // namespace streamsim::sim
