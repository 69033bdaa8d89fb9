"""DataFrame.join(otherStream, on=Column): the condition read into the engine's join keys and
event-time range (pyspark/sql/_join_condition.py), as Spark's StreamingJoinHelper reads it:
the range is right + lower <= left <= right + upper (docs/scenarios.md, join `range`)."""
import pytest

from pyspark.sql.functions import col, expr
from pyspark.sql._join_condition import read_condition

LEFT = ["impressionAdId", "impressionTime"]
RIGHT = ["clickAdId", "clickTime"]


def test_the_guides_condition_gives_keys_and_a_range():
    got = read_condition(expr("clickAdId = impressionAdId AND clickTime >= impressionTime AND "
                              "clickTime <= impressionTime + interval 1 hour")._sql(), LEFT, RIGHT)
    # clickTime >= impressionTime: impressionTime <= clickTime (upper 0);
    # clickTime <= impressionTime + 1h: impressionTime >= clickTime - 1h (lower -1h).
    assert got == {"on": ["impressionAdId"], "rightOn": ["clickAdId"],
                   "range": {"left": "impressionTime", "right": "clickTime", "upper": "0ms",
                             "lower": "-3600000ms"}}


def test_between_and_strict_bounds_and_column_expressions():
    got = read_condition("impressionAdId = clickAdId AND impressionTime BETWEEN clickTime - "
                         "INTERVAL 10 SECONDS AND clickTime + interval 5 seconds", LEFT, RIGHT)
    assert got["range"] == {"left": "impressionTime", "right": "clickTime", "lower": "-10000ms",
                            "upper": "5000ms"}
    c = (col("impressionAdId") == col("clickAdId")) & (col("impressionTime") < col("clickTime"))
    got = read_condition(c._sql(), LEFT, RIGHT)
    assert got["range"] == {"left": "impressionTime", "right": "clickTime", "upper": "0ms",
                            "upperStrict": True}


def test_what_is_not_read_is_not_implemented():
    with pytest.raises(NotImplementedError, match="without an equality"):
        read_condition("impressionTime < clickTime", LEFT, RIGHT)
    with pytest.raises(NotImplementedError, match="OR"):
        read_condition("impressionAdId = clickAdId OR impressionTime < clickTime", LEFT, RIGHT)
