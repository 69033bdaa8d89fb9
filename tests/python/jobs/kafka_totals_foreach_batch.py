# A job written the way public PySpark jobs are: Kafka -> from_json -> watermark ->
# dropDuplicates -> transformWithState (row mode) -> foreachBatch appending to a table.
from pyspark.sql import Row, SparkSession
from pyspark.sql.functions import col, from_json, lit, upper
from pyspark.sql.streaming import StatefulProcessor, StatefulProcessorHandle
from pyspark.sql.types import LongType, StringType, StructField, StructType, TimestampType

event_schema = StructType([
    StructField("event_id", StringType()),
    StructField("user", StringType()),
    StructField("amount", LongType()),
    StructField("ts", TimestampType()),
])


class TotalPerUser(StatefulProcessor):
    def init(self, handle: StatefulProcessorHandle) -> None:
        self.total = handle.getValueState("total", "total long")

    def handleInputRows(self, key, rows, timerValues):
        total = self.total.get()[0] if self.total.exists() else 0
        for r in rows:
            total += r.amount
        self.total.update((total,))
        yield Row(user=key[0], total=total)

    def close(self) -> None:
        pass


def main():
    spark = (SparkSession.builder.appName("totals").master("local[2]")
             .config("spark.sql.shuffle.partitions", "4").getOrCreate())
    spark.sparkContext.setLogLevel("WARN")
    raw = (spark.readStream.format("kafka")
           .option("kafka.bootstrap.servers", "broker:9092")
           .option("subscribe", "events")
           .option("startingOffsets", "earliest")
           .option("failOnDataLoss", "false")
           .load())
    events = (raw.select(from_json(col("value").cast("string"), event_schema).alias("e"))
              .select("e.*")
              .withColumn("user", upper(col("user")))
              .filter(col("amount") > 0)
              .withWatermark("ts", "10 minutes")
              .dropDuplicates(["event_id"]))
    def write_batch(batch_df, batch_id):
        (batch_df.withColumn("batch_id", lit(batch_id))
         .write.mode("append").saveAsTable("totals_by_batch"))

    query = (events.groupBy("user")
             .transformWithState(TotalPerUser(), "user string, total long", "Update", "None")
             .writeStream.foreachBatch(write_batch).outputMode("update")
             .option("checkpointLocation", "/chk/totals")
             .trigger(processingTime="10 seconds")
             .start())
    query.awaitTermination()
    return query
