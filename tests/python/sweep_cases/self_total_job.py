# A PySpark job as it runs on a cluster (the example project's, docs/python-example/totals_job.py),
# with the planted bug of data kept in the processor's `self` across batches.
from pyspark.sql import Row, SparkSession
from pyspark.sql.functions import col, from_json
from pyspark.sql.streaming import StatefulProcessor, StatefulProcessorHandle
from pyspark.sql.types import LongType, StringType, StructField, StructType, TimestampType

EVENT_SCHEMA = StructType([
    StructField("event_id", StringType()),
    StructField("user", StringType()),
    StructField("amount", LongType()),
    StructField("ts", TimestampType()),
])


class TotalPerUser(StatefulProcessor):
    """Each user's running total of amounts."""

    def init(self, handle: StatefulProcessorHandle) -> None:
        self.total = handle.getValueState("total", "total long")
        self.totals = {}  # BUG: kept in the processor, not in state: Spark makes a new one every task

    def handleInputRows(self, key, rows, timerValues):
        total = self.totals.get(key[0], 0)
        for r in rows:
            total += r.amount
        self.totals[key[0]] = total
        yield Row(user=key[0], total=total)

    def close(self) -> None:
        pass


def main():
    spark = SparkSession.builder.appName("totals").getOrCreate()
    events = (spark.readStream.format("kafka")
              .option("kafka.bootstrap.servers", "broker:9092")
              .option("subscribe", "events")
              .option("startingOffsets", "earliest")
              .load()
              .select(from_json(col("value").cast("string"), EVENT_SCHEMA).alias("e"))
              .select("e.*")
              .withWatermark("ts", "10 minutes")
              .dropDuplicates(["event_id"]))
    query = (events.groupBy("user")
             .transformWithState(TotalPerUser(), "user string, total long", "Append", "None")
             .writeStream.format("json").outputMode("append")
             .option("path", "/out/totals")
             .option("checkpointLocation", "/chk/totals")
             .trigger(processingTime="10 seconds")
             .start())
    query.awaitTermination()
    return query
