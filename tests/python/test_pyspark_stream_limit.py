"""DataFrame.limit on a stream: Spark's StreamingGlobalLimitExec (sql/core/.../streaming/operators/
stateful/streamingLimits.scala; the engine's ops/streaming_limit.h): at most `num` rows over the
query's life in Append mode, the count kept in the state store across restarts; a limit in
Update mode is UnsupportedOperationChecker's AnalysisException when the query starts."""

import pytest

from pyspark.errors import AnalysisException
from pyspark.sql.functions import col
from streamsim.world import DriverCrashed


def _files(world):
    return world.spark.readStream.schema("id string, n int").json("/in")


def test_a_streaming_limit_passes_the_first_rows_and_keeps_its_count_across_a_crash(world):
    world.put("/in/1.json", rows=[{"id": "a", "n": 1}, {"id": "b", "n": 0}, {"id": "c", "n": 2}])

    def job():
        return (_files(world).where(col("n") > 0).limit(3).writeStream.format("json")
                .option("checkpointLocation", "/chk/limit").start("/out"))
    q = job()
    q.processAllAvailable()
    world.put("/in/2.json", rows=[{"id": "d", "n": 3}, {"id": "e", "n": 4}])
    world.crash_at("commits.before_write")
    with pytest.raises(DriverCrashed):
        q.processAllAvailable()
    q = world.restart(job)
    q.processAllAvailable()
    world.put("/in/3.json", rows=[{"id": "f", "n": 5}])
    q.processAllAvailable()
    back = world.spark.read.schema("id string, n int").json("/out")
    assert sorted(r.id for r in back.collect()) == ["a", "c", "d"]
    assert q.lastProgress["stateOperators"][0]["operatorName"] == "globalLimit"


def test_a_streaming_limit_in_update_mode_is_sparks_analysis_error(world):
    with pytest.raises(AnalysisException, match="Limits are not supported on streaming DataFrames/Datasets "
                                                 "in Update output mode"):
        (_files(world).limit(2).writeStream.format("memory").queryName("l").outputMode("update").start())


def test_limit_takes_an_int(world):
    from pyspark.errors import PySparkTypeError
    with pytest.raises(PySparkTypeError, match="NOT_INT"):
        _files(world).limit("2")
