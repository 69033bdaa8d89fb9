#include "streamsim/fault_points.h"

#include <array>

namespace streamsim::faults {
namespace {
constexpr std::array<FaultPointInfo, 13> kAll = {{
    {kOffsetsBeforeWrite, "planning done, offsets/N not yet written"},
    {kSourceLogAfterWrite, "the file source wrote sources/<i>/K for the files it picked"},
    {kOffsetsAfterWrite, "offsets/N written, nothing processed yet"},
    {kCleanSourceMid, "cleanSource archived/deleted some of the previous batch's files"},
    {kTaskMidPartition, "a partition task ran part of its keys"},
    {kStateBeforeCommit, "a partition task finished, its state version not yet committed"},
    {kStateAfterCommit, "one partition's state version committed"},
    {kSinkAfterDataFiles, "the file sink wrote data files, _spark_metadata/N not yet"},
    {kSinkAfterMetadata, "the sink finished batch N"},
    {kCommitsBeforeWrite, "everything done but commits/N"},
    {kCommitsAfterWrite, "commits/N written"},
    {kLogMidWrite, "a log file's temp copy written, not yet renamed into place"},
    {kRealTimeAfterRecord, "real-time mode: the sink got an output record mid-batch (nth pass: after N records)"},
}};
}  // namespace

std::span<const FaultPointInfo> allFaultPoints() { return kAll; }

bool isFaultPoint(std::string_view name) {
  for (const auto& p : kAll)
    if (p.name == name) return true;
  return false;
}

}  // namespace streamsim::faults
