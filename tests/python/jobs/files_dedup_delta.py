"""Device events landing as JSON files, deduplicated by event id within the watermark and
appended to a Delta table (written the way public PySpark jobs are)."""
from pyspark.sql import SparkSession
from pyspark.sql.types import StringType, StructField, StructType, TimestampType, DoubleType

schema = StructType([
    StructField("event_id", StringType(), False),
    StructField("device", StringType(), True),
    StructField("reading", DoubleType(), True),
    StructField("event_time", TimestampType(), True),
])


def main():
    spark = SparkSession.builder.appName("events-dedup").getOrCreate()

    events = (spark.readStream
              .schema(schema)
              .option("maxFilesPerTrigger", 2)
              .json("/landing/events"))

    deduped = (events
               .withWatermark("event_time", "30 minutes")
               .dropDuplicatesWithinWatermark(["event_id"]))

    query = (deduped.writeStream
             .format("delta")
             .outputMode("append")
             .option("checkpointLocation", "/checkpoints/events_dedup")
             .trigger(availableNow=True)
             .toTable("events_dedup"))
    query.awaitTermination()
    return query


if __name__ == "__main__":
    main()
