"""Seed 003's lab (/work/shared/seeds/003_*.txt) on its PySpark query (tests/python/jobs/
seed_003_lab.py), run in a World: batch 0's records in commits/ and _spark_metadata/, a new file
processed alone, two files in one batch, a renamed resend whose duplicates dropDuplicates removes,
a crash between the sink's data files and its log, and the one-file-per-trigger window count
whose watermark moves and drops a ~40-minute-late event (scenarios/lab/ holds the same steps as
scenarios)."""


import pytest

import job_support
from streamsim.world import DriverCrashed

def load_job():
    return job_support.load_job("seed_003_lab")


def ev(i, device, hhmm):
    return {"event_id": f"e{i}", "device": device, "event_time": f"2026-01-01T{hhmm}:00Z"}


def out_rows(world):
    df = world.spark.read.parquet("/root/out")
    return sorted((r.event_id, r.device, str(r.event_time)) for r in df.collect())


def test_lab_batches_records_new_files_and_renamed_resends(world):
    job = load_job()
    world.put("/root/landing/part-001.json", rows=[ev(1, "d1", "00:00"), ev(2, "d2", "00:01")])
    q = job.main()
    assert not q.isActive  # availableNow: processed what was there, then stopped
    # offsets/0 before, commits/0 after; the sink's log lists batch 0's files. (Batch 1 is the
    # no-data batch the watermark's move runs; availableNow runs it too.)
    assert [(p["batchId"], p["numInputRows"]) for p in q.recentProgress] == [(0, 2), (1, 0)]
    assert world.files("/root/chk/commits") == ["/root/chk/commits/0", "/root/chk/commits/1"]
    assert "/root/out/_spark_metadata/0" in world.files("/root/out/_spark_metadata")
    assert out_rows(world) == [("e1", "d1", "2026-01-01 00:00:00"), ("e2", "d2", "2026-01-01 00:01:00")]
    # A new file: only it is processed, in batch 1.
    world.put("/root/landing/part-002.json", rows=[ev(3, "d1", "00:02")])
    q = world.restart(job.main)
    assert [p["numInputRows"] for p in q.recentProgress if p["numInputRows"]] == [1]
    # Two files at once: one batch.
    world.put("/root/landing/part-003.json", rows=[ev(4, "d1", "00:03")])
    world.put("/root/landing/part-004.json", rows=[ev(5, "d2", "00:04")])
    q = world.restart(job.main)
    assert [p["numInputRows"] for p in q.recentProgress if p["numInputRows"]] == [2]
    # Yesterday's file resent under a new name: a new file to the source (full path), its rows
    # duplicates the dropDuplicates state removes.
    world.put("/root/landing/part-001-resent.json", rows=[ev(1, "d1", "00:00"), ev(2, "d2", "00:01")])
    q = world.restart(job.main)
    assert [p["numInputRows"] for p in q.recentProgress if p["numInputRows"]] == [2]
    assert [p["numOutputRows"] for p in q.recentProgress if p["numInputRows"]] == [0]
    assert len(out_rows(world)) == 5


def test_lab_crash_between_data_files_and_the_sink_log_leaves_no_half_batch(world):
    job = load_job()
    world.put("/root/landing/part-001.json", rows=[ev(1, "d1", "00:00")])
    job.main()
    world.put("/root/landing/part-002.json", rows=[ev(2, "d2", "00:01"), ev(3, "d1", "00:02")])
    world.crash_at("sink.after_data_files", batch=2)  # batch 1 was the first run's no-data batch
    with pytest.raises(DriverCrashed):
        world.restart(job.main)
    # The crashed batch's data file is there, but no reader sees it: _spark_metadata/2 is not.
    assert "/root/out/_spark_metadata/2" not in world.files("/root/out/_spark_metadata")
    assert out_rows(world) == [("e1", "d1", "2026-01-01 00:00:00")]
    q = world.restart(job.main)
    assert q.recentProgress[0]["batchId"] == 2  # offsets/2 without commits/2: batch 2 again
    assert [r[0] for r in out_rows(world)] == ["e1", "e2", "e3"]
    # The orphan of the crashed attempt is in the folder and stays out of the results.
    data = [f for f in world.files("/root/out") if not f.endswith("_spark_metadata")]
    assert len(data) == 3


