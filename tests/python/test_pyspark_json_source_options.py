"""The JSON source's and from_json's datetime options and partial results, as Spark's
JacksonParser / JSONOptions / FailureSafeParser (docs/semantics.md §3): timestampFormat and
dateFormat read only their pattern unless enableDateTimeParsingFallback is true; PERMISSIVE keeps
the fields that cast of a malformed record, with the line in _corrupt_record."""

import pytest

from pyspark.sql.functions import col, from_json


def _memory(df, name):
    q = df.writeStream.format("memory").queryName(name).option("checkpointLocation", f"/chk/{name}").start()
    q.processAllAvailable()
    return q


def test_json_source_reads_its_timestamp_format(world):
    world.put("/in/1.json", text='{"id":"a","ts":"05/01/2026 13:45"}\n'
                                 '{"id":"b","ts":"2026-01-05T13:45:00Z"}\n')
    df = (world.spark.readStream.schema("id string, ts timestamp, _corrupt_record string")
          .option("timestampFormat", "dd/MM/yyyy HH:mm").json("/in"))
    _memory(df, "t")
    rows = {r.id: r for r in world.spark.sql("SELECT * FROM t").collect()}
    assert rows["a"].ts.isoformat().startswith("2026-01-05T13:45:00") and rows["a"]._corrupt_record is None
    # Another form is malformed once a format is given; the id still reads (partial results).
    assert rows["b"].ts is None and rows["b"].id == "b"
    assert rows["b"]._corrupt_record.startswith('{"id":"b"')
    # spark.read.json reads the same files the same way (the engine's one JSON reader).
    back = world.spark.read.schema("id string, ts timestamp, _corrupt_record string").json(
        "/in", timestampFormat="dd/MM/yyyy HH:mm").collect()
    assert sorted((r.id, r.ts is None) for r in back) == [("a", False), ("b", True)]


def test_spark_read_json_casts_as_sparks_json_reader_not_as_sql_cast(world):
    # JacksonParser: a JSON string is not an INT (CAST('7' AS INT) would be 7); the record is
    # malformed and its other fields kept.
    world.put("/in/1.json", text='{"id":"a","n":"7"}\n{"id":"b","n":8}\n')
    rows = {r.id: r.n for r in world.spark.read.schema("id string, n int").json("/in").collect()}
    assert rows == {"a": None, "b": 8}


def test_enable_datetime_parsing_fallback_reads_the_default_forms_too(world):
    world.put("/in/1.json", text='{"ts":"2026-01-05T13:45:00Z"}\n')
    df = (world.spark.readStream.schema("ts timestamp")
          .option("timestampFormat", "dd/MM/yyyy HH:mm")
          .option("enableDateTimeParsingFallback", "true").json("/in"))
    _memory(df, "f")
    [row] = world.spark.sql("SELECT * FROM f").collect()
    assert row.ts.isoformat().startswith("2026-01-05T13:45:00")


def test_from_json_takes_the_timestamp_format_and_keeps_the_fields_that_cast(world):
    world.put("/in/1.json", text='{"value":"{\\"id\\":\\"a\\",\\"ts\\":\\"05/01/2026 13:45\\"}"}\n'
                                 '{"value":"{\\"id\\":\\"b\\",\\"ts\\":\\"soon\\"}"}\n')
    df = (world.spark.readStream.schema("value string").json("/in")
          .select(from_json(col("value"), "id STRING, ts TIMESTAMP",
                            {"timestampFormat": "dd/MM/yyyy HH:mm"}).alias("e")).select("e.*"))
    _memory(df, "j")
    rows = {r.id: r for r in world.spark.sql("SELECT * FROM j").collect()}
    assert rows["a"].ts.isoformat().startswith("2026-01-05T13:45:00")
    assert rows["b"].ts is None


def test_a_bad_json_timestamp_format_is_sparks_invalid_datetime_pattern(world):
    world.put("/in/1.json", text='{"ts":"2026"}\n')
    with pytest.raises(Exception, match="INVALID_DATETIME_PATTERN"):
        world.spark.read.schema("ts timestamp").json("/in", timestampFormat="yyyy-bb").collect()


def test_json_sink_refuses_the_writer_patterns_it_does_not_build(world):
    # Never a file written in another format than the one asked for (docs/python.md).
    world.put("/in/1.json", text='{"ts":"2026-01-05T13:45:00Z"}\n')
    df = world.spark.readStream.schema("ts timestamp").json("/in")
    with pytest.raises(NotImplementedError, match="timestampFormat"):
        q = (df.writeStream.format("json").option("checkpointLocation", "/chk/s")
             .option("timestampFormat", "dd/MM/yyyy").start("/out"))
        q.processAllAvailable()
