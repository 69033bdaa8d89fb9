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
    """The job over three rounds of input, ten seconds apart."""
    world.create_topic("events", partitions=2)
    produce(world, ("e1", "ann", 5, 1), ("e2", "bob", 3, 2))
    world.run_job(job.main)
    world.advance("10 seconds")
    produce(world, ("e3", "ann", 2, 3), ("e1", "ann", 5, 1))
    world._query.processAllAvailable()
    world.advance("10 seconds")
    produce(world, ("e4", "bob", 1, 4))
    world._query.processAllAvailable()


@pytest.mark.streamsim
def test_totals(streamsim_world):
    import totals_job
    drive(streamsim_world, totals_job)
    out = streamsim_world.spark.read.schema("user string, total long").json("/out/totals")
    assert sorted(tuple(r) for r in out.collect()) == [("ann", 5), ("ann", 7), ("bob", 3), ("bob", 4)]


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
