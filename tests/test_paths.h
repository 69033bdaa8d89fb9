// Where the tests find the repository, Spark's fixtures and the built programs. The paths are
// compiled into one generated file (tests/CMakeLists.txt: test_paths.cc), not handed to every test
// as -D flags: a test's compile is then the same in every checkout, so ccache (base_dir) shares it
// between the main checkout, worktrees and CI clones.
#pragma once

namespace streamsim::test_paths {

const char* sourceDir();    // the repository's root
const char* fixturesDir();  // tests/fixtures/spark (spark-real, spark-rocksdb beside it)
const char* cli();          // the built `streamsim`
const char* runner();       // the built `streamsim_test_runner` (a user-style runner)

}  // namespace streamsim::test_paths

#define STREAMSIM_SOURCE_DIR (::streamsim::test_paths::sourceDir())
#define STREAMSIM_FIXTURES_DIR (::streamsim::test_paths::fixturesDir())
#define STREAMSIM_CLI (::streamsim::test_paths::cli())
#define STREAMSIM_RUNNER (::streamsim::test_paths::runner())
