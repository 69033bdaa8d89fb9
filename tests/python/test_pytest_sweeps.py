"""The pytest plugin's sweeps of a test function (streamsim/pytest_plugin.py, _job_sweep.py;
docs/python.md "Sweeps of a test"): a correct job passes, planted bugs are caught by the oracles
alone, and the printed line reruns exactly the failing seed."""

import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "sweep_cases", "case_jobs.py")


def pytest_run(*args, cwd=HERE):
    cmd = [sys.executable, "-m", "pytest", "-p", "streamsim.pytest_plugin", "-p", "no:cacheprovider",
           "-q", "-o", "python_files=case_*.py", *args]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in env.get("PYTHONPATH", "").split(os.pathsep) if p)
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def test_a_correct_job_passes_a_sweep_and_every_planned_crash_fires():
    r = pytest_run(CASES + "::test_totals", "--streamsim-seeds", "40")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "PASS sweep_cases/case_jobs.py::test_totals: 40 seeds, 0 failed; 40 of 40 planned faults fired, 40 crashes" in r.stdout, r.stdout


def rerun_line(out):
    lines = [l for l in out.splitlines() if l.strip().startswith("rerun: ")]
    assert len(lines) == 1, out
    return lines[0].strip()[len("rerun: "):]


def caught_alone_and_rerun(case, seeds, oracle_says):
    """Sweeps `case`: it fails by the oracles alone (`oracle_says` in the report, the test's own
    assertions held), and its printed line, run, fails the same way and prints itself again (the
    plan was minimal). The report."""
    r = pytest_run(CASES + "::" + case, "--streamsim-seeds", str(seeds))
    assert r.returncode == 1, r.stdout + r.stderr
    assert oracle_says in r.stdout, r.stdout
    assert "the test failed" not in r.stdout
    line = rerun_line(r.stdout)
    seed = re.search(r"streamsim: seed (\d+) failed:", r.stdout).group(1)
    assert f"--streamsim-seed {seed} --streamsim-plan" in line
    again = subprocess.run(["bash", "-c", line], capture_output=True, text=True, timeout=600)
    assert again.returncode == 1, again.stdout + again.stderr
    assert f"streamsim: seed {seed} failed:" in again.stdout
    assert oracle_says in again.stdout
    assert rerun_line(again.stdout) == line
    return r.stdout


def test_a_total_kept_in_a_class_attribute_is_caught_by_the_oracles_and_rerun_as_printed():
    out = caught_alone_and_rerun("test_class_dict", 20,
                                 "exactly_once: the file sink /out/totals shows a row the fault-free run never wrote")
    assert "streamsim: seed 1 failed:" in out


def test_a_non_idempotent_foreach_batch_is_caught_shrunk_to_one_crash_and_rerun_as_printed():
    out = caught_alone_and_rerun("test_foreach_batch_append", 20, "shows a duplicate")
    assert re.search(r"exactly_once: the table \S*totals_by_batch shows a duplicate", out), out
    shrunk = re.search(r"shrunk to: .*\((\d+) faults?,", out)
    assert shrunk and shrunk.group(1) == "1", out


def test_a_test_that_cannot_restart_its_job_is_told_to_use_run_job():
    r = pytest_run(CASES + "::test_without_run_job", "--streamsim-seeds", "5")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "streamsim_world.run_job(main)" in r.stdout, r.stdout


def test_shards_split_the_seeds():
    r = pytest_run(CASES + "::test_totals", "--streamsim-seeds", "10", "--streamsim-shard", "2/3")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "test_totals: 3 seeds, 0 failed" in r.stdout, r.stdout
    bad = pytest_run(CASES + "::test_totals", "--streamsim-seeds", "10", "--streamsim-shard", "4/3")
    assert bad.returncode == 4 and "i must be in 1..n" in bad.stderr, bad.stdout + bad.stderr


def test_a_test_not_marked_runs_once_as_written_in_a_sweep():
    r = pytest_run(CASES + "::test_not_marked", "--streamsim-seeds", "5")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "streamsim sweeps" not in r.stdout


def test_without_seeds_a_test_runs_once_as_written():
    r = pytest_run(CASES + "::test_totals")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "streamsim sweeps" not in r.stdout


def test_a_job_naming_its_checkpoint_with_uuid4_is_not_a_determinism_failure():
    # Regression (a false alarm of the determinism oracle): seed 001's jobs name a fresh
    # checkpoint with uuid.uuid4(); a sweep runs each seed twice, and the driver's randomness
    # differed between the two runs, so did the trace. It is drawn from the seed now
    # (_job_sweep.seeded_driver_randomness).
    r = pytest_run(CASES + "::test_uuid4_checkpoint", "--streamsim-seeds", "10")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "test_uuid4_checkpoint: 10 seeds, 0 failed" in r.stdout, r.stdout


