// The streamsim CLI (DESIGN.md §7, docs/scenarios.md "CLI"): run, sweep, replay, merge, inspect, state,
// list-faults. runCli is the whole program; streamsim_main.cc only calls it with what the runner
// registers, so a user's runner (streamsim_add_runner) is this CLI handed their processors. Exit codes: 0 all held,
// 1 a check failed, 2 bad input. Single-threaded except `sweep --jobs`.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "streamsim/harness/run/registries.h"

namespace streamsim::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitCheckFailed = 1;
inline constexpr int kExitBadInput = 2;

// `registries`: what the runner hands its runs (harness/run/registries.h): its processors,
// references and ForeachWriters (addRunnerRegistries()), and in a runner embedding Python the Python support's loaders
// (python::addPythonSupport(), tools/python_runner_main.cc); null: none.
int runCli(int argc, char** argv, std::shared_ptr<const harness::RunRegistries> registries = nullptr);

// What this runner hands its runs: defined by the source streamsim_add_runner generates, which
// sets registries.processors to a new set its REGISTER functions fill and then calls its
// REGISTER_RUN functions with `registries` (tools/cmake/Streamsim.cmake).
void addRunnerRegistries(harness::RunRegistries& registries);

// Subcommands (each returns an exit code and prints to out/err).
int inspectCommand(const std::string& checkpoint, const std::string& sinkPath, bool json,
                   std::ostream& out, std::ostream& err);
// batch -1: the latest committed batch (the latest planned one if none committed).
int stateCommand(const std::string& checkpoint, long long batch, int op, const std::string& key,
                 bool json, std::ostream& out, std::ostream& err);
int listFaultsCommand(std::ostream& out);

}  // namespace streamsim::cli
