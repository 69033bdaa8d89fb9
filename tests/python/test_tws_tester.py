# streamsim.pyspark.TwsTester: PySpark's TwsTester API on the engine.
import pytest

from streamsim.pyspark import TwsTester
from pyspark.errors import PySparkAssertionError, PySparkValueError
from pyspark.sql import Row

from running_count import (FailingProcessor, RunningCountPandasProcessor, RunningCountProcessor,
                           TimeoutProcessor, TtlProcessor)


def test_counts_per_key_and_keeps_state_between_batches():
    tester = TwsTester(RunningCountProcessor())
    assert tester.test("key1", [Row(value="a"), Row(value="b")]) == [Row(key="key1", count=2)]
    assert tester.test("key2", [Row(value="c")]) == [Row(key="key2", count=1)]
    assert tester.test("key1", [Row(value="d")]) == [Row(key="key1", count=3)]
    assert tester.peekValueState("count", "key1") == (3,)
    assert tester.peekValueState("count", "nope") is None


def test_output_rows_have_their_field_names():
    out = TwsTester(RunningCountProcessor()).test(7, [Row(value="a")])
    assert out[0].key == 7 and out[0]["count"] == 1 and out[0].asDict() == {"key": 7, "count": 1}


def test_initial_state_runs_in_the_constructor():
    tester = TwsTester(RunningCountProcessor(), initialStateRow=[("key1", Row(initial_count=10))])
    assert tester.peekValueState("count", "key1") == (10,)
    assert tester.test("key1", [Row(value="a")]) == [Row(key="key1", count=11)]


def test_set_update_and_delete_value_state():
    tester = TwsTester(RunningCountProcessor())
    tester.setValueState("count", "key1", (5,))
    assert tester.test("key1", [Row(value="a")]) == [Row(key="key1", count=6)]
    tester.updateValueState("count", "key1", (40,))
    assert tester.peekValueState("count", "key1") == (40,)
    tester.deleteState("count", "key1")
    assert tester.peekValueState("count", "key1") is None


def test_unknown_state_name_is_an_assertion_error():
    tester = TwsTester(RunningCountProcessor())
    with pytest.raises(PySparkAssertionError, match="nope"):
        tester.peekValueState("nope", "key1")


def test_processing_time_timers_fire_when_time_moves():
    tester = TwsTester(TimeoutProcessor(), timeMode="ProcessingTime")
    assert tester.test("k", [Row(v=1)]) == []
    assert tester.listTimers("k") == [10_000]
    assert tester.advanceProcessingTime(9_999) == []
    assert tester.advanceProcessingTime(1) == [Row(key="k", status="expired", at=10_000)]
    assert tester.peekValueState("last", "k") is None
    assert tester.listTimers("k") == []


def test_timers_need_a_time_mode():
    with pytest.raises(PySparkValueError):
        TwsTester(RunningCountProcessor()).advanceProcessingTime(10)


def test_ttl_expires_values_unlike_pysparks_tester():
    tester = TwsTester(TtlProcessor(), timeMode="ProcessingTime")
    assert tester.test("k", [Row(name="a"), Row(name="b")]) == [Row(key="k", n=2)]
    assert tester.peekMapState("names", "k") == {("a",): (1,), ("b",): (2,)}
    tester.advanceProcessingTime(5_001)
    assert tester.peekValueState("seen", "k") is None
    assert tester.peekMapState("names", "k") == {}
    assert tester.test("k", [Row(name="c")]) == [Row(key="k", n=1)]


def test_set_and_peek_list_and_map_state():
    tester = TwsTester(TtlProcessor(), timeMode="ProcessingTime")
    tester.setMapState("names", "k", {("x",): (7,), ("a",): (1,)})
    assert tester.peekMapState("names", "k") == {("a",): (1,), ("x",): (7,)}
    with pytest.raises(PySparkValueError):
        tester.setListState("names", "k", [(1,)])


def test_restart_keeps_committed_state():
    tester = TwsTester(RunningCountProcessor(), stateStore="rocksdb")
    tester.test("k", [Row(v=1), Row(v=2)])
    tester.restart()
    assert tester.peekValueState("count", "k") == (2,)
    assert tester.test("k", [Row(v=3)]) == [Row(key="k", count=3)]


def test_a_failing_handler_raises_its_own_exception_and_its_writes_are_rolled_back():
    tester = TwsTester(FailingProcessor())
    with pytest.raises(ValueError, match="boom for k"):
        tester.test("k", [Row(v=1)])
    assert tester.peekValueState("count", "k") is None


def test_wrong_value_type_is_reported_with_a_condition():
    tester = TwsTester(RunningCountProcessor())
    with pytest.raises(PySparkValueError, match="CANNOT_CONVERT_TYPE"):
        tester.setValueState("count", "k", ("three",))


def test_pandas_flavour():
    pd = pytest.importorskip("pandas")
    tester = TwsTester(RunningCountPandasProcessor())
    out = tester.testInPandas("key1", pd.DataFrame({"value": ["a", "b"]}))
    assert out.to_dict("records") == [{"key": "key1", "count": 2}]
    out = tester.testInPandas("key1", pd.DataFrame({"value": ["c"]}))
    assert out.to_dict("records") == [{"key": "key1", "count": 3}]


def test_real_time_mode_calls_the_handler_once_per_row():
    tester = TwsTester(RunningCountProcessor(), realTimeMode=True)
    assert tester.test("k", [Row(v=1), Row(v=2)]) == [Row(key="k", count=1), Row(key="k", count=2)]


def test_numpy_scalars_are_values():
    np = pytest.importorskip("numpy")
    tester = TwsTester(RunningCountProcessor())
    tester.setValueState("count", "k", (np.int64(4),))
    assert tester.test("k", [Row(v=1)]) == [Row(key="k", count=5)]
