"""Ad impressions joined with their clicks (a stream-stream left outer join with watermarks and an
event-time range, the structured streaming guide's example), both read from JSON files, written
to a Delta table (written the way public PySpark jobs are)."""
from pyspark.sql import SparkSession
from pyspark.sql.functions import expr


def main():
    spark = SparkSession.builder.appName("impressions-clicks").getOrCreate()

    impressions = (spark.readStream
                   .schema("impressionAdId STRING, impressionTime TIMESTAMP, campaign STRING")
                   .json("/landing/impressions")
                   .withWatermark("impressionTime", "10 minutes"))
    clicks = (spark.readStream
              .schema("clickAdId STRING, clickTime TIMESTAMP, page STRING")
              .json("/landing/clicks")
              .withWatermark("clickTime", "20 minutes"))

    joined = impressions.join(
        clicks,
        expr("""
            clickAdId = impressionAdId AND
            clickTime >= impressionTime AND
            clickTime <= impressionTime + interval 1 hour
        """),
        "leftOuter")

    query = (joined.writeStream
             .format("delta")
             .option("checkpointLocation", "/checkpoints/impressions_clicks")
             .outputMode("append")
             .start("/lake/impressions_clicks"))
    query.awaitTermination()
    return query


if __name__ == "__main__":
    main()
