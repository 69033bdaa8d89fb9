"""applyInPandasWithState on the engine's flatMapGroupsWithState operator (engine
ops/flat_map_groups_with_state.h): Spark's checkpoint layout and operator name
(FlatMapGroupsInPandasWithStateExec.shortName = "applyInPandasWithState", one store `default`
under state/0/<partition>/, state format 2: groupState struct + timeoutTimestamp), GroupState's
errors as the function sees them, and PySpark worker's checks of what the function yields
(python/pyspark/worker.py wrap_grouped_map_pandas_udf_with_state)."""
import json

import pytest

from pyspark.errors import StreamingQueryException
from pyspark.sql.streaming.state import GroupStateTimeout


def _count_func(timeout_ms=None):
    import pandas as pd

    def func(key, pdfs, state):
        if state.hasTimedOut:
            n = state.get[0]
            state.remove()
            yield pd.DataFrame({"k": [key[0]], "n": [-n]})
            return
        n = (state.get[0] if state.exists else 0) + sum(len(p) for p in pdfs)
        state.update((n,))
        if timeout_ms:
            state.setTimeoutDuration(timeout_ms)
        yield pd.DataFrame({"k": [key[0]], "n": [n]})
    return func


def _start(world, func, timeout=GroupStateTimeout.NoTimeout, name="t"):
    return (world.spark.readStream.schema("k string").json("/in").groupBy("k")
            .applyInPandasWithState(func, "k string, n long", "n long", "update", timeout)
            .writeStream.format("memory").queryName(name).outputMode("update")
            .option("checkpointLocation", "/chk").trigger(processingTime="1 second").start())


def test_checkpoint_layout_names_apply_in_pandas_with_state(world):
    pytest.importorskip("pandas")
    world.put("/in/1.json", rows=[{"k": "a"}, {"k": "b"}, {"k": "a"}])
    q = _start(world, _count_func(5000), GroupStateTimeout.ProcessingTimeTimeout)
    q.processAllAvailable()
    assert sorted(tuple(r) for r in world.spark.table("t").collect()) == [("a", 2), ("b", 1)]
    op = q.lastProgress["stateOperators"][0]
    assert op["operatorName"] == "applyInPandasWithState"
    assert op["numRowsTotal"] == 2
    # Spark's OperatorStateMetadata v1: the operator's short name and its one store, `default`.
    meta = world.read("/chk/state/0/_metadata/metadata").splitlines()
    assert meta[0] == "v1"
    m = json.loads(meta[1])
    assert m["operatorInfo"] == {"operatorId": 0, "operatorName": "applyInPandasWithState"}
    assert [s["storeName"] for s in m["stateStoreInfo"]] == ["default"]
    # The state files: one folder per shuffle partition under state/0/.
    partitions = [p for p in world.files("/chk/state/0") if p.rstrip("/").split("/")[-1].isdigit()]
    assert partitions, world.files("/chk/state/0")
    # The state schema record: Spark's format-2 value row.
    schema_files = world.files("/chk/state/0/_stateSchema")
    assert schema_files
    text = world.read(schema_files[-1] if schema_files[-1].startswith("/") else "/chk/state/0/_stateSchema/" + schema_files[-1])
    assert "groupState struct<n: long>, timeoutTimestamp long NOT NULL" in text
    # Spark 4.1.1 records the state format in the offsets (a checkpoint without it is read as 1).
    assert '"spark.sql.streaming.flatMapGroupsWithState.stateFormatVersion":"2"' in world.read("/chk/offsets/0")
    # A restart reads the state back: a's count goes on from 2.
    q.stop()
    world.put("/in/2.json", rows=[{"k": "a"}])
    seen = []
    q = (world.spark.readStream.schema("k string").json("/in").groupBy("k")
         .applyInPandasWithState(_count_func(5000), "k string, n long", "n long", "update",
                                 GroupStateTimeout.ProcessingTimeTimeout)
         .writeStream.foreachBatch(lambda df, batch_id: seen.extend(tuple(r) for r in df.collect()))
         .outputMode("update").option("checkpointLocation", "/chk").trigger(processingTime="1 second").start())
    q.processAllAvailable()
    assert seen == [("a", 3)]


def test_group_state_errors_fail_the_query_with_sparks_condition(world):
    pytest.importorskip("pandas")

    def func(key, pdfs, state):
        state.setTimeoutDuration(1000)  # under NoTimeout
        return iter(())

    world.put("/in/1.json", rows=[{"k": "a"}])
    q = _start(world, func)
    with pytest.raises(StreamingQueryException) as e:
        q.processAllAvailable()
    assert e.value.getCondition() == "FLATMAPGROUPSWITHSTATE_USER_FUNCTION_ERROR"
    assert "Cannot set timeout duration without enabling processing time timeout" in str(e.value)


def test_yielding_something_else_than_frames_is_pysparks_udf_return_type(world):
    pd = pytest.importorskip("pandas")

    def func(key, pdfs, state):
        yield {"k": key[0], "n": 1}

    world.put("/in/1.json", rows=[{"k": "a"}])
    q = _start(world, func)
    with pytest.raises(StreamingQueryException) as e:
        q.processAllAvailable()
    assert "UDF_RETURN_TYPE" in str(e.value)

    def wrong_width(key, pdfs, state):
        yield pd.DataFrame({"k": [key[0]]})

    world.put("/in/2.json", rows=[{"k": "b"}])
    q = (world.spark.readStream.schema("k string").json("/in").groupBy("k")
         .applyInPandasWithState(wrong_width, "k string, n long", "n long", "update", GroupStateTimeout.NoTimeout)
         .writeStream.format("memory").queryName("t2").outputMode("update").start())
    with pytest.raises(StreamingQueryException) as e:
        q.processAllAvailable()
    assert "RESULT_LENGTH_MISMATCH_FOR_PANDAS_UDF" in str(e.value)
