"""Events per 10-second window from the rate source, printed to the console (written the way
public PySpark jobs are)."""
from pyspark.sql import SparkSession
from pyspark.sql.functions import col, window


def main():
    spark = SparkSession.builder.appName("rate-window-count").master("local[2]").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")

    stream = (spark.readStream.format("rate")
              .option("rowsPerSecond", 4)
              .option("numPartitions", 2)
              .load())

    counts = (stream.withWatermark("timestamp", "5 seconds")
              .groupBy(window(col("timestamp"), "10 seconds"))
              .count())

    query = (counts.writeStream
             .outputMode("update")
             .format("console")
             .option("truncate", "false")
             .option("checkpointLocation", "/tmp/rate-window-count")
             .trigger(processingTime="5 seconds")
             .start())
    query.awaitTermination()
    return query


if __name__ == "__main__":
    main()
