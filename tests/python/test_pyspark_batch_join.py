"""Joins and unions of batch DataFrames, as a foreachBatch body or a test uses them (pyspark/sql/_batch_join.py):
Spark's using-join output (Analyzer ResolveNaturalAndUsingJoin: the join columns once, then
each side's others), outer joins' null padding, semi and anti joins, null keys never equal, NaN
keys equal (NormalizeFloatingNumbers), Column conditions, crossJoin; and the calls that do not
change a batch's rows (cache, persist, unpersist, repartition, coalesce, distinct)."""

import pytest

from pyspark.sql.functions import col


@pytest.fixture
def sides(world):
    s = world.spark
    left = s.createDataFrame([("a", 1), ("b", 2), (None, 3), ("c", 4)], "k string, x int")
    right = s.createDataFrame([("a", 10), ("a", 11), ("d", 40), (None, 50)], "k string, y int")
    return left, right


def _rows(df):
    return [tuple(r) for r in df.collect()]


def test_inner_join_on_names_gives_the_key_once_then_each_sides_others(sides):
    left, right = sides
    j = left.join(right, "k")
    assert j.columns == ["k", "x", "y"]
    assert _rows(j) == [("a", 1, 10), ("a", 1, 11)]


def test_outer_joins_pad_with_nulls_and_null_keys_never_match(sides):
    left, right = sides
    assert _rows(left.join(right, ["k"], "left")) == [("a", 1, 10), ("a", 1, 11), ("b", 2, None),
                                                      (None, 3, None), ("c", 4, None)]
    assert _rows(left.join(right, "k", "right_outer")) == [("a", 1, 10), ("a", 1, 11),
                                                           ("d", None, 40), (None, None, 50)]
    full = left.join(right, "k", "full")
    assert sorted(_rows(full), key=repr) == sorted(
        [("a", 1, 10), ("a", 1, 11), ("b", 2, None), (None, 3, None), ("c", 4, None),
         ("d", None, 40), (None, None, 50)], key=repr)
    assert [f.nullable for f in left.join(right, "k", "left").schema.fields][1:] == [True, True]


def test_semi_and_anti_joins_keep_the_left_sides_columns(sides):
    left, right = sides
    assert _rows(left.join(right, "k", "left_semi")) == [("a", 1)]
    assert _rows(left.join(right, "k", "anti")) == [("b", 2), (None, 3), ("c", 4)]


def test_nan_keys_match_each_other(world):
    s = world.spark
    a = s.createDataFrame([(float("nan"), 1), (0.0, 2)], "k double, x int")
    b = s.createDataFrame([(float("nan"), 9), (-0.0, 8)], "k double, y int")
    got = _rows(a.join(b, "k"))
    assert [(r[1], r[2]) for r in got] == [(1, 9), (2, 8)]


def test_join_on_a_column_condition_keeps_every_column(world):
    s = world.spark
    a = s.createDataFrame([("a", 1), ("b", 5)], "ka string, x int")
    b = s.createDataFrame([("a", 2), ("a", 0), ("b", 1)], "kb string, y int")
    j = a.join(b, (col("ka") == col("kb")) & (col("y") > col("x")), "left")
    assert j.columns == ["ka", "x", "kb", "y"]
    assert _rows(j) == [("a", 1, "a", 2), ("b", 5, None, None)]
    # Shared names on a condition are not built (and say how to join instead).
    with pytest.raises(NotImplementedError, match="join on column names"):
        a.withColumnRenamed("ka", "k").join(b.withColumnRenamed("kb", "k"), col("x") > col("y"))


def test_cross_join_and_unknown_columns(sides, world):
    left, right = sides
    small = world.spark.createDataFrame([(1,)], "z int")
    assert _rows(small.crossJoin(world.spark.createDataFrame([(7,), (8,)], "w int"))) == [(1, 7), (1, 8)]
    from pyspark.errors import AnalysisException
    with pytest.raises(AnalysisException, match="UNRESOLVED_USING_COLUMN_FOR_JOIN"):
        left.join(right, "x")


def test_calls_that_leave_a_batchs_rows_as_they_are(sides):
    left, _ = sides
    df = left
    assert _rows(df.cache().persist().repartition(4).coalesce(1).unpersist()) == _rows(left)
    dup = left.join(left.select("k"), "k")
    assert _rows(dup.distinct()) == _rows(dup)


def test_a_foreach_batch_body_joins_its_batch_with_a_dimension_table(world):
    dims = world.spark.createDataFrame([("a", "Alpha"), ("b", "Beta")], "k string, name string")
    seen = []

    def body(batch, batch_id):
        batch.persist()
        seen.extend(tuple(r) for r in batch.join(dims, "k", "left").orderBy("n").collect())
        batch.unpersist()

    world.put("/in/1.json", rows=[{"k": "a", "n": 1}, {"k": "z", "n": 2}])
    q = (world.spark.readStream.schema("k string, n int").json("/in").writeStream
         .foreachBatch(body).option("checkpointLocation", "/chk").start())
    q.processAllAvailable()
    assert seen == [("a", 1, "Alpha"), ("z", 2, None)]


def test_batch_union_by_position_widens_numbers_and_union_by_name_matches_names(world):
    s = world.spark
    a = s.createDataFrame([("a", 1)], "k string, n int")
    b = s.createDataFrame([("b", 2.5)], "k string, n double")
    u = a.union(b)
    assert [f.dataType.simpleString() for f in u.schema.fields] == ["string", "double"]
    assert _rows(u) == [("a", 1.0), ("b", 2.5)]
    assert _rows(a.unionAll(a)) == [("a", 1), ("a", 1)]  # UNION ALL: duplicates kept
    c = s.createDataFrame([(3, "c")], "n int, k string")
    assert _rows(a.unionByName(c)) == [("a", 1), ("c", 3)]
    d = s.createDataFrame([("d",)], "k string")
    assert _rows(a.unionByName(d, allowMissingColumns=True)) == [("a", 1), ("d", None)]
    from pyspark.errors import AnalysisException
    with pytest.raises(AnalysisException, match="NUM_COLUMNS_MISMATCH"):
        a.union(d)
    with pytest.raises(AnalysisException, match="_LEGACY_ERROR_TEMP_1201|Cannot resolve column name"):
        a.unionByName(d)
