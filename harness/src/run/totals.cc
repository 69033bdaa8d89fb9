// A sweep's accounting: seeds' accounts and the totals line (run/totals.h).
#include "streamsim/harness/run/totals.h"

#include <fmt/format.h>

namespace streamsim::harness {

void SeedAccount::writeJson(nlohmann::json& j) const {
  j["passed"] = passed;
  j["faults"] = faults.toJson();
  j["crashes"] = crashes;
  j["restarts"] = restarts;
  j["downtimeMs"] = downtimeMs;
  j["oracleChecks"] = oracleChecks;
  j["runs"] = runs;
  j["seconds"] = seconds;
}

Result<SeedAccount> SeedAccount::readJson(const nlohmann::json& j, const std::string& plan) {
  SeedAccount a;
  try {
    a.passed = j.value("passed", true);
    a.crashes = j.value("crashes", int64_t{0});
    a.restarts = j.value("restarts", int64_t{0});
    a.downtimeMs = j.value("downtimeMs", DurationMs{0});
    a.oracleChecks = j.value("oracleChecks", 0);
    a.runs = j.value("runs", 0);
    a.seconds = j.value("seconds", 0.0);
  } catch (const nlohmann::json::exception& e) {
    return Status::InvalidArgument(std::string("a seed's account: ") + e.what());
  }
  if (j.contains("faults")) {
    sim::FaultPlan p;
    if (!plan.empty()) {
      STREAMSIM_ASSIGN_OR_RETURN(p, sim::FaultPlan::fromJson(plan));
    }
    STREAMSIM_ASSIGN_OR_RETURN(a.faults, FaultAccount::fromJson(j["faults"], std::move(p)));
  }
  return a;
}

void SweepTotals::add(const SeedAccount& seed, size_t seedViolations, bool judged) {
  ++seeds;
  if (!seed.passed) ++failed;
  runs += static_cast<size_t>(seed.runs);
  violations += seedViolations;
  oracleChecks += static_cast<size_t>(seed.oracleChecks);
  crashes += seed.crashes;
  restarts += seed.restarts;
  if (seed.downtimeMs > 0) ++seedsWithDowntime;
  downtimeMs += seed.downtimeMs;
  if (seed.faults.executablePlanned() > 0) ++seedsWithFaults;
  if (seed.faults.plannedThatFired() > 0) ++seedsWhoseFaultsFired;
  if (judged) ++judgedAgainstRestartReference;
  for (const auto& f : seed.faults.fired) {
    ++firedByKind[f.kind];
    ++firedByPoint[f.point];
  }
}

std::string SweepTotals::line() const {
  std::string kinds, points;
  int64_t fired = 0;
  for (const auto& [k, n] : firedByKind) {
    kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", k, n);
    fired += n;
  }
  for (const auto& [p, n] : firedByPoint) points += fmt::format("{}{} {}", points.empty() ? "" : ", ", p, n);
  auto percent = [](size_t n, size_t of) { return of ? 100.0 * static_cast<double>(n) / static_cast<double>(of) : 0.0; };
  return fmt::format(
      "TOTAL {} {}: {} {}{}, {} seeds, {} runs, {} oracle checks, {} violation{}; faults fired {} "
      "({}{}{}) in {:.1f}% of seeds ({:.1f}% of the {} with a planned fault), {} crashes, {} restarts, downtime in {} seed{} ({}); judged against the "
      "restart reference: {}; {:.1f} s",
      failed ? "FAIL" : "PASS", failed ? fmt::format("({} failed)", failed) : std::string("(0 failed)"),
      scenarios, unit, scenarios == 1 ? "" : "s", seeds, runs, oracleChecks, violations, violations == 1 ? "" : "s",
      fired, kinds.empty() ? "none" : kinds, points.empty() ? "" : "; ", points,
      percent(seedsWhoseFaultsFired, seeds), percent(seedsWhoseFaultsFired, seedsWithFaults), seedsWithFaults,
      crashes, restarts,
      seedsWithDowntime, seedsWithDowntime == 1 ? "" : "s",
      fmt::format("{:.1f} h virtual", static_cast<double>(downtimeMs) / 3'600'000.0),
      judgedAgainstRestartReference, seconds);
}

nlohmann::json SweepTotals::toJson() const {
  return {{"unit", unit},
          {"scenarios", scenarios},
          {"seeds", seeds},
          {"runs", runs},
          {"failed", failed},
          {"violations", violations},
          {"oracleChecks", oracleChecks},
          {"seedsWithFaults", seedsWithFaults},
          {"seedsWhoseFaultsFired", seedsWhoseFaultsFired},
          {"judgedAgainstRestartReference", judgedAgainstRestartReference},
          {"seedsWithDowntime", seedsWithDowntime},
          {"downtimeMs", downtimeMs},
          {"crashes", crashes},
          {"restarts", restarts},
          {"firedByKind", firedByKind},
          {"firedByPoint", firedByPoint},
          {"seconds", seconds}};
}

}  // namespace streamsim::harness
