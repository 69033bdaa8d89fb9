"""Clicks from Kafka enriched with a static table of pages (a stream-static join), written to a
Delta table (written the way public PySpark jobs are)."""
from pyspark.sql import SparkSession
from pyspark.sql import functions as F

CLICK_SCHEMA = "page_id STRING, user STRING, ts TIMESTAMP"


def main():
    spark = SparkSession.builder.appName("clicks-enriched").getOrCreate()

    pages = spark.read.format("json").schema("page_id STRING, title STRING, section STRING") \
        .load("/dims/pages")

    clicks = (spark.readStream.format("kafka")
              .option("kafka.bootstrap.servers", "broker:9092")
              .option("subscribe", "clicks")
              .option("startingOffsets", "earliest")
              .load()
              .select(F.from_json(F.col("value").cast("string"), CLICK_SCHEMA).alias("c"))
              .select("c.*"))

    enriched = (clicks.join(pages, on="page_id", how="left")
                .withColumn("section", F.coalesce(F.col("section"), F.lit("unknown")))
                .select("ts", "user", "page_id", "title", "section"))

    query = (enriched.writeStream
             .format("delta")
             .option("checkpointLocation", "/checkpoints/clicks_enriched")
             .outputMode("append")
             .start("/lake/clicks_enriched"))
    query.awaitTermination()
    return query


if __name__ == "__main__":
    main()
