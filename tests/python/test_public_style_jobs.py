"""Jobs written the way public PySpark streaming jobs are (tests/python/jobs/: each a plain script
with a main() that builds its session, starts its query and awaits it), run unchanged in a World
with crashes at named fault points and restarts (world.restart(job.main) is the driver coming
back: main() runs again on the same checkpoint)."""

import json

import pytest

from job_support import load_job, rows_of
from streamsim.world import DriverCrashed

def delta_operations(world, folder):
    ops = []
    for f in world.files(f"{folder}/_delta_log"):
        for line in world.read(f).splitlines():
            if '"commitInfo"' in line:
                ops.append(json.loads(line)["commitInfo"]["operation"])
    return ops


# --- Kafka -> from_json -> watermark -> transformWithStateInPandas -> foreachBatch MERGE into Delta ---

def pay(world, i, user, amount, second):
    world.produce("payments", {"event_id": f"e{i}", "user": user, "amount": amount,
                               "ts": f"2026-01-01T00:00:{second:02d}Z"}, key=user)


@pytest.mark.parametrize("point", ["commits.before_write", "state.after_commit", "offsets.after_write"])
def test_kafka_totals_merged_into_delta_exactly_once_across_a_crash(world, point):
    pytest.importorskip("pandas")
    world.create_topic("payments", partitions=2)
    for i, (user, amount) in enumerate([("ann", 5), ("bob", 3), ("ann", 2)]):
        pay(world, i, user, amount, i)
    job = load_job("kafka_tws_merge_delta")
    q = job.main()
    assert rows_of(world.spark.sql("SELECT user, total FROM user_totals ORDER BY user")) == [("ann", 7), ("bob", 3)]
    world.advance("10 seconds")
    pay(world, 3, "bob", 10, 10)
    pay(world, 4, "cid", 1, 11)
    world.crash_at(point)
    with pytest.raises(DriverCrashed):
        q.processAllAvailable()
    q = world.restart(job.main)
    assert rows_of(world.spark.sql("SELECT user, total FROM user_totals ORDER BY user")) == \
        [("ann", 7), ("bob", 13), ("cid", 1)]
    # One MERGE per batch that had rows; a batch handed over again after the crash is skipped by
    # its txn (the table creation, then batch 0's and batch 1's merges).
    ops = delta_operations(world, "/user/hive/warehouse/default.db/user_totals")
    assert ops[0] == "WRITE" and ops.count("MERGE") == 2


# --- rate -> window count -> console ---

def test_rate_window_counts_printed_to_the_console_and_reprinted_after_a_crash(world):
    job = load_job("rate_window_console")
    q = job.main()
    for _ in range(2):
        world.advance("5 seconds")
        q.processAllAvailable()
    text = world.console_text()
    # 4 rows a second: the window [00:00, 00:10) has 20 rows after 5 s, 40 after 10 s.
    assert "|{2026-01-01 00:00:00, 2026-01-01 00:00:10}|20   |" in text
    assert "|{2026-01-01 00:00:00, 2026-01-01 00:00:10}|40   |" in text
    world.advance("5 seconds")
    world.crash_at("commits.before_write")
    with pytest.raises(DriverCrashed):
        q.processAllAvailable()
    q = world.restart(job.main)
    # The console sink is not idempotent: the re-run batch is printed again, with the same rows.
    again = world.console_text()
    line = "|{2026-01-01 00:00:10, 2026-01-01 00:00:20}|20   |"
    assert again.count(line) == 2
    assert q.recentProgress[0]["rerun"] is True


# --- files -> dropDuplicatesWithinWatermark -> Delta ---

