"""Streaming operators of the PySpark job API (docs/python.md "PySpark jobs"): groupBy().agg()/
count() with window()/session_window() and withWatermark, dropDuplicates(WithinWatermark), and
the rate source on the world's virtual clock -- each mapped onto the scenario query the engine
runs (docs/scenarios.md), never a second engine."""

import pytest

from pyspark.errors import AnalysisException, IllegalArgumentException, UnsupportedOperationException
from pyspark.sql import functions as F
from job_support import rows_of
from streamsim.world import DriverCrashed


def land(world, folder, rows):
    """Each row in a file of its own, named after the files already there."""
    first = len(world.files(folder))
    for i, r in enumerate(rows):
        world.put(f"{folder}/{first + i:03d}.json", rows=[r])


def ts(hhmm):
    return f"2026-01-01T{hhmm}:00Z"


# --- windowed aggregation (TimeWindow.scala; Append emits a window once the watermark passes its end) ---

def test_window_count_in_append_mode_emits_a_window_once_the_watermark_passes_its_end(world):
    spark = world.spark
    land(world, "/in", [{"user": "a", "ts": ts("00:01")}, {"user": "b", "ts": ts("00:02")},
                        {"user": "a", "ts": ts("00:04")}])
    counts = (spark.readStream.schema("user string, ts timestamp").json("/in")
              .withWatermark("ts", "1 minute")
              .groupBy(F.window("ts", "10 minutes"), "user").count())
    q = counts.writeStream.format("memory").queryName("w").outputMode("append").start()
    q.processAllAvailable()
    assert spark.table("w").count() == 0  # the watermark (00:03) has not passed 00:10
    land(world, "/in", [{"user": "a", "ts": ts("00:12")}])
    q.processAllAvailable()
    got = rows_of(spark.sql("SELECT window.start AS start, window.end AS end, user, count FROM w "
                            "ORDER BY user"))
    assert [(r[2], r[3]) for r in got] == [("a", 2), ("b", 1)]
    assert str(got[0][0]) == "2026-01-01 00:00:00" and str(got[0][1]) == "2026-01-01 00:10:00"
    # A row for the closed window is late now: dropped, and counted as Spark counts it.
    land(world, "/in", [{"user": "b", "ts": ts("00:05")}])
    q.processAllAvailable()
    assert spark.table("w").count() == 2
    assert sum(p["stateOperators"][0]["numRowsDroppedByWatermark"] for p in q.recentProgress) == 1


def test_agg_with_sliding_window_and_several_aggregates_in_update_mode(world):
    spark = world.spark
    land(world, "/in", [{"k": "x", "v": 1, "ts": ts("00:01")}, {"k": "x", "v": 5, "ts": ts("00:06")}])
    agg = (spark.readStream.schema("k string, v long, ts timestamp").json("/in")
           .groupBy(F.window(F.col("ts"), "10 minutes", "5 minutes"), F.col("k"))
           .agg(F.sum("v").alias("total"), F.max("v"), F.count(F.lit(1)).alias("n")))
    q = agg.writeStream.format("memory").queryName("s").outputMode("update").start()
    q.processAllAvailable()
    got = sorted((str(r["window"]["start"]), r["total"], r["max(v)"], r["n"]) for r in spark.table("s").collect())
    # 00:01 is in [23:55, 00:05) and [00:00, 00:10); 00:06 in [00:00, 00:10) and [00:05, 00:15).
    assert got == [("2025-12-31 23:55:00", 1, 1, 1), ("2026-01-01 00:00:00", 6, 5, 2),
                   ("2026-01-01 00:05:00", 5, 5, 1)]


def test_session_window_merges_rows_closer_than_the_gap(world):
    spark = world.spark
    land(world, "/in", [{"u": "a", "ts": ts("00:00")}, {"u": "a", "ts": ts("00:03")},
                        {"u": "a", "ts": ts("00:20")}, {"u": "a", "ts": ts("00:40")}])
    sessions = (spark.readStream.schema("u string, ts timestamp").json("/in")
                .withWatermark("ts", "0 seconds")
                .groupBy(F.session_window("ts", "5 minutes"), "u").agg(F.count("*").alias("n")))
    q = sessions.writeStream.format("memory").queryName("sess").outputMode("append").start()
    q.processAllAvailable()
    got = rows_of(spark.sql("SELECT session_window.start AS s, session_window.end AS e, n FROM sess ORDER BY s"))
    # SessionWindow.scala: [t, t + gap) merged; the session at 00:40 is still open.
    assert [(str(s), str(e), n) for s, e, n in got] == [
        ("2026-01-01 00:00:00", "2026-01-01 00:08:00", 2), ("2026-01-01 00:20:00", "2026-01-01 00:25:00", 1)]


