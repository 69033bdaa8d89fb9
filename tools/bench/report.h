// What `streamsim bench` prints (bench.h): the table, the JSON report, and the comparison of a
// run with a saved `bench --json` report. Plain functions over BenchRows.
#pragma once

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/bench.h"
#include "streamsim/status.h"

namespace streamsim::bench {

void printTable(const std::vector<BenchRow>& rows, bool quick, double total, std::ostream& out);
nlohmann::json toJson(const std::vector<BenchRow>& rows, bool quick, double total);

// A saved `bench --json` run, read before anything runs so a bad file fails at once.
struct SavedRun {
  bool quick = false;
  std::vector<std::pair<std::string, std::pair<double, double>>> figures;  // id -> (figure, ratio)
};
Result<SavedRun> readSavedRun(const std::string& path);
// Each row's figure next to the saved one, "slower" past 5%.
void printComparison(const std::vector<BenchRow>& rows, const SavedRun& saved, bool quick,
                     const std::string& path, std::ostream& out);

}  // namespace streamsim::bench
