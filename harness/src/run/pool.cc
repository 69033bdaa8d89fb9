// The worker pool and the shard rule (run/pool.h).
#include "streamsim/harness/run/pool.h"

#include <atomic>
#include <list>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace streamsim::harness {

std::vector<uint64_t> shardSeeds(uint64_t first, int n, int shardIndex, int shardCount) {
  std::vector<uint64_t> out;
  const uint64_t count = static_cast<uint64_t>(shardCount < 1 ? 1 : shardCount);
  // Counted by k, not compared with first + n: a range ending at 2^64 - 1 does not wrap.
  for (uint64_t k = 0; k < static_cast<uint64_t>(n < 0 ? 0 : n); ++k)
    if (uint64_t s = first + k; s % count == static_cast<uint64_t>(shardIndex)) out.push_back(s);
  return out;
}

void forEachIndex(size_t n, int jobs, const std::function<void(size_t)>& fn) {
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < n; i = next++) fn(i);
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < jobs; ++t) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
}

// A worker process (named, not anonymous: KeptWorkers::State holds them).
namespace pool_detail {
struct Worker {
  pid_t pid = -1;
  int in = -1;   // its stdin
  int out = -1;  // its stdout
  std::string buffer;
  std::optional<size_t> item;  // the request it is answering
};
}  // namespace pool_detail

namespace {

using pool_detail::Worker;

// The first whole line of `buffer` (without its newline), taken out of it; nullopt when `buffer`
// holds no newline yet.
std::optional<std::string> takeLine(std::string& buffer) {
  const size_t nl = buffer.find('\n');
  if (nl == std::string::npos) return std::nullopt;
  std::string line = buffer.substr(0, nl);
  buffer.erase(0, nl + 1);
  return line;
}

bool writeAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t w = ::write(fd, data.data(), data.size());
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    data.remove_prefix(static_cast<size_t>(w));
  }
  return true;
}

void closeFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

std::optional<Worker> spawnWorker(const std::vector<std::string>& argv) {
  int toChild[2], fromChild[2];
  if (::pipe2(toChild, O_CLOEXEC) != 0) return std::nullopt;
  if (::pipe2(fromChild, O_CLOEXEC) != 0) {
    ::close(toChild[0]);
    ::close(toChild[1]);
    return std::nullopt;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, toChild[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fromChild[1], STDOUT_FILENO);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  Worker w;
  int rc = ::posix_spawn(&w.pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(toChild[0]);
  ::close(fromChild[1]);
  if (rc != 0) {
    ::close(toChild[1]);
    ::close(fromChild[0]);
    return std::nullopt;
  }
  w.in = toChild[1];
  w.out = fromChild[0];
  return w;
}

// Waits for a worker whose input and output are closed.
void endWorker(Worker& w) {
  closeFd(w.in);
  closeFd(w.out);
  int status = 0;
  while (w.pid > 0 && ::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
  }
  w.pid = -1;
}

// writeAll to a worker that may have ended: its SIGPIPE is blocked on this thread and taken back,
// so the write fails with EPIPE instead of ending the process (no process-wide handler changed:
// other threads may be asking their own workers).
bool writeToWorker(int fd, std::string_view data) {
  sigset_t pipe, previous;
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  ::pthread_sigmask(SIG_BLOCK, &pipe, &previous);
  const bool ok = writeAll(fd, data);
  if (!ok && errno == EPIPE) {
    const timespec none{0, 0};
    while (::sigtimedwait(&pipe, nullptr, &none) < 0 && errno == EINTR) {
    }
  }
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return ok;
}

// The worker's next line (without its newline); false when it ended first.
bool readLine(Worker& w, std::string& line) {
  char chunk[65536];
  for (;;) {
    if (auto next = takeLine(w.buffer)) {
      line = std::move(*next);
      return true;
    }
    ssize_t got = ::read(w.out, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    w.buffer.append(chunk, static_cast<size_t>(got));
  }
}

}  // namespace

struct KeptWorkers::State {
  std::mutex mu;
  size_t maxIdle = 0;
  size_t started = 0;
  std::list<std::pair<std::vector<std::string>, pool_detail::Worker>> idle;  // least recently used first
};

KeptWorkers::KeptWorkers(size_t maxIdle) : state_(std::make_unique<State>()) { state_->maxIdle = maxIdle; }

KeptWorkers::~KeptWorkers() {
  for (auto& [argv, w] : state_->idle) endWorker(w);
}

size_t KeptWorkers::started() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->started;
}

std::string KeptWorkers::ask(const std::vector<std::string>& argv, const std::string& request) {
  std::optional<Worker> w;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    for (auto it = state_->idle.begin(); it != state_->idle.end(); ++it)
      if (it->first == argv) {
        w = std::move(it->second);
        state_->idle.erase(it);
        break;
      }
  }
  if (!w) {
    w = spawnWorker(argv);
    if (!w) return "";
    std::lock_guard<std::mutex> lock(state_->mu);
    ++state_->started;
  }
  std::string line;
  if (!writeToWorker(w->in, request + "\n") || !readLine(*w, line)) {
    endWorker(*w);
    return "";
  }
  std::vector<Worker> closing;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    state_->idle.emplace_back(argv, std::move(*w));
    while (state_->idle.size() > state_->maxIdle) {
      closing.push_back(std::move(state_->idle.front().second));
      state_->idle.pop_front();
    }
  }
  for (Worker& c : closing) endWorker(c);
  return line;
}

