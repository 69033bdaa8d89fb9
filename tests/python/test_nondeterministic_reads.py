# Randomness and pandas' clock in a handler, reported like the wall clock (issue 40 item 6): a
# re-run of a batch would draw other values. Each read is named with the processor's file:line;
# a generator of the processor's own, or `seededRandom = True`, is not reported.
import os

import pytest

import streamsim

from conftest import SOURCE_DIR

READS = os.path.join(SOURCE_DIR, "tests", "python", "scenarios", "processors", "random_reads.py")


def run(tmp_path, cls):
    scenario = tmp_path / f"{cls}.yaml"
    scenario.write_text(f"""
name: {cls} in a handler
query:
  source: {{kind: memory, schema: "key string"}}
  operators:
    - groupBy: [key]
      transformWithState: {{python: {READS}, class: {cls}, outputStructType: "key string, id string"}}
  sink: {{kind: memory}}
  outputMode: update
steps:
  - add_rows: [{{key: a}}]
  - run: available
""")
    return streamsim.run(str(scenario))


@pytest.mark.parametrize("cls,read,line", [
    ("UuidRowIds", "uuid.uuid4()", 20),
    ("RandomSample", "random.random()", 30),
    ("NumpyNoise", "numpy.random.rand()", 38),
    ("UrandomToken", "os.urandom()", 46),
])
def test_randomness_in_a_handler_is_reported_with_file_and_line(tmp_path, cls, read, line):
    r = run(tmp_path, cls)
    assert not r["passed"], r["output"]
    assert "drew randomness" in r["output"], r["output"]
    assert f"{read} at {READS}:{line} in handleInputRows" in r["output"], r["output"]


def test_pandas_now_is_a_wall_clock_read(tmp_path):
    r = run(tmp_path, "PandasNow")
    assert not r["passed"], r["output"]
    assert f"pandas.Timestamp.now() at {READS}:56 in handleInputRows" in r["output"], r["output"]
    assert "read the wall clock" in r["output"], r["output"]


@pytest.mark.parametrize("cls", ["SeededModuleRandom", "OwnGenerator"])
def test_a_generator_the_processor_seeds_is_not_reported(tmp_path, cls):
    r = run(tmp_path, cls)
    assert r["passed"], r["output"]
