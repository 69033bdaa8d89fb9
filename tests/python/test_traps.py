# The traps of the seed documents, caught: state kept in `self`, the wall clock, exceptions.
import os
import subprocess

import pytest

import streamsim
from streamsim.pyspark import TwsTester
from pyspark.errors import PySparkValueError
from pyspark.sql import Row

from conftest import SOURCE_DIR

TRAPS = os.path.join(SOURCE_DIR, "tests", "python", "scenarios", "processors", "traps.py")


def test_a_count_kept_in_self_is_caught_by_the_batch_split_oracle():
    r = streamsim.sweep_processor(TRAPS, "SelfCountProcessor", seeds=5)
    assert not r["passed"], r["summary"]
    assert "batch_split" in r["summary"]


def test_a_failing_sweep_processors_printed_replay_line_runs_and_reproduces_its_trace():
    # The line a failing, shrunk seed prints (`<streamsim> replay traps.py:Class --output-schema ...
    # --oracle ... --plan ... --files ...`) runs as printed: exit 1, the shrunk case's fingerprint,
    # the same oracle.
    r = streamsim.sweep_processor(TRAPS, "SelfCountProcessor", seeds=3)
    assert not r["passed"], r["summary"]
    failed = next(o for o in r["report"]["results"] if not o["passed"])
    line = failed["replay"]
    assert " replay " + TRAPS + ":SelfCountProcessor --seed " + str(failed["seed"]) in line, line
    assert "replay: " + line in r["summary"], r["summary"]
    # The report carries the seed's faults and the sweep's totals.
    assert {"planned", "plannedFired", "fired"} <= set(failed["faults"]), failed
    assert r["report"]["totals"]["seeds"] == 3 and "TOTAL FAIL" in r["summary"], r["summary"]
    done = subprocess.run(line, shell=True, capture_output=True, text=True, check=False)
    assert done.returncode == 1, line + "\n" + done.stdout + done.stderr
    assert "trace " + failed["shrunkTraceHash"] in done.stdout, line + "\n" + done.stdout + done.stderr
    assert "batch_split" in done.stdout, done.stdout


def test_the_same_count_in_a_value_state_passes_the_oracles():
    r = streamsim.sweep_processor(TRAPS, "CountProcessor", seeds=20)
    assert r["passed"], r["summary"]


def test_a_wall_clock_read_in_a_scenario_is_reported_with_file_and_line():
    path = os.path.join(SOURCE_DIR, "tests", "python", "scenarios", "wall_clock_read_is_reported.yaml")
    r = streamsim.run(path)
    assert r["passed"], r["output"]


def test_datetime_now_is_reported_too(tmp_path):
    scenario = tmp_path / "now.yaml"
    scenario.write_text(f"""
name: datetime.now in a handler
query:
  source: {{kind: memory, schema: "key string"}}
  operators:
    - groupBy: [key]
      transformWithState: {{python: {TRAPS}, class: DatetimeNowProcessor, outputStructType: "key string, day string"}}
  sink: {{kind: memory}}
  outputMode: update
steps:
  - add_rows: [{{key: a}}]
  - run: available
  - expect: {{sink: []}}
""")
    r = streamsim.run(str(scenario))
    assert not r["passed"]
    assert "datetime.now() at " + TRAPS + ":" in r["output"], r["output"]
    assert "WALL_CLOCK_READ" in r["output"] or "wall clock" in r["output"]


def test_uuid4_row_ids_fail_determinism_in_a_scenario(tmp_path):
    # Issue 33: a scenario's determinism compared only the trace hash, which counts a batch's rows
    # but does not hold their values, so output that differs on every run (uuid4(), a wall clock)
    # passed it. Both runs now compare their sink rows and committed state too.
    scenario = tmp_path / "uuid.yaml"
    body = f"""
name: uuid4 row ids
query:
  source: {{kind: memory, schema: "key string"}}
  operators:
    - groupBy: [key]
      transformWithState: {{python: {TRAPS}, class: CLASS, outputStructType: "key string, count long, row_id string"}}
  sink: {{kind: memory}}
  outputMode: update
steps:
  - add_rows: [{{key: a}}, {{key: b}}, {{key: a}}]
  - run: available
  - expect: {{sink: [{{key: a, count: 2}}, {{key: b, count: 1}}], columns: partial}}
oracles: [determinism]
"""
    scenario.write_text(body.replace("CLASS", "UuidRowIdProcessor"))
    r = streamsim.run(str(scenario))
    assert not r["passed"], r["output"]
    # The read itself is reported first, with its file:line (issue 40 item 6: uuid is guarded like
    # the wall clock); the determinism oracle's row comparison is Oracles.DeterminismComparesSink...
    assert "drew randomness: uuid.uuid4() at " + TRAPS in r["output"], r["output"]
    # A processor that opts out of that guard (it says it seeds the generator itself) but seeds it
    # from the system's entropy is caught by the determinism oracle: its two runs wrote other rows.
    scenario.write_text(body.replace("CLASS", "ReseededRandomIdProcessor"))
    r = streamsim.run(str(scenario))
    assert not r["passed"], r["output"]
    assert "determinism" in r["output"] and "wrote other rows to the sink" in r["output"], r["output"]
    # Its correct twin (the same rows without the random id) passes.
    scenario.write_text(body.replace("CLASS", "CountProcessor").replace(", row_id string", ""))
    r = streamsim.run(str(scenario))
    assert r["passed"], r["output"]


