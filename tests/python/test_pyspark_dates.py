"""DATE columns in PySpark jobs (DateType: datetime.date values) and the date functions the engine
has (datetimeExpressions.scala: to_date, current_date on the virtual clock, date_add, date_sub,
datediff), on a batch and on a stream."""

import datetime as dt

from pyspark.sql.functions import col, current_date, date_add, date_sub, datediff, to_date
from job_support import rows_of


def test_dates_in_a_batch(world):
    df = world.spark.createDataFrame([("2026-01-05 13:45:00", dt.date(2026, 1, 1))], "ts string, d date")
    got = df.select(to_date(col("ts")).alias("day"), date_add(col("d"), 3).alias("later"),
                    date_sub("d", 1).alias("before"), datediff(to_date("ts"), col("d")).alias("gap"),
                    to_date(col("ts"), "yyyy-MM-dd HH:mm:ss").alias("parsed")).collect()
    assert [tuple(r) for r in got] == [(dt.date(2026, 1, 5), dt.date(2026, 1, 4), dt.date(2025, 12, 31), 4,
                                        dt.date(2026, 1, 5))]
    assert world.spark.createDataFrame([(dt.date(2026, 2, 3),)], ["d"]).schema.fields[0].dataType.simpleString() == "date"


def test_a_date_column_through_a_stream_and_a_group_by(world):
    world.put("/in/1.json", rows=[{"ts": "2026-01-05T23:59:00Z", "n": 1}, {"ts": "2026-01-06T00:01:00Z", "n": 2},
                                  {"ts": "2026-01-05T08:00:00Z", "n": 4}])
    per_day = (world.spark.readStream.schema("ts timestamp, n int").json("/in")
               .withColumn("day", to_date(col("ts"))).groupBy("day").sum("n"))
    q = (per_day.writeStream.format("memory").queryName("days").outputMode("complete")
         .option("checkpointLocation", "/chk").start())
    q.processAllAvailable()
    assert sorted(rows_of(world.spark.sql("SELECT day, `sum(n)` FROM days"))) == \
        [(dt.date(2026, 1, 5), 5), (dt.date(2026, 1, 6), 2)]
    today = world.spark.range(1).select(current_date().alias("t")).collect()[0].t
    assert isinstance(today, dt.date)
