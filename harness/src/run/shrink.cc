// The shrinker on RapidCheck's shrinking (run/shrink.h).
#include "streamsim/harness/run/shrink.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
// GCC 12 reports a false maybe-uninitialized inside rc::Maybe<Shrinkable> once findLocalMin
// is inlined here; the warning is in RapidCheck's header, not in this code.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <rapidcheck.h>
#pragma GCC diagnostic pop

namespace streamsim::harness {

bool FailureKind::sharedWith(const FailureKind& other) const {
  for (const auto& k : keys)
    if (other.keys.count(k)) return true;
  return false;
}

void FailureKind::addViolations(const std::vector<Violation>& violations) {
  for (const auto& v : violations) keys.insert("oracle " + v.oracle);
}

std::string FailureKind::toString() const { return fmt::format("{}", fmt::join(keys, ", ")); }

std::string FailureKind::stepKey(const std::string& step, const std::string& file, int line) {
  return fmt::format("{} {}:{}", step.empty() ? "expect" : step, file, line);
}

namespace {

// A simpler fault: an earlier batch (rc's integral shrink toward 0), the first pass, one failure.
rc::Seq<sim::Fault> simplerFault(const sim::Fault& f) {
  if (auto* c = std::get_if<sim::CrashFault>(&f)) {
    auto earlier = rc::seq::map(rc::shrink::towards<int64_t>(c->batch, 0), [c](int64_t b) {
      sim::CrashFault out = *c;
      out.batch = b;
      return sim::Fault(out);
    });
    auto firstPass = rc::seq::map(rc::shrink::towards<int64_t>(c->nth, 1), [c](int64_t n) {
      sim::CrashFault out = *c;
      out.nth = n;
      return sim::Fault(out);
    });
    if (c->batch <= 0) return firstPass;
    return rc::seq::concat(std::move(earlier), std::move(firstPass));
  }
  if (auto* t = std::get_if<sim::TaskFailureFault>(&f)) {
    auto earlier = rc::seq::map(rc::shrink::towards<int64_t>(t->batch, 0), [t](int64_t b) {
      sim::TaskFailureFault out = *t;
      out.batch = b;
      return sim::Fault(out);
    });
    auto fewer = rc::seq::map(rc::shrink::towards<int>(t->count, 1), [t](int n) {
      sim::TaskFailureFault out = *t;
      out.count = n;
      return sim::Fault(out);
    });
    if (t->batch <= 0) return fewer;
    return rc::seq::concat(std::move(earlier), std::move(fewer));
  }
  if (auto* io = std::get_if<sim::IoErrorFault>(&f)) {
    return rc::seq::map(rc::shrink::towards<int>(io->count, 1), [io](int n) {
      sim::IoErrorFault out = *io;
      out.count = n;
      return sim::Fault(out);
    });
  }
  return rc::Seq<sim::Fault>();
}

// RapidCheck's shrink tree: fewer faults first (removeChunks), then fewer files, then each fault
// made simpler.
rc::Shrinkable<ShrinkCase> shrinkable(ShrinkCase s) {
  return rc::shrinkable::shrinkRecur(std::move(s), [](const ShrinkCase& st) {
    auto withFaults = [st](std::vector<sim::Fault> f) {
      ShrinkCase out = st;
      out.plan.faults = std::move(f);
      return out;
    };
    auto fewerFaults = rc::seq::map(rc::shrink::removeChunks(st.plan.faults), withFaults);
    auto fewerFiles = rc::seq::map(st.files ? rc::shrink::removeChunks(*st.files) : rc::Seq<std::vector<int64_t>>(),
                                   [st](std::vector<int64_t> f) {
                                     ShrinkCase out = st;
                                     out.files = std::move(f);
                                     return out;
                                   });
    auto simpler = rc::seq::map(rc::shrink::eachElement(st.plan.faults, simplerFault), withFaults);
    return rc::seq::concat(std::move(fewerFaults), std::move(fewerFiles), std::move(simpler));
  });
}

}  // namespace

ShrinkResult shrinkFailure(const ShrinkCase& failing, const FailureKind& kind,
                           const std::function<FailureKind(const ShrinkCase&)>& rerun, int maxRuns) {
  ShrinkResult out;
  auto predicate = [&](const ShrinkCase& c) {
    if (out.runs >= maxRuns) return false;
    ++out.runs;
    return rerun(c).sharedWith(kind);
  };
  auto [minimal, steps] = rc::shrinkable::findLocalMin(shrinkable(failing), predicate);
  (void)steps;
  out.minimal = std::move(minimal);
  return out;
}

}  // namespace streamsim::harness
