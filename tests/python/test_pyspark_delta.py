"""The Delta table stand-in (docs/python.md "Delta"; pyspark/sql/_delta.py, delta/tables.py): a
Delta-log-shaped table in the world's filesystem, written by df.write.format("delta"), the
streaming Delta sink and DeltaTable.merge, read back by spark.table / spark.sql /
spark.read.format("delta"); idempotent writes by Delta's txn action (PROTOCOL.md "Transaction
Identifiers": a write with an (appId, version) the log already holds is skipped)."""

import json

import pytest

from delta.tables import DeltaTable
from pyspark.errors import AnalysisException
from job_support import rows_of
from streamsim.world import DriverCrashed


def log_actions(world, table_folder):
    out = []
    for f in world.files(f"{table_folder}/_delta_log"):
        out.append([json.loads(line) for line in world.read(f).splitlines() if line])
    return out


WAREHOUSE_T = "/user/hive/warehouse/default.db/t"


def test_a_delta_table_is_a_log_of_commits_read_back_by_spark_table_and_sql(world):
    spark = world.spark
    spark.createDataFrame([("a", 1), ("b", 2)], "id string, n long").write.format("delta").saveAsTable("t")
    spark.createDataFrame([("c", 3)], "id string, n long").write.format("delta").mode("append").saveAsTable("t")
    assert rows_of(spark.sql("SELECT id, n FROM t ORDER BY id")) == [("a", 1), ("b", 2), ("c", 3)]
    assert rows_of(spark.read.format("delta").load(WAREHOUSE_T).orderBy("id")) == \
        rows_of(spark.table("t").orderBy("id"))
    v0, v1 = log_actions(world, WAREHOUSE_T)
    kinds0 = [next(iter(a)) for a in v0]
    assert kinds0 == ["commitInfo", "protocol", "metaData", "add"]
    schema = json.loads(v0[2]["metaData"]["schemaString"])
    assert [(f["name"], f["type"]) for f in schema["fields"]] == [("id", "string"), ("n", "long")]
    assert [next(iter(a)) for a in v1] == ["commitInfo", "add"]
    with pytest.raises(AnalysisException) as e:  # the default save mode: errorifexists
        spark.createDataFrame([("d", 4)], "id string, n long").write.format("delta").saveAsTable("t")
    assert e.value.getCondition() == "DELTA_PATH_EXISTS"
    with pytest.raises(AnalysisException) as e:
        spark.createDataFrame([(1,)], "x long").write.format("delta").mode("append").saveAsTable("t")
    assert e.value.getCondition() == "_LEGACY_ERROR_TEMP_DELTA_0007"


def test_merge_updates_matched_rows_inserts_the_others_and_deletes_on_condition(world):
    spark = world.spark
    spark.createDataFrame([("a", 1), ("b", 2), ("x", 9)], "id string, n long").write.format("delta").save("/d/t")
    updates = spark.createDataFrame([("a", 10), ("c", 3), ("x", 0)], "id string, n long")
    (DeltaTable.forPath(spark, "/d/t").alias("t")
     .merge(updates.alias("s"), "t.id = s.id")
     .whenMatchedDelete(condition="s.n = 0")
     .whenMatchedUpdate(set={"n": "t.n + s.n"})
     .whenNotMatchedInsert(values={"id": "s.id", "n": "s.n * 100"})
     .execute())
    assert rows_of(spark.sql("SELECT * FROM delta.`/d/t` ORDER BY id")) == [("a", 11), ("b", 2), ("c", 300)]
    assert [r.operation for r in DeltaTable.forPath(spark, "/d/t").history().collect()] == ["MERGE", "WRITE"]


