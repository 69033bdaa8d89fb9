// The sweeps' one worker pool and one shard rule: seed s belongs to shard s % n; a pool of J
// threads (or worker processes) takes the next index until none is left (each item independent, so
// results do not depend on J). Used by the scenario sweeps (files and generated workloads' scenarios
// alike).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace streamsim::harness {

// Seeds [first, first+n) that belong to shard `shardIndex` of `shardCount` (seed % count == index).
std::vector<uint64_t> shardSeeds(uint64_t first, int n, int shardIndex, int shardCount);

// Calls fn(i) for every i in [0, n) on `jobs` threads (the caller's among them).
void forEachIndex(size_t n, int jobs, const std::function<void(size_t)>& fn);

// The same pool with worker processes instead of threads, for work that cannot run on two
// threads at once (Python processors: one interpreter has one GIL). Starts min(jobs, n) processes
// with `argv` (argv[0] a path); each reads request lines on its stdin and answers each with one
// line on its stdout (serveWorker). request(i) is the line for item i (no newline); the next item
// goes to whichever worker answered. reply(i, line) runs on the caller's thread, serialised; a
// worker that ends before answering gives reply(i, "") for its item, and items left when every
// worker has ended get "" too. Returns after every worker has exited.
void forEachIndexInWorkers(size_t n, int jobs, const std::vector<std::string>& argv,
                           const std::function<std::string(size_t)>& request,
                           const std::function<void(size_t, const std::string&)>& reply);

// Worker processes kept between requests, for work whose process costs more to start than the
// request costs to answer (the hash_seed oracle's `hash-seed-worker`: a Python interpreter, often
// with pandas imported, for one fault-free run). ask(argv, request) writes `request` and a newline
// to an idle worker started with `argv` -- starting one when none is idle -- and returns the line
// it answers (serveWorker); "" when the worker cannot start or ends without answering (it is not
// kept). At most `maxIdle` idle workers are kept, the least recently used closed first (0: each
// worker ends after its answer). Thread-safe; the destructor ends every kept worker (its input
// closed, its exit waited for).
class KeptWorkers {
 public:
  explicit KeptWorkers(size_t maxIdle);
  ~KeptWorkers();
  KeptWorkers(const KeptWorkers&) = delete;
  KeptWorkers& operator=(const KeptWorkers&) = delete;

  std::string ask(const std::vector<std::string>& argv, const std::string& request);
  // Processes started so far.
  size_t started() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The worker's side: answers every line read from `inFd` with serve(line) and a newline on
// `outFd` (serve's answer must hold no newline), until end of input.
void serveWorker(int inFd, int outFd, const std::function<std::string(const std::string&)>& serve);

}  // namespace streamsim::harness
