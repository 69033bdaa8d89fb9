"""spark.sql over a temporary view of a streaming DataFrame gives a streaming DataFrame
(pyspark/sql/_stream_sql.py), as Spark's analyzer does for a streaming relation; spark.table of
such a view is the stream itself."""

import pytest

from job_support import rows_of


def _events(world):
    world.put("/in/1.json", rows=[{"action": "open", "n": 1}, {"action": "close", "n": 5},
                                  {"action": "open", "n": 3}])
    df = world.spark.readStream.schema("action string, n int").json("/in")
    df.createOrReplaceTempView("events")
    return df


def test_sql_aggregation_over_a_streaming_view_is_a_stream(world):
    _events(world)
    counts = world.spark.sql("SELECT action, count(*) AS c, sum(n) AS total FROM events "
                             "WHERE n > 0 GROUP BY action")
    assert counts.isStreaming
    q = (counts.writeStream.format("memory").queryName("counts").outputMode("complete")
         .option("checkpointLocation", "/chk/c").start())
    q.processAllAvailable()
    assert rows_of(world.spark.sql("SELECT action, c, total FROM counts ORDER BY action")) == \
        [("close", 1, 5), ("open", 2, 4)]


def test_sql_select_order_is_kept_when_aggregates_come_first(world):
    _events(world)
    counts = world.spark.sql("SELECT count(*) AS c, action FROM events GROUP BY action")
    q = (counts.writeStream.format("memory").queryName("c2").outputMode("complete")
         .option("checkpointLocation", "/chk/c2").start())
    q.processAllAvailable()
    assert world.spark.table("c2").columns == ["c", "action"]
    assert sorted(rows_of(world.spark.sql("SELECT c, action FROM c2"))) == [(1, "close"), (2, "open")]


def test_sql_projection_and_filter_over_a_streaming_view(world):
    _events(world)
    big = world.spark.sql("SELECT upper(action) AS a, n * 10 AS m FROM events WHERE n >= 3")
    assert world.spark.table("events").isStreaming
    q = big.writeStream.format("memory").queryName("big").option("checkpointLocation", "/chk/b").start()
    q.processAllAvailable()
    assert sorted(rows_of(world.spark.sql("SELECT a, m FROM big"))) == [("CLOSE", 50), ("OPEN", 30)]


def test_sql_order_by_over_a_streaming_view_is_not_built(world):
    _events(world)
    with pytest.raises(NotImplementedError, match="ORDER BY over a streaming view"):
        world.spark.sql("SELECT action FROM events ORDER BY action")
