"""Orders from Kafka enriched by Python UDFs -- a row-at-a-time udf (decorator form), a scalar
pandas_udf and a function registered for SQL with spark.udf.register -- and appended to a Delta
table (written the way public PySpark jobs are)."""
import pandas as pd
from pyspark.sql import SparkSession
from pyspark.sql.functions import col, from_json, pandas_udf, udf
from pyspark.sql.types import DoubleType, IntegerType, StringType, StructField, StructType

schema = StructType([
    StructField("order_id", StringType()),
    StructField("customer", StringType()),
    StructField("amount", DoubleType()),
    StructField("country", StringType()),
])


@udf(returnType=StringType())
def normalize_customer(name):
    if name is None:
        return None
    return name.strip().lower()


@pandas_udf("double")
def with_vat(amount: pd.Series) -> pd.Series:
    return (amount * 1.2).round(2)


def tier(amount):
    return 3 if amount >= 100 else 2 if amount >= 10 else 1


def main():
    spark = SparkSession.builder.appName("orders-udf").getOrCreate()
    spark.udf.register("order_tier", tier, IntegerType())

    orders = (spark.readStream.format("kafka")
              .option("kafka.bootstrap.servers", "broker:9092")
              .option("subscribe", "orders")
              .option("startingOffsets", "earliest")
              .load()
              .select(from_json(col("value").cast("string"), schema).alias("o"))
              .select("o.*"))

    enriched = (orders
                .withColumn("customer", normalize_customer(col("customer")))
                .withColumn("gross", with_vat("amount"))
                .selectExpr("order_id", "customer", "gross", "order_tier(amount) AS tier", "country"))

    query = (enriched.writeStream
             .format("delta")
             .outputMode("append")
             .option("checkpointLocation", "/checkpoints/orders_udf")
             .toTable("orders_enriched"))
    query.awaitTermination()
    return query


if __name__ == "__main__":
    main()