def test_files_deduplicated_within_the_watermark_into_delta_once(world):
    def put(name, ids):
        world.put(f"/landing/events/{name}.json",
                  rows=[{"event_id": i, "device": "d1", "reading": 1.5, "event_time": "2026-01-01T00:00:00Z"}
                        for i in ids])
    put("f1", ["e1", "e2"])
    put("f2", ["e2", "e3"])
    put("f3", ["e1"])
    job = load_job("files_dedup_delta")
    q = job.main()
    # maxFilesPerTrigger 2: two batches; the duplicates dropped.
    assert [p["numInputRows"] for p in q.recentProgress if p["numInputRows"]] == [4, 1]
    assert sorted(r.event_id for r in world.spark.table("events_dedup").collect()) == ["e1", "e2", "e3"]
    put("f4", ["e3", "e4"])
    world.crash_at("commits.before_write")
    with pytest.raises(DriverCrashed):
        world.restart(job.main)
    world.restart(job.main)
    assert sorted(r.event_id for r in world.spark.table("events_dedup").collect()) == ["e1", "e2", "e3", "e4"]


# --- a stream-static join ---

def test_clicks_joined_with_a_static_pages_table(world):
    world.put("/dims/pages/pages.json", rows=[{"page_id": "p1", "title": "Home", "section": "main"},
                                              {"page_id": "p2", "title": "News", "section": None}])
    for page, user, s in [("p1", "u1", 0), ("p2", "u2", 1), ("p9", "u3", 2)]:
        world.produce("clicks", {"page_id": page, "user": user, "ts": f"2026-01-01T00:00:0{s}Z"})
    job = load_job("stream_static_join")
    job.main()
    got = rows_of(world.spark.sql("SELECT user, page_id, title, section FROM delta.`/lake/clicks_enriched` "
                                  "ORDER BY user"))
    assert got == [("u1", "p1", "Home", "main"), ("u2", "p2", "News", "unknown"), ("u3", "p9", None, "unknown")]
    world.produce("clicks", {"page_id": "p1", "user": "u4", "ts": "2026-01-01T00:00:05Z"})
    world.crash_at("commits.before_write")
    with pytest.raises(DriverCrashed):
        world._query.processAllAvailable()
    world.restart(job.main)
    assert world.spark.sql("SELECT count(*) AS n FROM delta.`/lake/clicks_enriched`").collect()[0].n == 4


# --- a stream-stream join (StreamingSymmetricHashJoinExec) ---

def test_impressions_left_outer_joined_with_clicks_once_across_a_crash(world):
    world.put("/landing/impressions/a.json", rows=[
        {"impressionAdId": "ad1", "impressionTime": "2026-01-01T00:00:00Z", "campaign": "spring"},
        {"impressionAdId": "ad2", "impressionTime": "2026-01-01T00:05:00Z", "campaign": "spring"}])
    world.put("/landing/clicks/a.json", rows=[
        {"clickAdId": "ad1", "clickTime": "2026-01-01T00:20:00Z", "page": "home"},
        {"clickAdId": "ad2", "clickTime": "2026-01-01T02:00:00Z", "page": "shop"}])
    job = load_job("stream_stream_join")
    job.main()
    query = "SELECT impressionAdId, campaign, clickAdId, page FROM delta.`/lake/impressions_clicks`"
    # ad2's click came more than an hour after its impression: no match yet, and the impression
    # waits in the state for one until the state watermark passes it.
    assert rows_of(world.spark.sql(query + " ORDER BY impressionAdId")) == [("ad1", "spring", "ad1", "home")]
    world.put("/landing/impressions/b.json", rows=[
        {"impressionAdId": "ad3", "impressionTime": "2026-01-01T03:00:00Z", "campaign": "autumn"}])
    world.put("/landing/clicks/b.json", rows=[
        {"clickAdId": "ad3", "clickTime": "2026-01-01T03:10:00Z", "page": "home"}])
    world.crash_at("commits.before_write")
    with pytest.raises(DriverCrashed):
        world._query.processAllAvailable()
    world.restart(job.main)
    # The watermark min(03:00 - 10m, 03:10 - 20m) = 02:50 evicts ad2's impression unmatched:
    # written with a null click, once, though the batch ran again after the crash.
    assert rows_of(world.spark.sql(query + " ORDER BY impressionAdId")) == [
        ("ad1", "spring", "ad1", "home"), ("ad2", "spring", None, None), ("ad3", "autumn", "ad3", "home")]


# --- two Kafka topics -> from_json -> withWatermark -> stream-stream join in range -> foreachBatch ---

