"""DataStreamWriter.foreach in a PySpark job (docs/python.md "foreach"): a function called per row,
or a writer object with process(row) and optional open(partition_id, epoch_id) / close(error),
as PySpark's DataStreamWriter.foreach wraps them (python/pyspark/sql/streaming/readwriter.py),
on the engine's ForeachSink (engine/include/streamsim/io/foreach_sink.h: Spark's ForeachWriter
contract, at least once)."""

import pytest

from job_support import load_job, rows_of
from streamsim.world import DriverCrashed


def reading(world, sensor, value):
    world.produce("readings", {"sensor": sensor, "reading": value})


def alerts_table(world, job):
    df = world.spark.createDataFrame(job.SERVICE.alerts, "sensor string, reading double")
    df.createOrReplaceTempView("alerts")
    return rows_of(world.spark.sql("SELECT sensor, reading FROM alerts ORDER BY sensor, reading"))


def test_an_idempotent_foreach_writer_delivers_each_alert_once_across_a_crash(world):
    reading(world, "s1", 150.0)
    reading(world, "s2", 20.0)
    job = load_job("kafka_alerts_foreach")
    job.main()
    assert alerts_table(world, job) == [("s1", 150.0)]
    reading(world, "s3", 300.0)
    # The driver dies after the sink wrote batch 1, before its commit: the restarted query runs
    # batch 1 again with the same epoch id; open() returns False for the (partition, epoch) the
    # service has, so the alert is not sent twice.
    world.crash_at("commits.before_write", batch=1)
    with pytest.raises(DriverCrashed):
        world._query.processAllAvailable()
    world.restart(job.main)
    assert alerts_table(world, job) == [("s1", 150.0), ("s3", 300.0)]
    assert job.SERVICE.opens.count((0, 1)) == 2       # batch 1 was handed over twice


def test_a_foreach_function_is_at_least_once_a_rerun_batch_calls_it_again(world):
    from pyspark.sql.functions import col
    seen = []
    spark = world.spark

    def main():
        df = spark.readStream.schema("id string").json("/in")
        q = (df.select(col("id")).writeStream.foreach(lambda row: seen.append(row.id))
             .option("checkpointLocation", "/chk/f").start())
        q.awaitTermination()
        return q

    world.put("/in/1.json", rows=[{"id": "a"}, {"id": "b"}])
    main()
    world.put("/in/2.json", rows=[{"id": "c"}])
    world.crash_at("commits.before_write", batch=1)
    with pytest.raises(DriverCrashed):
        world._query.processAllAvailable()
    world.restart(main)
    assert seen == ["a", "b", "c", "c"]   # Spark's foreach sink is at least once


def test_each_partition_task_gets_its_own_copy_of_the_writer(world):
    """Spark unpickles the writer in every task: a count kept in self starts over per
    partition and epoch; the object the job holds is never called."""
    counts = []

    class Counting:
        def __init__(self):
            self.n = 0

        def open(self, partition_id, epoch_id):
            return True

        def process(self, row):
            self.n += 1

        def close(self, error):
            counts.append(self.n)

    writer = Counting()
    world.put("/in/1.json", rows=[{"id": "a"}, {"id": "b"}])
    q = world.spark.readStream.schema("id string").json("/in").writeStream.foreach(writer).start()
    q.processAllAvailable()
    world.put("/in/2.json", rows=[{"id": "c"}])
    q.processAllAvailable()
    assert counts == [2, 1] and writer.n == 0


def test_a_falsy_open_skips_rows_and_close_gets_the_process_error(world):
    from pyspark.errors import StreamingQueryException
    events = []

    class Failing:
        def open(self, partition_id, epoch_id):
            events.append(("open", epoch_id))
            return epoch_id != 0

        def process(self, row):
            events.append(("process", row.id))
            raise KeyError(row.id)

        def close(self, error):
            events.append(("close", type(error).__name__ if error is not None else None))

    world.put("/in/1.json", rows=[{"id": "a"}])
    q = world.spark.readStream.schema("id string").json("/in").writeStream.foreach(Failing()).start()
    q.processAllAvailable()
    assert events == [("open", 0), ("close", None)]
    world.put("/in/2.json", rows=[{"id": "b"}])
    with pytest.raises(StreamingQueryException, match="KeyError"):
        q.processAllAvailable()
    assert events[2:] == [("open", 1), ("process", "b"), ("close", "KeyError")]


def test_foreach_refuses_an_object_without_a_callable_process(world):
    """PySpark's foreach: ATTRIBUTE_NOT_CALLABLE for a missing or non-callable process/open/close."""
    from pyspark.errors import PySparkAttributeError
    df = world.spark.readStream.schema("id string").json("/in")
    with pytest.raises(PySparkAttributeError) as e:
        df.writeStream.foreach(object())
    assert e.value.getCondition() == "ATTRIBUTE_NOT_CALLABLE"

    class BadOpen:
        open = 3

        def process(self, row):
            pass
    with pytest.raises(PySparkAttributeError, match="`open`"):
        df.writeStream.foreach(BadOpen())
