"""A batch DataFrame written as files (df.write.parquet/json/csv/text, format(...).save(path)), as
foreachBatch bodies do: one part file named as Spark's FileFormatWriter names it and _SUCCESS,
written by the engine's file writers (io/file_sink.h encodeDataFile, the streaming sink's own),
Spark's save modes on the folder, read back with spark.read."""

import pytest

from job_support import rows_of


@pytest.fixture
def df(world):
    return world.spark.createDataFrame([("a", 1), ("b", None)], "k string, n int")


@pytest.mark.parametrize("fmt", ["parquet", "json", "csv"])
def test_write_then_read_back(world, df, fmt):
    getattr(df.write, fmt)(f"/out/{fmt}")
    files = sorted(world.files(f"/out/{fmt}"))
    assert files[-1].endswith("_SUCCESS") or any(f.endswith("_SUCCESS") for f in files)
    data = [f for f in files if "part-00000-" in f]
    assert len(data) == 1 and data[0].endswith({"parquet": ".snappy.parquet", "json": ".json", "csv": ".csv"}[fmt])
    back = world.spark.read.schema("k string, n int").format(fmt).load(f"/out/{fmt}")
    assert sorted(rows_of(back), key=repr) == sorted([("a", 1), ("b", None)], key=repr)


def test_save_modes_on_the_folder(world, df):
    df.write.json("/out/j")
    with pytest.raises(Exception, match="PATH_ALREADY_EXISTS"):
        df.write.json("/out/j")
    df.write.mode("ignore").json("/out/j")
    df.write.mode("append").json("/out/j")
    assert len(world.spark.read.schema("k string, n int").json("/out/j").collect()) == 4
    df.write.mode("overwrite").format("json").save("/out/j")
    assert len(world.spark.read.schema("k string, n int").json("/out/j").collect()) == 2


def test_a_foreach_batch_body_appends_parquet(world):
    def body(batch, batch_id):
        batch.write.mode("append").parquet("/lake/events")

    world.put("/in/1.json", rows=[{"k": "x", "n": 1}])
    q = (world.spark.readStream.schema("k string, n int").json("/in").writeStream.foreachBatch(body)
         .option("checkpointLocation", "/chk").start())
    q.processAllAvailable()
    world.put("/in/2.json", rows=[{"k": "y", "n": 2}])
    q.processAllAvailable()
    assert sorted(rows_of(world.spark.read.parquet("/lake/events"))) == [("x", 1), ("y", 2)]


def test_what_the_batch_writers_do_not_build_says_so(world, df):
    with pytest.raises(NotImplementedError, match="partitionBy"):
        df.write.partitionBy("k").parquet("/out/p")
    with pytest.raises(NotImplementedError, match="options"):
        df.write.option("ignoreNullFields", "false").json("/out/x")
    with pytest.raises(Exception, match="INVALID_DATETIME_PATTERN"):  # the CSV writer's own check
        df.write.csv("/out/z", timestampFormat="yyyy-bb")


def test_a_parquet_streaming_source_reads_the_files_a_batch_wrote(world):
    # ParquetFileFormat as a streaming source: the files' columns matched to the schema by name
    # (a column the file lacks null), _SUCCESS and other hidden files not read.
    world.spark.createDataFrame([("a", 1)], "k string, n int").write.parquet("/landing")
    world.spark.createDataFrame([(2, "b")], "n int, k string").write.mode("append").parquet("/landing")
    stream = world.spark.readStream.schema("k string, n int, extra string").parquet("/landing")
    q = stream.writeStream.format("memory").queryName("pq").option("checkpointLocation", "/chk/pq").start()
    q.processAllAvailable()
    assert sorted(rows_of(world.spark.table("pq"))) == [("a", 1, None), ("b", 2, None)]
