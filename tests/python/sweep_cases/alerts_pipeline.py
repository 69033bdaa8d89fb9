# docs/python.md "Sweeps of a test", the worked example: payments from Kafka; the large ones are
# published to the Kafka topic "alerts", and every user's running total is kept in a Delta table
# (streamsim's Delta stand-in). Two availableNow queries, one after the other, each on its own
# checkpoint.
from pyspark.sql import SparkSession
from pyspark.sql.functions import col, from_json, struct, to_json
from pyspark.sql.types import DoubleType, StringType, StructField, StructType

PAYMENT = StructType([StructField("payment_id", StringType()), StructField("user", StringType()),
                      StructField("amount", DoubleType())])


def payments(spark):
    return (spark.readStream.format("kafka")
            .option("kafka.bootstrap.servers", "broker:9092")
            .option("subscribe", "payments")
            .option("startingOffsets", "earliest")
            .load()
            .select(from_json(col("value").cast("string"), PAYMENT).alias("p"))
            .select("p.*"))


def main():
    spark = SparkSession.builder.appName("alerts").getOrCreate()
    alerts = (payments(spark).filter(col("amount") >= 1000)
              .select(col("user").alias("key"), to_json(struct("payment_id", "amount")).alias("value"))
              .writeStream.format("kafka")
              .option("kafka.bootstrap.servers", "broker:9092")
              .option("topic", "alerts")
              .option("checkpointLocation", "/chk/alerts")
              .trigger(availableNow=True)
              .start())
    alerts.awaitTermination()
    totals = (payments(spark).groupBy("user").sum("amount")
              .withColumnRenamed("sum(amount)", "total")
              .writeStream.format("delta").outputMode("complete")
              .option("checkpointLocation", "/chk/totals")
              .trigger(availableNow=True)
              .start("/lake/totals"))
    totals.awaitTermination()
