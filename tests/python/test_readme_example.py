# The README's Python example, on seed 001's processor file as the scenarios use it.
import importlib.util
import os

from pyspark.sql import Row
from streamsim.pyspark import TwsTester

from conftest import SOURCE_DIR


def load(name):
    path = os.path.join(SOURCE_DIR, "scenarios", "seeds", "python", "processors", name)
    spec = importlib.util.spec_from_file_location(name[:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_readme_example():
    SimpleCounterProcessor = load("simple_counter.py").SimpleCounterProcessor
    tester = TwsTester(SimpleCounterProcessor())
    assert tester.test("a", [Row(value="x")] * 3) == [Row(id="a", countAsString="3")]
    assert tester.peekValueState("valueState", "a") == (3,)
    assert tester.peekListState("listState", "a") == [(120,), (20,), (111,), (120,), (20,)]
    assert tester.peekMapState("mapState", "a") == {("user_key",): (3,)}


def test_seed_pandas_counter_in_the_tester():
    import pandas as pd
    SimpleCounterProcessor = load("simple_counter_pandas.py").SimpleCounterProcessor
    tester = TwsTester(SimpleCounterProcessor())
    out = tester.testInPandas("b", pd.DataFrame({"value": ["x", "y"]}))
    assert out.to_dict("records") == [{"id": "b", "countAsString": "2"}]
