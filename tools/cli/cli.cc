// The streamsim CLI's command line (CLI11): subcommands, options, exit codes (cli.h).
#include "cli/cli.h"

#include <filesystem>
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "bench/bench.h"
#include "cli/report_command.h"
#include "cli/scenario_commands.h"

namespace streamsim::cli {

int runCli(int argc, char** argv, std::shared_ptr<const harness::RunRegistries> registries) {
  CLI::App app{"streamsim: run, sweep, replay and inspect Spark-style streaming scenarios"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Show help for every subcommand");
  app.set_version_flag("--version", std::string("streamsim ") + STREAMSIM_VERSION);

  RunArgs run;
  auto* runCmd = app.add_subcommand("run", "Run scenario files; exit 1 if an expectation fails");
  runCmd->add_option("files", run.files, "Scenario files (YAML), or folders of them (recursively)")
      ->required();
  // A seed is digits: CLI11 would take '' as 0.
  const CLI::Validator seedText(
      [](std::string& s) {
        return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos
                   ? std::string()
                   : fmt::format("'{}' is not a seed; expected an unsigned integer", s);
      },
      "SEED");
  runCmd->add_option("--seed", run.seed, "Seed of the simulated world (ids, temp names)")->check(seedText);
  runCmd->add_flag("--update", run.update,
                   "Rewrite the expected sink/new_rows rows in place with what came (shows a diff)");
  runCmd->add_option("--keep", run.keep,
                     "Write the simulated checkpoint, sink and landing folders here when the run "
                     "ends (a folder per scenario when several); it must be empty");
  runCmd->add_flag("--replace", run.replace, "Empty the --keep folder first if streamsim kept it before");
  runCmd->add_option("--html", run.html,
                     "Write a picture of the run here: one HTML file (a folder of them when several)");

  SweepArgs sweep;
  auto* sweepCmd = app.add_subcommand(
      "sweep", "Run scenarios under seeded random fault plans; every seed runs, each failing one is "
               "shrunk; exit 1 if any seed failed");
  sweepCmd->add_option("path", sweep.path, "A scenario file or a folder of them")->required();
  sweepCmd->add_option("--seeds", sweep.seeds, "Seeds per scenario, >= 1 (default: the file's sweep.seeds)")
      ->check(CLI::PositiveNumber);
  sweepCmd->add_option("--first-seed", sweep.firstSeed, "First seed (default 0)")->check(seedText);
  sweepCmd->add_option("--jobs,-j", sweep.jobs,
                     "Worker threads (default 1); worker processes when a scenario runs a Python processor")->check(CLI::Range(1, kMaxJobs));
  sweepCmd->add_option("--shard", sweep.shard,
                       "i/n: run only seeds with seed % n == i (CI matrices, indexed jobs)");
  sweepCmd->add_option("--junit", sweep.junit, "Write a JUnit XML report");
  sweepCmd->add_option("--json", sweep.json, "Write a JSON report (shards' reports merge)");
  sweepCmd->add_option("--html", sweep.html,
                       "Write an HTML page of seeds x outcome here, and a page per failing seed beside it");
  sweepCmd->add_flag("--no-progress", sweep.noProgress, "Plain lines even on a terminal");
  sweepCmd->add_option("--state-store", sweep.stateStore,
                       "memory | rocksdb: run every scenario on this state store");
  sweepCmd->add_option("--downtime", sweep.downtime,
                       "MIN..MAX (e.g. 0..5m): every scenario's crashes leave the driver down this long (sweep.downtime)");
  // Internal: a sweep's worker process (scenarios with Python processors run their seeds in
  // these with --jobs > 1: one interpreter has one GIL).
  SweepWorkerArgs sweepWorker;
  auto* sweepWorkerCmd = app.add_subcommand("sweep-worker", "")->group("");
  sweepWorkerCmd->add_option("--program", sweepWorker.program);
  sweepWorkerCmd->add_option("--state-store", sweepWorker.stateStore);
  sweepWorkerCmd->add_option("--downtime", sweepWorker.downtime);
  sweepWorkerCmd->add_option("files", sweepWorker.files)->required();
  // Internal: a worker process of streamsim.sweep_processor(..., jobs > 1).
  WorkloadWorkerArgs workloadWorker;
  auto* workloadWorkerCmd = app.add_subcommand("workload-worker", "")->group("");
  workloadWorkerCmd->add_option("--python", workloadWorker.spec.file)->required();
  workloadWorkerCmd->add_option("--class", workloadWorker.spec.className)->required();
  workloadWorkerCmd->add_option("--output-schema", workloadWorker.spec.outputSchemaDDL)->required();
  workloadWorkerCmd->add_option("--time-mode", workloadWorker.spec.timeMode);
  workloadWorkerCmd->add_option("--oracle", workloadWorker.spec.oracles);

  // Internal: the hash_seed oracle's process whose Python hashes str with another seed.
  HashSeedWorkerArgs hashSeedWorker;
  auto* hashSeedWorkerCmd = app.add_subcommand("hash-seed-worker", "")->group("");
  hashSeedWorkerCmd->add_option("--hash-seed", hashSeedWorker.hashSeed)->required();
  hashSeedWorkerCmd->add_option("file", hashSeedWorker.file);

  ReplayArgs replay;
  harness::CheckpointReplayOptions ckReplay;
  int64_t ckFromBatch = -1;
  auto* replayCmd = app.add_subcommand(
      "replay",
      "Re-run one seed of a sweep (FILE --seed S [--plan JSON]), or a real checkpoint's recorded "
      "batch plan and new input from a committed batch's state (--checkpoint DIR --processor NAME|file.py:Class "
      "[--from-batch K] --landing DIR --schema DDL | --kafka-records FILE [--sink DIR])");
  auto* replayFile = replayCmd->add_option(
      "file", replay.file, "Scenario file, or a generated workload as a workload sweep's replay line names it: "
                           "a standard one (count, session_tracker, heartbeat, ttl_cache, dedup, window), "
                           "a registered processor, or file.py:Class");
  auto* replaySeed = replayCmd->add_option("--seed", replay.seed, "The seed a sweep printed")->check(seedText);
  replayCmd->add_option("--plan", replay.plan,
                        "A fault plan as JSON (the shrunk plan a sweep printed); default: the seed's");
  replayCmd->add_option("--hash-seed", replay.hashSeed,
                        "The hash_seed oracle's other Python hash seed, as a sweep printed it (default: the seed's)");
  replayCmd->add_option("--keep", replay.keep,
                        "Write the simulated checkpoint, sink and landing folders here (an empty folder)");
  replayCmd->add_flag("--replace", replay.replace, "Empty the --keep folder first if streamsim kept it before");
  replayCmd->add_option("--html", replay.html, "Write a picture of the replayed run here (one HTML file)");
  auto* ckOpt = replayCmd->add_option("--checkpoint", ckReplay.checkpoint,
                                      "A checkpoint folder whose offsets/ and sources/0/ plan to re-run");
  replayCmd->add_option("--landing", ckReplay.landing,
                        "The folder holding the landing files its source log names, and new ones to run on");
  replayCmd->add_option("--processor", ckReplay.processor,
                        "Registered processor name (e.g. count), or a PySpark processor file.py:Class");
  auto* fromBatchOpt = replayCmd->add_option("--from-batch", ckFromBatch,
                        "Start after this committed batch, on the state it committed (default: batch 0 when the "
                        "input can be re-read, else the last committed batch)");
  replayCmd->add_option("--kafka-records", ckReplay.kafkaRecords,
                        "A Kafka source's recorded records, JSON lines {topic, partition, offset, key, value, "
                        "timestamp}, read at the offsets offsets/N names");
  replayCmd->add_option("--group-by", ckReplay.groupBy,
                        "Grouping columns (default: the checkpoint's, state/0/_stateSchema)")->delimiter(',');
  replayCmd->add_option("--schema", ckReplay.schema, "DDL of the landing rows, e.g. 'user string, n long'");
  replayCmd->add_option("--time-mode", ckReplay.timeMode,
                        "none | processingTime | eventTime (default: the checkpoint's)");
  replayCmd->add_option("--sink", ckReplay.sink,
                        "The query's file sink folder: compare each replayed batch with what it committed");
  auto* replayStore = replayCmd->add_option("--state-store", ckReplay.stateStore,
                                            "memory | rocksdb (default: the scenario's or checkpoint's, else memory)");
  replayCmd->add_option("--files", replay.files, "A workload's landing files taking part: 0,3 or none (default all)");
  replayCmd->add_option("--output-schema", replay.workload.outputSchema, "A workload's output rows (DDL), as its line says");
  replayCmd->add_option("--oracle", replay.workload.oracles, "A workload's oracles, as its line says (repeatable)");
  replayCmd->add_flag("--determinism", replay.workload.determinism, "A workload's run: run it twice and compare");
  replayCmd->add_flag("--batch-split", replay.workload.batchSplit,
                      "A workload's run: compare with the files landing at another pace");
  ckOpt->excludes(replayFile);
  ckOpt->excludes(replaySeed);

  MergeArgs merge;
  auto* mergeCmd = app.add_subcommand(
      "merge", "Merge the --json reports of sweep shards; exit 1 if a seed failed, 2 if one is "
               "missing or run twice");
  mergeCmd->add_option("reports", merge.files, "sweep --json reports (one per shard)")->required();
  mergeCmd->add_option("--json", merge.json, "Write the merged report here");

  ReportArgs reportArgs;
  auto* reportCmd = app.add_subcommand(
      "report", "Write the HTML page of saved sweep --json reports (shards merge) and a page per "
                "failing seed, run again from its scenario file");
  reportCmd->add_option("reports", reportArgs.reports, "sweep --json reports")->required();
  reportCmd->add_option("--html", reportArgs.html, "The page to write")->required();

  std::string checkpoint, sinkPath;
  bool json = false;
  auto* inspectCmd = app.add_subcommand(
      "inspect", "Report a checkpoint per batch: offsets, commits, files, sink, diagnosis");
  inspectCmd->add_option("checkpoint", checkpoint, "Checkpoint folder (streamsim's or Spark's)")->required();
  inspectCmd->add_option("--sink", sinkPath, "The file sink's output folder (lists orphans)");
  inspectCmd->add_flag("--json", json, "One JSON object instead of text");

  long long batch = -1;
  int op = -1;
  std::string key;
  auto* stateCmd = app.add_subcommand(
      "state", "Print the state of a checkpoint after a batch (streamsim's, or Spark's "
               "HDFS-backed store)");
  stateCmd->add_option("checkpoint", checkpoint, "Checkpoint folder")->required();
  stateCmd->add_option("--batch", batch,
                       "Batch id (state version = batch + 1); default: the latest committed");
  stateCmd->add_flag("--json", json, "One JSON object instead of text");
  stateCmd->add_option("--operator", op, "Only this stateful operator id");
  stateCmd->add_option("--key", key, "Only entries whose key holds this value");

  auto* listCmd = app.add_subcommand("list-faults", "List the named fault points");

  bench::BenchOptions benchOpts;
  auto* benchCmd = app.add_subcommand(
      "bench", "Measure the five workloads of docs/performance.md against their limits");
  benchCmd->add_flag("--quick", benchOpts.quick, "Small sizes: a smoke run in seconds");
  benchCmd->add_flag("--json", benchOpts.json, "One JSON object instead of the table");
  benchCmd->add_option("--only", benchOpts.only, "Only these workloads (1..8, 4p)");
  benchCmd->add_option("--compare", benchOpts.compare,
                       "A saved `bench --json` run: print each figure's change against it");
  benchCmd->add_option("--rss-child-keys", benchOpts.rssChildKeys)->group("");  // internal
  benchCmd->add_option("--rss-child-events", benchOpts.rssChildEvents)->group("");

  // The reproduce lines name the program as it was invoked (a user's runner prints its own name).
  const std::string program = argc > 0 && argv[0] && *argv[0] ? argv[0] : "streamsim";
  run.program = sweep.program = replay.program = reportArgs.program = workloadWorker.program = program;
  run.registries = sweep.registries = sweepWorker.registries = hashSeedWorker.registries = replay.registries =
      workloadWorker.spec.registries = ckReplay.registries = benchOpts.registries = reportArgs.registries = registries;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitBadInput;
  }
  if (*runCmd) return runCommand(run, std::cout, std::cerr);
  if (*sweepCmd) {
    std::error_code ec;
    std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) sweep.workerExe = self.string();
    return sweepCommand(sweep, std::cout, std::cerr);
  }
  if (*sweepWorkerCmd) return sweepWorkerCommand(sweepWorker, std::cerr);
  if (*workloadWorkerCmd) return workloadWorkerCommand(workloadWorker, std::cerr);
  if (*hashSeedWorkerCmd) return hashSeedWorkerCommand(hashSeedWorker, std::cerr);
  if (*replayCmd) {
    if (!ckReplay.checkpoint.empty()) {
      if (fromBatchOpt->count() > 0) ckReplay.fromBatch = ckFromBatch;
      return checkpointReplayCommand(ckReplay, std::cout, std::cerr);
    }
    if (replay.file.empty() || replaySeed->count() == 0) {
      std::cerr << "streamsim replay: give FILE --seed S (a sweep's seed) or --checkpoint DIR "
                   "--landing DIR --processor NAME --schema DDL\n";
      return kExitBadInput;
    }
    if (replayStore->count() > 0) replay.stateStore = ckReplay.stateStore;
    replay.workload.timeMode = ckReplay.timeMode;  // --time-mode: a workload's, as its line says
    return replayCommand(replay, std::cout, std::cerr);
  }
  if (*mergeCmd) return mergeCommand(merge, std::cout, std::cerr);
  if (*reportCmd) return reportCommand(reportArgs, std::cout, std::cerr);
  if (*inspectCmd) return inspectCommand(checkpoint, sinkPath, json, std::cout, std::cerr);
  if (*stateCmd) return stateCommand(checkpoint, batch, op, key, json, std::cout, std::cerr);
  if (*listCmd) return listFaultsCommand(std::cout);
  if (*benchCmd) return bench::benchCommand(benchOpts, "/proc/self/exe", std::cout, std::cerr);
  return kExitBadInput;
}

}  // namespace streamsim::cli
