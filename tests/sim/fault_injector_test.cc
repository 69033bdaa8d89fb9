// FaultInjector: crashes at the right pass, task failures and I/O errors as statuses, write
// faults armed per batch, torn-write policy on crash, trace records.
#include "streamsim/sim/fault_injector.h"

#include <set>

#include <gtest/gtest.h>

#include "streamsim/fault_points.h"
#include "streamsim/sim/trace.h"
#include "streamsim/sim/virtual_clock.h"

namespace streamsim::sim {
namespace {

FaultContext ctx(int64_t batch, int partition = -1) {
  FaultContext c;
  c.batchId = batch;
  c.partition = partition;
  return c;
}

// Passes `point` and returns the crash's pass number, or 0 when it did not crash.
int64_t crashedAt(FaultInjector& inj, std::string_view point, const FaultContext& c) {
  try {
    Status st = inj.at(point, c);
    EXPECT_TRUE(st.ok()) << st.toString();
    return 0;
  } catch (const SimulatedCrash& crash) {
    EXPECT_EQ(crash.point, point);
    return crash.pass;
  }
}

TEST(FaultInjectorTest, NothingArmedIsANoOp) {
  FaultInjector inj(FaultPlan{});
  for (int i = 0; i < 100; ++i) EXPECT_TRUE(inj.at(faults::kOffsetsAfterWrite, ctx(i)).ok());
  EXPECT_EQ(inj.passes(faults::kOffsetsAfterWrite), 100);
  EXPECT_EQ(inj.passes(faults::kCommitsAfterWrite), 0);
  EXPECT_TRUE(inj.injected().empty());
  EXPECT_EQ(inj.pending(), 0);
}

TEST(FaultInjectorTest, CrashesAtTheMatchingBatchOnce) {
  FaultPlan plan;
  plan.faults.push_back(CrashFault{"offsets.after_write", 2, -1, 1});
  FaultInjector inj(plan);
  EXPECT_EQ(crashedAt(inj, faults::kOffsetsAfterWrite, ctx(0)), 0);
  EXPECT_EQ(crashedAt(inj, faults::kOffsetsAfterWrite, ctx(1)), 0);
  EXPECT_EQ(crashedAt(inj, faults::kCommitsAfterWrite, ctx(2)), 0);  // other point
  EXPECT_EQ(crashedAt(inj, faults::kOffsetsAfterWrite, ctx(2)), 3);
  // After the restart batch 2 is re-run: it does not crash again.
  EXPECT_EQ(crashedAt(inj, faults::kOffsetsAfterWrite, ctx(2)), 0);
  EXPECT_EQ(inj.crashes(), 1);
  EXPECT_EQ(inj.pending(), 0);
}

TEST(FaultInjectorTest, CrashesOnTheNthMatchingPassAndPartition) {
  FaultPlan plan;
  plan.faults.push_back(CrashFault{"task.mid_partition", -1, 1, 3});
  FaultInjector inj(plan);
  int64_t crashedPass = 0;
  int matching = 0;
  for (int64_t b = 0; b < 5 && crashedPass == 0; ++b) {
    for (int p = 0; p < 4 && crashedPass == 0; ++p) {
      if (p == 1) ++matching;
      crashedPass = crashedAt(inj, faults::kTaskMidPartition, ctx(b, p));
      if (crashedPass != 0) {
        EXPECT_EQ(b, 2);
        EXPECT_EQ(p, 1);
      }
    }
  }
  EXPECT_EQ(matching, 3);
  EXPECT_EQ(crashedPass, 10);  // 4 + 4 + 2 passes of the point
}

TEST(FaultInjectorTest, TaskFailuresReturnStatusThenPass) {
  FaultPlan plan;
  plan.faults.push_back(TaskFailureFault{"task.mid_partition", 1, 0, 2});
  FaultInjector inj(plan);
  EXPECT_TRUE(inj.at(faults::kTaskMidPartition, ctx(0, 0)).ok());
  EXPECT_TRUE(inj.at(faults::kTaskMidPartition, ctx(1, 1)).ok());
  Status first = inj.at(faults::kTaskMidPartition, ctx(1, 0));
  EXPECT_EQ(first.code(), Status::Code::kTaskFailed);
  EXPECT_NE(first.message().find("batch 1, partition 0"), std::string::npos) << first.toString();
  EXPECT_NE(first.message().find("failure 1 of 2"), std::string::npos) << first.toString();
  EXPECT_EQ(inj.at(faults::kTaskMidPartition, ctx(1, 0)).code(), Status::Code::kTaskFailed);
  EXPECT_TRUE(inj.at(faults::kTaskMidPartition, ctx(1, 0)).ok());  // the third attempt succeeds
  EXPECT_EQ(inj.injected().size(), 2u);
}

TEST(FaultInjectorTest, IoErrorAtAPoint) {
  FaultPlan plan;
  plan.faults.push_back(IoErrorFault{"", "commits.before_write", 1, true, 1});
  FaultInjector inj(plan);
  EXPECT_TRUE(inj.at(faults::kCommitsBeforeWrite, ctx(0)).ok());
  EXPECT_EQ(inj.at(faults::kCommitsBeforeWrite, ctx(1)).code(), Status::Code::kNoSpace);
  EXPECT_TRUE(inj.at(faults::kCommitsBeforeWrite, ctx(1)).ok());
}

TEST(FaultInjectorTest, WriteFaultsAreArmedWhenTheirBatchStarts) {
  VirtualClock clock;
  SimFileSystem fs(&clock);
  ASSERT_TRUE(fs.mkdirs("/chk/state").ok());
  FaultPlan plan;
  plan.faults.push_back(IoErrorFault{"/chk/state", "", 1, false, 1});
  TraceRecorder trace;
  FaultInjector inj(plan, &fs, &trace);
  EXPECT_TRUE(inj.at(faults::kOffsetsBeforeWrite, ctx(0)).ok());
  EXPECT_TRUE(fs.write("/chk/state/1.delta", "x").ok());  // batch 0: not armed yet
  EXPECT_TRUE(inj.at(faults::kOffsetsBeforeWrite, ctx(1)).ok());  // batch 1 starts: armed
  EXPECT_EQ(fs.write("/chk/state/2.delta", "x").code(), Status::Code::kIOError);
  EXPECT_TRUE(fs.write("/chk/state/2.delta", "x").ok());
  ASSERT_EQ(trace.size(), 1u);
  EXPECT_NE(trace.lines()[0].find(R"("kind":"io_error","point":"/chk/state","batch":1)"), std::string::npos)
      << trace.lines()[0];
}

TEST(FaultInjectorTest, ArmCrashNowCountsFromNow) {
  FaultInjector inj(FaultPlan{});
  EXPECT_TRUE(inj.at(faults::kOffsetsAfterWrite, ctx(0)).ok());
  inj.armCrash(faults::kOffsetsAfterWrite);
  EXPECT_EQ(inj.pending(), 1);
  EXPECT_EQ(crashedAt(inj, faults::kCommitsAfterWrite, ctx(0)), 0);
  EXPECT_EQ(crashedAt(inj, faults::kOffsetsAfterWrite, ctx(1)), 2);
  inj.armCrash(faults::kOffsetsAfterWrite, -1, -1, 2);
  EXPECT_EQ(crashedAt(inj, faults::kOffsetsAfterWrite, ctx(1)), 0);
  EXPECT_EQ(crashedAt(inj, faults::kOffsetsAfterWrite, ctx(1)), 4);
  inj.armCrash(faults::kOffsetsAfterWrite);
  inj.disarmAll();
  EXPECT_EQ(crashedAt(inj, faults::kOffsetsAfterWrite, ctx(2)), 0);
}

TEST(FaultInjectorTest, CrashIsTracedAndDescribed) {
  FaultPlan plan;
  plan.faults.push_back(CrashFault{"state.after_commit", 0, 2, 1});
  TraceRecorder trace;
  FaultInjector inj(plan, nullptr, &trace);
  FaultContext c = ctx(0, 2);
  c.operatorId = 0;
  try {
    (void)inj.at(faults::kStateAfterCommit, c);
    FAIL() << "expected a crash";
  } catch (const SimulatedCrash& crash) {
    EXPECT_EQ(crash.what(), "simulated crash at state.after_commit (batch 0, partition 2, operator 0, pass 1)");
  }
  ASSERT_EQ(trace.size(), 1u);
  EXPECT_EQ(trace.lines()[0],
            R"({"event":"fault_injected","kind":"crash","point":"state.after_commit","batch":0,"partition":2,"operator":0,"pass":1})");
  ASSERT_EQ(inj.injected().size(), 1u);
  EXPECT_EQ(inj.injected()[0].kind, "crash");
}

TEST(FaultInjectorTest, ApplyCrashUsesTheTornWriteRules) {
  VirtualClock clock;
  SimFileSystem fs(&clock);
  ASSERT_TRUE(fs.mkdirs("/chk/state").ok());
  ASSERT_TRUE(fs.mkdirs("/chk/offsets").ok());
  ASSERT_TRUE(fs.mkdirs("/other").ok());
  ASSERT_TRUE(fs.write("/chk/state/1.delta", "0123456789").ok());
  ASSERT_TRUE(fs.write("/chk/offsets/.1.tmp", "v1\nabc").ok());
  ASSERT_TRUE(fs.write("/other/f", "lost").ok());
  FaultPlan plan;
  plan.faults.push_back(TornWriteFault{"/chk", TornMode::kKeepAll, -1});
  plan.faults.push_back(TornWriteFault{"/chk/state", TornMode::kTornPrefix, 4});  // longer prefix wins
  TraceRecorder trace;
  FaultInjector inj(plan, nullptr, &trace);
  inj.applyCrash(fs);
  EXPECT_EQ(*fs.read("/chk/state/1.delta"), "0123");
  EXPECT_EQ(*fs.read("/chk/offsets/.1.tmp"), "v1\nabc");
  EXPECT_FALSE(fs.exists("/other/f"));  // no rule: unsynced bytes lost, never-synced file gone
  ASSERT_EQ(trace.size(), 1u);
  EXPECT_EQ(trace.lines()[0], R"({"event":"crash_applied","crash":0,"files_unsynced":3,"bytes_dropped":10})");
}

TEST(FaultInjectorTest, SeededTornLengthIsDeterministicAndVaries) {
  FaultPlan plan;
  plan.seed = 77;
  plan.faults.push_back(TornWriteFault{"", TornMode::kTornPrefix, -1});
  std::set<size_t> lengths;
  for (int crash = 0; crash < 20; ++crash) {
    auto policy = crashPolicy(plan, static_cast<uint64_t>(crash));
    size_t keep = policy("/chk/state/1.delta", 5, 105);
    EXPECT_EQ(keep, crashPolicy(plan, static_cast<uint64_t>(crash))("/chk/state/1.delta", 5, 105));
    EXPECT_GE(keep, 5u);
    EXPECT_LE(keep, 105u);
    lengths.insert(keep);
  }
  EXPECT_GT(lengths.size(), 10u);
  EXPECT_EQ(crashPolicy(FaultPlan{}, 0)("/x", 3, 10), 3u);
}

}  // namespace
}  // namespace streamsim::sim
