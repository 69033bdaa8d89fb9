#include "streamsim/fault_points.h"

#include <array>

namespace streamsim::faults {
namespace {
constexpr std::array<FaultPointInfo, 13> kAll = {{
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
    {kRealTimeAfterRecord, "real-time mode: the sink got an output record mid-batch (nth pass: after N records)"},
}};
// Passed only by async processors; named explicitly in a plan or a sweep's crash_points (kept out
// of allFaultPoints() so "all" draws the same crash points for every existing seed).
constexpr FaultPointInfo kAsync = {kAsyncStateOp,
                                   "an async processor's awaited state or timer operation is about to run"};
}  // namespace

std::span<const FaultPointInfo> allFaultPoints() { return kAll; }

bool isFaultPoint(std::string_view name) {
  for (const auto& p : kAll)
    if (p.name == name) return true;
  return name == kAsync.name;
}

bool isPerPartition(std::string_view name) {
  for (const auto& p : kAll)
    if (p.name == name) return p.perPartition;
  return false;
}

}  // namespace streamsim::faults
