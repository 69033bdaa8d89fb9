// What keeps one call of a Python processor's code from taking the tool with it (DESIGN.md §5d:
// user code is untrusted; issue 40 item 7), besides what streamsim._driver intercepts in Python
// (os._exit / os.abort: PROCESS_EXIT):
// - a per-call time limit: a watchdog thread interrupts a call that runs past its limit (an
//   endless loop) with an exception in that call, which fails its task (retried as any task
//   failure, then the query); a call that still does not return soon after (it swallows the
//   exception, or loops in C code) ends the process with exit 1 and a message naming the file;
// - a crash report: a fatal signal (SIGSEGV from a C-stack overflow, a crashing C extension)
//   while a processor's code runs ends the process with exit 1 and a message naming the processor
//   file and method, never a bare crash (installed by the embedded interpreter only: the CLI).
// The limit is the call's CPU time (the thread's CPU clock), so a loaded machine -- a CI runner, a
// sweep beside compilers -- does not stretch it; a call blocked without running (a sleep, a lock)
// is caught at 10x the limit (at least 20 s) of wall-clock time. Both are counted from when the
// watchdog first sees the call, within its 100 ms tick of the call's start (so a call reads no
// clock). A call that ends within it behaves the same on every machine; only a runaway call (far
// past any real handler's time) depends on it. Thread-safe: each thread
// has its own slot; the watchdog is one thread per process, started by the first call.
#pragma once

#include <cstdint>
#include <string>

namespace streamsim::python {

inline constexpr int64_t kDefaultCallLimitMs = 60'000;

// One call of a processor's code on this thread, from construction to destruction.
// REQUIRES the GIL (the call runs Python). `file` must outlive the call.
class CallGuard {
 public:
  CallGuard(const std::string& file, const char* method, int64_t limitMs);
  ~CallGuard();
  CallGuard(const CallGuard&) = delete;
  CallGuard& operator=(const CallGuard&) = delete;

  // The watchdog interrupted this call (it ran past its limit): the message to fail it with.
  bool interrupted() const;
  std::string message() const;

 private:
  uint64_t call_;
  int64_t limit_ms_;
  const std::string& file_;
  const char* method_;
};

// Installs the crash report for fatal signals (once per process). The embedded interpreter
// calls it; a user's own python3 loading the extension module keeps its own handlers.
void installCrashReport();

}  // namespace streamsim::python
