// The one registry of named fault points (DESIGN.md §4). The engine passes these points with
// passFaultPoint(env, kX, ctx); the simulator can crash or fail there. Names are stable: fault
// plans, scenarios and replay commands refer to them.
#pragma once

#include <span>
#include <string_view>

namespace streamsim::faults {

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

struct FaultPointInfo {
  std::string_view name;
  std::string_view description;
  bool perPartition = false;  // passed once per partition task (a fault may name the partition)
};

// Every fault point, in batch-protocol order.
std::span<const FaultPointInfo> allFaultPoints();
bool isFaultPoint(std::string_view name);
bool isPerPartition(std::string_view name);

}  // namespace streamsim::faults
