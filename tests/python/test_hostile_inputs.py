# Issue 35 (reliability and security, round 3), the Python side: processor files in another
# encoding load, what a handler yields is checked as PySpark's serializers check it, and the Python
# API checks its arguments as the CLI does.
import os

import pytest

import streamsim
from conftest import SOURCE_DIR

SCENARIO = """
name: {name}
query:
  source: {{kind: memory, schema: "key string"}}
  operators:
    - groupBy: [key]
      transformWithState: {{python: {path}, class: P, outputStructType: "key string, n long"{pandas}}}
  sink: {{kind: memory}}
  outputMode: update
steps:
  - add_rows: [{{key: a}}]
  - run: available
  - expect: {{sink: [{{key: a, n: 1}}]}}
"""


def run_processor(tmp_path, source: bytes, pandas: bool = False):
    path = tmp_path / "p.py"
    path.write_bytes(source)
    scenario = tmp_path / "s.yaml"
    scenario.write_text(SCENARIO.format(name="a processor file", path=path,
                                        pandas=", inPandas: true" if pandas else ""))
    return streamsim.run(str(scenario))


COUNT = """
from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor


class P(StatefulProcessor):
    def init(self, handle):
        pass

    def handleInputRows(self, key, rows, timerValues):
        # {note}
        yield Row(key=key[0], n=sum(1 for _ in rows))
"""


# Bug: a processor file with a PEP 263 coding line (latin-1) was read as UTF-8 and refused.
def test_a_processor_file_with_a_latin1_coding_line_loads(tmp_path):
    source = ("# -*- coding: latin-1 -*-\n" + COUNT.format(note="caf\u00e9")).encode("latin-1")
    r = run_processor(tmp_path, source)
    assert r["passed"], r["output"]


# Bug: a processor file starting with a UTF-8 BOM was refused.
def test_a_processor_file_with_a_utf8_bom_loads(tmp_path):
    r = run_processor(tmp_path, b"\xef\xbb\xbf" + COUNT.format(note="caf\u00e9").encode("utf-8"))
    assert r["passed"], r["output"]


def yielding(item: str) -> bytes:
    """COUNT's processor with its handler yielding `item` (Python source) instead of its Row."""
    return COUNT.format(note="").replace("yield Row(key=key[0], n=sum(1 for _ in rows))",
                                         "yield " + item).encode()


# Bug: `yield 'ab'` became the row (a, b); PySpark's Row serializer calls row.asDict(True) on it.
def test_a_string_yielded_for_a_row_fails_as_in_pyspark(tmp_path):
    r = run_processor(tmp_path, yielding("'ab'"))
    assert not r["passed"], r["output"]
    assert "'str' object has no attribute 'asDict'" in r["output"], r["output"]


# Bug: a tuple (of the schema's arity or another), a dict or a list yielded by a row-mode
# handler was taken as a row (by position / by name). PySpark's Row serializer
# (TransformWithStateInPySparkRowSerializer.dump_stream, python/pyspark/sql/pandas/serializers)
# calls row.asDict(True) on each item, so every one of them fails there with this AttributeError.
@pytest.mark.parametrize("item, name", [("(key[0], 1)", "tuple"), ("(key[0],)", "tuple"),
                                        ("(key[0], 1, 2)", "tuple"), ("{'key': key[0], 'n': 1}", "dict"),
                                        ("[key[0], 1]", "list"), ("7", "int")])
def test_a_tuple_dict_or_list_yielded_for_a_row_fails_as_in_pyspark(tmp_path, item, name):
    r = run_processor(tmp_path, yielding(item))
    assert not r["passed"], r["output"]
    assert f"'{name}' object has no attribute 'asDict'" in r["output"], r["output"]


# A Row without field names (Row("a", 1)) fails in Row.asDict (CANNOT_CONVERT_TYPE); a Row with
# field names is matched to outputStructType by name, as pyarrow's
# RecordBatch.from_pylist(rows_as_dict, schema) takes it (a field Spark would drop is refused here:
# docs/python.md "Differences from PySpark").
def test_rows_yielded_are_taken_as_pysparks_serializer_takes_them(tmp_path):
    r = run_processor(tmp_path, yielding("Row(key[0], 1)"))
    assert not r["passed"], r["output"]
    assert "CANNOT_CONVERT_TYPE" in r["output"], r["output"]
    r = run_processor(tmp_path, yielding("Row(n=1, key=key[0])"))
    assert r["passed"], r["output"]


# Bug: a dict or a Series yielded by a pandas-mode handler was taken as a row; PySpark's pandas
# serializer reads each item as a DataFrame.
def test_a_dict_or_series_yielded_in_pandas_mode_fails_as_in_pyspark(tmp_path):
    for item, name in (("{'key': key[0], 'n': 1}", "dict"), ("pd.Series({'key': key[0], 'n': 1})", "Series")):
        source = ("import pandas as pd\n" + COUNT.format(note="")).replace(
            "yield Row(key=key[0], n=sum(1 for _ in rows))", "yield " + item)
        r = run_processor(tmp_path, source.encode(), pandas=True)
        assert not r["passed"], r["output"]
        assert f"'{name}' object has no attribute 'columns'" in r["output"], r["output"]


# Bug: streamsim.sweep(jobs=0/-3/300) ran (the CLI's 1..256 check was skipped; 10**6 would have
# started as many threads).
def test_sweep_checks_jobs_as_the_cli_does():
    scenario = os.path.join(SOURCE_DIR, "scenarios", "crash", "offsets_after_write.yaml")
    for jobs in (0, -3, 300, 10**6):
        r = streamsim.sweep(str(scenario), seeds=1, jobs=jobs)
        assert r["exit_code"] == 2, (jobs, r["output"])
        assert "--jobs" in r["output"] and "expected 1 to 256" in r["output"], r["output"]
    assert streamsim.sweep(str(scenario), seeds=1, jobs=256)["passed"]


def test_sweep_processor_checks_jobs_as_the_cli_does():
    traps = os.path.join(SOURCE_DIR, "tests", "python", "scenarios", "processors", "traps.py")
    for jobs in (0, 300):
        with pytest.raises(Exception, match="expected 1 to 256"):
            streamsim.sweep_processor(traps, "CountProcessor", seeds=1, jobs=jobs)


# Issue 33: an oracle name no oracle has is bad input in the Python API as on the CLI (never
# silently dropped), naming the known ones.
def test_sweep_processor_refuses_an_unknown_oracle():
    traps = os.path.join(SOURCE_DIR, "tests", "python", "scenarios", "processors", "traps.py")
    with pytest.raises(ValueError, match="unknown oracle 'nosuchoracle'; expected one of exactly_once"):
        streamsim.sweep_processor(traps, "CountProcessor", seeds=1, oracles=["nosuchoracle"])
