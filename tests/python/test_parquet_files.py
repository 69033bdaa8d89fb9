"""Parquet files in PySpark jobs (engine io/parquet.h, docs/python.md "Parquet"): the parquet
file sink writes real Parquet files Spark's way (part-...-c000.snappy.parquet, the `compression`
option), `spark.read.parquet` reads them and Parquet files other writers wrote
(tests/fixtures/parquet/, from apache/parquet-testing), and a broken file is an error naming
the file, the offset and what was expected."""

import os

import pytest

from conftest import SOURCE_DIR
from pyspark.errors import AnalysisException

FIXTURES = os.path.join(SOURCE_DIR, "tests", "fixtures", "parquet")


def fixture(name):
    with open(os.path.join(FIXTURES, name), "rb") as f:
        return f.read()


def start_sink(world, schema, path, **options):
    w = world.spark.readStream.schema(schema).json("/in").writeStream.format("parquet")
    for k, v in options.items():
        w = w.option(k, v)
    return w.option("checkpointLocation", "/chk").start(path)


def test_nested_columns_and_nulls_round_trip_uncompressed(world):
    world.put("/in/1.json", rows=[
        {"k": "a", "s": {"n": 1, "t": "x"}, "xs": [1, None, 3]},
        {"k": None, "s": None, "xs": []},
        {"k": "c", "s": {"n": None, "t": "z"}},
    ])
    q = start_sink(world, "k string, s struct<n: int, t: string>, xs array<long>", "/p", compression="none")
    q.processAllAvailable()
    data = [f for f in world.files("/p") if not f.endswith("_spark_metadata")]
    # Spark names an uncompressed file part-...-c000.parquet (no codec infix).
    assert len(data) == 1 and data[0].endswith("-c000.parquet") and ".snappy" not in data[0]
    df = world.spark.read.parquet("/p")
    assert df.schema.simpleString() == "struct<k:string,s:struct<n:int,t:string>,xs:array<bigint>>"
    got = sorted((r.k or "", r.s and (r.s.n, r.s.t), r.xs) for r in df.collect())
    assert got == [("", None, []), ("a", (1, "x"), [1, None, 3]), ("c", (None, "z"), None)]


def test_read_with_a_schema_matches_columns_by_name(world):
    world.put("/in/1.json", rows=[{"k": "a", "n": 5}])
    start_sink(world, "k string, n long", "/p").processAllAvailable()
    df = world.spark.read.schema("n long, missing string, K string").parquet("/p")
    assert [tuple(r) for r in df.collect()] == [(5, None, "a")]


def test_an_unbuilt_codec_is_not_implemented(world):
    world.put("/in/1.json", rows=[{"k": "a"}])
    with pytest.raises(NotImplementedError, match="compression 'zstd'"):
        start_sink(world, "k string", "/p", compression="zstd")


def test_reads_files_written_by_impala_and_pyarrow(world):
    # alltypes_plain.parquet (Impala): 8 rows, ids 4,5,6,7,2,3,0,1, INT96 timestamps.
    world.put("/data/alltypes_plain.parquet", data=fixture("alltypes_plain.parquet"))
    df = world.spark.read.parquet("/data/alltypes_plain.parquet")
    rows = df.collect()
    assert [r.id for r in rows] == [4, 5, 6, 7, 2, 3, 0, 1]
    assert [r.bool_col for r in rows][:2] == [True, False]
    assert str(rows[0].timestamp_col) == "2009-03-01 00:00:00"
    # list_columns.parquet (pyarrow): nullable lists of nullable elements.
    world.put("/lists/list_columns.parquet", data=fixture("list_columns.parquet"))
    rows = world.spark.read.parquet("/lists").collect()
    assert [r.int64_list for r in rows][:2] == [[1, 2, 3], [None, 1]]
    assert rows[1].utf8_list is None


def test_a_truncated_file_names_the_file_and_the_offset(world):
    raw = fixture("alltypes_plain.parquet")
    world.put("/bad/cut.parquet", data=raw[:-10])
    with pytest.raises(RuntimeError, match=r"/bad/cut.parquet: offset 1837: expected the Parquet magic \"PAR1\" "
                                           r"at the end of the file"):
        world.spark.read.parquet("/bad/cut.parquet").collect()


def test_a_garbled_page_names_the_file_and_what_was_expected(world):
    raw = bytearray(fixture("alltypes_plain.snappy.parquet"))
    raw[4:40] = b"\xff" * 36  # the first column chunk's page header
    world.put("/bad/garbled.parquet", data=bytes(raw))
    with pytest.raises(RuntimeError, match=r"/bad/garbled.parquet: offset \d+: expected"):
        world.spark.read.parquet("/bad/garbled.parquet").collect()


def test_missing_path_and_no_files_are_sparks_errors(world):
    with pytest.raises(AnalysisException, match=r"\[PATH_NOT_FOUND\] Path does not exist: /nowhere"):
        world.spark.read.parquet("/nowhere")
    world.put("/empty/_SUCCESS", text="")
    with pytest.raises(AnalysisException, match=r"\[UNABLE_TO_INFER_SCHEMA\]"):
        world.spark.read.parquet("/empty")


def test_gzip_sink_writes_gz_parquet_files_read_back(world):
    # ParquetOptions' compression=gzip: GZIP pages (Compression.md), the file named with
    # parquet-mr's CompressionCodecName.GZIP extension, part-...-c000.gz.parquet.
    world.put("/in/1.json", rows=[{"k": "a", "n": 1}, {"k": None, "n": 2}])
    start_sink(world, "k string, n long", "/p", compression="gzip").processAllAvailable()
    data = [f for f in world.files("/p") if not f.endswith("_spark_metadata")]
    assert len(data) == 1 and data[0].endswith("-c000.gz.parquet")
    assert world.read_bytes(data[0]).count(b"\x1f\x8b\x08") == 2  # a gzip member per column page
    assert sorted((r.k or "", r.n) for r in world.spark.read.parquet("/p").collect()) == [("", 2), ("a", 1)]
