"""pyspark.sql.Row as streamsim builds it: named rows are instances of a cached Row class per
tuple of names (Row(...) built in C inside streamsim, input rows built by the engine's adapter in
one pass). They must behave as PySpark's Row does."""

import copy
import pickle

from pyspark.sql import Row
from pyspark.sql.types import _create_row, _row_class

from streamsim.pyspark import TwsTester
from pyspark.sql.streaming import StatefulProcessor


def test_named_row_behaves_as_a_row():
    r = Row(id="a", count=3)
    assert isinstance(r, Row) and isinstance(r, tuple)
    assert type(r).__name__ == "Row"
    assert r == ("a", 3) and tuple(r) == ("a", 3)
    assert r.__fields__ == ["id", "count"]
    assert r.id == "a" and r["count"] == 3 and r[1] == 3
    assert r.asDict() == {"id": "a", "count": 3}
    assert repr(r) == "Row(id='a', count=3)"
    assert "id" in r and "x" not in r
    assert pickle.loads(pickle.dumps(r)) == r and pickle.loads(pickle.dumps(r)).asDict() == r.asDict()
    assert copy.deepcopy(r).asDict() == r.asDict()
    assert hash(r) == hash(("a", 3))


def test_rows_with_the_same_names_share_a_class_and_others_do_not():
    a, b, c = Row(id="a", count=1), Row(id="b", count=2), Row(count=2, id="b")
    assert type(a) is type(b)
    assert type(a) is not type(c) and c.__fields__ == ["count", "id"]
    assert type(_create_row(["id", "count"], ("x", 9))) is type(a)
    assert _row_class(["id", "count"]) is type(a)


def test_read_only_and_errors_unchanged():
    r = Row(id="a")
    try:
        r.id = "b"
        raise AssertionError("a Row attribute was set")
    except Exception as e:  # PySparkRuntimeError READ_ONLY
        assert "READ_ONLY" in str(getattr(e, "getErrorClass", lambda: e)()) or "READ_ONLY" in repr(e)
    try:
        Row("a", id="b")
        raise AssertionError("Row took args and kwargs together")
    except Exception as e:
        assert "CANNOT_SET_TOGETHER" in repr(e) or "CANNOT_SET_TOGETHER" in str(e)


def test_positional_rows_and_row_classes():
    p = Row("a", 1)
    assert p == ("a", 1) and not hasattr(p, "__fields__")
    Person = Row("name", "age")
    alice = Person("Alice", 11)
    assert alice.name == "Alice" and alice.age == 11 and alice.asDict() == {"name": "Alice", "age": 11}


class _EchoProcessor(StatefulProcessor):
    """Yields every input row back with its field names and type, as the handler sees it."""

    def init(self, handle):
        pass

    def handleInputRows(self, key, rows, timerValues):
        for r in rows:
            assert isinstance(r, Row)
            yield Row(id=key[0], fields=",".join(r.__fields__), value=r.value, doubled=r["value"] * 2)


def test_input_rows_are_named_rows():
    t = TwsTester(_EchoProcessor())
    out = t.test("k", [Row(id="k", value=1), Row(id="k", value=5)])
    assert [o.asDict() for o in out] == [
        {"id": "k", "fields": "id,value", "value": 1, "doubled": 2},
        {"id": "k", "fields": "id,value", "value": 5, "doubled": 10},
    ]
