// TraceRecorder: stable fingerprint, write out, parse back.
#include "streamsim/sim/trace.h"

#include <sstream>

#include <gtest/gtest.h>

#include "streamsim/sim/random.h"
#include "streamsim/sim/virtual_clock.h"
#include "streamsim/sim/sim_file_system.h"

namespace streamsim::sim {
namespace {

void record(TraceRecorder& t) {
  t.event(R"({"event":"batch_planned","batch":0})");
  t.event(R"({"event":"commit","batch":0})");
}

TEST(TraceTest, FingerprintIsStable) {
  TraceRecorder a, b;
  record(a);
  record(b);
  EXPECT_EQ(a.fingerprint(), b.fingerprint());
  // Pinned: FNV-1a 64 of the two lines each followed by '\n'. A change here changes every
  // recorded run fingerprint, so it must be deliberate.
  EXPECT_EQ(a.fingerprint(), fnv1a64("{\"event\":\"batch_planned\",\"batch\":0}\n{\"event\":\"commit\",\"batch\":0}\n"));
  EXPECT_EQ(a.fingerprint(), traceFingerprint(a.text()));
  EXPECT_EQ(a.fingerprintHex().size(), 16u);
  EXPECT_EQ(TraceRecorder().fingerprint(), 0xcbf29ce484222325ULL);
  EXPECT_EQ(TraceRecorder().fingerprintHex(), "cbf29ce484222325");
}

TEST(TraceTest, FingerprintSeesOrderAndLineBoundaries) {
  TraceRecorder a, b, c;
  a.event("{\"x\":1}");
  a.event("{\"y\":2}");
  b.event("{\"y\":2}");
  b.event("{\"x\":1}");
  c.event("{\"x\":1}{\"y\":2}");
  EXPECT_NE(a.fingerprint(), b.fingerprint());
  EXPECT_NE(a.fingerprint(), c.fingerprint());
  a.clear();
  EXPECT_EQ(a.size(), 0u);
  EXPECT_EQ(a.fingerprint(), TraceRecorder().fingerprint());
}

TEST(TraceTest, WritesAndParsesBack) {
  TraceRecorder t;
  record(t);
  std::ostringstream os;
  t.writeTo(os);
  EXPECT_EQ(os.str(), t.text());
  VirtualClock clock;
  SimFileSystem fs(&clock);
  ASSERT_TRUE(t.writeTo(fs, "/out/trace.jsonl").ok());
  auto text = fs.read("/out/trace.jsonl");
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(traceFingerprint(*text), t.fingerprint());
  auto events = parseTrace(*text);
  ASSERT_TRUE(events.ok());
  ASSERT_EQ(events->size(), 2u);
  EXPECT_EQ((*events)[1]["event"], "commit");
  auto direct = t.events();
  ASSERT_TRUE(direct.ok());
  EXPECT_EQ(*direct, *events);
}

TEST(TraceTest, ParseNamesTheBadLine) {
  auto r = parseTrace("{\"a\":1}\n\n[1,2]\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kCorruption);
  EXPECT_NE(r.status().message().find("trace line 3"), std::string::npos) << r.status().toString();
}

}  // namespace
}  // namespace streamsim::sim
