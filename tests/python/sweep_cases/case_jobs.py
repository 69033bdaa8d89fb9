"""Tests of PySpark jobs as a user writes them for the pytest plugin's sweeps; run by
tests/python/test_pytest_sweeps.py with --streamsim-seeds (not collected by the suite itself: the
file is named case_*). The correct job is the Python example project's (docs/python-example)."""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
for folder in (HERE, os.path.join(SOURCE, "docs", "python-example"), os.path.join(HERE, "..", "jobs")):
    sys.path.insert(0, folder)


def produce(world, *events):
    for event_id, user, amount, second in events:
        world.produce("events", {"event_id": event_id, "user": user, "amount": amount,
                                 "ts": f"2026-01-01T00:00:{second:02d}Z"}, key=user)


def drive(world, job):
    """The job over three rounds of input, ten seconds apart (the last with two events of bob)."""
    world.create_topic("events", partitions=2)
    produce(world, ("e1", "ann", 5, 1), ("e2", "bob", 3, 2))
    world.run_job(job.main)
    world.advance("10 seconds")
    produce(world, ("e3", "ann", 2, 3), ("e1", "ann", 5, 1))
    world._query.processAllAvailable()
    world.advance("10 seconds")
    produce(world, ("e4", "bob", 1, 4), ("e5", "bob", 2, 5))
    world._query.processAllAvailable()


@pytest.mark.streamsim
def test_totals(streamsim_world):
    import totals_job
    drive(streamsim_world, totals_job)
    out = streamsim_world.spark.read.schema("user string, total long").json("/out/totals")
    assert sorted(tuple(r) for r in out.collect()) == [("ann", 5), ("ann", 7), ("bob", 3), ("bob", 6)]


@pytest.mark.streamsim(batch_split=["user"])
def test_totals_batch_split(streamsim_world):
    # The correct twin of test_self_total: each user's last total is the same however the input
    # is batched (the test's own assertion is not judged in the variant, whose batches differ).
    test_totals(streamsim_world)


@pytest.mark.streamsim(batch_split=["user"])
def test_self_total(streamsim_world):
    # No assertion of its own: a total kept in the processor's `self` restarts at every task (a
    # batch), so it equals the state's only while each user's events arrive in one batch.
    import self_total_job
    drive(streamsim_world, self_total_job)


@pytest.mark.streamsim(batch_split=["customer"])
def test_batch_split_without_the_column(streamsim_world):
    import totals_job
    drive(streamsim_world, totals_job)


@pytest.mark.streamsim(batch_splt=["user"])
def test_misspelt_oracle(streamsim_world):
    import totals_job
    drive(streamsim_world, totals_job)


@pytest.mark.streamsim
def test_class_dict(streamsim_world):
    # No assertion of its own: the oracles alone catch the total kept in a class attribute.
    import class_dict_job
    drive(streamsim_world, class_dict_job)


@pytest.mark.streamsim
def test_foreach_batch_append(streamsim_world):
    # No assertion of its own: the batch a crash re-runs is appended to the table twice.
    import kafka_totals_foreach_batch
    drive(streamsim_world, kafka_totals_foreach_batch)


@pytest.mark.streamsim
def test_without_run_job(streamsim_world):
    import totals_job
    streamsim_world.create_topic("events")
    produce(streamsim_world, ("e1", "ann", 5, 1))
    totals_job.main()  # a crash of a sweep's plan kills the driver: nothing restarts it


def test_not_marked(streamsim_world):
    # Not marked: a sweep leaves it alone, and it runs once as written.
    import totals_job
    streamsim_world.create_topic("events")
    produce(streamsim_world, ("e1", "ann", 5, 1))
    totals_job.main()


@pytest.mark.streamsim
def test_uuid4_checkpoint(streamsim_world):
    # Correct: a fresh checkpoint per run, named by the driver's uuid4() (as seed 001's jobs do);
    # the same seed run again must draw the same names (the determinism oracle).
    import uuid
    world = streamsim_world
    world.put("/in/1.json", rows=[{"k": "a"}, {"k": "b"}, {"k": "a"}])

    def main():
        q = (world.spark.readStream.schema("k string").json("/in").groupBy("k").count()
             .writeStream.format("memory").queryName("counts").outputMode("complete")
             .option("checkpointLocation", f"/tmp/checkpoint_{uuid.uuid4()}")
             .trigger(availableNow=True).start())
        q.awaitTermination()
        return q
    world.run_job(main)
    assert sorted(tuple(r) for r in world.spark.table("counts").collect()) == [("a", 2), ("b", 1)]


@pytest.mark.streamsim
def test_uuid_key(streamsim_world):
    # No assertion of its own: the keys a re-run batch draws again are caught by exactly_once.
    import uuid_key_job
    drive(streamsim_world, uuid_key_job)


