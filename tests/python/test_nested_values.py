# Nested values (struct, array, map) from and to Python processors, as PySpark converts them: a
# Row, tuple or dict for a struct, a list for an array, a dict for a map, None for null; a value
# of the wrong shape raises PySpark's condition with the handler's file and line.
import os

import pytest

import streamsim
from pyspark.errors import PySparkValueError
from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor
from pyspark.sql.types import ArrayType, LongType, MapType, StringType, StructField, StructType
from streamsim.pyspark import TwsTester

from conftest import SOURCE_DIR

SCENARIOS = os.path.join(SOURCE_DIR, "tests", "python", "scenarios")
SHAPES = os.path.join(SCENARIOS, "processors", "nested_shapes.py")

PROFILE = StructType([
    StructField("last", StructType([StructField("item", StringType()), StructField("price", LongType())])),
    StructField("items", ArrayType(StringType())),
    StructField("spend", MapType(StringType(), LongType())),
])


class ProfileProcessor(StatefulProcessor):
    """A ValueState of (struct, array, map), a ListState of arrays, a MapState of structs."""

    def init(self, handle):
        self.profile = handle.getValueState("profile", PROFILE)
        self.history = handle.getListState("history", "prices array<long>")
        self.byItem = handle.getMapState("byItem", "item string", "stats struct<n: int, total: long>")

    def handleInputRows(self, key, rows, timerValues):
        old = self.profile.get()
        last, items, spend = old if old is not None else (None, [], {})
        items, spend, prices = list(items), dict(spend), []
        for r in rows:
            last = Row(item=r.item, price=r.price)
            items.append(r.item)
            spend[r.item] = spend.get(r.item, 0) + r.price
            prices.append(r.price)
            stats = self.byItem.getValue((r.item,))
            n, total = stats[0] if stats else (0, 0)
            self.byItem.updateValue((r.item,), ({"n": n + 1, "total": total + r.price},))
        self.profile.update((last, items, spend))
        self.history.appendValue((prices,))
        yield Row(key=key[0], last=last, items=items, spend=spend)


def test_nested_state_and_output_round_trip_on_both_stores():
    for store in ("memory", "rocksdb"):
        t = TwsTester(ProfileProcessor(), stateStore=store)
        out = t.test("u", [Row(item="a", price=3), Row(item="b", price=5)])
        assert out == [Row(key="u", last=Row(item="b", price=5), items=["a", "b"], spend={"a": 3, "b": 5})]
        assert out[0].last.item == "b" and out[0].last.asDict() == {"item": "b", "price": 5}
        profile = t.peekValueState("profile", "u")
        assert profile == (("b", 5), ["a", "b"], {"a": 3, "b": 5})
        assert isinstance(profile[0], Row) and profile[0].price == 5  # a struct reads as a named Row
        t.restart()
        t.test("u", [Row(item="a", price=4)])
        assert t.peekValueState("profile", "u") == (("a", 4), ["a", "b", "a"], {"a": 7, "b": 5})
        assert t.peekListState("history", "u") == [([3, 5],), ([4],)]
        assert t.peekMapState("byItem", "u") == {("a",): ((2, 7),), ("b",): ((1, 5),)}


def test_set_state_takes_nested_values_in_pysparks_forms():
    t = TwsTester(ProfileProcessor())
    # A struct as a dict (by name) or a tuple (by position), an array as a tuple, a map as a dict.
    t.setValueState("profile", "u", ({"price": 9, "item": "z"}, ("z",), {"z": 9}))
    t.setListState("history", "u", [([1, None],)])
    t.setMapState("byItem", "u", {("z",): ((1, 9),)})
    assert t.peekValueState("profile", "u") == (("z", 9), ["z"], {"z": 9})
    assert t.peekListState("history", "u") == [([1, None],)]
    out = t.test("u", [Row(item="z", price=1)])
    assert out == [Row(key="u", last=Row(item="z", price=1), items=["z", "z"], spend={"z": 10})]
    assert t.peekMapState("byItem", "u") == {("z",): ((2, 10),)}
    t.updateValueState("profile", "u", (None, [], {}))  # a null struct, an empty array and map
    assert t.peekValueState("profile", "u") == (None, [], {})


def test_a_named_row_in_a_state_value_is_read_by_position_as_pyspark_does():
    t = TwsTester(ProfileProcessor())
    t.setValueState("profile", "u", (Row(x="q", y=1), [], {}))  # StructType.toInternal: a tuple
    assert t.peekValueState("profile", "u")[0].asDict() == {"item": "q", "price": 1}


