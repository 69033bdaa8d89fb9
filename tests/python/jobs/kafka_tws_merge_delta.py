"""Running totals per user: Kafka -> from_json -> watermark -> transformWithStateInPandas ->
foreachBatch MERGE into a Delta table, idempotent by Delta's txn (written the way public PySpark
jobs are)."""
import pandas as pd
from delta.tables import DeltaTable
from pyspark.sql import SparkSession
from pyspark.sql.functions import col, from_json
from pyspark.sql.streaming import StatefulProcessor, StatefulProcessorHandle
from pyspark.sql.types import LongType, StringType, StructField, StructType, TimestampType

EVENT_SCHEMA = StructType([
    StructField("event_id", StringType()),
    StructField("user", StringType()),
    StructField("amount", LongType()),
    StructField("ts", TimestampType()),
])
OUTPUT_SCHEMA = StructType([StructField("user", StringType()), StructField("total", LongType())])
CHECKPOINT = "/checkpoints/user_totals"


class RunningTotal(StatefulProcessor):
    def init(self, handle: StatefulProcessorHandle) -> None:
        self.total = handle.getValueState("total", StructType([StructField("total", LongType())]))

    def handleInputRows(self, key, rows, timerValues):
        total = self.total.get()[0] if self.total.exists() else 0
        for pdf in rows:
            total += int(pdf["amount"].sum())
        self.total.update((total,))
        yield pd.DataFrame({"user": [key[0]], "total": [total]})

    def close(self) -> None:
        pass


def upsert_to_delta(batch_df, batch_id):
    spark = batch_df.sparkSession
    # Idempotent MERGE: a batch Spark hands over again after a failure is skipped by Delta.
    spark.conf.set("spark.databricks.delta.write.txnAppId", "user_totals_stream")
    spark.conf.set("spark.databricks.delta.write.txnVersion", str(batch_id))
    (DeltaTable.forName(spark, "user_totals").alias("t")
        .merge(batch_df.alias("s"), "t.user = s.user")
        .whenMatchedUpdateAll()
        .whenNotMatchedInsertAll()
        .execute())


def main():
    spark = (SparkSession.builder.appName("user-totals")
             .config("spark.sql.shuffle.partitions", "4")
             .config("spark.sql.streaming.stateStore.providerClass",
                     "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider")
             .getOrCreate())
    spark.sparkContext.setLogLevel("WARN")
    spark.sql("CREATE TABLE IF NOT EXISTS user_totals (user STRING, total BIGINT) USING DELTA")

    events = (spark.readStream.format("kafka")
              .option("kafka.bootstrap.servers", "broker:9092")
              .option("subscribe", "payments")
              .option("startingOffsets", "earliest")
              .option("failOnDataLoss", "false")
              .load()
              .select(from_json(col("value").cast("string"), EVENT_SCHEMA).alias("e"))
              .select("e.*")
              .withWatermark("ts", "10 minutes"))

    query = (events.groupBy("user")
             .transformWithStateInPandas(statefulProcessor=RunningTotal(),
                                         outputStructType=OUTPUT_SCHEMA,
                                         outputMode="Update",
                                         timeMode="None")
             .writeStream
             .foreachBatch(upsert_to_delta)
             .option("checkpointLocation", CHECKPOINT)
             .trigger(processingTime="10 seconds")
             .start())
    query.awaitTermination()
    return query


if __name__ == "__main__":
    main()
