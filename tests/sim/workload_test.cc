// Workload generator: determinism, skew, disorder bound, late fraction, duplicates, files,
// landing actions with landing faults.
#include "streamsim/sim/workload.h"

#include <map>
#include <set>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "streamsim/sim/virtual_clock.h"

namespace streamsim::sim {
namespace {

WorkloadSpec baseSpec() {
  WorkloadSpec s;
  s.events = 1000;
  s.keys = 20;
  s.eventSpacing = 1000;
  s.eventsPerFile = 50;
  return s;
}

TEST(WorkloadTest, DeterministicPerSeed) {
  WorkloadSpec s = baseSpec();
  s.duplicateFraction = 0.1;
  s.lateFraction = 0.1;
  s.lateBy = 60000;
  s.maxOutOfOrder = 5000;
  ASSERT_TRUE(validate(s).ok());
  Workload a = generateWorkload(Random(1), s);
  EXPECT_EQ(a, generateWorkload(Random(1), s));
  EXPECT_NE(a, generateWorkload(Random(2), s));
  EXPECT_EQ(a.events.size(), 1000u);
  ASSERT_EQ(a.files.size(), 20u);
}

TEST(WorkloadTest, LateFractionAndDuplicatesAppearAsAsked) {
  WorkloadSpec s = baseSpec();
  s.events = 4000;
  s.lateFraction = 0.1;
  s.lateBy = 60000;
  s.duplicateFraction = 0.05;
  s.maxOutOfOrder = 3000;
  Workload w = generateWorkload(Random(9), s);
  int late = 0, dups = 0;
  TimeMs maxSoFar = INT64_MIN;
  std::map<std::string, Event> byId;
  for (const Event& e : w.events) {
    if (e.duplicate) {
      ++dups;
      ASSERT_TRUE(byId.count(e.eventId)) << "a duplicate repeats an earlier row";
      Event orig = byId[e.eventId];
      EXPECT_EQ(orig.key, e.key);
      EXPECT_EQ(orig.eventTime, e.eventTime);
      EXPECT_EQ(orig.value, e.value);
    } else {
      EXPECT_FALSE(byId.count(e.eventId)) << "fresh rows have fresh ids";
      byId[e.eventId] = e;
      if (e.late) {
        ++late;
        EXPECT_LT(e.eventTime, maxSoFar - s.lateBy) << "late rows are more than lateBy behind";
      } else if (maxSoFar != INT64_MIN) {
        EXPECT_GE(e.eventTime, maxSoFar - s.maxOutOfOrder) << "on-time disorder is bounded";
      }
    }
    maxSoFar = std::max(maxSoFar, e.eventTime);
  }
  EXPECT_GT(dups, 120);  // ~200
  EXPECT_LT(dups, 280);
  EXPECT_GT(late, 280);  // ~380 (10% of the non-duplicates)
  EXPECT_LT(late, 480);

  WorkloadSpec clean = baseSpec();
  Workload c = generateWorkload(Random(9), clean);
  for (const Event& e : c.events) {
    EXPECT_FALSE(e.late);
    EXPECT_FALSE(e.duplicate);
  }
}

TEST(WorkloadTest, KeySkew) {
  WorkloadSpec s = baseSpec();
  s.events = 5000;
  s.hotKeyFraction = 0.5;
  std::map<std::string, int> counts;
  for (const Event& e : generateWorkload(Random(4), s).events) ++counts[e.key];
  EXPECT_GT(counts["k0"], 2400);  // 50% + 1/20 of the rest
  EXPECT_EQ(counts.size(), 20u);

  WorkloadSpec z = baseSpec();
  z.events = 5000;
  z.zipfExponent = 1.2;
  std::map<std::string, int> zc;
  for (const Event& e : generateWorkload(Random(4), z).events) ++zc[e.key];
  EXPECT_GT(zc["k0"], zc["k1"]);
  EXPECT_GT(zc["k1"], zc["k10"]);
}

TEST(WorkloadTest, ChangingTheLateFractionKeepsKeysAndValues) {
  WorkloadSpec a = baseSpec();
  WorkloadSpec b = baseSpec();
  b.lateFraction = 0.3;
  b.lateBy = 1000;
  Workload wa = generateWorkload(Random(3), a);
  Workload wb = generateWorkload(Random(3), b);
  for (size_t i = 0; i < wa.events.size(); ++i) {
    EXPECT_EQ(wa.events[i].key, wb.events[i].key);
    EXPECT_EQ(wa.events[i].value, wb.events[i].value);
  }
}

TEST(WorkloadTest, FilesHoldJsonLinesWithTheSchemaFields) {
  WorkloadSpec s = baseSpec();
  s.events = 120;
  s.firstArrival = 5000;
  Workload w = generateWorkload(Random(2), s);
  ASSERT_EQ(w.files.size(), 3u);
  EXPECT_EQ(w.files[0].path, "/landing/part-00000.json");
  EXPECT_EQ(w.files[2].path, "/landing/part-00002.json");
  EXPECT_EQ(w.files[1].arrivalTime, 6000);
  EXPECT_EQ(w.files[2].eventCount, 20u);
  EXPECT_EQ(w.files[0].content, toJsonLines({w.events.begin(), w.events.begin() + 50}));
  auto j = nlohmann::json::parse(w.events[0].toJsonLine());
  EXPECT_EQ(j["event_id"], "e000000");
  EXPECT_EQ(j["event_time"], "2026-01-01T00:00:00Z");
  EXPECT_TRUE(j["value"].is_number_integer());
  EXPECT_TRUE(j["key"].is_string());
}

// The exact bytes of a landing file's line: field order, no spaces, milliseconds only when set.
// Fingerprints and the reference cache key depend on these bytes.
TEST(WorkloadTest, EventJsonLineIsByteExact) {
  Event e;
  e.eventId = "e000042";
  e.key = "k3";
  e.eventTime = 1767225601250;
  e.value = 42;
  EXPECT_EQ(e.toJsonLine(), R"({"event_id":"e000042","key":"k3","event_time":"2026-01-01T00:00:01.250Z","value":42})");
  e.eventTime = 1767225600000;
  e.value = -7;
  EXPECT_EQ(e.toJsonLine(), R"({"event_id":"e000042","key":"k3","event_time":"2026-01-01T00:00:00Z","value":-7})");
  std::string content = "x\n";
  e.appendJsonLine(content);
  EXPECT_EQ(content, "x\n" + e.toJsonLine());
}

TEST(WorkloadTest, EventIdsAreNumberedAndKeysNamedByIndex) {
  WorkloadSpec s = baseSpec();
  s.events = 12;
  s.keys = 12;
  s.duplicateFraction = 0;
  Workload w = generateWorkload(Random(5), s);
  for (size_t i = 0; i < w.events.size(); ++i) {
    EXPECT_EQ(w.events[i].eventId, fmt::format("e{:06d}", i));
    const std::string& k = w.events[i].key;
    ASSERT_GE(k.size(), 2u);
    EXPECT_EQ(k[0], 'k');
    EXPECT_EQ(k, "k" + std::to_string(std::stoi(k.substr(1))));
    EXPECT_LT(std::stoi(k.substr(1)), 12);
  }
}

TEST(WorkloadTest, LandingActionsCarryLandingFaults) {
  WorkloadSpec s = baseSpec();
  s.events = 40;
  s.eventsPerFile = 10;  // 4 files at 0, 1000, 2000, 3000
  Workload w = generateWorkload(Random(5), s);
  std::vector<LandingFault> faults = {
      {LandingFaultKind::kResend, 0, 2500},
      {LandingFaultKind::kDuplicate, 1, 100},
      {LandingFaultKind::kOldMtime, 2, 0},
      {LandingFaultKind::kOutOfOrder, 0, 0},
      {LandingFaultKind::kHalfWritten, 3, 700},
      {LandingFaultKind::kResend, 99, 0},  // no such file: ignored
  };
  std::vector<LandingAction> acts = landingActions(w, faults, s);
  std::vector<std::string> got;
  for (const LandingAction& a : acts) got.push_back(a.describe());
  std::vector<std::string> expected = {
      "at 1000 put /landing/part-00001.json mtime 1000",
      "at 1100 put /landing/part-00001.json mtime 1100",
      "at 2000 put /landing/part-00002.json mtime -691198000",
      "at 3000 put_partial /landing/part-00003.json (" + std::to_string(w.files[3].content.size() / 2) + " of " +
          std::to_string(w.files[3].content.size()) + " bytes) mtime 3000",
      "at 3700 complete /landing/part-00003.json mtime 3700",
      "at 4000 put /landing/part-00000.json mtime 4000",
      "at 6500 put /landing/part-00000.resend-1.json mtime 6500",
  };
  EXPECT_EQ(got, expected);

  VirtualClock clock;
  SimFileSystem fs(&clock);
  for (const LandingAction& a : acts) {
    clock.set(a.at);
    ASSERT_TRUE(applyLandingAction(fs, a).ok()) << a.describe();
    if (a.kind == LandingActionKind::kPutPartial) {
      EXPECT_TRUE(fs.isPartial(a.path));
      EXPECT_EQ(fs.stat(a.path)->size, static_cast<int64_t>(a.visibleBytes));
    }
  }
  EXPECT_EQ(*fs.read("/landing/part-00000.resend-1.json"), w.files[0].content);
  EXPECT_EQ(*fs.read("/landing/part-00003.json"), w.files[3].content);
  EXPECT_EQ(fs.stat("/landing/part-00002.json")->modificationTime, 2000 - 8LL * 24 * 3600 * 1000);
  EXPECT_EQ(fs.allFiles().size(), 5u);
}

TEST(WorkloadTest, ValidateRejectsBadSpecs) {
  WorkloadSpec s = baseSpec();
  s.keys = 0;
  EXPECT_EQ(validate(s).code(), Status::Code::kInvalidArgument);
  s = baseSpec();
  s.lateFraction = 2;
  EXPECT_NE(validate(s).message().find("late fraction"), std::string::npos);
  s = baseSpec();
  s.dir = "landing";
  EXPECT_FALSE(validate(s).ok());
}

}  // namespace
}  // namespace streamsim::sim
