// The one registry of named fault points (DESIGN.md §4). The engine passes these points with
// passFaultPoint(env, kX, ctx); the simulator can crash or fail there. Names are stable: fault
// plans, scenarios and replay commands refer to them.
#pragma once

#include <span>
#include <string_view>

namespace streamsim::faults {

// Which generated plans draw crashes at a point when their knobs say crash_points: all.
enum class DrawnByAll {
  kAlways,
  kRealTimeOnly,  // only for a real-time query (the point is passed in real-time mode only)
  kNever,         // only when named (kept out so "all" draws what it drew before for every seed)
};

struct FaultPointInfo {
  std::string_view name;
  std::string_view description;
  bool perPartition = false;  // passed once per partition task (a fault may name the partition)
  DrawnByAll drawn = DrawnByAll::kAlways;
};

inline constexpr std::string_view kOffsetsBeforeWrite = "offsets.before_write";
inline constexpr std::string_view kOffsetsAfterWrite = "offsets.after_write";
inline constexpr std::string_view kSourceLogAfterWrite = "source.after_log_write";
inline constexpr std::string_view kCleanSourceMid = "source.mid_clean";
inline constexpr std::string_view kTaskMidPartition = "task.mid_partition";
inline constexpr std::string_view kStateBeforeCommit = "state.before_commit";
inline constexpr std::string_view kStateAfterCommit = "state.after_commit";
inline constexpr std::string_view kSinkAfterDataFiles = "sink.after_data_files";
inline constexpr std::string_view kSinkAfterMetadata = "sink.after_metadata";
inline constexpr std::string_view kCommitsBeforeWrite = "commits.before_write";
inline constexpr std::string_view kCommitsAfterWrite = "commits.after_write";
inline constexpr std::string_view kLogMidWrite = "log.mid_write";
// Passed before every state or timer operation an async processor awaits (async_processor.h).
inline constexpr std::string_view kAsyncStateOp = "async.state_op";
// Real-time mode only: an output record was delivered to a per-record sink (Kafka-like,
// foreach) in the middle of a long batch. Its nth pass = after N records.
inline constexpr std::string_view kRealTimeAfterRecord = "realtime.after_record";

// The registry: every fault point with what it means, in batch-protocol order (async.state_op
// and realtime.after_record, passed only by some queries, last). A new point is a constant above
// and a row here.
inline constexpr FaultPointInfo kFaultPoints[] = {
    {kOffsetsBeforeWrite, "planning done, offsets/N not yet written"},
    {kSourceLogAfterWrite, "the file source wrote sources/<i>/K for the files it picked"},
    {kOffsetsAfterWrite, "offsets/N written, nothing processed yet"},
    {kCleanSourceMid, "cleanSource archived/deleted some of the previous batch's files"},
    {kTaskMidPartition, "a partition task ran part of its keys", true},
    {kStateBeforeCommit, "a partition task finished, its state version not yet committed", true},
    {kStateAfterCommit, "one partition's state version committed", true},
    {kSinkAfterDataFiles, "the file sink wrote data files, _spark_metadata/N not yet"},
    {kSinkAfterMetadata, "the sink finished batch N"},
    {kCommitsBeforeWrite, "everything done but commits/N"},
    {kCommitsAfterWrite, "commits/N written"},
    {kLogMidWrite, "a log file's temp copy written, not yet renamed into place"},
    {kRealTimeAfterRecord,
     "real-time mode: the sink got an output record mid-batch (nth pass: after N records)", false,
     DrawnByAll::kRealTimeOnly},
    {kAsyncStateOp,
     "an async processor's awaited state or timer operation is about to run (named only)", false,
     DrawnByAll::kNever},
};

// Lookups in kFaultPoints.
std::span<const FaultPointInfo> allFaultPoints();
bool isFaultPoint(std::string_view name);
bool isPerPartition(std::string_view name);

}  // namespace streamsim::faults
