"""pyspark.sql.Row as streamsim builds it: named rows are instances of a cached Row class per
tuple of names (Row(...) built in C inside streamsim, input rows built by the engine's adapter in
one pass). They must behave as PySpark's Row does."""

import copy
import pickle

import pytest

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


def test_timestamps_and_dates_are_pysparks_datetimes_and_dates():
    # TimestampType.fromInternal / DateType.fromInternal: the epoch plus a timedelta (naive; an
    # aware UTC datetime as Arrow hands it in a query's run). streamsim builds them from their
    # fields (python/native/python_values.cc); every value equals the sum, and past year 9999
    # raises the sum's OverflowError.
    import random
    from datetime import date, datetime, timedelta, timezone

    import _streamsim_native

    epoch, utc_epoch = datetime(1970, 1, 1), datetime(1970, 1, 1, tzinfo=timezone.utc)
    first, last = datetime(1, 1, 1), datetime(9999, 12, 31, 23, 59, 59, 999000)
    ends = [(first - epoch) // timedelta(milliseconds=1), (last - epoch) // timedelta(milliseconds=1)]
    rng = random.Random(38)
    millis = [0, -1, 1, 999, -999, 1000, -1000, 86_399_999, -86_400_000, -86_400_001, 951_782_400_000,
              1_709_164_800_123, -62_135_596_800_000, *ends]
    millis += [rng.randrange(ends[0], ends[1] + 1) for _ in range(2000)]
    for ms in millis:
        naive = _streamsim_native._timestamp_as_python(ms, False)
        aware = _streamsim_native._timestamp_as_python(ms, True)
        assert naive == epoch + timedelta(milliseconds=ms) and naive.tzinfo is None, ms
        assert aware == utc_epoch + timedelta(milliseconds=ms) and aware.tzinfo is timezone.utc, ms
        assert type(naive) is datetime and type(aware) is datetime
    for ms in (ends[0] - 1, ends[1] + 1, 2**62, -(2**62), 2**63 - 1, -(2**63)):
        for arrow in (False, True):
            with pytest.raises(OverflowError):
                _streamsim_native._timestamp_as_python(ms, arrow)
    day_ends = [(date(1, 1, 1) - date(1970, 1, 1)).days, (date(9999, 12, 31) - date(1970, 1, 1)).days]
    days = [0, -1, 1, 59, 60, 365, -719_162, 11_016, 19_782, *day_ends]
    days += [rng.randrange(day_ends[0], day_ends[1] + 1) for _ in range(2000)]
    for n in days:
        d = _streamsim_native._date_as_python(n)
        assert d == date(1970, 1, 1) + timedelta(days=n) and type(d) is date, n
    for n in (day_ends[0] - 1, day_ends[1] + 1, 2**40, -(2**40), 2**63 - 1, -(2**63)):
        with pytest.raises(OverflowError):
            _streamsim_native._date_as_python(n)
