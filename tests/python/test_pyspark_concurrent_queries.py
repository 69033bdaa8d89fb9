"""A World runs one streaming query at a time: a second start() while the first is active is
refused (NotImplementedError naming it) rather than silently retiring the first, whose sink
would then miss the input still to come -- Spark runs both. After stop() (or a finished or
failed query) the next one starts, and the first keeps its table and progress."""

import pytest

from job_support import rows_of


def test_a_second_active_query_is_refused_and_starts_after_stop(world):
    world.put("/in/1.json", rows=[{"k": "a"}])
    df = world.spark.readStream.schema("k string").json("/in")
    first = df.writeStream.format("memory").queryName("one").option("checkpointLocation", "/chk/1").start()
    first.processAllAvailable()
    with pytest.raises(NotImplementedError, match="several concurrent queries"):
        df.writeStream.format("memory").queryName("two").option("checkpointLocation", "/chk/2").start()
    first.stop()
    second = df.writeStream.format("memory").queryName("two").option("checkpointLocation", "/chk/2").start()
    second.processAllAvailable()
    assert rows_of(world.spark.table("one")) == [("a",)] and rows_of(world.spark.table("two")) == [("a",)]