def test_wrong_shapes_raise_pysparks_conditions():
    t = TwsTester(ProfileProcessor())
    cases = [
        (((("a",)), [], {}), "FIELD_STRUCT_LENGTH_MISMATCH_WITH_NAME",
         "column 'last': Length of object (1) does not match with length of fields (2)."),
        ((None, "ab", {}), "FIELD_DATA_TYPE_UNACCEPTABLE_WITH_NAME",
         "column 'items': array<string> can not accept object 'ab' in type <class 'str'>."),
        ((None, [], [("a", 1)]), "FIELD_DATA_TYPE_UNACCEPTABLE_WITH_NAME", "column 'spend': map<string, long>"),
        ((None, [], {"a": "x"}), "CANNOT_CONVERT_TYPE", "column 'spend' value of key 'a'"),
        ((("a", "x"), [], {}), "CANNOT_CONVERT_TYPE", "column 'last' field 'price'"),
    ]
    for value, condition, text in cases:
        with pytest.raises(PySparkValueError) as e:
            t.setValueState("profile", "u", value)
        assert e.value.getCondition() == condition, (value, str(e.value))
        assert text in str(e.value), (value, str(e.value))
    with pytest.raises(PySparkValueError) as e:
        t.setListState("history", "u", [(5,)])
    assert e.value.getCondition() == "FIELD_DATA_TYPE_UNACCEPTABLE_WITH_NAME"
    assert e.value.getMessageParameters()["obj_type"] == "<class 'int'>"


class NullMapKeyProcessor(StatefulProcessor):
    def init(self, handle):
        self.m = handle.getValueState("m", "m map<string, long>")

    def handleInputRows(self, key, rows, timerValues):
        self.m.update(({None: 1},))  # NULL_MAP_KEY_LINE
        yield Row(key=key[0])


def test_a_null_map_key_in_a_handler_raises_with_the_handlers_line():
    t = TwsTester(NullMapKeyProcessor())
    with pytest.raises(PySparkValueError) as e:
        t.test("k", [Row(v=1)])
    assert e.value.getCondition() == "FIELD_NOT_NULLABLE_WITH_NAME"
    assert "column 'm' key: This field is not nullable, but got None." in str(e.value)
    line = next(i for i, text in enumerate(open(__file__), 1) if "NULL_MAP_KEY_LINE" in text and "update" in text)
    assert any(entry.lineno + 1 == line and str(entry.path) == __file__ for entry in e.traceback), e.traceback


def test_an_output_row_that_does_not_fit_names_the_condition_and_the_handler():
    r = streamsim.run(os.path.join(SCENARIOS, "nested_output_wrong_shape.yaml"))
    assert r["passed"], r["output"]


def test_a_short_struct_in_an_output_row_is_a_length_mismatch(tmp_path):
    scenario = tmp_path / "short.yaml"
    scenario.write_text(f"""
name: a struct of one value for a struct of two
query:
  source: {{kind: memory, schema: "key string"}}
  operators:
    - groupBy: [key]
      transformWithState: {{python: {SHAPES}, class: ShortStructOutput,
                           outputStructType: "key string, s struct<a: long, b: string>"}}
  sink: {{kind: memory}}
  outputMode: update
steps:
  - add_rows: [{{key: a}}]
  - run: available
  - expect: {{sink: []}}
""")
    r = streamsim.run(str(scenario))
    assert not r["passed"]
    assert ("[FIELD_STRUCT_LENGTH_MISMATCH_WITH_NAME] output column 's': Length of object (1) does not "
            "match with length of fields (2).") in r["output"], r["output"]
    assert SHAPES + ":19 in handleInputRows" in r["output"], r["output"]


def test_outputs_without_a_schema_infer_nested_types():
    class Echo(StatefulProcessor):
        def init(self, handle):
            pass

        def handleInputRows(self, key, rows, timerValues):
            for r in rows:
                yield Row(key=key[0], tags=r.tags, attrs=r.attrs, who=r.who, pair=(1, "x"))

    t = TwsTester(Echo())
    out = t.test("k", [Row(tags=["a", None], attrs={"n": 1}, who=Row(id="u", zone=2))])
    assert out == [Row(key="k", tags=["a", None], attrs={"n": 1}, who=Row(id="u", zone=2), pair=(1, "x"))]
    assert out[0].who.zone == 2