def test_global_aggregation_in_complete_mode(world):
    spark = world.spark
    land(world, "/in", [{"v": 2}, {"v": 3}])
    q = (spark.readStream.schema("v long").json("/in").groupBy().agg(F.sum("v").alias("total"))
         .writeStream.format("memory").queryName("g").outputMode("complete").start())
    q.processAllAvailable()
    land(world, "/in", [{"v": 10}])
    q.processAllAvailable()
    assert rows_of(spark.table("g")) == [(15,)]


def test_count_in_append_mode_without_a_watermark_is_sparks_unsupported_operation(world):
    spark = world.spark
    land(world, "/in", [{"k": "a"}])
    # UnsupportedOperationChecker: start() raises, nothing runs.
    with pytest.raises(AnalysisException) as e:
        (spark.readStream.schema("k string").json("/in").groupBy("k").count()
         .writeStream.format("memory").queryName("c").outputMode("append").start())
    assert e.value.getCondition() == "STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION"
    assert spark.streams.active == []


def test_drop_duplicates_within_watermark_keeps_the_first_of_each_id(world):
    spark = world.spark
    land(world, "/in", [{"id": "e1", "ts": ts("00:01")}, {"id": "e1", "ts": ts("00:02")},
                        {"id": "e2", "ts": ts("00:03")}])
    q = (spark.readStream.schema("id string, ts timestamp").json("/in")
         .withWatermark("ts", "10 minutes").dropDuplicatesWithinWatermark(["id"])
         .writeStream.format("memory").queryName("d").outputMode("append").start())
    q.processAllAvailable()
    land(world, "/in", [{"id": "e1", "ts": ts("00:04")}])  # within the watermark: a duplicate
    q.processAllAvailable()
    assert sorted(rows_of(spark.sql("SELECT id FROM d"))) == [("e1",), ("e2",)]


# --- the rate source (RateStreamProvider.scala, RateStreamMicroBatchStream.scala) ---

def test_rate_source_generates_rows_per_second_of_virtual_time(world):
    spark = world.spark
    df = spark.readStream.format("rate").option("rowsPerSecond", 10).option("numPartitions", 3).load()
    assert df.columns == ["timestamp", "value"]
    q = df.writeStream.format("memory").queryName("r").start()
    q.processAllAvailable()  # at the start time: offset 0, no rows
    world.advance("1 second")
    q.processAllAvailable()
    rows = spark.table("r").collect()
    # RateStreamProviderSuite "microbatch - basic": values 0..9 at 100 ms apart; the partitions'
    # rows (p, p + 3, ...) come partition by partition.
    assert [r.value for r in rows] == [0, 3, 6, 9, 1, 4, 7, 2, 5, 8]
    assert sorted((r.value, r.timestamp.microsecond // 1000) for r in rows) == [(v, v * 100) for v in range(10)]
    assert [p["numInputRows"] for p in q.recentProgress] == [0, 10]
    # The offset is the whole seconds since the start time recorded in sources/0/0.
    chk = [f for f in world.files("/tmp") if f.startswith("/tmp/temporary-")][0]
    assert world.read(f"{chk}/sources/0/0").startswith("v1\n")


def test_rate_source_ramps_up_and_a_re_run_batch_gets_the_same_rows(world):
    spark = world.spark
    spark.conf.set("spark.sql.streaming.checkpointLocation", "/chk")
    seen = []

    def main():
        df = (spark.readStream.format("rate").option("rowsPerSecond", 10).option("rampUpTime", "4s")
              .option("numPartitions", 1).load())
        return (df.writeStream.queryName("ramp")
                .foreachBatch(lambda b, i: seen.append((i, [r.value for r in b.collect()]))).start())

    q = main()
    q.processAllAvailable()
    world.advance("2 seconds")
    world.crash_at("commits.before_write", batch=1)
    with pytest.raises(DriverCrashed):
        q.processAllAvailable()
    world.advance("1 second")
    q = world.restart(main)
    q.processAllAvailable()
    # valueAtSecond(2) = 6 with rampUpTime 4 (speeds 2, 4): batch 1 re-runs (0, 2] as it was
    # planned, the same six rows; batch 2 takes second 3 (speed 6).
    assert seen == [(0, []), (1, [0, 1, 2, 3, 4, 5]), (1, [0, 1, 2, 3, 4, 5]), (2, [6, 7, 8, 9, 10, 11])]


def test_rate_source_refuses_a_schema_and_unknown_options(world):
    spark = world.spark
    with pytest.raises(UnsupportedOperationException) as e:
        spark.readStream.format("rate").schema("a long").load()
    assert e.value.getCondition() == "_LEGACY_ERROR_TEMP_2242"
    with pytest.raises(NotImplementedError, match="rowsPerSecond"):
        spark.readStream.format("rate").option("useManualClock", "true").load()
    # RateStreamProvider: IllegalArgumentException (PySpark's, not a ValueError)
    with pytest.raises(IllegalArgumentException, match="The option 'rowsPerSecond' must be positive"):
        (spark.readStream.format("rate").option("rowsPerSecond", 0).load()
         .writeStream.format("memory").queryName("bad").start())