def test_lab_windows_one_file_per_trigger_watermark_moves_and_a_late_event_is_dropped(world):
    job = load_job()
    files = [[ev(1, "d1", "00:01"), ev(2, "d1", "00:05")], [ev(3, "d1", "00:12")], [ev(4, "d2", "00:25")],
             [ev(5, "d2", "00:55")], [ev(6, "d1", "00:14")], [ev(7, "d1", "00:17")]]
    for k, rows in enumerate(files, 1):  # copied with their modification times: read in that order
        world.put(f"/root/landing2/f{k}.json", rows=rows, mtime=f"2026-01-01T01:00:0{k}Z")
    world.advance(61 * 60 * 1000)
    q = job.windows_main()
    progress = q.recentProgress
    assert [p["numInputRows"] for p in progress] == [2, 1, 1, 1, 1, 1]
    assert [p["eventTime"]["watermark"] for p in progress] == [
        "1970-01-01T00:00:00Z", "2025-12-31T23:55:00Z", "2026-01-01T00:02:00Z", "2026-01-01T00:15:00Z",
        "2026-01-01T00:45:00Z", "2026-01-01T00:45:00Z"]
    # The 00:14 event (41 minutes behind the 00:55 one) is still counted: its window [00:10,
    # 00:20) ends after the previous batch's watermark (00:15); the 00:17 one, a batch later, is
    # dropped. The guarantee is one-way.
    assert [p["stateOperators"][0]["numRowsDroppedByWatermark"] for p in progress] == [0, 0, 0, 0, 0, 1]
    got = world.spark.sql("SELECT window.start AS start, count FROM windows ORDER BY start").collect()
    assert [(str(r.start), r["count"]) for r in got] == [
        ("2026-01-01 00:00:00", 2), ("2026-01-01 00:10:00", 2), ("2026-01-01 00:20:00", 1)]


def test_the_lab_sink_writes_real_parquet_files(world):
    # Spark's parquet sink names its data files part-00000-<uuid>-c000.snappy.parquet (SNAPPY:
    # spark.sql.parquet.compression.codec's default) and each is a Parquet file: "PAR1" at both
    # ends (parquet-format README.md "File format"), with the query's columns in its footer.
    job = load_job()
    world.put("/root/landing/part-001.json", rows=[ev(1, "d1", "00:00"), ev(2, "d2", "00:01")])
    job.main()
    data = [f for f in world.files("/root/out") if not f.endswith("_spark_metadata")]
    assert len(data) == 1 and data[0].endswith("-c000.snappy.parquet")
    raw = world.read_bytes(data[0])
    assert raw[:4] == b"PAR1" and raw[-4:] == b"PAR1"
    for column in (b"event_id", b"device", b"event_time", b"spark_schema"):
        assert column in raw
    # Read back without a schema: the file's own (event_time INT96, Spark's default timestamp).
    df = world.spark.read.parquet("/root/out")
    assert [f.name for f in df.schema.fields] == ["event_id", "device", "event_time"]
    assert [f.dataType.simpleString() for f in df.schema.fields] == ["string", "string", "timestamp"]
    assert out_rows(world) == [("e1", "d1", "2026-01-01 00:00:00"), ("e2", "d2", "2026-01-01 00:01:00")]
# --- the lab swept (pytest --streamsim-seeds N -m streamsim; docs/python.md "Sweeps of a test"):
# each availableNow run started with run_job, which restarts it after a crash of the sweep's plan.
# The window count (windows_main) is not swept: its memory sink in append mode refuses a restart
# on its checkpoint, as Spark's does (_LEGACY_ERROR_TEMP_1299). ---

@pytest.mark.streamsim
def test_swept_lab_batches_new_files_and_renamed_resends(streamsim_world):
    world = streamsim_world
    job = load_job()
    world.put("/root/landing/part-001.json", rows=[ev(1, "d1", "00:00"), ev(2, "d2", "00:01")])
    world.run_job(job.main)
    world.put("/root/landing/part-002.json", rows=[ev(3, "d1", "00:02")])
    world.run_job(job.main)
    world.put("/root/landing/part-003.json", rows=[ev(4, "d1", "00:03")])
    world.put("/root/landing/part-004.json", rows=[ev(5, "d2", "00:04")])
    world.run_job(job.main)
    world.put("/root/landing/part-001-resent.json", rows=[ev(1, "d1", "00:00"), ev(2, "d2", "00:01")])
    world.run_job(job.main)
    assert [r[0] for r in out_rows(world)] == ["e1", "e2", "e3", "e4", "e5"]

