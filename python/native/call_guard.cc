// The per-call limit and the crash report of Python processors' calls (call_guard.h).
#include "call_guard.h"

#include <Python.h>

#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <fmt/format.h>

namespace streamsim::python {
namespace {

// After interrupting a call, how much more CPU time the watchdog lets it run before it ends the
// process (the call swallowed the exception, or it loops in C code where none is delivered).
constexpr int64_t kGraceMs = 10'000;
// A call blocked without running (a sleep, a lock) is caught by wall-clock time instead, far
// past its CPU limit: a loaded machine stretches a call's wall-clock time, not its CPU time.
constexpr int64_t kWallFactor = 10;
constexpr int64_t kMinWallBackstopMs = 20'000;
constexpr size_t kAltStackBytes = 64 * 1024;

int64_t nowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The CPU time a thread has used, by its CPU clock (any thread of the process may read it).
int64_t cpuMs(clockid_t clock) {
  timespec ts{};
  if (::clock_gettime(clock, &ts) != 0) return 0;
  return static_cast<int64_t>(ts.tv_sec) * 1000 + ts.tv_nsec / 1'000'000;
}

// How often the watchdog looks at the running calls.
constexpr int64_t kTickMs = 100;

// One thread's calls. Written by its thread (under the GIL), read by the watchdog. A call costs
// its thread a few stores, no clock read (a thread's CPU clock is a system call, ~1 us on this
// VM, as much as a count processor's own handler): the watchdog reads the clocks when it first
// sees a call, within one tick of its start, and counts the call's time from there.
struct Slot {
  std::atomic<uint64_t> call{0};         // the running call's number (0: none)
  std::atomic<int64_t> limitMs{0};       // the running call's CPU limit
  std::atomic<uint64_t> interrupted{0};  // the number of the call the watchdog interrupted
  uint64_t seenCall = 0;                 // the watchdog's own: the call it last saw running,
  int64_t seenCpuMs = 0;                 //   the thread's CPU clock then,
  int64_t seenAtMs = 0;                  //   and the steady clock then
  int64_t interruptedAtMs = 0;           // the watchdog's own (steady clock)
  int64_t interruptedAtCpuMs = 0;        // the watchdog's own (the thread's CPU clock)
  clockid_t cpuClock{};                  // the thread's CPU clock
  unsigned long threadId = 0;            // PyThread_get_thread_ident of the thread
  std::atomic<const std::string*> file{nullptr};
  std::atomic<const char*> method{nullptr};
  std::unique_ptr<char[]> altStack;
};

// Leaked on purpose: threads that end during process exit still deregister into it.
struct Registry {
  std::mutex mu;
  std::vector<Slot*> slots;
  bool watching = false;
  PyObject* interruption = nullptr;  // the exception type a call is interrupted with
  std::atomic<bool> crashReport{false};
};
Registry& registry() {
  static Registry* r = new Registry;
  return *r;
}
std::atomic<uint64_t> g_calls{0};

thread_local Slot* t_slot = nullptr;  // read by the signal handler

void writeText(const char* s) {
  if (s == nullptr) return;
  size_t n = std::strlen(s);
  while (n > 0) {
    ssize_t w = ::write(STDERR_FILENO, s, n);
    if (w <= 0) return;
    s += w;
    n -= static_cast<size_t>(w);
  }
}

// Ends the process naming the processor (async-signal-safe: write and _exit only).
[[noreturn]] void endProcess(const Slot& s, const char* what) {
  const std::string* file = s.file.load();
  writeText("\nstreamsim: the Python processor ");
  writeText(file != nullptr ? file->c_str() : "(unknown)");
  writeText(" ");
  writeText(what);
  writeText(" in ");
  writeText(s.method.load());
  writeText("; streamsim stops (exit 1)\n");
  ::_exit(1);
}

void onFatalSignal(int sig) {
  Slot* s = t_slot;
  if (s != nullptr && s->call.load() != 0) {
    const char* what = sig == SIGSEGV ? "crashed the process (SIGSEGV: e.g. a C-stack overflow from deep "
                                        "recursion after sys.setrecursionlimit, or a crashing C extension; "
                                        "Spark's Python worker would die and the task fail)"
                       : sig == SIGBUS ? "crashed the process (SIGBUS)"
                       : sig == SIGFPE ? "crashed the process (SIGFPE)"
                                       : "crashed the process (SIGILL)";
    endProcess(*s, what);
  }
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

struct SlotOwner {
  Slot* slot = new Slot;
  SlotOwner() {
    slot->threadId = PyThread_get_thread_ident();
    if (::pthread_getcpuclockid(::pthread_self(), &slot->cpuClock) != 0) slot->cpuClock = CLOCK_THREAD_CPUTIME_ID;
    if (registry().crashReport.load()) {
      // A stack overflow's SIGSEGV needs a stack of its own to be reported on.
      slot->altStack = std::make_unique<char[]>(kAltStackBytes);
      stack_t ss{};
      ss.ss_sp = slot->altStack.get();
      ss.ss_size = kAltStackBytes;
      ::sigaltstack(&ss, nullptr);
    }
    std::lock_guard<std::mutex> lock(registry().mu);
    registry().slots.push_back(slot);
    t_slot = slot;
  }
  ~SlotOwner() {
    t_slot = nullptr;
    if (slot->altStack) {
      stack_t ss{};
      ss.ss_flags = SS_DISABLE;
      ::sigaltstack(&ss, nullptr);
    }
    std::lock_guard<std::mutex> lock(registry().mu);
    auto& v = registry().slots;
    v.erase(std::remove(v.begin(), v.end(), slot), v.end());
    delete slot;
  }
};

Slot& mySlot() {
  thread_local SlotOwner owner;
  return *owner.slot;
}

// Raises the interruption in call `call` of `s`'s thread if it still runs (under the GIL, when
// that thread cannot end it meanwhile). A thread of its own: the GIL may take a while to get.
void interrupt(Slot* s, uint64_t call) {
  PyGILState_STATE gil = PyGILState_Ensure();
  {
    std::lock_guard<std::mutex> lock(registry().mu);
    auto& v = registry().slots;
    if (std::find(v.begin(), v.end(), s) != v.end() && s->call.load() == call)
      PyThreadState_SetAsyncExc(s->threadId, registry().interruption);
  }
  PyGILState_Release(gil);
}

void watch() {
  Registry& r = registry();
  std::unique_lock<std::mutex> lock(r.mu);
  for (;;) {
    lock.unlock();
    std::this_thread::sleep_for(std::chrono::milliseconds(kTickMs));
    lock.lock();
    const int64_t now = nowMs();
    for (Slot* s : r.slots) {
      const uint64_t call = s->call.load();
      if (call == 0) continue;
      const int64_t cpu = cpuMs(s->cpuClock);
      if (call != s->seenCall) {  // a call started since the last tick: its time counts from now
        s->seenCall = call;
        s->seenCpuMs = cpu;
        s->seenAtMs = now;
        continue;
      }
      const int64_t limit = s->limitMs.load();
      if (cpu - s->seenCpuMs < limit && now - s->seenAtMs < std::max(limit * kWallFactor, kMinWallBackstopMs))
        continue;
      if (s->interrupted.load() != call) {
        s->interrupted.store(call);
        s->interruptedAtMs = now;
        s->interruptedAtCpuMs = cpu;
        std::thread(interrupt, s, call).detach();
      } else if (cpu - s->interruptedAtCpuMs > kGraceMs ||
                 now - s->interruptedAtMs > 2 * kGraceMs) {
        endProcess(*s, fmt::format("did not return {} s after its call limit interrupted it (it catches the "
                                   "interruption, or loops in C code)",
                                   kGraceMs / 1000)
                           .c_str());
      }
    }
  }
}

}  // namespace

CallGuard::CallGuard(const std::string& file, const char* method, int64_t limitMs)
    : call_(++g_calls), limit_ms_(limitMs > 0 ? limitMs : kDefaultCallLimitMs), file_(file), method_(method) {
  Slot& s = mySlot();
  Registry& r = registry();
  if (r.interruption == nullptr || !r.watching) {
    std::lock_guard<std::mutex> lock(r.mu);
    if (r.interruption == nullptr)  // a BaseException: `except Exception` in a loop does not take it
      r.interruption = PyErr_NewException("streamsim.CallLimitExceeded", PyExc_BaseException, nullptr);
    if (!r.watching) {
      r.watching = true;
      std::thread(watch).detach();
    }
  }
  s.file.store(&file_);
  s.method.store(method_);
  s.limitMs.store(limit_ms_);
  s.call.store(call_);
}

CallGuard::~CallGuard() {
  Slot& s = mySlot();
  s.call.store(0);
  // An interruption raised as the call returned without running more Python would surface in
  // the thread's next call: drop it.
  if (s.interrupted.load() == call_) PyThreadState_SetAsyncExc(s.threadId, nullptr);
}

bool CallGuard::interrupted() const { return mySlot().interrupted.load() == call_; }

std::string CallGuard::message() const {
  return fmt::format(
      "{} of {} ran longer than its call limit of {} s and was interrupted (an endless loop?); the "
      "limit is the CPU time of one call (a call blocked without running: {}x it in wall-clock "
      "time), `callLimit:` of the scenario's transformWithState (default {} s)",
      method_, file_, static_cast<double>(limit_ms_) / 1000.0, kWallFactor, kDefaultCallLimitMs / 1000);
}

void installCrashReport() {
  static std::once_flag once;
  std::call_once(once, [] {
    registry().crashReport.store(true);
    struct sigaction sa {};
    sa.sa_handler = onFatalSignal;
    sa.sa_flags = SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) ::sigaction(sig, &sa, nullptr);
  });
}

}  // namespace streamsim::python
