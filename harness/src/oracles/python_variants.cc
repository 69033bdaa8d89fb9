// hash_seed and pandas_chunks (oracles/python_variants.h): the check, the runs, the hash-seed worker.
#include "streamsim/harness/oracles/python_variants.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "streamsim/harness/row_diff.h"
#include "streamsim/harness/run/pool.h"
#include "streamsim/harness/scenario_runner.h"

namespace streamsim::harness {

std::optional<Violation> checkVariantSinks(std::string_view oracle, const VariantSinks& runs, std::string_view why) {
  std::vector<std::string> a = runs.hereRows, b = runs.otherRows;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  if (a == b) return std::nullopt;
  std::vector<std::string> onlyHere, onlyThere;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(onlyHere));
  std::set_difference(b.begin(), b.end(), a.begin(), a.end(), std::back_inserter(onlyThere));
  constexpr size_t kShown = 5;
  auto list = [&](const std::vector<std::string>& rows) {
    std::string out;
    for (size_t i = 0; i < rows.size() && i < kShown; ++i) out += "\n    " + rows[i];
    if (rows.size() > kShown) out += fmt::format("\n    ... ({} in all)", rows.size());
    return out;
  };
  Violation v;
  v.oracle = std::string(oracle);
  if (!onlyHere.empty()) v.key = onlyHere.front();
  v.message = fmt::format(
      "the fault-free run's final sink differs with {} and with {}: {}\n  only with {} ({} rows):{}\n  only "
      "with {} ({} rows):{}",
      runs.here, runs.other, why, runs.here, onlyHere.size(), list(onlyHere), runs.other, onlyThere.size(),
      list(onlyThere));
  return v;
}

ScenarioRunOptions variantSinkOptions(uint64_t seed, std::optional<int64_t> pandasChunkRows, bool skipCrashSteps) {
  ScenarioRunOptions o;
  o.seed = seed;
  o.pandasChunkRows = pandasChunkRows;
  o.skipCrashSteps = skipCrashSteps;
  o.faultPlan = sim::FaultPlan{};
  o.skipExpectations = true;
  o.applyOracles = false;
  o.oracleState = false;  // the final sink is compared
  return o;
}

Result<std::vector<std::string>> variantSinkOf(const ScenarioRunResult& r) {
  if (!ranClean(r)) return Status::FailedPrecondition(r.report());
  std::vector<std::string> rows;
  for (const Row& row : r.sinkRows) rows.push_back(formatRow(row));
  return rows;
}

Result<std::vector<std::string>> variantSink(const Scenario& sc, uint64_t seed,
                                             std::optional<int64_t> pandasChunkRows, bool skipCrashSteps,
                                             std::shared_ptr<ParsedFiles> parsedFiles) {
  ScenarioRunOptions o = variantSinkOptions(seed, pandasChunkRows, skipCrashSteps);
  o.parsedFiles = std::move(parsedFiles);
  return variantSinkOf(runScenario(sc, o));
}

std::string hashSeedRequest(uint64_t seed, const std::string& file) { return fmt::format("{} {}", seed, file); }

std::optional<std::pair<uint64_t, std::string>> readHashSeedRequest(const std::string& line,
                                                                    const std::string& ownFile) {
  uint64_t seed = 0;
  int end = 0;
  if (std::sscanf(line.c_str(), "%" SCNu64 "%n", &seed, &end) != 1) return std::nullopt;
  std::string file = line.substr(static_cast<size_t>(end));
  if (!file.empty() && file[0] == ' ') file.erase(0, 1);  // the separator (a name may start with one)
  return std::make_pair(seed, file.empty() ? ownFile : file);
}

std::string hashSeedAnswer(const Result<std::vector<std::string>>& rows) {
  nlohmann::json j = rows.ok() ? nlohmann::json{{"rows", *rows}} : nlohmann::json{{"error", rows.status().message()}};
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Result<std::vector<std::string>> sinkUnderHashSeed(const std::string& cli, const std::string& file, uint64_t seed,
                                                   uint32_t hashSeed, KeptWorkers* workers) {
  // One worker per hash seed serves every file of a sweep (a Python interpreter, often with pandas
  // imported, costs more to start than a run); a file whose name holds a line break, which a
  // request line cannot carry, gets workers of its own.
  const bool ownWorker = file.find_first_of("\r\n") != std::string::npos;
  std::vector<std::string> argv = {cli, "hash-seed-worker", "--hash-seed", std::to_string(hashSeed)};
  if (ownWorker) argv.insert(argv.end(), {"--", file});
  KeptWorkers once(0);
  const std::string answer = (workers != nullptr ? *workers : once)
                                 .ask(argv, ownWorker ? std::to_string(seed) : hashSeedRequest(seed, file));
  const std::string command = fmt::format("{} hash-seed-worker --hash-seed {} {}", cli, hashSeed, file);
  if (answer.empty())
    return Status::Aborted(fmt::format("the run under hash seed {} ended without answering ({})", hashSeed, command));
  nlohmann::json j = nlohmann::json::parse(answer, nullptr, /*allow_exceptions=*/false);
  if (j.is_object() && j.contains("error") && j["error"].is_string())
    return Status::FailedPrecondition(
        fmt::format("the run under hash seed {} failed ({}):\n{}", hashSeed, command, j["error"].get<std::string>()));
  if (!j.is_object() || !j.contains("rows") || !j["rows"].is_array())
    return Status::Corruption(fmt::format("the run under hash seed {} answered what is not its rows ({})", hashSeed, command));
  std::vector<std::string> rows;
  for (const auto& r : j["rows"]) {
    if (!r.is_string())
      return Status::Corruption(fmt::format("the run under hash seed {} answered a row that is not text ({})", hashSeed, command));
    rows.push_back(r.get<std::string>());
  }
  return rows;
}

}  // namespace streamsim::harness