def test_kafka_sides_parsed_on_their_own_joined_in_range_exactly_once_across_a_crash(world):
    world.create_topic("impressions", partitions=2)
    world.create_topic("clicks", partitions=2)

    def impression(ad, at, campaign):
        world.produce("impressions", {"ad": ad, "shown_at": at, "campaign": campaign}, key=ad)

    def click(ad, at, page, bot=False):
        world.produce("clicks", {"ad": ad, "clicked_at": at, "page": page, "is_bot": bot}, key=ad)
    impression("ad1", "2026-01-01T00:00:00Z", "spring")
    impression("ad2", "2026-01-01T00:05:00Z", "spring")
    click("ad1", "2026-01-01T00:20:00Z", "home")
    click("ad2", "2026-01-01T00:06:00Z", "home", bot=True)  # dropped by the clicks' own filter
    job = load_job("kafka_impressions_clicks_join")
    q = job.main()
    # foreachBatch is at least once (a batch re-run after a crash is handed over again with its
    # batch id): the rows are compared as a set, the re-delivery checked below.
    query = "SELECT DISTINCT impressionAdId, campaign, clickAdId, page FROM ad_clicks ORDER BY impressionAdId"
    assert rows_of(world.spark.sql(query)) == [("ad1", "spring", "ad1", "home")]
    # Each side's own projection reached the join: its output has the sides' renamed columns.
    assert world.spark.table("ad_clicks").columns == [
        "impressionAdId", "shown_at", "campaign", "clickAdId", "clicked_at", "page", "batch_id"]
    world.advance("10 seconds")
    impression("ad3", "2026-01-01T03:00:00Z", "autumn")
    click("ad3", "2026-01-01T03:10:00Z", "shop")
    world.crash_at("commits.before_write")
    with pytest.raises(DriverCrashed):
        q.processAllAvailable()
    q = world.restart(job.main)
    # min(03:00 - 10m, 03:10 - 20m) = 02:50 passes ad2's impression + 1 hour: written null-padded
    # (its only click was a bot's), once though the batch ran again after the crash.
    assert rows_of(world.spark.sql(query)) == [
        ("ad1", "spring", "ad1", "home"), ("ad2", "spring", None, None), ("ad3", "autumn", "ad3", "shop")]
    per_batch = rows_of(world.spark.sql(
        "SELECT batch_id, impressionAdId, count(*) AS n FROM ad_clicks GROUP BY batch_id, impressionAdId "
        "ORDER BY batch_id, impressionAdId"))
    assert [n for (_, ad, n) in per_batch if ad == "ad1"] == [1]
    assert [n for (_, ad, n) in per_batch if ad == "ad3"] == [2]  # its batch crashed before its commit


def test_stream_stream_outer_join_without_a_range_is_sparks_analysis_error(world):
    from pyspark.sql import SparkSession
    from pyspark.errors import AnalysisException
    spark = SparkSession.builder.getOrCreate()
    a = spark.readStream.schema("k STRING, t TIMESTAMP").json("/landing/a").withWatermark("t", "1 minute")
    b = spark.readStream.schema("k STRING, u TIMESTAMP").json("/landing/b").withWatermark("u", "1 minute")
    with pytest.raises(AnalysisException, match="Stream-stream LeftOuter join between two streaming "
                                                 "DataFrame/Datasets is not supported without a watermark"):
        a.join(b, "k", "left").writeStream.format("memory").queryName("j").start()


# --- the real-time trigger ---

def test_real_time_alerts_forwarded_and_at_least_once_across_a_crash(world):
    world.create_topic("payments", partitions=2)
    for i, (user, amount) in enumerate([("ann", 5000.0), ("bob", 3.0), ("ann", 2000.0)]):
        world.produce("payments", {"payment_id": f"p{i}", "user": user, "amount": amount}, key=user)
    job = load_job("realtime_alerts")
    q = job.main()
    alerts = [(r["key"], json.loads(r["value"])["payment_id"]) for r in world.records("alerts")]
    assert alerts == [("ann", "p0"), ("ann", "p2")]
    assert q.lastProgress["batchId"] == 0
    world.produce("payments", {"payment_id": "p3", "user": "cid", "amount": 1500.0}, key="cid")
    world.crash_at("commits.before_write")
    with pytest.raises(DriverCrashed):
        q.processAllAvailable()
    world.restart(job.main)
    # Real time's Kafka sink is at least once: the batch re-run after the crash sends its records
    # again.
    got = [json.loads(r["value"])["payment_id"] for r in world.records("alerts")]
    assert set(got) == {"p0", "p2", "p3"} and got.count("p3") == 2


