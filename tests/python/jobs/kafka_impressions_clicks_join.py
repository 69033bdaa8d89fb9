# A job written the way public PySpark jobs are: two Kafka topics, each parsed with its own
# from_json schema and watermarked, joined stream-stream on the ad within an hour of event time
# (the structured streaming guide's impressions/clicks example), each batch appended to a table
# by foreachBatch.
from pyspark.sql import SparkSession
from pyspark.sql.functions import col, expr, from_json, lit
from pyspark.sql.types import BooleanType, StringType, StructField, StructType, TimestampType

impression_schema = StructType([
    StructField("ad", StringType()),
    StructField("shown_at", TimestampType()),
    StructField("campaign", StringType()),
])
click_schema = StructType([
    StructField("ad", StringType()),
    StructField("clicked_at", TimestampType()),
    StructField("page", StringType()),
    StructField("is_bot", BooleanType()),
])


def read_topic(spark, topic):
    return (spark.readStream.format("kafka")
            .option("kafka.bootstrap.servers", "broker:9092")
            .option("subscribe", topic)
            .option("startingOffsets", "earliest")
            .load())


def main():
    spark = (SparkSession.builder.appName("impressions-clicks")
             .config("spark.sql.shuffle.partitions", "3").getOrCreate())
    impressions = (read_topic(spark, "impressions")
                   .select(from_json(col("value").cast("string"), impression_schema).alias("e"))
                   .select("e.*")
                   .withColumnRenamed("ad", "impressionAdId")
                   .withWatermark("shown_at", "10 minutes"))
    clicks = (read_topic(spark, "clicks")
              .select(from_json(col("value").cast("string"), click_schema).alias("c"))
              .select("c.*")
              .filter(~col("is_bot"))
              .drop("is_bot")
              .withColumnRenamed("ad", "clickAdId")
              .withWatermark("clicked_at", "20 minutes"))

    joined = impressions.join(
        clicks,
        expr("""
            clickAdId = impressionAdId AND
            clicked_at >= shown_at AND
            clicked_at <= shown_at + interval 1 hour
        """),
        "leftOuter")

    def write_batch(batch_df, batch_id):
        batch_df.withColumn("batch_id", lit(batch_id)).write.mode("append").saveAsTable("ad_clicks")

    query = (joined.writeStream
             .foreachBatch(write_batch)
             .option("checkpointLocation", "/checkpoints/ad_clicks")
             .outputMode("append")
             .start())
    query.awaitTermination()
    return query


if __name__ == "__main__":
    main()
