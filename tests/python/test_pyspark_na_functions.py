"""DataFrame.na.fill / fillna / na.drop / dropna (pyspark/sql/_na.py, after Spark's
DataFrameNaFunctions.scala: fill by type, the value cast to the column's type, NaN filled in
floating columns; drop by AtLeastNNonNulls, NaN counting as missing), on a batch and on a stream;
transform, DataFrame.agg, foreach and foreachPartition of a batch."""

import math

import pytest

from job_support import rows_of


@pytest.fixture
def df(world):
    return world.spark.createDataFrame(
        [("a", None, 1.5, True), (None, 2, float("nan"), None), (None, None, None, None)],
        "s string, i int, d double, b boolean")


def test_fill_by_type_and_subset(df):
    assert rows_of(df.fillna(3.7)) == [("a", 3, 1.5, True), (None, 2, 3.7, None), (None, 3, 3.7, None)]
    filled = rows_of(df.na.fill("x"))
    assert [r[0] for r in filled] == ["a", "x", "x"] and math.isnan(filled[1][2])
    assert [r[3] for r in df.fillna(False).collect()] == [True, False, False]
    assert [r[1] for r in df.fillna(0, subset=["d"]).collect()] == [None, 2, None]


def test_fill_with_a_dict_casts_to_each_column(df):
    got = rows_of(df.fillna({"i": 9, "s": "z"}))
    assert [(r[0], r[1]) for r in got] == [("a", 9), ("z", 2), ("z", 9)]
    with pytest.raises(Exception, match="UNRESOLVED_COLUMN"):
        df.fillna({"nope": 1})
    with pytest.raises(Exception, match="NOT_BOOL_OR_DICT_OR_FLOAT_OR_INT_OR_STR"):
        df.fillna([1])


def test_drop_counts_null_and_nan_as_missing(df):
    assert len(df.dropna().collect()) == 0
    assert len(df.na.drop(how="all").collect()) == 2
    assert len(df.dropna(thresh=2).collect()) == 1          # the NaN row has only i
    assert len(df.dropna(subset=["i"]).collect()) == 1
    with pytest.raises(Exception, match="VALUE_NOT_ANY_OR_ALL"):
        df.dropna(how="some")


def test_fill_and_drop_on_a_stream(world):
    world.put("/in/1.json", rows=[{"user": "a", "n": 1}, {"user": None, "n": None}, {"n": 3}])
    stream = world.spark.readStream.schema("user string, n int").json("/in")
    q = (stream.dropna(how="all").fillna({"user": "anonymous", "n": 0}).writeStream.format("memory")
         .queryName("clean").option("checkpointLocation", "/chk").start())
    q.processAllAvailable()
    assert sorted(rows_of(world.spark.sql("SELECT user, n FROM clean"))) == [("a", 1), ("anonymous", 3)]


def test_transform_agg_and_foreach_of_a_batch(df, world):
    def only_a(d):
        return d.where("s = 'a'")
    assert rows_of(df.transform(only_a).select("s")) == [("a",)]
    assert rows_of(df.agg({"i": "max"})) == [(2,)]
    seen = []
    df.foreach(lambda r: seen.append(r.s))
    df.foreachPartition(lambda rows: seen.append(len(list(rows))))
    assert seen == ["a", None, None, 3]
