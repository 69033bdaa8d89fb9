// SimFileSystem: listings, crash semantics (synced survives, unsynced lost or torn, renames
// atomic, never-synced files vanish), write faults, capacity, half-visible landing files.
#include "streamsim/sim/sim_file_system.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "streamsim/sim/virtual_clock.h"

namespace streamsim::sim {
namespace {

class SimFileSystemTest : public ::testing::Test {
 protected:
  std::string read(const std::string& p) {
    auto r = fs_.read(p);
    EXPECT_TRUE(r.ok()) << r.status().toString();
    return r.ok() ? *r : "";
  }
  VirtualClock clock_{1000};
  SimFileSystem fs_{&clock_};
};

// Every path a file operation is given means its normalized form (normalizeSimulatedPath): a
// file written through a path with empty, `.`, `..` or dotted segments is the file at the
// normalized path, whatever the segments (the check that skips normalizing must not let one by).
TEST(SimFileSystemPaths, EveryPathMeansItsNormalizedForm) {
  const std::vector<std::string> segs = {"", ".", "..", "a", ".x", "b.", "...", "..y"};
  int checked = 0;
  for (const std::string& s1 : segs)
    for (const std::string& s2 : segs)
      for (const std::string& s3 : segs) {
        const std::string path = "/r/s/" + s1 + "/" + s2 + "/" + s3 + "/f";
        bool above = false;
        const std::string normal = normalizeSimulatedPath(path, &above);
        if (above) continue;  // /r/s/../../../f: above the root, refused (its own tests)
        const std::string parent = normal.rfind('/') == 0 ? "/" : normal.substr(0, normal.rfind('/'));
        VirtualClock clock{1000};
        SimFileSystem fs{&clock};
        ASSERT_TRUE(fs.mkdirs(parent).ok()) << normal;
        ASSERT_TRUE(fs.write(path, "x").ok()) << path;
        EXPECT_TRUE(fs.exists(normal)) << path << " -> " << normal;
        EXPECT_TRUE(fs.exists(path)) << path;
        auto listed = fs.list(parent);
        ASSERT_TRUE(listed.ok()) << path << " -> " << normal << ": " << listed.status().toString();
        ASSERT_EQ(listed->size(), 1u) << path;
        EXPECT_EQ((*listed)[0].path, normal) << path;
        ++checked;
      }
  EXPECT_EQ(checked, 8 * 8 * 8 - 1);
}

TEST_F(SimFileSystemTest, ListIsSortedAndDirect) {
  ASSERT_TRUE(fs_.mkdirs("/a/b").ok());
  ASSERT_TRUE(fs_.mkdirs("/a-x").ok());
  ASSERT_TRUE(fs_.write("/a/z", "1").ok());
  ASSERT_TRUE(fs_.write("/a/c", "22").ok());
  ASSERT_TRUE(fs_.write("/a/b/deep", "3").ok());
  auto l = fs_.list("/a/");
  ASSERT_TRUE(l.ok());
  ASSERT_EQ(l->size(), 3u);
  EXPECT_EQ((*l)[0].path, "/a/b");
  EXPECT_TRUE((*l)[0].isDir);
  EXPECT_EQ((*l)[1].path, "/a/c");
  EXPECT_EQ((*l)[1].size, 2);
  EXPECT_EQ((*l)[1].modificationTime, 1000);
  EXPECT_EQ((*l)[2].path, "/a/z");
  EXPECT_EQ(fs_.list("/nope").status().code(), Status::Code::kNotFound);
}

// Regression (listing the root returned nothing: the root itself sorts first and stopped the
// scan), found by run --keep copying a simulated filesystem from "/".
TEST_F(SimFileSystemTest, ListOfTheRootShowsTopLevelEntries) {
  ASSERT_TRUE(fs_.mkdirs("/chk/offsets").ok());
  ASSERT_TRUE(fs_.mkdirs("/out").ok());
  ASSERT_TRUE(fs_.write("/top", "1").ok());
  auto l = fs_.list("/");
  ASSERT_TRUE(l.ok());
  ASSERT_EQ(l->size(), 3u);
  EXPECT_EQ((*l)[0].path, "/chk");
  EXPECT_EQ((*l)[1].path, "/out");
  EXPECT_EQ((*l)[2].path, "/top");
}

// Directories and files are gathered apart and merged: the listing interleaves them in path
// order (a file before a directory, between two, after).
TEST_F(SimFileSystemTest, ListInterleavesDirectoriesAndFilesInPathOrder) {
  for (const char* d : {"/m/b", "/m/d", "/m/d/e"}) ASSERT_TRUE(fs_.mkdirs(d).ok());
  for (const char* f : {"/m/a", "/m/c", "/m/e", "/m/d/x"}) ASSERT_TRUE(fs_.write(f, "x").ok());
  auto l = fs_.list("/m");
  ASSERT_TRUE(l.ok());
  std::vector<std::string> got;
  for (const FileInfo& f : *l) got.push_back(f.path + (f.isDir ? "/" : ""));
  EXPECT_EQ(got, (std::vector<std::string>{"/m/a", "/m/b/", "/m/c", "/m/d/", "/m/e"}));
}

TEST_F(SimFileSystemTest, WriteNeedsParentAndRefusesDirectories) {
  EXPECT_EQ(fs_.write("/missing/f", "x").code(), Status::Code::kNotFound);
  ASSERT_TRUE(fs_.mkdirs("/d").ok());
  EXPECT_EQ(fs_.write("/d", "x").code(), Status::Code::kFailedPrecondition);
  ASSERT_TRUE(fs_.write("/d/f", "x").ok());
  EXPECT_EQ(fs_.mkdirs("/d/f/g").code(), Status::Code::kFailedPrecondition);
  EXPECT_EQ(fs_.write("/d/f/g", "x").code(), Status::Code::kFailedPrecondition);
}

TEST_F(SimFileSystemTest, RemoveDirectoryOnlyWhenEmpty) {
  ASSERT_TRUE(fs_.mkdirs("/d").ok());
  ASSERT_TRUE(fs_.mkdirs("/d-sibling").ok());
  EXPECT_TRUE(fs_.remove("/d").ok());  // a sibling with a similar name does not count
  ASSERT_TRUE(fs_.mkdirs("/d").ok());
  ASSERT_TRUE(fs_.write("/d/f", "x").ok());
  EXPECT_EQ(fs_.remove("/d").code(), Status::Code::kFailedPrecondition);
  EXPECT_TRUE(fs_.removeAll("/d").ok());
  EXPECT_FALSE(fs_.exists("/d"));
  EXPECT_TRUE(fs_.exists("/d-sibling"));
}

TEST_F(SimFileSystemTest, CrashKeepsSyncedAndLosesUnsynced) {
  ASSERT_TRUE(fs_.mkdirs("/chk").ok());
  ASSERT_TRUE(fs_.write("/chk/synced", "durable").ok());
  ASSERT_TRUE(fs_.sync("/chk/synced").ok());
  ASSERT_TRUE(fs_.append("/chk/synced", "+tail").ok());
  ASSERT_TRUE(fs_.write("/chk/never", "gone").ok());
  fs_.crashLosingUnsynced();
  EXPECT_EQ(read("/chk/synced"), "durable");
  EXPECT_FALSE(fs_.exists("/chk/never"));
  EXPECT_TRUE(fs_.exists("/chk"));  // directories survive
}

TEST_F(SimFileSystemTest, CrashPolicyCanTearOrKeep) {
  ASSERT_TRUE(fs_.mkdirs("/chk").ok());
  ASSERT_TRUE(fs_.write("/chk/torn", "0123").ok());
  ASSERT_TRUE(fs_.sync("/chk/torn").ok());
  ASSERT_TRUE(fs_.append("/chk/torn", "456789").ok());
  ASSERT_TRUE(fs_.write("/chk/kept", "all of it").ok());
  ASSERT_TRUE(fs_.write("/chk/empty-torn", "abc").ok());
  fs_.crash([](const std::string& path, size_t durable, size_t full) -> size_t {
    if (path == "/chk/torn") return durable + 2;
    if (path == "/chk/kept") return full;
    if (path == "/chk/empty-torn") return 0;
    return durable;
  });
  EXPECT_EQ(read("/chk/torn"), "012345");
  EXPECT_EQ(read("/chk/kept"), "all of it");
  EXPECT_FALSE(fs_.exists("/chk/empty-torn"));
  // After a crash the kept bytes are durable: a second crash keeps them.
  fs_.crashLosingUnsynced();
  EXPECT_EQ(read("/chk/torn"), "012345");
  EXPECT_EQ(read("/chk/kept"), "all of it");
}

TEST_F(SimFileSystemTest, CrashPolicyIsClampedToDurableAndFull) {
  ASSERT_TRUE(fs_.write("/f", "abcdef").ok());
  ASSERT_TRUE(fs_.sync("/f").ok());
  ASSERT_TRUE(fs_.append("/f", "gh").ok());
  fs_.crash([](const std::string&, size_t, size_t) -> size_t { return 1000; });
  EXPECT_EQ(read("/f"), "abcdefgh");
  ASSERT_TRUE(fs_.append("/f", "ij").ok());
  fs_.crash([](const std::string&, size_t, size_t) -> size_t { return 0; });
  EXPECT_EQ(read("/f"), "abcdefgh");
}

TEST_F(SimFileSystemTest, RenameIsAtomicNeverOverwritesAndCarriesDurability) {
  ASSERT_TRUE(fs_.mkdirs("/chk/offsets").ok());
  ASSERT_TRUE(fs_.write("/chk/offsets/.0.tmp", "v1\n{}").ok());
  ASSERT_TRUE(fs_.sync("/chk/offsets/.0.tmp").ok());
  clock_.advance(5);
  ASSERT_TRUE(fs_.rename("/chk/offsets/.0.tmp", "/chk/offsets/0").ok());
  EXPECT_FALSE(fs_.exists("/chk/offsets/.0.tmp"));
  EXPECT_EQ(fs_.stat("/chk/offsets/0")->modificationTime, 1000);  // rename keeps the mtime
  ASSERT_TRUE(fs_.write("/chk/offsets/.0.tmp2", "other").ok());
  EXPECT_EQ(fs_.rename("/chk/offsets/.0.tmp2", "/chk/offsets/0").code(), Status::Code::kFailedPrecondition);
  EXPECT_EQ(read("/chk/offsets/0"), "v1\n{}");
  EXPECT_EQ(fs_.rename("/chk/nope", "/chk/x").code(), Status::Code::kNotFound);
  fs_.crashLosingUnsynced();
  EXPECT_EQ(read("/chk/offsets/0"), "v1\n{}");
  EXPECT_FALSE(fs_.exists("/chk/offsets/.0.tmp2"));
}

TEST_F(SimFileSystemTest, RenamedUnsyncedFileIsStillLost) {
  ASSERT_TRUE(fs_.write("/tmp1", "data").ok());
  ASSERT_TRUE(fs_.rename("/tmp1", "/final").ok());
  fs_.crashLosingUnsynced();
  EXPECT_FALSE(fs_.exists("/final"));
}

TEST_F(SimFileSystemTest, WriteFaultsHitOnlyTheirPrefixAndCount) {
  ASSERT_TRUE(fs_.mkdirs("/chk/state").ok());
  ASSERT_TRUE(fs_.mkdirs("/chk/commits").ok());
  fs_.failWrites("/chk/state", Status::IOError("disk error"), 1);
  fs_.addWriteFault("/chk/commits", Status::NoSpace("full"), 2);
  Status st = fs_.write("/chk/state/1.delta", "x");
  EXPECT_EQ(st.code(), Status::Code::kIOError);
  EXPECT_NE(st.message().find("/chk/state/1.delta"), std::string::npos) << st.toString();
  EXPECT_TRUE(fs_.write("/chk/state/1.delta", "x").ok());
  EXPECT_EQ(fs_.append("/chk/commits/0", "x").code(), Status::Code::kNoSpace);
  EXPECT_EQ(fs_.write("/chk/commits/1", "x").code(), Status::Code::kNoSpace);
  EXPECT_TRUE(fs_.write("/chk/commits/1", "x").ok());
  EXPECT_EQ(fs_.injectedFailures(), 3);
  fs_.failWrites("/chk", Status::IOError("x"), 1);  // replaces every rule
  ASSERT_TRUE(fs_.write("/chk/tmp", "x").ok() == false);
  EXPECT_TRUE(fs_.rename("/chk/tmp", "/chk/tmp2").code() == Status::Code::kNotFound);
}

TEST_F(SimFileSystemTest, CapacityGivesNoSpace) {
  fs_.setCapacity(10);
  EXPECT_TRUE(fs_.write("/a", "12345").ok());
  EXPECT_EQ(fs_.write("/b", "1234567").code(), Status::Code::kNoSpace);
  EXPECT_TRUE(fs_.write("/a", "1234567890").ok());  // replacing counts the old size out
  EXPECT_EQ(fs_.append("/a", "x").code(), Status::Code::kNoSpace);
  fs_.setCapacity(0);
  EXPECT_TRUE(fs_.append("/a", "x").ok());
}

TEST_F(SimFileSystemTest, HalfWrittenLandingFileIsVisibleThenCompleted) {
  const std::string content = "{\"a\":1}\n{\"a\":2}\n";
  ASSERT_TRUE(fs_.putPartial("/landing/f.json", content, 10).ok());
  EXPECT_TRUE(fs_.isPartial("/landing/f.json"));
  EXPECT_EQ(read("/landing/f.json"), content.substr(0, 10));
  EXPECT_EQ(fs_.stat("/landing/f.json")->size, 10);
  // The outside writer's visible bytes survive a driver crash; the rest is still coming.
  fs_.crashLosingUnsynced();
  EXPECT_EQ(read("/landing/f.json"), content.substr(0, 10));
  ASSERT_TRUE(fs_.extendPartial("/landing/f.json", 12).ok());
  EXPECT_EQ(read("/landing/f.json"), content.substr(0, 12));
  clock_.advance(500);
  ASSERT_TRUE(fs_.completePartial("/landing/f.json").ok());
  EXPECT_FALSE(fs_.isPartial("/landing/f.json"));
  EXPECT_EQ(read("/landing/f.json"), content);
  EXPECT_EQ(fs_.stat("/landing/f.json")->modificationTime, 1500);
  EXPECT_EQ(fs_.completePartial("/landing/f.json").code(), Status::Code::kNotFound);
}

TEST_F(SimFileSystemTest, PutDurableAndTouch) {
  ASSERT_TRUE(fs_.putDurable("/landing/x/y.json", "row\n").ok());
  ASSERT_TRUE(fs_.setModificationTime("/landing/x/y.json", 7).ok());
  fs_.crashLosingUnsynced();
  EXPECT_EQ(read("/landing/x/y.json"), "row\n");
  EXPECT_EQ(fs_.stat("/landing/x/y.json")->modificationTime, 7);
  EXPECT_EQ(fs_.setModificationTime("/nope", 1).code(), Status::Code::kNotFound);
}

}  // namespace
}  // namespace streamsim::sim
