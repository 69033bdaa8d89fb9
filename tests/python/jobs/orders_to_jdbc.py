"""Orders appended to a PostgreSQL table from foreachBatch (written the way public PySpark jobs
are: the JDBC writer inside foreachBatch, since JDBC has no streaming sink)."""
from pyspark.sql import SparkSession

JDBC_URL = "jdbc:postgresql://db:5432/shop"
PROPS = {"user": "spark", "password": "secret", "driver": "org.postgresql.Driver"}


def write_orders(batch_df, batch_id):
    (batch_df.write.format("jdbc")
     .option("url", JDBC_URL).option("dbtable", "public.orders")
     .option("user", PROPS["user"]).option("password", PROPS["password"])
     .mode("append").save())


def main():
    spark = SparkSession.builder.appName("orders-to-postgres").getOrCreate()
    orders = spark.readStream.schema("order_id string, amount double").json("/landing/orders")
    query = (orders.writeStream.foreachBatch(write_orders)
             .option("checkpointLocation", "/checkpoints/orders").start())
    query.processAllAvailable()
    return query
