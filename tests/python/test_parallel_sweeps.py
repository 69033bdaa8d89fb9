"""Sweeps of Python scenarios with jobs > 1 run their seeds in worker processes (one interpreter
has one GIL), with the same results, seeds, reproduce lines and totals as with jobs = 1."""

import os
import re

import streamsim

SCENARIOS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scenarios")


def _without_times(report):
    """A sweep --json report without its wall times (the only fields runs may differ in)."""
    if isinstance(report, dict):
        return {k: _without_times(v) for k, v in report.items() if k != "seconds"}
    if isinstance(report, list):
        return [_without_times(v) for v in report]
    return report


def _output_without_times(text):
    text = re.sub(r"; [0-9.]+ s$", "", text, flags=re.M)  # the TOTAL line's wall time
    return "\n".join(line for line in text.splitlines() if not line.startswith("done "))


def _pids(path):
    if not os.path.exists(path):
        return set()
    with open(path, encoding="utf-8") as f:
        return {int(line) for line in f if line.strip()}


def test_a_passing_python_sweep_runs_in_worker_processes_with_the_in_process_result(tmp_path, monkeypatch):
    scenario = os.path.join(SCENARIOS, "worker_pid_counter.yaml")
    one_file, two_file = tmp_path / "jobs1.pids", tmp_path / "jobs2.pids"
    monkeypatch.setenv("STREAMSIM_TEST_PID_FILE", str(one_file))
    one = streamsim.sweep(scenario, seeds=40, jobs=1)
    monkeypatch.setenv("STREAMSIM_TEST_PID_FILE", str(two_file))
    two = streamsim.sweep(scenario, seeds=40, jobs=2)
    assert one["passed"] and two["passed"], one["output"] + two["output"]
    assert _without_times(one["report"]) == _without_times(two["report"])
    assert _output_without_times(one["output"]) == _output_without_times(two["output"])
    assert "40 seeds, 0 failed" in two["output"], two["output"]
    # jobs=1 runs in this process; jobs=2 in two other processes.
    assert _pids(str(one_file)) == {os.getpid()}
    workers = _pids(str(two_file))
    assert len(workers) == 2 and os.getpid() not in workers, workers


def test_a_failing_python_sweep_shrinks_and_prints_the_same_replay_lines_in_worker_processes():
    # The shared-member race (async_race.yaml) fails seeds under the interleaving oracle: their
    # shrunk plans, reports and replay lines come back from the workers unchanged.
    scenario = os.path.join(SCENARIOS, "async_race.yaml")
    one = streamsim.sweep(scenario, seeds=30, jobs=1)
    two = streamsim.sweep(scenario, seeds=30, jobs=2)
    assert not one["passed"] and not two["passed"]
    assert one["exit_code"] == two["exit_code"] == 1
    assert _without_times(one["report"]) == _without_times(two["report"])
    assert _output_without_times(one["output"]) == _output_without_times(two["output"])
    assert "shrunk to:" in two["output"] and "  replay: " in two["output"], two["output"]


def test_a_worker_process_that_dies_fails_its_seeds_with_a_message_and_the_sweep_ends(monkeypatch):
    monkeypatch.setenv("STREAMSIM_TEST_EXIT_IN_INIT", "1")
    r = streamsim.sweep(os.path.join(SCENARIOS, "worker_pid_counter.yaml"), seeds=5, jobs=2)
    assert not r["passed"] and r["exit_code"] == 2, r["output"]
    assert r["output"].count("the worker process ended before answering") == 5, r["output"]
    assert "5 seeds, 5 failed" in r["output"], r["output"]


PROCESSORS = os.path.join(SCENARIOS, "processors")


def test_sweep_processor_with_jobs_runs_its_seeds_in_worker_processes_with_the_jobs1_result(tmp_path, monkeypatch):
    path = os.path.join(PROCESSORS, "worker_pid.py")
    one_file, two_file = tmp_path / "jobs1.pids", tmp_path / "jobs2.pids"
    args = dict(seeds=12, output_schema="id string, count long", oracles=["exactly_once"])
    monkeypatch.setenv("STREAMSIM_TEST_PID_FILE", str(one_file))
    one = streamsim.sweep_processor(path, "PidRecordingCounter", jobs=1, **args)
    monkeypatch.setenv("STREAMSIM_TEST_PID_FILE", str(two_file))
    two = streamsim.sweep_processor(path, "PidRecordingCounter", jobs=2, **args)
    assert one["passed"] and two["passed"], one["summary"] + two["summary"]
    assert _without_times(one["report"]) == _without_times(two["report"])
    assert _output_without_times(one["summary"]) == _output_without_times(two["summary"])
    assert _pids(str(one_file)) == {os.getpid()}
    workers = _pids(str(two_file))
    assert len(workers) == 2 and os.getpid() not in workers, workers


def test_a_failing_sweep_processor_shrinks_to_the_same_cases_in_worker_processes():
    path = os.path.join(PROCESSORS, "traps.py")
    one = streamsim.sweep_processor(path, "SelfCountProcessor", seeds=4, jobs=1)
    two = streamsim.sweep_processor(path, "SelfCountProcessor", seeds=4, jobs=2)
    assert not one["passed"] and one["failures"] == two["failures"] > 0, one["summary"]
    assert _without_times(one["report"]) == _without_times(two["report"]), (one["summary"], two["summary"])
    assert "batch_split" in two["summary"] and "shrunk to:" in two["summary"], two["summary"]


def test_a_sweep_processor_worker_that_dies_fails_its_seeds_with_a_message(monkeypatch):
    monkeypatch.setenv("STREAMSIM_TEST_EXIT_IN_INIT", "1")
    r = streamsim.sweep_processor(os.path.join(PROCESSORS, "worker_pid.py"), "PidRecordingCounter",
                                  seeds=3, jobs=2, output_schema="id string, count long")
    assert not r["passed"] and r["failures"] == 3, r["summary"]
    assert r["summary"].count("the worker process ended before answering") == 3, r["summary"]


def test_sweep_processor_batch_split_output_without_key_passes_by_default_and_names_the_column_if_asked():
    # Bug batch_split_output_without_key: a correct counter whose rows are keyed by `id` failed
    # the default batch_split (rows matched by the grouping column `key`, absent here).
    path = os.path.join(PROCESSORS, "worker_pid.py")
    r = streamsim.sweep_processor(path, "PidRecordingCounter", seeds=12, output_schema="id string, count long")
    assert r["passed"], r["summary"]
    asked = streamsim.sweep_processor(path, "PidRecordingCounter", seeds=2, output_schema="id string, count long",
                                      oracles=["exactly_once", "batch_split"])
    assert not asked["passed"], asked["summary"]
    assert "no column 'key' (its columns: id, count)" in asked["summary"], asked["summary"]
