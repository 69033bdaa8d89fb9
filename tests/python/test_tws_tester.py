# streamsim.pyspark.TwsTester: PySpark's TwsTester API on the engine.
import pytest

from streamsim.pyspark import TwsTester
from pyspark.errors import PySparkAssertionError, PySparkValueError
from pyspark.sql import Row

from pyspark.sql.streaming import StatefulProcessor
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


class EventTimeTimeoutProcessor(StatefulProcessor):
    """Event time: a timer 5 s after each row's event time; emits the key when it fires."""

    def init(self, handle):
        self.handle = handle

    def handleInputRows(self, key, rows, timerValues):
        for r in rows:
            self.handle.registerTimer(r.event_time + 5_000)
        return iter([])

    def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):
        yield Row(key=key[0], fired=expiredTimerInfo.getExpiryTimeInMs())


def test_event_time_watermark_follows_the_data_and_drops_late_rows():
    tester = TwsTester(EventTimeTimeoutProcessor(), timeMode="EventTime",
                       eventTimeColumnName="event_time", watermarkDelayMs=1_000)
    assert tester.test("a", [Row(event_time=10_000)]) == []
    assert tester.listTimers("a") == [15_000]
    # The watermark becomes 20_000 - 1_000 = 19_000: a's timer at 15_000 fires.
    assert tester.test("b", [Row(event_time=20_000)]) == [Row(key="a", fired=15_000)]
    # A row at or below the watermark (19_000) is late: dropped, no timer.
    tester.test("c", [Row(event_time=19_000)])
    assert tester.listTimers("c") == []
    assert tester.advanceWatermark(6_000) == [Row(key="b", fired=25_000)]


def test_engine_state_objects_are_pysparks_state_classes():
    from pyspark.sql.streaming import ValueState, MapState
    seen = {}

    class Probe(StatefulProcessor):
        def init(self, handle):
            seen["value"] = isinstance(handle.getValueState("v", "x int"), ValueState)
            seen["map"] = isinstance(handle.getMapState("m", "k string", "x int"), MapState)

        def handleInputRows(self, key, rows, timerValues):
            return iter([])

    TwsTester(Probe())
    assert seen == {"value": True, "map": True}


def test_python_hash_seed_is_fixed():
    import sys
    assert sys.flags.hash_randomization == 0


def test_a_key_is_any_python_value_handed_to_handlers_as_a_one_tuple():
    seen = []

    class KeyProbe(StatefulProcessor):
        def init(self, handle):
            self.count = handle.getValueState("count", "n long")

        def handleInputRows(self, key, rows, timerValues):
            seen.append(key)
            n = (self.count.get() or (0,))[0] + sum(1 for _ in rows)
            self.count.update((n,))
            yield Row(n=n)

    # One tester per key type: a query's grouping key has one schema (a tester fed a long key
    # after a tuple one fails with STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE, as a restarted query would).
    for key, other in [(("a", 1), ("b", 2)), (7, 8), (None, "x"), ("s", "t")]:
        seen.clear()
        tester = TwsTester(KeyProbe())
        assert tester.test(key, [Row(v=1)]) == [Row(n=1)]
        assert tester.test(other, [Row(v=1)]) == [Row(n=1)]
        assert tester.test(key, [Row(v=2), Row(v=3)]) == [Row(n=3)]
        assert tester.peekValueState("count", key) == (3,)
        assert tester.peekValueState("count", other) == (1,)
        assert seen == [(key,), (other,), (key,)]


def test_row_mode_runs_where_pandas_cannot_be_imported():
    import subprocess
    import sys
    code = ("import sys\n"
            "sys.modules['pandas'] = None  # import pandas now raises ImportError\n"
            "from pyspark.sql import Row\n"
            "from streamsim.pyspark import TwsTester\n"
            "from running_count import RunningCountProcessor\n"
            "out = TwsTester(RunningCountProcessor()).test('k', [Row(value='a')])\n"
            "assert out == [Row(key='k', count=1)], out\n"
            "assert sys.modules['pandas'] is None\n"
            "print('ok')\n")
    import os
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.dirname(__file__) + os.pathsep + env.get("PYTHONPATH", "")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


# ---------------------------------------------------------------- Spark 4.2.0's TwsTester
# The released shape (python/pyspark/sql/streaming/tws_tester.py, `versionadded 4.2.0`, the
# Scala TwsTester "Since 4.2.0"): updateValueState/updateListState/updateMapState,
# setProcessingTime and setWatermark that must move forward, outputMode, eventTimeExtractor for
# late rows, a watermark that moves only by setWatermark. The 4.0.2-marked names stay.