def drive_late(world, ingest_time):
    """Two events in minute 0; at 00:05 one of minute 5; at 00:07 one 6.5 minutes late (event
    time 00:00:30, behind the watermark of 00:04); at 00:10 one of minute 10, which closes
    minute 5. Returns the minutes written."""
    import watermark_job
    watermark_job.INGEST_TIME = ingest_time
    world.create_topic("events", partitions=2)
    produce(world, ("e1", "ann", 1, 1), ("e2", "bob", 1, 2))
    world.run_job(watermark_job.main)
    for now, event_id, ts in [(5, "e3", "00:05:00"), (7, "e4", "00:00:30"), (10, "e5", "00:10:00")]:
        world.advance(f"{now * 60 - (world.now.minute * 60 + world.now.second)} seconds")
        world.produce("events", {"event_id": event_id, "user": "ann", "amount": 1,
                                 "ts": f"2026-01-01T{ts}Z"}, key="ann")
        world._query.processAllAvailable()
    out = world.spark.read.schema("minute string, count long").json("/out/minutes")
    return sorted(tuple(r) for r in out.collect())


@pytest.mark.streamsim
def test_watermark_on_ingest_time(streamsim_world):
    # No assertion of its own: a crash changes neither the record timestamps nor the batches, so
    # the default oracles see the same minutes in every run -- the sweep passes the planted bug.
    drive_late(streamsim_world, ingest_time=True)


@pytest.mark.streamsim(producer_clock=True)
def test_watermark_on_ingest_time_producer_clock(streamsim_world):
    # No assertion of its own: with the producers' clocks off, the records' Kafka timestamps
    # move, and with them the minutes the buggy job writes.
    drive_late(streamsim_world, ingest_time=True)


@pytest.mark.streamsim(producer_clock=True)
def test_watermark_on_event_time_producer_clock(streamsim_world):
    # The correct twin: its minutes do not move with the producers' clocks. (No assertion of the
    # minutes: after a crash right after the commit of e5's batch, Spark withholds the no-data
    # batch that writes minute 5 until new data arrives -- test_window_closed_by_a_no_data_batch.)
    drive_late(streamsim_world, ingest_time=False)


@pytest.mark.streamsim
def test_watermark_on_ingest_time_with_an_expectation(streamsim_world):
    # The cheapest expectation that catches it: the late event (e4, event time 00:00:30, arriving
    # at 00:07) is dropped -- minute 0 was closed -- and no minute 7 is written.
    got = drive_late(streamsim_world, ingest_time=True)
    assert got == [("2026-01-01 00:00:00", 2), ("2026-01-01 00:05:00", 1)], got


@pytest.mark.streamsim
def test_watermark_on_event_time(streamsim_world):
    got = drive_late(streamsim_world, ingest_time=False)
    assert got == [("2026-01-01 00:00:00", 2), ("2026-01-01 00:05:00", 1)], got


@pytest.mark.streamsim
def test_alerts_to_kafka_and_totals_to_delta(streamsim_world):
    # docs/python.md "Sweeps of a test": the worked example.
    import alerts_pipeline
    world = streamsim_world
    world.create_topic("payments", partitions=2)

    def pay(payment_id, user, amount):
        world.produce("payments", {"payment_id": payment_id, "user": user, "amount": amount}, key=user)

    pay("p1", "ann", 1500.0)
    pay("p2", "bob", 20.0)
    world.run_job(alerts_pipeline.main)        # a crash restarts main on its checkpoints
    pay("p3", "ann", 5.0)
    pay("p4", "bob", 2000.0)
    world.run_job(alerts_pipeline.main)        # the next run of the job: the new payments
    alerts = {(r["key"], r["value"]) for r in world.records("alerts")}   # at least once: a set
    assert alerts == {("ann", '{"payment_id":"p1","amount":1500.0}'),
                      ("bob", '{"payment_id":"p4","amount":2000.0}')}
    totals = world.spark.read.format("delta").load("/lake/totals")
    assert sorted(tuple(r) for r in totals.collect()) == [("ann", 1505.0), ("bob", 2020.0)]


@pytest.mark.streamsim
def test_window_closed_by_a_no_data_batch(streamsim_world):
    # Correct (event time). Minute 5 is written by the no-data batch after e5's batch: a crash
    # after that batch's commit restarts the query cleanly, and Spark runs no no-data batch then
    # until new data arrives -- minute 5 is not written before the test ends. Not a loss.
    import watermark_job
    world = streamsim_world
    watermark_job.INGEST_TIME = False
    world.create_topic("events", partitions=2)
    produce(world, ("e1", "ann", 1, 1), ("e2", "bob", 1, 2))
    world.run_job(watermark_job.main)
    for now, ts in [(5, "00:05:00"), (10, "00:10:00")]:
        world.advance(f"{now * 60 - (world.now.minute * 60 + world.now.second)} seconds")
        world.produce("events", {"event_id": f"e{now}", "user": "ann", "amount": 1,
                                 "ts": f"2026-01-01T{ts}Z"}, key="ann")
        world._query.processAllAvailable()
