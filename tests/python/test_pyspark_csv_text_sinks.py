"""writeStream.format("csv") and format("text") file sinks (docs/python.md "CSV and text
files"): Spark's file names (part-...-c000.csv / .txt), the CSV writer's options and quoting
(UnivocityGenerator / CSVOptions.scala, engine/src/io/csv_write.cc), the text writer's one
string column (TextFileFormat.scala: _LEGACY_ERROR_TEMP_1290, UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE),
read back with spark.read.csv / text, exactly once through _spark_metadata across a crash."""

import pytest

from pyspark.errors import StreamingQueryException
from streamsim.world import DriverCrashed


def _start(world, fmt, schema, select=None, path="/out", **options):
    df = world.spark.readStream.schema(schema).json("/in")
    if select:
        df = df.selectExpr(*select)
    w = df.writeStream.format(fmt).option("checkpointLocation", "/chk")
    for k, v in options.items():
        w = w.option(k, v)
    return w.start(path)


def _data_files(world, path="/out"):
    return [f for f in world.files(path) if not f.endswith("_spark_metadata")]


def test_csv_sink_writes_sparks_csv_and_reads_back(world):
    world.put("/in/1.json", rows=[{"id": "a", "note": "x,y", "n": 1},
                                  {"id": "b", "note": None, "n": 2},
                                  {"id": "c", "note": 'say "hi"', "n": None}])
    q = _start(world, "csv", "id string, note string, n int", header=True, nullValue="NULL")
    q.processAllAvailable()
    files = _data_files(world)
    assert len(files) == 1 and files[0].startswith("/out/part-00000-") and files[0].endswith("-c000.csv")
    assert world.read(files[0]) == 'id,note,n\na,"x,y",1\nb,NULL,2\nc,"say \\"hi\\"",NULL\n'
    back = world.spark.read.schema("id string, note string, n int").csv("/out", header=True, nullValue="NULL")
    assert sorted(tuple(r) for r in back.collect()) == [("a", "x,y", 1), ("b", None, 2), ("c", 'say "hi"', None)]


def test_text_sink_writes_lines_and_reads_back(world):
    world.put("/in/1.json", rows=[{"line": "GET /a 200"}, {"line": None}, {"line": "GET /b 404"}])
    _start(world, "text", "line string").processAllAvailable()
    files = _data_files(world)
    assert len(files) == 1 and files[0].endswith("-c000.txt")
    assert world.read(files[0]) == "GET /a 200\n\nGET /b 404\n"
    assert [r.value for r in world.spark.read.text("/out").collect()] == ["GET /a 200", "", "GET /b 404"]


def test_text_sink_needs_one_string_column(world):
    world.put("/in/1.json", rows=[{"a": "x", "b": "y"}])
    q = _start(world, "text", "a string, b string")
    with pytest.raises(StreamingQueryException) as e:
        q.processAllAvailable()
    assert e.value.getCondition() == "_LEGACY_ERROR_TEMP_1290"
    assert "Text data source supports only a single column, and you have 2 columns." in str(e.value)
    world.put("/in2/1.json", rows=[{"n": 1}])
    q = (world.spark.readStream.schema("n int").json("/in2").writeStream.format("text")
         .option("checkpointLocation", "/chk2").start("/out2"))
    with pytest.raises(StreamingQueryException) as e:
        q.processAllAvailable()
    assert e.value.getCondition() == "UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE"


def test_csv_sink_refuses_nested_columns_and_unbuilt_options(world):
    world.put("/in/1.json", rows=[{"id": "a", "tags": ["x"]}])
    q = _start(world, "csv", "id string, tags array<string>")
    with pytest.raises(StreamingQueryException) as e:
        q.processAllAvailable()
    assert e.value.getCondition() == "UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE"
    with pytest.raises(NotImplementedError, match="compression 'gzip'"):
        _start(world, "csv", "id string", path="/o2", compression="gzip")
    with pytest.raises(NotImplementedError, match="lineSep"):
        _start(world, "text", "id string", path="/o3", lineSep="|")


