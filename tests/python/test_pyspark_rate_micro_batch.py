"""readStream.format("rate-micro-batch") (docs/python.md "The rate source"): each batch the next
rowsPerBatch values stamped startTimestamp + advanceMillisPerBatch per batch before it, whatever the
clock; options and errors as Spark 4.1's
sql/core/src/main/scala/org/apache/spark/sql/execution/streaming/sources/RatePerMicroBatchProvider.scala
and RatePerMicroBatchStream.scala (planInputPartitions' MALFORMED_STATE_IN_RATE_PER_MICRO_BATCH_SOURCE;
RatePerMicroBatchProviderSuite's "restart with a newer startTimestamp")."""

import json

import pytest

from pyspark.errors import IllegalArgumentException, StreamingQueryException, UnsupportedOperationException
from streamsim.world import DriverCrashed


def _source(world, **options):
    reader = world.spark.readStream.format("rate-micro-batch")
    for k, v in options.items():
        reader = reader.option(k, v)
    return reader.load()


def _start(df, name="out", trigger=None, checkpoint=None):
    w = (df.writeStream.format("memory").queryName(name).outputMode("append")
         .option("checkpointLocation", checkpoint or f"/chk/{name}"))
    if trigger is not None:
        w = w.trigger(**trigger)
    return w.start()


def _values(world, name="out"):
    return [r.value for r in world.spark.sql(f"SELECT value FROM {name}").collect()]


def test_each_batch_holds_the_next_rows_per_batch_values_stamped_by_batch(world):
    df = _source(world, rowsPerBatch=4, numPartitions=2, startTimestamp=5000, advanceMillisPerBatch=250)
    q = _start(df, trigger={"processingTime": "1 second"})
    q.processAllAvailable()
    # Partition 0 holds 0 and 2, partition 1 holds 1 and 3: the rows partition by partition.
    assert _values(world) == [0, 2, 1, 3]
    world.advance("3 seconds")
    q.processAllAvailable()  # three triggers fell due
    assert sorted(_values(world)) == list(range(16))
    stamps = {r.value: r.timestamp for r in world.spark.sql("SELECT * FROM out").collect()}
    assert stamps[0].timestamp() == 5.0 and stamps[4].timestamp() == 5.25 and stamps[15].timestamp() == 5.75
    assert json.loads(world.read("/chk/out/offsets/3").splitlines()[-1]) == {"offset": 16, "timestamp": 6000}
    assert q.lastProgress["sources"][0]["description"].startswith("RatePerMicroBatchStream[rowsPerBatch=4")


def test_no_time_passed_means_no_new_batch_and_available_now_reads_one_batch(world):
    q = _start(_source(world, rowsPerBatch=2, numPartitions=1))
    q.processAllAvailable()
    q.processAllAvailable()
    assert _values(world) == [0, 1]
    q.stop()
    once = _start(_source(world, rowsPerBatch=2, numPartitions=1), name="once",
                  trigger={"availableNow": True})
    once.awaitTermination()
    assert _values(world, "once") == [0, 1]
    assert not once.isActive


def _batches_into(seen, df, trigger=None):
    w = (df.writeStream.option("checkpointLocation", "/chk/fb")
         .foreachBatch(lambda batch, batch_id: seen.append((batch_id, [r.value for r in batch.collect()]))))
    if trigger is not None:
        w = w.trigger(**trigger)
    return w.start()


def test_a_batch_re_run_after_a_crash_reads_the_same_rows(world):
    seen = []

    def job():
        return _batches_into(seen, _source(world, rowsPerBatch=3, numPartitions=1),
                             trigger={"processingTime": "1 second"})
    q = job()
    q.processAllAvailable()
    world.advance("1 second")
    world.crash_at("commits.before_write", batch=1)
    with pytest.raises(DriverCrashed):
        q.processAllAvailable()
    q = world.restart(job)
    q.processAllAvailable()
    assert seen == [(0, [0, 1, 2]), (1, [3, 4, 5]), (1, [3, 4, 5])]
    assert q.recentProgress[0]["batchId"] == 1


def test_restart_with_a_newer_start_timestamp_fails_the_re_run_of_batch_0(world):
    # RatePerMicroBatchProviderSuite: offsets/0 written with startTimestamp t1, no commit, a
    # restart with t2 > t1 + advanceMillisPerBatch re-runs batch 0 from (0, t2) to (1, t1 + 1000).
    seen = []
    world.crash_at("commits.before_write", batch=0)
    q = _batches_into(seen, _source(world, rowsPerBatch=1, startTimestamp=1000))
    with pytest.raises(DriverCrashed):
        q.processAllAvailable()
    q = world.restart(lambda: _batches_into(seen, _source(world, rowsPerBatch=1, startTimestamp=9000)))
    with pytest.raises(StreamingQueryException) as e:
        q.processAllAvailable()
    assert "MALFORMED_STATE_IN_RATE_PER_MICRO_BATCH_SOURCE.INVALID_TIMESTAMP" in str(e.value)
    assert "startTimestamp(9000) > endTimestamp(2000)" in str(e.value)


@pytest.mark.parametrize("options,message", [
    ({}, "Invalid value '0'. The option 'rowsPerBatch' must be positive"),
    ({"rowsPerBatch": -5}, "Invalid value '-5'. The option 'rowsPerBatch' must be positive"),
    ({"rowsPerBatch": 1, "numPartitions": 0}, "Invalid value '0'. The option 'numPartitions' must be positive"),
    ({"rowsPerBatch": 1, "startTimestamp": -1},
     "Invalid value '-1'. The option 'startTimestamp' must be non-negative"),
    ({"rowsPerBatch": 1, "advanceMillisPerBatch": -1},
     "Invalid value '-1'. The option 'advanceMillisPerBatch' must be non-negative"),
])
def test_bad_options_fail_load_with_sparks_messages(world, options, message):
    with pytest.raises(IllegalArgumentException) as e:
        _source(world, **options)
    assert message in str(e.value)


def test_a_user_schema_is_refused_as_spark_refuses_it(world):
    with pytest.raises(UnsupportedOperationException) as e:
        world.spark.readStream.format("rate-micro-batch").schema("value long").option("rowsPerBatch", 1).load()
    assert "RatePerMicroBatchProvider source does not support user-specified schema." in str(e.value)