void forEachIndexInWorkers(size_t n, int jobs, const std::vector<std::string>& argv,
                           const std::function<std::string(size_t)>& request,
                           const std::function<void(size_t, const std::string&)>& reply) {
  // A worker that dies must not kill the sweep with SIGPIPE when its next request is written.
  struct sigaction ignore {}, previous {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &previous);
  std::vector<Worker> workers;
  for (size_t k = 0; k < std::min(n, static_cast<size_t>(std::max(jobs, 1))); ++k)
    if (auto w = spawnWorker(argv)) workers.push_back(std::move(*w));
  size_t next = 0;
  auto give = [&](Worker& w) {
    w.item.reset();
    if (next < n) {
      size_t i = next++;
      w.item = i;
      if (writeAll(w.in, request(i) + "\n")) return;
      closeFd(w.in);  // it ended: its reader sees the end and answers "" for this item
      return;
    }
    closeFd(w.in);  // no more work: the worker exits at the end of its input
  };
  for (Worker& w : workers) give(w);
  for (;;) {
    std::vector<pollfd> fds;
    std::vector<Worker*> polled;
    for (Worker& w : workers)
      if (w.out >= 0) {
        fds.push_back(pollfd{w.out, POLLIN, 0});
        polled.push_back(&w);
      }
    if (fds.empty()) break;
    int ready = ::poll(fds.data(), fds.size(), -1);
    if (ready < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (size_t f = 0; f < fds.size(); ++f) {
      if (fds[f].revents == 0) continue;
      Worker& w = *polled[f];
      char chunk[65536];
      ssize_t got = ::read(w.out, chunk, sizeof chunk);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {  // the worker ended
        closeFd(w.out);
        closeFd(w.in);
        if (w.item) reply(*w.item, "");
        w.item.reset();
        continue;
      }
      w.buffer.append(chunk, static_cast<size_t>(got));
      while (w.item) {
        std::optional<std::string> line = takeLine(w.buffer);
        if (!line) break;
        reply(*w.item, *line);
        give(w);
      }
    }
  }
  for (Worker& w : workers) endWorker(w);
  while (next < n) reply(next++, "");  // every worker ended (or none started)
  ::sigaction(SIGPIPE, &previous, nullptr);
}

void serveWorker(int inFd, int outFd, const std::function<std::string(const std::string&)>& serve) {
  std::string buffer;
  char chunk[65536];
  for (;;) {
    ssize_t got = ::read(inFd, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return;
    buffer.append(chunk, static_cast<size_t>(got));
    while (std::optional<std::string> line = takeLine(buffer))
      if (!writeAll(outFd, serve(*line) + "\n")) return;
  }
}

}  // namespace streamsim::harness
