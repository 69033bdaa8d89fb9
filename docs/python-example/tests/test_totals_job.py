"""The job's tests, run by pytest with streamsim installed (pip install ./python): the
streamsim_world fixture (streamsim's pytest plugin) gives each test a simulated Kafka, filesystem
and clock, and a crash at a named fault point kills the driver as on a cluster."""

import pytest

from streamsim.world import DriverCrashed


def produce(world, *events):
    for event_id, user, amount, second in events:
        world.produce("events", {"event_id": event_id, "user": user, "amount": amount,
                                 "ts": f"2026-01-01T00:00:{second:02d}Z"}, key=user)


def totals(world):
    out = world.spark.read.schema("user string, total long").json("/out/totals")
    return sorted(tuple(r) for r in out.collect())


@pytest.mark.streamsim  # `pytest --streamsim-seeds 100` sweeps it under crashes
def test_totals_per_user_with_a_duplicate(streamsim_world):
    import totals_job  # inside the test: streamsim's pyspark, whatever else is installed

    world = streamsim_world
    world.create_topic("events", partitions=2)
    produce(world, ("e1", "ann", 5, 1), ("e2", "bob", 3, 2), ("e1", "ann", 5, 1))
    world.run_job(totals_job.main)  # a crash restarts the job on its checkpoint, as a supervisor
    world.advance("10 seconds")
    produce(world, ("e3", "ann", 2, 3))
    world._query.processAllAvailable()
    assert totals(world) == [("ann", 5), ("ann", 7), ("bob", 3)]


def test_a_crash_before_the_commit_loses_and_repeats_nothing(streamsim_world):
    import totals_job

    world = streamsim_world
    world.create_topic("events")
    produce(world, ("e1", "ann", 5, 1))
    totals_job.main()
    world.advance("10 seconds")
    produce(world, ("e2", "ann", 2, 2))
    world.crash_at("commits.before_write")
    with pytest.raises(DriverCrashed):
        world._query.processAllAvailable()
    world.restart(totals_job.main)
    assert totals(world) == [("ann", 5), ("ann", 7)]


def test_the_processor_alone_with_twstester():
    from streamsim import pyspark_shim

    with pyspark_shim():  # what the fixture does for a test that uses none
        import totals_job
        from pyspark.sql import Row
        from streamsim.pyspark import TwsTester

        tester = TwsTester(totals_job.TotalPerUser())
        assert tester.test("ann", [Row(user="ann", amount=2), Row(user="ann", amount=3)]) == \
            [Row(user="ann", total=5)]
        assert tester.peekValueState("total", "ann") == (5,)


def test_the_scenario_swept_from_python():
    import os

    import streamsim

    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    result = streamsim.sweep(os.path.join(here, "scenarios", "totals.yaml"), seeds=20)
    assert result["passed"], result["output"]
