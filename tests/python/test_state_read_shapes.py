# What each state read hands a Python processor, as PySpark 4.x's state clients hand it. The JVM
# pickles the stored row as a Row (TransformWithStateInPySparkStateServer -> PythonSQLUtils.toPyRow,
# EvaluatePython's RowPickler), which unpickles to a Row with field names; then
# - python/pyspark/sql/streaming/value_state_client.py  ValueStateClient.get: `tuple(data)`;
# - python/pyspark/sql/streaming/list_state_client.py   ListStateClient.get (the iterator): `tuple(row)`;
# - python/pyspark/sql/streaming/map_state_client.py    MapStateClient.get_value: the Row as it is;
#   get_key_value_pair / get_row (iterator(), keys(), values()): `tuple(key_row)`, `tuple(row)`;
# and stateful_processor.py's ValueState/ListState/MapState hand these on unchanged. A nested
# struct inside any of them stays a named Row (StructType.fromInternal).
import pytest

from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor
from streamsim.pyspark import TwsTester


def shape(x):
    return "Row" if isinstance(x, Row) else type(x).__name__


class ShapesProcessor(StatefulProcessor):
    """Writes every kind of state on the first call, reports the shape of every read on the next."""

    def init(self, handle):
        self.total = handle.getValueState("total", "total long, last struct<item: string>")
        self.items = handle.getListState("items", "item string, n long")
        self.byItem = handle.getMapState("byItem", "item string", "total long, n int")

    def handleInputRows(self, key, rows, timerValues):
        rows = list(rows)
        if not self.total.exists():
            self.total.update((len(rows), {"item": "a"}))
            self.items.appendValue(("a", 1))
            self.byItem.updateValue(("a",), (3, 1))
            return
        value = self.total.get()
        item = next(iter(self.items.get()))
        got = self.byItem.getValue(("a",))
        k, v = next(iter(self.byItem.iterator()))
        yield Row(read="ValueState.get", shape=shape(value))
        yield Row(read="ValueState.get nested struct", shape=shape(value[1]))
        yield Row(read="ListState.get item", shape=shape(item))
        yield Row(read="MapState.getValue", shape=shape(got))
        yield Row(read="MapState.iterator key", shape=shape(k))
        yield Row(read="MapState.iterator value", shape=shape(v))
        yield Row(read="MapState.keys", shape=shape(next(iter(self.byItem.keys()))))
        yield Row(read="MapState.values", shape=shape(next(iter(self.byItem.values()))))
        # A field by name where PySpark has one: the map value's Row.
        yield Row(read="MapState.getValue().total", shape=str(got.total))


def reads(store):
    t = TwsTester(ShapesProcessor(), stateStore=store)
    assert t.test("k", [Row(item="a")]) == []
    return {r.read: r.shape for r in t.test("k", [Row(item="b")])}


def test_map_state_get_value_is_a_named_row_false_alarm():
    # Regression (issue 40): MapState.getValue gave a plain tuple, so `getValue(k).total` raised
    # AttributeError in streamsim on a processor that runs in PySpark.
    for store in ("memory", "rocksdb"):
        got = reads(store)
        assert got["MapState.getValue"] == "Row", got
        assert got["MapState.getValue().total"] == "3", got


def test_the_other_state_reads_are_plain_tuples_as_pysparks_clients_give():
    # ValueState.get is tuple(data) in PySpark: `state.get().total` raises AttributeError there
    # too, so streamsim keeps it a tuple (a processor written that way fails in Spark).
    for store in ("memory", "rocksdb"):
        got = reads(store)
        for read in ("ValueState.get", "ListState.get item", "MapState.iterator key",
                     "MapState.iterator value", "MapState.keys", "MapState.values"):
            assert got[read] == "tuple", (read, got)
        assert got["ValueState.get nested struct"] == "Row", got


def test_a_state_schema_string_is_parsed_once_and_a_bad_one_fails_every_time():
    # init() names its state schemas on every task; a DDL string's engine DDL is parsed once
    # (pyspark/sql/types.py _engine_ddl_of_string) and equals its StructType's.
    from pyspark.errors import PySparkValueError
    from pyspark.sql import types

    types._engine_ddl_of_string.cache_clear()
    text = "count long, `odd name` string NOT NULL, s struct<a: int, b: array<double>>"
    first = types.toEngineDDL(text)
    assert first == types.toEngineDDL(types._parse_datatype_string(text))
    assert types.toEngineDDL(text) == first
    assert types._engine_ddl_of_string.cache_info().hits == 1
    for _ in range(2):
        with pytest.raises(PySparkValueError):
            types.toEngineDDL("count lng,")
    assert types._engine_ddl_of_string.cache_info().currsize == 1