def test_merge_refuses_several_source_rows_for_one_target_row(world):
    spark = world.spark
    spark.createDataFrame([("a", 1)], "id string, n long").write.format("delta").saveAsTable("t")
    dup = spark.createDataFrame([("a", 2), ("a", 3)], "id string, n long")
    with pytest.raises(AnalysisException) as e:
        DeltaTable.forName(spark, "t").alias("t").merge(dup.alias("s"), "t.id = s.id") \
            .whenMatchedUpdateAll().execute()
    assert e.value.getCondition() == "DELTA_MULTIPLE_SOURCE_ROW_MATCHING_TARGET_ROW_IN_MERGE"
    with pytest.raises(AnalysisException) as e:
        DeltaTable.forName(spark, "missing")
    assert e.value.getCondition() == "DELTA_MISSING_DELTA_TABLE"


def test_writes_with_txn_app_id_and_version_are_applied_once(world):
    spark = world.spark
    df = spark.createDataFrame([("a", 1)], "id string, n long")
    for _ in range(2):
        df.write.format("delta").mode("append").option("txnAppId", "job").option("txnVersion", 7).save("/d/t")
    df.write.format("delta").mode("append").option("txnAppId", "job").option("txnVersion", 6).save("/d/t")
    assert rows_of(spark.read.format("delta").load("/d/t")) == [("a", 1)]
    assert len(world.files("/d/t/_delta_log")) == 1
    with pytest.raises(AnalysisException) as e:
        df.write.format("delta").mode("append").option("txnAppId", "job").save("/d/t")
    assert e.value.getCondition() == "DELTA_INVALID_IDEMPOTENT_WRITES_OPTIONS"


def test_the_streaming_delta_sink_skips_a_batch_re_run_after_a_crash(world):
    spark = world.spark
    world.put("/in/1.json", rows=[{"k": "x", "v": 1}])

    def main():
        return (spark.readStream.schema("k string, v long").json("/in").writeStream.format("delta")
                .option("checkpointLocation", "/chk").start("/d/out"))

    q = main()
    q.processAllAvailable()
    world.put("/in/2.json", rows=[{"k": "y", "v": 2}])
    world.crash_at("commits.before_write", batch=1)
    with pytest.raises(DriverCrashed):
        q.processAllAvailable()
    q = world.restart(main)
    q.processAllAvailable()
    assert q.recentProgress[0]["batchId"] == 1  # batch 1 ran again ...
    assert sorted(rows_of(spark.read.format("delta").load("/d/out"))) == [("x", 1), ("y", 2)]  # ... once in the table
    query_id = json.loads(world.read("/chk/metadata"))["id"]
    txns = [a["txn"] for commit in log_actions(world, "/d/out") for a in commit if "txn" in a]
    assert txns == [{"appId": query_id, "version": 0, "lastUpdated": txns[0]["lastUpdated"]},
                    {"appId": query_id, "version": 1, "lastUpdated": txns[1]["lastUpdated"]}]


def test_the_delta_sink_refuses_update_mode_and_to_table_reads_back(world):
    spark = world.spark
    world.put("/in/1.json", rows=[{"k": "x"}])
    df = spark.readStream.schema("k string").json("/in")
    with pytest.raises(AnalysisException) as e:
        df.writeStream.format("delta").outputMode("update").option("checkpointLocation", "/c").start("/d/u")
    assert e.value.getCondition() == "DELTA_UNSUPPORTED_OUTPUT_MODE"
    q = df.writeStream.option("checkpointLocation", "/c2").toTable("events")
    q.processAllAvailable()
    assert rows_of(spark.table("events")) == [("x",)]
    # An append-only Delta table streams on, through its data files.
    q.stop()
    out = spark.readStream.table("events").writeStream.format("memory").queryName("copy").start()
    out.processAllAvailable()
    assert rows_of(spark.table("copy")) == [("x",)]


