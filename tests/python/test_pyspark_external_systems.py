"""Formats streamsim does not model (jdbc, Elasticsearch, ...) as named simulated tables
(pyspark/sql/_external.py): written by a batch writer or a streaming sink, read back with the same
format and options, said once; a batch re-run after a crash is written again (at least once, as
the real system would see it), which the job sweeps' exactly_once oracle reports."""

import collections

import pytest

from job_support import load_job, rows_of
from streamsim import _job_sweep
from streamsim.world import DriverCrashed, World


def _orders(world, first, n):
    world.put(f"/landing/orders/{first}.json",
              rows=[{"order_id": f"o{i}", "amount": float(i)} for i in range(first, first + n)])


def _read_orders(world):
    job = load_job("orders_to_jdbc")
    return sorted(rows_of(world.spark.read.jdbc(job.JDBC_URL, "public.orders", properties=job.PROPS)))


def test_foreach_batch_jdbc_writes_land_in_a_simulated_table(world, capfd):
    _orders(world, 0, 2)
    load_job("orders_to_jdbc").main()
    assert _read_orders(world) == [("o0", 0.0), ("o1", 1.0)]
    err = capfd.readouterr().err
    assert err.count("jdbc is not modelled") == 1 and "dbtable=public.orders" in err
    assert "secret" not in err  # credentials never name the table


def test_a_batch_re_run_after_a_crash_writes_again_and_exactly_once_says_so(world):
    job = load_job("orders_to_jdbc")
    _orders(world, 0, 1)
    q = job.main()
    _orders(world, 1, 1)
    world.crash_at("commits.before_write")
    with pytest.raises(DriverCrashed):
        q.processAllAvailable()
    world.restart(job.main)
    # foreachBatch is at least once: batch 1's order reached the database twice.
    assert _read_orders(world) == [("o0", 0.0), ("o1", 1.0), ("o1", 1.0)]
    reference = World()
    try:
        _orders(reference, 0, 1)
        _orders(reference, 1, 1)
        job.main()
        verdict = _job_sweep.exactly_once(_job_sweep.outputs(reference), _job_sweep.outputs(world))
    finally:
        reference.close()
    assert verdict is not None and "a duplicate" in verdict and "jdbc:" in verdict


def test_save_modes_and_a_table_never_written(world):
    df = world.spark.createDataFrame([(1, "a")], "id int, v string")
    w = lambda: df.write.format("jdbc").option("url", "jdbc:mysql://h/db").option("dbtable", "t")  # noqa: E731
    w().save()
    with pytest.raises(Exception, match="TABLE_OR_VIEW_ALREADY_EXISTS"):
        w().save()  # the writer's default mode is errorifexists
    w().mode("ignore").save()
    w().mode("overwrite").save()
    w().mode("append").save()
    back = world.spark.read.format("jdbc").option("url", "jdbc:mysql://h/db").option("dbtable", "t").load()
    assert rows_of(back) == [(1, "a"), (1, "a")]
    with pytest.raises(Exception, match="TABLE_OR_VIEW_NOT_FOUND"):
        world.spark.read.format("jdbc").option("url", "jdbc:mysql://h/db").option("dbtable", "other").load()


def test_a_streaming_sink_of_an_unmodelled_system_and_jdbc_which_has_none(world):
    world.put("/in/1.json", rows=[{"id": "a"}, {"id": "b"}])
    stream = world.spark.readStream.schema("id string").json("/in")
    q = (stream.writeStream.format("org.elasticsearch.spark.sql").option("es.resource", "events")
         .option("checkpointLocation", "/chk/es").start())
    q.processAllAvailable()
    back = world.spark.read.format("es").option("es.resource", "events").load()
    assert sorted(rows_of(back)) == [("a",), ("b",)]
    from pyspark.errors.exceptions.base import UnsupportedOperationException
    with pytest.raises(UnsupportedOperationException, match="does not support streamed writing"):
        stream.writeStream.format("jdbc").option("checkpointLocation", "/chk/j").start()
