# Kafka -> from_json -> filter -> to_json(struct(...)) -> Kafka, as public jobs republish events.
from pyspark.sql import SparkSession
from pyspark.sql.functions import col, from_json, struct, to_json, upper


def main():
    spark = SparkSession.builder.appName("republish").getOrCreate()
    events = (spark.readStream.format("kafka")
              .option("kafka.bootstrap.servers", "broker:9092")
              .option("subscribe", "raw")
              .option("startingOffsets", "earliest")
              .option("maxOffsetsPerTrigger", 2)
              .load()
              .select(col("key").cast("string").alias("key"),
                      from_json(col("value").cast("string"), "id string, n int").alias("e"))
              .where(col("e.n") >= 10)
              .select(col("key"), to_json(struct(col("e.id"), (col("e.n") * 2).alias("twice"),
                                                 upper(col("e.id")).alias("ID"))).alias("value")))
    q = (events.writeStream.format("kafka")
         .option("kafka.bootstrap.servers", "broker:9092")
         .option("topic", "clean")
         .option("checkpointLocation", "/chk/republish")
         .start())
    q.awaitTermination()
    return q