def _running_totals_job(world, idempotent):
    """foreachBatch MERGE of per-batch sums into running totals: not idempotent by itself (a
    re-run adds again), unless the merge carries Delta's txn (spark.databricks.delta.write.*)."""
    spark = world.spark
    spark.createDataFrame([], "user string, total long").write.format("delta").saveAsTable("totals")

    def upsert(batch_df, batch_id):
        if idempotent:
            spark.conf.set("spark.databricks.delta.write.txnAppId", "totals-job")
            spark.conf.set("spark.databricks.delta.write.txnVersion", batch_id)
        sums = batch_df.groupBy("user").agg({"amount": "sum"}).withColumnRenamed("sum(amount)", "total")
        (DeltaTable.forName(spark, "totals").alias("t")
         .merge(sums.alias("s"), "t.user = s.user")
         .whenMatchedUpdate(set={"total": "t.total + s.total"})
         .whenNotMatchedInsertAll()
         .execute())

    def main():
        return (spark.readStream.schema("user string, amount long").json("/in")
                .writeStream.foreachBatch(upsert).option("checkpointLocation", "/chk").start())
    return main


@pytest.mark.parametrize("idempotent", [False, True])
def test_foreach_batch_merge_is_exactly_once_only_with_delta_txn(world, idempotent):
    main = _running_totals_job(world, idempotent)
    world.put("/in/1.json", rows=[{"user": "ann", "amount": 5}])
    q = main()
    q.processAllAvailable()
    world.put("/in/2.json", rows=[{"user": "ann", "amount": 2}, {"user": "bob", "amount": 1}])
    world.crash_at("commits.before_write", batch=1)
    with pytest.raises(DriverCrashed):
        q.processAllAvailable()
    world.restart(main).processAllAvailable()
    got = rows_of(world.spark.sql("SELECT user, total FROM totals ORDER BY user"))
    # foreachBatch is at least once: batch 1 is handed over twice; Delta's txn skips the second.
    assert got == ([("ann", 7), ("bob", 1)] if idempotent else [("ann", 9), ("bob", 2)])


def test_job_sweeps_read_delta_tables_as_outputs(world):
    # streamsim/_job_sweep.outputs: what exactly_once compares after each seed; a Delta table
    # (a streaming Delta sink's path or a catalog table) is read as its rows.
    from streamsim import _job_sweep
    spark = world.spark
    world.put("/in/1.json", rows=[{"k": "x"}])
    spark.readStream.schema("k string").json("/in").writeStream.format("delta") \
        .option("checkpointLocation", "/c").start("/d/s").processAllAvailable()
    spark.createDataFrame([("a", 1)], "id string, n long").write.format("delta").saveAsTable("t")
    out = _job_sweep.outputs(world)
    assert out["delta table /d/s"] == {("x",): 1}
    assert out[f"delta table {WAREHOUSE_T}"] == {("a", 1): 1}


# --- swept (pytest --streamsim-seeds N -m streamsim; docs/python.md "Sweeps of a test") ---

@pytest.mark.streamsim
def test_swept_streaming_delta_sink(streamsim_world):
    world, spark = streamsim_world, streamsim_world.spark
    world.put("/in/1.json", rows=[{"k": "x", "v": 1}])

    def main():
        q = (spark.readStream.schema("k string, v long").json("/in").writeStream.format("delta")
             .option("checkpointLocation", "/chk").start("/d/out"))
        q.processAllAvailable()
        return q
    world.run_job(main)
    world.put("/in/2.json", rows=[{"k": "y", "v": 2}])
    world._query.processAllAvailable()
    assert sorted(rows_of(spark.read.format("delta").load("/d/out"))) == [("x", 1), ("y", 2)]


@pytest.mark.streamsim
def test_swept_foreach_batch_merge_with_delta_txn(streamsim_world):
    world = streamsim_world
    main = _running_totals_job(world, idempotent=True)
    world.put("/in/1.json", rows=[{"user": "ann", "amount": 5}])
    world.run_job(lambda: main().processAllAvailable())
    world.put("/in/2.json", rows=[{"user": "ann", "amount": 2}, {"user": "bob", "amount": 1}])
    world._query.processAllAvailable()
    assert rows_of(world.spark.sql("SELECT user, total FROM totals ORDER BY user")) == [("ann", 7), ("bob", 1)]
