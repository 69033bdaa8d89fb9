"""Large payments forwarded as alerts with the real-time trigger: Kafka -> from_json -> filter ->
to_json -> Kafka (written the way public PySpark jobs are)."""
from pyspark.sql import SparkSession
from pyspark.sql.functions import col, from_json, struct, to_json

SCHEMA = "payment_id STRING, user STRING, amount DOUBLE"


def main():
    spark = SparkSession.builder.appName("payment-alerts").getOrCreate()

    payments = (spark.readStream.format("kafka")
                .option("kafka.bootstrap.servers", "broker:9092")
                .option("subscribe", "payments")
                .option("startingOffsets", "earliest")
                .load()
                .select(from_json(col("value").cast("string"), SCHEMA).alias("p"))
                .select("p.*"))

    alerts = (payments.filter(col("amount") > 1000)
              .select(col("user").alias("key"),
                      to_json(struct("payment_id", "user", "amount")).alias("value")))

    query = (alerts.writeStream
             .format("kafka")
             .option("kafka.bootstrap.servers", "broker:9092")
             .option("topic", "alerts")
             .option("checkpointLocation", "/checkpoints/alerts")
             .outputMode("update")
             .trigger(realTime="5 minutes")
             .start())
    query.awaitTermination()
    return query


if __name__ == "__main__":
    main()
