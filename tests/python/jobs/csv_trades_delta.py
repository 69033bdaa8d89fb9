"""Trades landing as CSV exports (a header line, ';'-separated, "NA" for missing values) appended
to a Delta table, and an access log landing as text files counted per status code (written the
way public PySpark jobs are)."""
from pyspark.sql import SparkSession
from pyspark.sql.functions import col, regexp_extract
from pyspark.sql.types import DoubleType, IntegerType, StringType, StructField, StructType

trade_schema = StructType([
    StructField("trade_id", StringType()),
    StructField("symbol", StringType()),
    StructField("qty", IntegerType()),
    StructField("price", DoubleType()),
])


def trades():
    spark = SparkSession.builder.appName("csv-trades").getOrCreate()
    df = (spark.readStream
          .format("csv")
          .schema(trade_schema)
          .option("header", "true")
          .option("sep", ";")
          .option("nullValue", "NA")
          .option("maxFilesPerTrigger", 1)
          .load("/landing/trades"))
    query = (df.withColumn("notional", col("qty") * col("price"))
             .writeStream
             .format("delta")
             .option("checkpointLocation", "/checkpoints/trades")
             .trigger(availableNow=True)
             .toTable("trades"))
    query.awaitTermination()
    return query


def status_counts():
    spark = SparkSession.builder.appName("access-log").getOrCreate()
    lines = spark.readStream.text("/landing/access")
    codes = lines.select(regexp_extract("value", r'" (\d{3}) ', 1).alias("status"))
    query = (codes.groupBy("status").count()
             .writeStream
             .format("memory")
             .queryName("status_counts")
             .outputMode("complete")
             .option("checkpointLocation", "/checkpoints/access")
             .start())
    query.awaitTermination()
    return query


if __name__ == "__main__":
    trades()