# --- Kafka -> applyInPandasWithState sessionization -> Kafka ---

def test_sessions_closed_by_the_event_time_timeout_published_across_a_crash(world):
    pytest.importorskip("pandas")

    def click(user, hhmm):
        world.produce("clicks", {"user": user, "page": "p", "ts": f"2026-01-01T{hhmm}:00Z"}, key=user)

    for user, t in [("ann", "00:00"), ("ann", "00:05"), ("bob", "00:10")]:
        click(user, t)
    job = load_job("kafka_sessionize_to_kafka")
    q = job.main()
    assert world.records("sessions") == []  # the sessions are open: no timeout passed yet
    click("cid", "01:00")  # the watermark goes to 00:50: ann's (00:35) and bob's (00:40) time out
    world.crash_at("commits.before_write", batch=3)
    with pytest.raises(DriverCrashed):
        q.processAllAvailable()
    world.restart(job.main)
    sessions = [json.loads(r["value"]) for r in world.records("sessions")]
    # The Kafka sink is at least once: the timed-out batch re-ran after the crash and published
    # again; the sessions are the same each time.
    assert {(s["user"], s["session_start"], s["session_end"], s["clicks"]) for s in sessions} == {
        ("ann", "2026-01-01T00:00:00.000Z", "2026-01-01T00:05:00.000Z", 2),
        ("bob", "2026-01-01T00:10:00.000Z", "2026-01-01T00:10:00.000Z", 1)}
    assert len(sessions) == 4


def test_group_state_processing_time_timeout_fires_strictly_after_its_timestamp(world):
    # FlatMapGroupsWithStateExec.processTimedOutState: timeoutTimestamp < batchTimestampMs; a
    # call that does not set the timeout again clears it (GroupStateImpl starts with none).
    pytest.importorskip("pandas")
    import pandas as pd
    from pyspark.sql.streaming.state import GroupStateTimeout
    calls = []

    def func(key, pdfs, state):
        n = sum(len(p) for p in pdfs)
        calls.append((key[0], n, state.hasTimedOut, state.getCurrentProcessingTimeMs() % 100_000))
        if state.hasTimedOut:
            state.remove()
            yield pd.DataFrame({"k": [key[0]], "n": [state.getOption[0] if state.exists else -1]})
            return
        total = (state.get[0] if state.exists else 0) + n
        state.update((total,))
        if key[0] == "a":
            state.setTimeoutDuration(10_000)
        yield pd.DataFrame({"k": [key[0]], "n": [total]})

    world.put("/in/1.json", rows=[{"k": "a"}, {"k": "b"}])
    q = (world.spark.readStream.schema("k string").json("/in").groupBy("k")
         .applyInPandasWithState(func, "k string, n long", "n long", "update",
                                 GroupStateTimeout.ProcessingTimeTimeout)
         .writeStream.format("memory").queryName("t").outputMode("update")
         .trigger(processingTime="1 second").start())
    q.processAllAvailable()
    world.advance(10_000, trigger=True)  # at exactly the timeout: not timed out yet
    assert [c for c in calls if c[2]] == []
    world.advance(1, trigger=True)
    assert [c for c in calls if c[2]] == [("a", 0, True, 10_001)]
    assert sorted(tuple(r) for r in world.spark.table("t").collect()) == [("a", -1), ("a", 1), ("b", 1)]


# --- the same jobs swept (pytest --streamsim-seeds N -m streamsim; docs/python.md "Sweeps of a
# test"): run_job restarts them after each crash of the sweep's plan; they assert what a crash
# leaves unchanged (the Kafka sinks are at least once: sets). ---