def test_a_python_exception_names_its_file_and_line():
    path = os.path.join(SOURCE_DIR, "tests", "python", "scenarios", "python_exception_fails_the_task.yaml")
    r = streamsim.run(path)
    assert r["passed"], r["output"]


def test_sweep_returns_the_json_report():
    path = os.path.join(SOURCE_DIR, "scenarios", "seeds", "python", "initial_state_x12.yaml")
    r = streamsim.sweep(path, seeds=10, jobs=2)
    assert r["passed"], r["output"]
    assert r["report"], r


def test_a_class_the_file_does_not_define_is_a_clear_setup_error(tmp_path):
    scenario = tmp_path / "noclass.yaml"
    scenario.write_text(f"""
name: a class that is not in the file
query:
  source: {{kind: memory, schema: "key string"}}
  operators:
    - groupBy: [key]
      transformWithState: {{python: {TRAPS}, class: Nope, outputStructType: "key string"}}
  sink: {{kind: memory}}
  outputMode: update
steps:
  - run: available
""")
    r = streamsim.run(str(scenario))
    assert not r["passed"]
    assert "defines no class 'Nope'" in r["output"], r["output"]
    assert "CountProcessor" in r["output"]  # the classes it does define are listed


def test_run_returns_each_files_result_built_by_the_harness():
    # Issue 33: streamsim.run/sweep call the harness's run API (no CLI, no temp JSON file); run()
    # gives each file's result besides the text the CLI prints.
    path = os.path.join(SOURCE_DIR, "tests", "python", "scenarios", "wall_clock_read_is_reported.yaml")
    r = streamsim.run(path)
    assert r["exit_code"] == 0 and r["passed"], r["output"]
    [one] = r["results"]
    assert one["file"] == path and one["passed"] and one["batches"] >= 0, one
    assert one["trace"] in r["output"], r["output"]
    bad = streamsim.run(os.path.join(SOURCE_DIR, "no-such-folder"))
    assert bad["exit_code"] == 2 and "no such file or folder" in bad["output"], bad


def test_a_second_pass_over_rows_names_the_line_that_read_again():
    # `rows` is a C iterator (python/native/one_pass.h): no frame of its own between the handler
    # and the guard, so the note must name the processor's line that read again — not one line of
    # streamsim's or the handler's caller.
    processors = os.path.join(SOURCE_DIR, "scenarios", "python", "processors", "count_and_sum.py")
    with open(processors) as f:
        line = next(i for i, text in enumerate(f, 1) if "# the bug" in text)
    r = streamsim.run(os.path.join(SOURCE_DIR, "scenarios", "python", "buggy", "rows_consumed_twice.yml"))
    assert not r["passed"], r["output"]
    assert f"`rows` read again after it was exhausted at {processors}:{line} in <genexpr>" in r["output"], r["output"]


def test_rows_is_one_iterator_over_every_row_then_empty():
    import _streamsim_native

    class Guard:
        def __init__(self):
            self.notes = []

        def _note(self, kind, what, depth=3):
            self.notes.append((kind, what, depth))

    guard = Guard()
    rows = _streamsim_native.OnePass([1, 2, 3], guard)
    assert iter(rows) is rows
    assert list(rows) == [1, 2, 3] and guard.notes == []
    assert list(rows) == [] and guard.notes == [("rows", "`rows` read again after it was exhausted", 2)]
    assert list(_streamsim_native.OnePass((), None)) == []  # no guard: nothing noted
    with pytest.raises(TypeError):
        _streamsim_native.OnePass(5, None)
