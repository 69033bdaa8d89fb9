# A planted bug for the pytest sweeps: each event gets its key from Spark's uuid() before a file
# sink. Spark's uuid() is nondeterministic: a batch re-run after a crash draws other keys
# (its seed comes from the query run), so the re-run batch's rows differ from the first attempt's.
from pyspark.sql import SparkSession
from pyspark.sql.functions import col, expr, from_json
from pyspark.sql.types import LongType, StringType, StructField, StructType, TimestampType

EVENT_SCHEMA = StructType([
    StructField("event_id", StringType()),
    StructField("user", StringType()),
    StructField("amount", LongType()),
    StructField("ts", TimestampType()),
])


def main():
    spark = SparkSession.builder.appName("keyed").getOrCreate()
    events = (spark.readStream.format("kafka")
              .option("kafka.bootstrap.servers", "broker:9092")
              .option("subscribe", "events")
              .option("startingOffsets", "earliest")
              .load()
              .select(from_json(col("value").cast("string"), EVENT_SCHEMA).alias("e"))
              .select("e.*")
              .withColumn("id", expr("uuid()")))  # BUG: a key that differs on every re-run
    query = (events.select("id", "user", "amount").writeStream.format("json")
             .option("path", "/out/keyed")
             .option("checkpointLocation", "/chk/keyed")
             .trigger(processingTime="10 seconds")
             .start())
    query.awaitTermination()
    return query
