// The oracle table and the one function that applies it (oracles/table.h). Each row is an oracle
// unit of harness/src/oracles/units/ (its file defines the function named here).
#include "streamsim/harness/oracles/table.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace streamsim::harness {

Oracle exactlyOnceOracle();
Oracle timersOracle();
Oracle ttlOracle();
Oracle watermarkOracle();
Oracle stateBoundOracle();
Oracle determinismOracle();
Oracle batchSplitOracle();
Oracle timerBoundOracle();
Oracle processIsolationOracle();
Oracle interleavingOracle();
Oracle latencyBoundOracle();
Oracle modeEquivalenceOracle();
Oracle restartEquivalenceOracle();
Oracle referenceOracle();
Oracle hashSeedOracle();
Oracle pandasChunksOracle();
Oracle partitioningOracle();

const std::vector<Oracle>& oracleTable() {
  static const std::vector<Oracle> kTable = {
      exactlyOnceOracle(),   timersOracle(),          ttlOracle(),
      watermarkOracle(),     stateBoundOracle(),      determinismOracle(),
      batchSplitOracle(),    timerBoundOracle(),      processIsolationOracle(),
      interleavingOracle(),  latencyBoundOracle(),    modeEquivalenceOracle(),
      restartEquivalenceOracle(), referenceOracle(),  hashSeedOracle(),
      pandasChunksOracle(),  partitioningOracle(),
  };
  return kTable;
}

const Oracle* findOracle(std::string_view name) {
  for (const Oracle& o : oracleTable())
    if (o.name == name) return &o;
  return nullptr;
}

const std::vector<std::string>& oracleNames() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const Oracle& o : oracleTable()) names.emplace_back(o.name);
    return names;
  }();
  return kNames;
}

const std::vector<CommittedBatch>& OracleInput::committedBatches() {
  if (!committed) committed = harness::committedBatches(run.trace);
  return *committed;
}

Status checkOracleNames(const std::vector<std::string>& names) {
  for (const auto& n : names)
    if (findOracle(n) == nullptr)
      return Status::InvalidArgument(
          fmt::format("unknown oracle '{}'; expected one of {}", n, fmt::join(oracleNames(), ", ")));
  return Status::OK();
}

std::vector<OracleError> applyOracles(const std::vector<std::string>& names, OracleInput& in,
                                      RunOutcome& out) {
  std::vector<OracleError> errors;
  for (const auto& n : names)
    if (findOracle(n) == nullptr) errors.push_back({n, Status::InvalidArgument(fmt::format("unknown oracle '{}'", n))});
  for (const Oracle& o : oracleTable()) {
    if (std::find(names.begin(), names.end(), o.name) == names.end()) continue;
    ++out.oracleChecks;
    auto v = o.check(in);
    if (!v.ok()) {
      errors.push_back({std::string(o.name), v.status()});
      continue;
    }
    if (*v) out.violations.push_back(std::move(**v));
  }
  return errors;
}

}  // namespace streamsim::harness
