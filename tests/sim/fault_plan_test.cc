// FaultPlan: JSON round trip, parse errors, readable listing, seeded generation.
#include "streamsim/sim/fault_plan.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "streamsim/fault_points.h"
#include "streamsim/sim/random.h"

namespace streamsim::sim {
namespace {

FaultPlan everyKind() {
  FaultPlan p;
  p.seed = 1234567890123ULL;
  p.faults.push_back(CrashFault{"offsets.after_write", 2, -1, 1});
  p.faults.push_back(CrashFault{"task.mid_partition", 1, 3, 2});
  p.faults.push_back(TaskFailureFault{"task.mid_partition", 0, 1, 2});
  p.faults.push_back(IoErrorFault{"/chk/state", "", 3, true, 1});
  p.faults.push_back(IoErrorFault{"", "commits.before_write", -1, false, 2});
  p.faults.push_back(TornWriteFault{"", TornMode::kTornPrefix, -1});
  p.faults.push_back(TornWriteFault{"/chk/state", TornMode::kTornPrefix, 7});
  p.faults.push_back(TornWriteFault{"/chk/offsets", TornMode::kKeepAll, -1});
  p.faults.push_back(LandingFault{LandingFaultKind::kResend, 3, 1000});
  p.faults.push_back(LandingFault{LandingFaultKind::kHalfWritten, 0, 0});
  return p;
}

TEST(FaultPlanTest, JsonRoundTrip) {
  FaultPlan p = everyKind();
  std::string json = p.toJson();
  auto back = FaultPlan::fromJson(json);
  ASSERT_TRUE(back.ok()) << back.status().toString() << "\n" << json;
  EXPECT_EQ(*back, p);
  EXPECT_EQ(back->toJson(), json);
  EXPECT_EQ(json.find('\n'), std::string::npos);  // one line, for replay commands
  EXPECT_EQ(json.find(' '), std::string::npos);
}

TEST(FaultPlanTest, CompactFormatOmitsDefaults) {
  FaultPlan p;
  p.seed = 5;
  p.faults.push_back(CrashFault{"offsets.after_write", 2, -1, 1});
  p.faults.push_back(TaskFailureFault{});
  EXPECT_EQ(p.toJson(),
            R"({"seed":5,"faults":[{"type":"crash","point":"offsets.after_write","batch":2},{"type":"task_failure"}]})");
  EXPECT_EQ(FaultPlan().toJson(), R"({"seed":0,"faults":[]})");
  auto empty = FaultPlan::fromJson("{}");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

TEST(FaultPlanTest, ParseErrorsNameTheFaultAndField) {
  struct Case {
    const char* json;
    const char* expected;
  };
  const Case cases[] = {
      {"not json", "not valid JSON"},
      {"[]", "expected a JSON object"},
      {R"({"seed":1,"faults":{}})", "\"faults\" must be an array"},
      {R"({"seed":1,"extra":2})", "unknown field \"extra\""},
      {R"({"faults":[{"type":"explode"}]})", "faults[0]: unknown type \"explode\""},
      {R"({"faults":[{"type":"crash"}]})", "faults[0]: missing \"point\""},
      {R"({"faults":[{"type":"crash","point":"nowhere"}]})", "unknown fault point \"nowhere\""},
      {R"({"faults":[{"type":"crash","point":"offsets.after_write","bacth":1}]})", "unknown field \"bacth\""},
      {R"({"faults":[{"type":"crash","point":"offsets.after_write","batch":"1"}]})", "\"batch\" must be an integer"},
      {R"({"faults":[{"type":"crash","point":"offsets.after_write","nth":0}]})", "nth must be >= 1"},
      {R"({"faults":[{"type":"task_failure"},{"type":"torn_write","mode":"shred"}]})", "faults[1]: unknown torn-write mode"},
      {R"({"faults":[{"type":"io_error","batch":1}]})", "exactly one of \"prefix\" and \"point\""},
      {R"({"faults":[{"type":"landing","kind":"teleport","file":1}]})", "unknown landing fault kind \"teleport\""},
  };
  for (const Case& c : cases) {
    auto r = FaultPlan::fromJson(c.json);
    ASSERT_FALSE(r.ok()) << c.json;
    EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument) << c.json;
    EXPECT_NE(r.status().message().find(c.expected), std::string::npos) << c.json << " -> " << r.status().toString();
  }
}

TEST(FaultPlanTest, ToStringListsEveryFault) {
  FaultPlan p = everyKind();
  std::string s = p.toString();
  EXPECT_NE(s.find("1. crash at offsets.after_write batch 2"), std::string::npos) << s;
  EXPECT_NE(s.find("crash at task.mid_partition batch 1 partition 3 (pass 2)"), std::string::npos) << s;
  EXPECT_NE(s.find("no space on writes under /chk/state batch 3"), std::string::npos) << s;
  EXPECT_NE(s.find("landing resend of file 3"), std::string::npos) << s;
  EXPECT_EQ(FaultPlan().toString(), "(no faults)");
}

TEST(FaultPlanTest, GeneratedPlansAreDeterministicPerSeed) {
  FaultKnobs k;
  k.maxCrashes = 3;
  k.tornWrites = true;
  k.taskFailureProbability = 0.1;
  k.ioErrorProbability = 0.2;
  k.landingFaultProbability = 0.3;
  k.files = 20;
  ASSERT_TRUE(validate(k).ok());
  int differ = 0;
  for (uint64_t seed = 0; seed < 50; ++seed) {
    FaultPlan a = generateFaultPlan(Random(seed), k);
    FaultPlan b = generateFaultPlan(Random(seed), k);
    EXPECT_EQ(a, b) << seed;
    EXPECT_TRUE(validate(a).ok()) << a.toJson();
    auto back = FaultPlan::fromJson(a.toJson());
    ASSERT_TRUE(back.ok()) << back.status().toString();
    EXPECT_EQ(*back, a);
    if (!(generateFaultPlan(Random(seed + 1000), k) == a)) ++differ;
  }
  EXPECT_GT(differ, 40);
}

TEST(FaultPlanTest, GeneratorHonoursKnobs) {
  FaultKnobs k;
  k.points = {"offsets.after_write", "commits.before_write"};
  k.maxCrashes = 2;
  k.batches = 5;
  int crashes = 0;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    FaultPlan p = generateFaultPlan(Random(seed), k);
    int n = 0;
    for (const Fault& f : p.faults) {
      auto* c = std::get_if<CrashFault>(&f);
      ASSERT_NE(c, nullptr) << "only crashes were asked for: " << p.toJson();
      EXPECT_TRUE(c->point == "offsets.after_write" || c->point == "commits.before_write") << c->point;
      EXPECT_GE(c->batch, 0);
      EXPECT_LT(c->batch, 5);
      ++n;
    }
    EXPECT_LE(n, 2);
    crashes += n;
  }
  EXPECT_GT(crashes, 100);  // about 200 expected
  FaultKnobs none;
  none.maxCrashes = 0;
  EXPECT_TRUE(generateFaultPlan(Random(1), none).empty());
}

TEST(FaultPlanTest, OneKnobDoesNotShiftAnotherKindOfFault) {
  FaultKnobs k;
  k.maxCrashes = 3;
  k.landingFaultProbability = 0.5;
  k.files = 10;
  FaultKnobs k2 = k;
  k2.taskFailureProbability = 0.5;  // adds task failures
  auto crashesOf = [](const FaultPlan& p) {
    std::vector<Fault> out;
    for (const Fault& f : p.faults)
      if (!std::holds_alternative<TaskFailureFault>(f)) out.push_back(f);
    return out;
  };
  for (uint64_t seed = 0; seed < 20; ++seed)
    EXPECT_EQ(crashesOf(generateFaultPlan(Random(seed), k)), crashesOf(generateFaultPlan(Random(seed), k2)));
}

TEST(FaultPlanTest, KnobValidation) {
  FaultKnobs k;
  k.points = {"all"};
  EXPECT_TRUE(validate(k).ok());
  // "all" leaves realtime.after_record out unless the query runs in real time, and
  // async.state_op out always (a plan names it).
  std::vector<std::string> all = crashPoints(k);
  EXPECT_EQ(all.size() + 2, faults::allFaultPoints().size());
  EXPECT_EQ(std::find(all.begin(), all.end(), faults::kRealTimeAfterRecord), all.end());
  EXPECT_EQ(std::find(all.begin(), all.end(), faults::kAsyncStateOp), all.end());
  k.realTime = true;
  EXPECT_EQ(crashPoints(k).size() + 1, faults::allFaultPoints().size());
  k.realTime = false;
  k.points = {"offsets.after_wirte"};
  Status st = validate(k);
  EXPECT_EQ(st.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(st.message().find("offsets.after_wirte"), std::string::npos);
  k.points = {};
  k.taskFailureProbability = 1.5;
  EXPECT_FALSE(validate(k).ok());
}

}  // namespace
}  // namespace streamsim::sim