@pytest.mark.streamsim
def test_swept_kafka_totals_merged_into_delta(streamsim_world):
    pytest.importorskip("pandas")
    world = streamsim_world
    world.create_topic("payments", partitions=2)
    for i, (user, amount) in enumerate([("ann", 5), ("bob", 3), ("ann", 2)]):
        pay(world, i, user, amount, i)
    world.run_job(load_job("kafka_tws_merge_delta").main)
    world.advance("10 seconds")
    pay(world, 3, "bob", 10, 10)
    pay(world, 4, "cid", 1, 11)
    world._query.processAllAvailable()
    assert rows_of(world.spark.sql("SELECT user, total FROM user_totals ORDER BY user")) == \
        [("ann", 7), ("bob", 13), ("cid", 1)]


@pytest.mark.streamsim
def test_swept_files_deduplicated_within_the_watermark_into_delta(streamsim_world):
    world = streamsim_world
    for name, ids in [("f1", ["e1", "e2"]), ("f2", ["e2", "e3"]), ("f3", ["e1"])]:
        world.put(f"/landing/events/{name}.json",
                  rows=[{"event_id": i, "device": "d1", "reading": 1.5, "event_time": "2026-01-01T00:00:00Z"}
                        for i in ids])
    world.run_job(load_job("files_dedup_delta").main)
    assert sorted(r.event_id for r in world.spark.table("events_dedup").collect()) == ["e1", "e2", "e3"]


@pytest.mark.streamsim
def test_swept_clicks_joined_with_a_static_pages_table(streamsim_world):
    world = streamsim_world
    world.put("/dims/pages/pages.json", rows=[{"page_id": "p1", "title": "Home", "section": "main"},
                                              {"page_id": "p2", "title": "News", "section": None}])
    for page, user, s in [("p1", "u1", 0), ("p2", "u2", 1), ("p9", "u3", 2)]:
        world.produce("clicks", {"page_id": page, "user": user, "ts": f"2026-01-01T00:00:0{s}Z"})
    world.run_job(load_job("stream_static_join").main)
    world.produce("clicks", {"page_id": "p1", "user": "u4", "ts": "2026-01-01T00:00:05Z"})
    world._query.processAllAvailable()
    got = rows_of(world.spark.sql("SELECT user, page_id, title FROM delta.`/lake/clicks_enriched` ORDER BY user"))
    assert got == [("u1", "p1", "Home"), ("u2", "p2", "News"), ("u3", "p9", None), ("u4", "p1", "Home")]


@pytest.mark.streamsim
def test_swept_real_time_alerts(streamsim_world):
    world = streamsim_world
    world.create_topic("payments", partitions=2)
    for i, (user, amount) in enumerate([("ann", 5000.0), ("bob", 3.0), ("ann", 2000.0)]):
        world.produce("payments", {"payment_id": f"p{i}", "user": user, "amount": amount}, key=user)
    world.run_job(load_job("realtime_alerts").main)
    world.produce("payments", {"payment_id": "p3", "user": "cid", "amount": 1500.0}, key="cid")
    world._query.processAllAvailable()
    assert {json.loads(r["value"])["payment_id"] for r in world.records("alerts")} == {"p0", "p2", "p3"}


@pytest.mark.streamsim
def test_swept_sessions_closed_by_the_event_time_timeout(streamsim_world):
    pytest.importorskip("pandas")
    world = streamsim_world

    def click(user, hhmm):
        world.produce("clicks", {"user": user, "page": "p", "ts": f"2026-01-01T{hhmm}:00Z"}, key=user)

    for user, t in [("ann", "00:00"), ("ann", "00:05"), ("bob", "00:10")]:
        click(user, t)
    world.run_job(load_job("kafka_sessionize_to_kafka").main)
    click("cid", "01:00")
    world._query.processAllAvailable()
    # After a restart Spark runs no no-data batch until new data arrives (MicroBatchExecution:
    # the batch that would fire the timeouts is withheld), so one more click lets it run.
    click("dan", "01:01")
    world._query.processAllAvailable()
    sessions = {tuple(json.loads(r["value"]).values()) for r in world.records("sessions")}
    assert {s[0] for s in sessions} == {"ann", "bob"}
