"""Running counts per action, upserted into a Delta table with SQL MERGE inside foreachBatch --
the form of the Delta documentation's "Write streaming aggregates in update mode using merge and
foreachBatch" (written the way public PySpark jobs are)."""
from pyspark.sql import SparkSession

CHECKPOINT = "/checkpoints/action_counts"


def upsert_to_delta(micro_batch_df, batch_id):
    micro_batch_df.createOrReplaceTempView("updates")
    micro_batch_df.sparkSession.sql("""
        MERGE INTO action_counts t
        USING updates s
        ON s.action = t.action
        WHEN MATCHED THEN UPDATE SET *
        WHEN NOT MATCHED THEN INSERT *
    """)


def main():
    spark = SparkSession.builder.appName("action-counts").getOrCreate()
    spark.sql("CREATE TABLE IF NOT EXISTS action_counts (action STRING, count BIGINT) USING DELTA")
    events = spark.readStream.schema("action string, ts timestamp").json("/landing/events")
    counts = events.groupBy("action").count()
    query = (counts.writeStream
             .foreachBatch(upsert_to_delta)
             .outputMode("update")
             .option("checkpointLocation", CHECKPOINT)
             .start())
    query.processAllAvailable()
    return query


if __name__ == "__main__":
    main().awaitTermination()
