"""User sessions from a Kafka click stream with applyInPandasWithState: a session closes 30
minutes of event time after its last click (an event-time timeout) and is published to Kafka
(written the way public PySpark jobs are)."""
from typing import Iterator, Tuple

import pandas as pd
from pyspark.sql import SparkSession
from pyspark.sql.functions import col, from_json, struct, to_json
from pyspark.sql.streaming.state import GroupState, GroupStateTimeout

CLICK_SCHEMA = "user STRING, page STRING, ts TIMESTAMP"
SESSION_GAP_MS = 30 * 60 * 1000


def sessionize(key: Tuple[str], pdfs: Iterator[pd.DataFrame], state: GroupState) -> Iterator[pd.DataFrame]:
    (user,) = key
    if state.hasTimedOut:
        start, last, clicks = state.get
        state.remove()
        yield pd.DataFrame({"user": [user], "session_start": [start], "session_end": [last],
                            "clicks": [clicks]})
        return
    start, last, clicks = state.get if state.exists else (None, None, 0)
    for pdf in pdfs:
        first_ts, last_ts = pdf["ts"].min().to_pydatetime(), pdf["ts"].max().to_pydatetime()
        start = first_ts if start is None else min(start, first_ts)
        last = last_ts if last is None else max(last, last_ts)
        clicks += len(pdf)
    state.update((start, last, clicks))
    state.setTimeoutTimestamp(int(pd.Timestamp(last).tz_localize(None).value // 1_000_000) + SESSION_GAP_MS)


def main():
    spark = SparkSession.builder.appName("sessionize").getOrCreate()

    clicks = (spark.readStream.format("kafka")
              .option("kafka.bootstrap.servers", "broker:9092")
              .option("subscribe", "clicks")
              .option("startingOffsets", "earliest")
              .load()
              .select(from_json(col("value").cast("string"), CLICK_SCHEMA).alias("c"))
              .select("c.*")
              .withWatermark("ts", "10 minutes"))

    sessions = clicks.groupBy("user").applyInPandasWithState(
        sessionize,
        outputStructType="user STRING, session_start TIMESTAMP, session_end TIMESTAMP, clicks LONG",
        stateStructType="start TIMESTAMP, last TIMESTAMP, clicks LONG",
        outputMode="append",
        timeoutConf=GroupStateTimeout.EventTimeTimeout,
    )

    query = (sessions.select(col("user").alias("key"), to_json(struct("user", "session_start", "session_end", "clicks")).alias("value"))
             .writeStream
             .format("kafka")
             .option("kafka.bootstrap.servers", "broker:9092")
             .option("topic", "sessions")
             .option("checkpointLocation", "/checkpoints/sessions")
             .outputMode("append")
             .start())
    query.awaitTermination()
    return query


if __name__ == "__main__":
    main()