def test_a_uuid_key_is_caught_by_exactly_once_alone_and_rerun_as_printed():
    # Spark's uuid() draws its values from the query run's seed: another run (another seed, a
    # restart, a re-run batch) writes other keys. Shrunk, no fault is needed: the seed alone shows it.
    out = caught_alone_and_rerun("test_uuid_key", 20,
                                 "exactly_once: the file sink /out/keyed shows a row the fault-free run never wrote")
    assert "no fault is needed" in out and "(0 faults," in out, out


def test_a_window_withheld_after_a_clean_restart_is_not_a_loss():
    # Regression (a false alarm of exactly_once): a crash right after the commit of the batch
    # whose watermark closes a window restarts the query cleanly, and Spark runs no no-data batch
    # until new data arrives (MicroBatchExecution.constructNextBatch), so the window is not written
    # before the test ends. The reference now takes the same clean restart
    # (JobWorld.same_restarts_plan, harness/run/clean_restarts.h).
    r = pytest_run(CASES + "::test_window_closed_by_a_no_data_batch", "--streamsim-seeds", "30")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "test_window_closed_by_a_no_data_batch: 30 seeds, 0 failed" in r.stdout, r.stdout


def test_the_worked_example_writing_to_kafka_and_delta_passes_its_sweep():
    r = pytest_run(CASES + "::test_alerts_to_kafka_and_totals_to_delta", "--streamsim-seeds", "40")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "test_alerts_to_kafka_and_totals_to_delta: 40 seeds, 0 failed; 40 of 40 planned faults fired" in r.stdout, r.stdout


def test_data_kept_in_self_is_caught_by_batch_split_alone_and_rerun_as_printed():
    # A total kept in the processor's `self` restarts at every task (Spark makes a new processor
    # object per task), so it is right only while each user's events arrive in one batch: the
    # batch_split variant cuts the input otherwise and bob's last total differs.
    out = caught_alone_and_rerun("test_self_total", 20,
                                 "batch_split: the file sink /out/totals's last row for user=")
    assert "(0 faults," in out and "the variant run of batch_split" in out, out
    correct = pytest_run(CASES + "::test_totals_batch_split", "--streamsim-seeds", "40")
    assert correct.returncode == 0, correct.stdout + correct.stderr
    assert "test_totals_batch_split: 40 seeds, 0 failed" in correct.stdout, correct.stdout


def test_a_watermark_on_kafka_timestamps_is_caught_by_producer_clock_alone_and_rerun_as_printed():
    # With the producers' clocks off, the records' Kafka timestamps move and so do the minutes of
    # a job that windows on them; the job windowing on the event's own time writes the same.
    out = caught_alone_and_rerun("test_watermark_on_ingest_time_producer_clock", 20,
                                 "producer_clock: with the producers' clocks up to 10 minutes off")
    assert "(0 faults," in out, out
    correct = pytest_run(CASES + "::test_watermark_on_event_time_producer_clock", "--streamsim-seeds", "40")
    assert correct.returncode == 0, correct.stdout + correct.stderr


def test_a_marker_naming_an_unknown_oracle_or_a_column_no_output_has_is_an_error():
    r = pytest_run(CASES + "::test_misspelt_oracle", "--streamsim-seeds", "3")
    assert r.returncode == 1 and "unknown argument 'batch_splt' (known: batch_split, producer_clock" in r.stdout, r.stdout
    r = pytest_run(CASES + "::test_batch_split_without_the_column", "--streamsim-seeds", "3")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "batch_split=['customer']: no output of the job's fault-free run has the column customer" in r.stdout, r.stdout
    assert "'file sink /out/totals': ['total', 'user']" in r.stdout, r.stdout


def test_a_watermark_on_ingest_time_passes_the_default_oracles_and_fails_the_cheapest_expectation():
    # docs/python.md "Planted bugs": a crash changes neither the records' timestamps nor the
    # batches, so the default oracles see the fault-free run's minutes; the producer_clock oracle
    # (above) or one late event catches it.
    r = pytest_run(CASES + "::test_watermark_on_ingest_time", "--streamsim-seeds", "20")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "test_watermark_on_ingest_time: 20 seeds, 0 failed" in r.stdout, r.stdout
    correct = pytest_run(CASES + "::test_watermark_on_event_time", "--streamsim-seeds", "20")
    assert correct.returncode == 0, correct.stdout + correct.stderr
    caught = pytest_run(CASES + "::test_watermark_on_ingest_time_with_an_expectation", "--streamsim-seeds", "20")
    assert caught.returncode == 1, caught.stdout + caught.stderr
    assert "the fault-free run failed: AssertionError" in caught.stdout
    assert "('2026-01-01 00:07:00', 1)" in caught.stdout, caught.stdout