def test_csv_sink_exactly_once_across_a_crash_before_its_log_entry(world):
    def job():
        q = _start(world, "csv", "id string, n int", sep=";")
        q.processAllAvailable()
        return q

    world.put("/in/1.json", rows=[{"id": "a", "n": 1}])
    job()
    world.put("/in/2.json", rows=[{"id": "b", "n": 2}])
    world.crash_at("sink.after_data_files", batch=1)
    with pytest.raises(DriverCrashed):
        world.restart(job)
    # The crashed batch's file is an orphan: _spark_metadata/1 was never written.
    assert len(_data_files(world)) == 2
    world.restart(job)
    assert len(_data_files(world)) == 3
    back = world.spark.read.schema("id string, n int").csv("/out", sep=";")
    assert sorted(tuple(r) for r in back.collect()) == [("a", 1), ("b", 2)]


@pytest.mark.streamsim
def test_swept_csv_sink(streamsim_world):
    # Swept over fault plans (--streamsim-seeds N): the exactly_once oracle reads the committed
    # CSV records, each file's header left out; a crashed batch's orphan never shows up.
    world = streamsim_world
    world.put("/in/1.json", rows=[{"id": "a", "n": 1}, {"id": "b", "n": 2}])

    def main():
        q = _start(world, "csv", "id string, n int", header=True)
        q.processAllAvailable()
        return q
    world.run_job(main)
    world.put("/in/2.json", rows=[{"id": "c", "n": 3}])
    world._query.processAllAvailable()
    back = world.spark.read.schema("id string, n int").csv("/out", header=True)
    assert sorted(tuple(r) for r in back.collect()) == [("a", 1), ("b", 2), ("c", 3)]


# --- timestampFormat / dateFormat (CSVOptions.timestampFormatInRead / InWrite, dateFormat;
# UnivocityParser: no fallback to the default parsing when the format is given) ---

def test_csv_timestamp_format_writes_and_reads_back(world):
    world.put("/in/1.json", rows=[{"id": "a", "ts": "2026-03-04T05:06:07.089Z"}])
    q = _start(world, "csv", "id string, ts timestamp", timestampFormat="dd/MM/yyyy HH:mm:ss.SSS")
    q.processAllAvailable()
    assert world.read(_data_files(world)[0]) == "a,04/03/2026 05:06:07.089\n"
    back = world.spark.read.schema("id string, ts timestamp").csv(
        "/out", timestampFormat="dd/MM/yyyy HH:mm:ss.SSS")
    assert back.collect()[0].ts.isoformat().startswith("2026-03-04T05:06:07.089")


def test_csv_source_with_a_timestamp_format_reads_only_that_format(world):
    world.put("/csv/1.csv", text="a,2026/01/02 03:04\nb,2026-01-02T03:04:00Z\n")
    df = world.spark.readStream.schema("id string, ts timestamp, _corrupt_record string").csv(
        "/csv", timestampFormat="yyyy/MM/dd HH:mm")
    q = df.writeStream.format("memory").queryName("t").option("checkpointLocation", "/chk/t").start()
    q.processAllAvailable()
    rows = {r.id: r for r in world.spark.sql("SELECT * FROM t").collect()}
    assert rows["a"].ts.isoformat().startswith("2026-01-02T03:04:00") and rows["a"]._corrupt_record is None
    # Another form is malformed once a format is given (PERMISSIVE: null, the line kept).
    assert rows["b"].ts is None and rows["b"]._corrupt_record == "b,2026-01-02T03:04:00Z"


def test_a_bad_timestamp_format_is_sparks_invalid_datetime_pattern(world):
    world.put("/csv/1.csv", text="2026-01-01\n")
    with pytest.raises(Exception, match="INVALID_DATETIME_PATTERN"):
        world.spark.read.schema("ts timestamp").csv("/csv", timestampFormat="yyyy-bb").collect()
