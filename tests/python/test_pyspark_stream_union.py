"""DataFrame.union of two streams: Spark's Union by column position (sql/catalyst/.../plans/
logical/basicLogicalOperators.scala Union; the analyzer's widening, engine/src/ops/expr_ops.cc
unionByPositionSchema), over two sources read as they are or the same per-row operators on both
sides; a stream with a batch DataFrame is UnsupportedOperationChecker's AnalysisException."""

import pytest

from pyspark.errors import AnalysisException
from pyspark.sql.functions import col, upper
from streamsim.world import DriverCrashed


def _files(world, folder):
    return world.spark.readStream.schema("id string, n int").json(folder)


def _run(df, name="u"):
    q = (df.writeStream.format("memory").queryName(name).outputMode("append")
         .option("checkpointLocation", f"/chk/{name}").start())
    q.processAllAvailable()
    return q


def test_two_file_streams_union_by_position(world):
    world.put("/a/1.json", rows=[{"id": "a1", "n": 1}])
    world.put("/b/1.json", rows=[{"id": "b1", "n": 2}])
    q = _run(_files(world, "/a").union(_files(world, "/b")))
    assert sorted(tuple(r) for r in world.spark.sql("SELECT * FROM u").collect()) == [("a1", 1), ("b1", 2)]
    world.put("/b/2.json", rows=[{"id": "b2", "n": 3}])
    q.processAllAvailable()
    assert world.spark.sql("SELECT count(*) AS c FROM u").collect()[0].c == 3
    assert len(q.lastProgress["sources"]) == 2


def test_the_same_per_row_operators_on_both_sides_run_after_the_union(world):
    world.put("/a/1.json", rows=[{"id": "a1", "n": 1}, {"id": "a2", "n": 5}])
    world.put("/b/1.json", rows=[{"id": "b1", "n": 7}])

    def shaped(df):
        return df.where(col("n") > 2).select(upper(col("id")).alias("id"), (col("n") * 10).alias("n10"))
    _run(shaped(_files(world, "/a")).union(shaped(_files(world, "/b"))))
    assert sorted(tuple(r) for r in world.spark.sql("SELECT * FROM u").collect()) == [("A2", 50), ("B1", 70)]


def test_a_union_survives_a_crash_and_restart(world):
    world.put("/a/1.json", rows=[{"id": "a1", "n": 1}])
    world.put("/b/1.json", rows=[{"id": "b1", "n": 2}])

    def job():
        return (_files(world, "/a").union(_files(world, "/b")).writeStream.format("json")
                .option("checkpointLocation", "/chk/j").start("/out"))
    world.crash_at("commits.before_write", batch=0)
    q = job()
    with pytest.raises(DriverCrashed):
        q.processAllAvailable()
    q = world.restart(job)
    q.processAllAvailable()
    back = world.spark.read.schema("id string, n int").json("/out")
    assert sorted(r.id for r in back.collect()) == ["a1", "b1"]  # the file sink's log: once


def test_union_with_a_batch_dataframe_is_refused_as_spark_refuses_it(world):
    static = world.spark.createDataFrame([("s", 1)], "id string, n int")
    with pytest.raises(AnalysisException, match="Union between streaming and batch DataFrames"):
        _files(world, "/a").union(static)


def test_sides_with_different_operators_each_run_their_own_before_the_union(world):
    # Spark's Union of two transformed children: each side's Project/Filter/watermark on its own
    # rows (the scenario's per-source operators), then the union by position.
    world.put("/a/1.json", rows=[{"id": "a1", "n": 1}, {"id": "a2", "n": 5}])
    world.put("/b/1.json", rows=[{"id": "b1", "n": 7}, {"id": "b2", "n": 0}])
    left = _files(world, "/a").select(upper(col("id")).alias("id"), (col("n") * 10).alias("v"))
    right = _files(world, "/b").where(col("n") > 0).selectExpr("concat(id, '!') AS key", "n")
    _run(left.union(right))
    assert sorted(tuple(r) for r in world.spark.sql("SELECT * FROM u").collect()) == \
        [("A1", 10), ("A2", 50), ("b1!", 7)]


def test_union_by_name_reorders_the_other_side_and_fills_missing_columns(world):
    # ResolveUnion.unionTwoSides: by name (case-insensitive), a missing column null with
    # allowMissingColumns, the other side's extra columns at the end of this side's.
    world.put("/a/1.json", rows=[{"id": "a1", "n": 1}])
    world.put("/b/1.json", rows=[{"id": "b1", "n": 2}])
    left = _files(world, "/a").select("id", "n")
    right = _files(world, "/b").select(col("n").alias("N"), col("id"), (col("n") + 100).alias("extra"))
    _run(left.unionByName(right, allowMissingColumns=True))
    assert sorted(tuple(r) for r in world.spark.sql("SELECT * FROM u").collect()) == \
        [("a1", 1, None), ("b1", 2, 102)]


def test_union_by_name_without_a_column_is_sparks_error(world):
    with pytest.raises(AnalysisException, match=r'Cannot resolve column name "n" among \(id\)') as e:
        _files(world, "/a").unionByName(_files(world, "/b").select("id"))
    assert e.value.getErrorClass() == "_LEGACY_ERROR_TEMP_1201"


def test_a_union_of_a_union_with_a_watermark_after_it_says_what_is_built(world):
    both = _files(world, "/a").union(_files(world, "/b"))
    with pytest.raises(NotImplementedError, match="DataFrame.union of a stream with dropDuplicates"):
        both.dropDuplicates(["id"]).union(_files(world, "/c"))