class InitCounter(StatefulProcessor):
    """Counts its init calls and its handler calls in `self`, as a test of PySpark's tester may."""

    def __init__(self):
        self.inits = 0
        self.calls = 0

    def init(self, handle):
        self.inits += 1
        self.handle = handle
        self.count = handle.getValueState("count", "n long")

    def handleInputRows(self, key, rows, timerValues):
        self.calls += 1
        n = (self.count.get() or (0,))[0] + sum(1 for _ in rows)
        self.count.update((n,))
        self.handle.registerTimer(timerValues.getCurrentProcessingTimeInMs() + 1_000)
        yield Row(key=key[0], n=n, inits=self.inits, calls=self.calls)

    def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):
        yield Row(key=key[0], n=self.count.get()[0], inits=self.inits, calls=self.calls)


# PySpark's TwsTester calls init once, in its constructor, on the processor it was given; the
# engine calls init on a processor per task and batch. Bug: streamsim's tester ran init once per
# batch on a fresh copy, so init ran 4 times here and `self` lost what the handlers kept.
def test_init_runs_once_per_tester_on_the_processor_given():
    p = InitCounter()
    tester = TwsTester(p, timeMode="ProcessingTime")
    assert p.inits == 1
    assert tester.test("a", [Row(v=1)]) == [Row(key="a", n=1, inits=1, calls=1)]
    assert tester.test("b", [Row(v=1), Row(v=2)]) == [Row(key="b", n=2, inits=1, calls=2)]
    assert tester.setProcessingTime(1_000) == [Row(key="a", n=1, inits=1, calls=2),
                                               Row(key="b", n=2, inits=1, calls=2)]
    assert tester.test("a", [Row(v=3)]) == [Row(key="a", n=2, inits=1, calls=3)]
    assert tester.peekValueState("count", "a") == (2,)
    assert p.inits == 1 and p.calls == 3
    # restart() (streamsim's addition) is a new task: a new copy of the processor given, init again.
    tester.restart()
    assert tester.test("a", [Row(v=4)]) == [Row(key="a", n=3, inits=1, calls=1)]
    assert p.calls == 3


# Both shapes of PySpark's tester: `assert initialStatePandas is None, "Cannot specify both Row
# and Pandas initial states."` -- an AssertionError, not a PySparkValueError.
def test_both_initial_states_raise_pysparks_assertion_error():
    pd = pytest.importorskip("pandas")
    with pytest.raises(AssertionError, match="Cannot specify both Row and Pandas initial states."):
        TwsTester(RunningCountProcessor(), initialStateRow=[("k", Row(initial_count=1))],
                  initialStatePandas=[("k", pd.DataFrame({"initial_count": [1]}))])


def test_the_released_4_2_0_names_and_rules():
    from pyspark.errors import IllegalArgumentException
    tester = TwsTester(TimeoutProcessor(), timeMode="ProcessingTime", outputMode="Update")
    assert tester.test("k", [Row(v=1)]) == []
    tester.updateValueState("last", "k", (5,))
    assert tester.peekValueState("last", "k") == (5,)
    assert tester.setProcessingTime(10_000) == [Row(key="k", status="expired", at=10_000)]
    with pytest.raises(IllegalArgumentException, match="Processing time must move forward. "
                                                       "Current: 10000 ms, provided: 10000 ms."):
        tester.setProcessingTime(10_000)
    with pytest.raises(PySparkValueError, match="INVALID_ARGUMENT"):
        TwsTester(RunningCountProcessor(), outputMode="Sometimes")


def test_event_time_extractor_drops_late_rows_and_the_watermark_moves_only_when_set():
    from pyspark.errors import IllegalArgumentException
    with pytest.raises(PySparkValueError, match="eventTimeExtractor"):
        TwsTester(EventTimeTimeoutProcessor(), timeMode="EventTime")
    tester = TwsTester(EventTimeTimeoutProcessor(), timeMode="EventTime",
                       eventTimeExtractor=lambda r: r.event_time)
    assert tester.test("a", [Row(event_time=10_000)]) == []
    assert tester.test("b", [Row(event_time=20_000)]) == []  # the watermark does not follow the data
    assert tester.listTimers("a") == [15_000]
    assert tester.setWatermark(16_000) == [Row(key="a", fired=15_000)]
    tester.test("c", [Row(event_time=16_000)])  # at the watermark: late, dropped
    assert tester.listTimers("c") == []
    with pytest.raises(IllegalArgumentException, match="Watermark must move forward"):
        tester.setWatermark(16_000)
