// Workload 5 (workload.h): peak RSS of workload 2 with 1M keys, each size in its own child
// process of this binary (`bench --rss-child-keys`).
#include "bench/workload.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "bench/bench_support.h"

extern char** environ;

namespace streamsim::bench {
namespace {

int64_t readVmHwmKiB() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoll(line.substr(6));
  }
  return -1;
}

// Runs `selfExe bench --rss-child-keys K --rss-child-events E`; returns the child's VmHWM in
// KiB, or -1 with `error` set.
int64_t childPeakRss(const std::string& selfExe, int64_t keys, int64_t events, std::string& error) {
  int fds[2];
  if (pipe(fds) != 0) {
    error = "pipe() failed";
    return -1;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  std::vector<std::string> args = {selfExe, "bench", "--rss-child-keys", std::to_string(keys),
                                   "--rss-child-events", std::to_string(events)};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, selfExe.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    error = fmt::format("could not start {}: error {}", selfExe, rc);
    return -1;
  }
  std::string output;
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) output.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  auto pos = output.find("vmhwm_kib=");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || pos == std::string::npos) {
    error = "the workload 5 child failed: " + output;
    return -1;
  }
  return std::stoll(output.substr(pos + 10));
}

}  // namespace

std::vector<BenchRow> memoryWorkload(BenchContext& ctx, bool& ok) {
  const bool quick = ctx.quick;
  const std::string& selfExe = ctx.selfExe;
  auto t0 = Clock::now();
  Sizes s = countSizes(quick);
  const int64_t bigKeys = quick ? 20'000 : 1'000'000;
  const int64_t smallKeys = bigKeys / 4;
  BenchRow r;
  r.id = "5";
  r.name = fmt::format("peak RSS of workload 2, {} keys", count(bigKeys));
  r.sizes = fmt::format("{}->{} keys", count(smallKeys), count(bigKeys));
  r.unit = "MiB";
  r.limitName = "budget 1 GiB";
  r.limit = 1024;
  r.target = "< 1024 MiB";
  std::string error;
  int64_t small = childPeakRss(selfExe, smallKeys, s.smallEvents, error);
  int64_t big = error.empty() ? childPeakRss(selfExe, bigKeys, s.bigEvents, error) : -1;
  if (!error.empty()) {
    ok = false;
    r.note = error;
    return {r};
  }
  r.figure = static_cast<double>(big) / 1024.0;
  r.ratio = r.figure / r.limit;
  r.met = r.figure < 1024;
  // Bytes per key, big over small.
  r.scaling = (static_cast<double>(big) / bigKeys) / (static_cast<double>(small) / smallKeys);
  r.note = fmt::format("{:.0f} MiB at {} keys", small / 1024.0, count(smallKeys));
  r.seconds = secondsSince(t0);
  return {r};
}

int rssChild(int64_t keys, int64_t events) {
  int files = static_cast<int>(std::max<int64_t>(1, events / 10'000));
  CountInput in = makeCountInput(events, keys, files, /*withUpdates=*/false);
  EngineRun run = runCountEngine(in, StateStoreKind::kRocksDB, exampleCount());
  if (!run.error.empty()) {
    std::cout << "error: " << run.error << "\n";
    return 1;
  }
  std::cout << "vmhwm_kib=" << readVmHwmKiB() << "\n";
  return 0;
}

}  // namespace streamsim::bench
