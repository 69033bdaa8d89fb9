"""CSV and text files as streaming sources and batch reads (docs/python.md "CSV and text
files"), read by the engine's CSV/text reader (engine/include/streamsim/io/csv_rows.h), which
follows Spark's CSVOptions.scala defaults and UnivocityParser.scala casts and TextFileFormat;
a streaming file source needs a schema (DataSource.sourceSchema: _LEGACY_ERROR_TEMP_1203)."""

import pytest

from job_support import load_job, rows_of
from streamsim.world import DriverCrashed


def test_csv_exports_appended_to_delta_exactly_once_across_a_crash(world):
    world.put("/landing/trades/t1.csv", text="trade_id;symbol;qty;price\nt1;ABC;10;2.5\nt2;XYZ;NA;3.0\n")
    world.put("/landing/trades/t2.csv", text="trade_id;symbol;qty;price\nt3;ABC;4;2.0\n")
    job = load_job("csv_trades_delta")
    q = job.trades()
    # maxFilesPerTrigger 1: a batch per file; each file's header line skipped; "NA" is null.
    assert [p["numInputRows"] for p in q.recentProgress if p["numInputRows"]] == [2, 1]
    got = rows_of(world.spark.sql("SELECT trade_id, symbol, qty, price, notional FROM trades ORDER BY trade_id"))
    assert got == [("t1", "ABC", 10, 2.5, 25.0), ("t2", "XYZ", None, 3.0, None), ("t3", "ABC", 4, 2.0, 8.0)]
    world.put("/landing/trades/t3.csv", text="trade_id;symbol;qty;price\nt4;\"Q;R\";1;1.5\n")
    world.crash_at("commits.before_write")
    with pytest.raises(DriverCrashed):
        world.restart(job.trades)
    world.restart(job.trades)
    got = rows_of(world.spark.sql("SELECT trade_id, symbol FROM trades ORDER BY trade_id"))
    assert got == [("t1", "ABC"), ("t2", "XYZ"), ("t3", "ABC"), ("t4", "Q;R")]


def test_text_lines_counted_per_status_across_a_crash(world):
    world.put("/landing/access/a.log", text='1.2.3.4 - - "GET / HTTP/1.1" 200 512\n'
                                            '1.2.3.5 - - "GET /x HTTP/1.1" 404 0\n')
    job = load_job("csv_trades_delta")
    q = job.status_counts()
    assert rows_of(world.spark.sql("SELECT status, count FROM status_counts ORDER BY status")) == \
        [("200", 1), ("404", 1)]
    world.put("/landing/access/b.log", text='1.2.3.6 - - "GET / HTTP/1.1" 200 99\n\n')
    world.crash_at("commits.before_write", batch=1)
    with pytest.raises(DriverCrashed):
        q.processAllAvailable()
    world.restart(job.status_counts)
    # the empty line is a row too (TextFileFormat): its status is ""
    assert rows_of(world.spark.sql("SELECT status, count FROM status_counts ORDER BY status")) == \
        [("", 1), ("200", 2), ("404", 1)]


def test_csv_parse_modes_quotes_and_casts_as_spark(world):
    """UnivocityParser: a token that does not cast, or a record of another width, is malformed:
    PERMISSIVE keeps what casts and fills _corrupt_record; DROPMALFORMED drops; FAILFAST fails."""
    from pyspark.errors import StreamingQueryException
    spark = world.spark
    world.put("/in/a.csv", text='1,"x, y",true\n2,plain,TRUE\nthree,z,false\n4,short\n\n5,"say \\"hi\\"",false\n')
    schema = "n int, s string, b boolean, _corrupt_record string"
    got = rows_of(spark.read.schema(schema).csv("/in"))
    assert got == [(1, "x, y", True, None), (2, "plain", True, None),
                   (None, "z", False, "three,z,false"), (4, "short", None, "4,short"),
                   (5, 'say "hi"', False, None)]
    dropped = rows_of(spark.read.schema("n int, s string, b boolean").option("mode", "DROPMALFORMED").csv("/in"))
    assert [r[0] for r in dropped] == [1, 2, 5]
    q = (spark.readStream.schema("n int, s string, b boolean").option("mode", "FAILFAST").csv("/in")
         .writeStream.format("memory").queryName("strict").start())
    with pytest.raises(StreamingQueryException, match=r"MALFORMED_RECORD_IN_PARSING.*a.csv:3"):
        q.awaitTermination()


def test_text_reads_lines_or_whole_files(world):
    spark = world.spark
    world.put("/t/1.txt", text="alpha\r\nbeta\n\ngamma")
    assert rows_of(spark.read.text("/t")) == [("alpha",), ("beta",), ("",), ("gamma",)]
    assert rows_of(spark.read.text("/t", wholetext=True)) == [("alpha\r\nbeta\n\ngamma",)]
    assert spark.read.text("/t").columns == ["value"]


def test_streaming_file_sources_need_a_schema_and_text_one_string_column(world):
    """DataSource.sourceSchema: a streaming csv source without a schema is
    _LEGACY_ERROR_TEMP_1203 whatever inferSchema says; the text source has one string column."""
    from pyspark.errors import AnalysisException
    spark = world.spark
    with pytest.raises(AnalysisException) as e:
        spark.readStream.option("inferSchema", "true").csv("/in")
    assert e.value.getCondition() == "_LEGACY_ERROR_TEMP_1203"
    with pytest.raises(AnalysisException) as e:
        spark.readStream.schema("a string, b string").format("text").load("/in")
    assert e.value.getCondition() == "_LEGACY_ERROR_TEMP_1133"
    with pytest.raises(NotImplementedError, match="docs/python.md"):
        spark.readStream.text("/in", lineSep=";")
    with pytest.raises(NotImplementedError, match="docs/python.md"):
        spark.read.csv("/in")   # schema inference of a batch read


@pytest.mark.streamsim
def test_swept_csv_exports_appended_to_delta(streamsim_world):
    world = streamsim_world
    world.put("/landing/trades/t1.csv", text="trade_id;symbol;qty;price\nt1;ABC;10;2.5\nt2;XYZ;NA;3.0\n")
    world.put("/landing/trades/t2.csv", text="trade_id;symbol;qty;price\nt3;ABC;4;2.0\n")
    world.run_job(load_job("csv_trades_delta").trades)
    got = rows_of(world.spark.sql("SELECT trade_id, qty, notional FROM trades ORDER BY trade_id"))
    assert got == [("t1", 10, 25.0), ("t2", None, None), ("t3", 4, 8.0)]
