# Per-minute counts of events to JSON files, in append mode: a window is written once the
# watermark passes its end. INGEST_TIME = True plants the bug: the watermark and the window on
# Kafka's record timestamp (when the broker took the record) instead of the event's own time, so
# a late event is counted in the minute it arrived rather than dropped or counted in its own.
from pyspark.sql import SparkSession
from pyspark.sql.functions import col, from_json, window
from pyspark.sql.types import LongType, StringType, StructField, StructType, TimestampType

EVENT_SCHEMA = StructType([
    StructField("event_id", StringType()),
    StructField("user", StringType()),
    StructField("amount", LongType()),
    StructField("ts", TimestampType()),
])
INGEST_TIME = False


def main():
    spark = SparkSession.builder.appName("minutes").getOrCreate()
    time = "timestamp" if INGEST_TIME else "ts"
    events = (spark.readStream.format("kafka")
              .option("kafka.bootstrap.servers", "broker:9092")
              .option("subscribe", "events")
              .option("startingOffsets", "earliest")
              .load()
              .select(col("timestamp"), from_json(col("value").cast("string"), EVENT_SCHEMA).alias("e"))
              .select("timestamp", "e.*")
              .withWatermark(time, "1 minute"))
    query = (events.groupBy(window(time, "1 minute")).count()
             .select(col("window.start").cast("string").alias("minute"), "count")
             .writeStream.format("json").outputMode("append")
             .option("path", "/out/minutes")
             .option("checkpointLocation", "/chk/minutes")
             .trigger(processingTime="10 seconds")
             .start())
    query.awaitTermination()
    return query
