# Seed 003's lab query (/work/shared/seeds/003_*.txt), verbatim: the landing folder read with
# the lab's schema, a 10-minute watermark, dropDuplicates on (event_id, event_time), written by
# the parquet file sink with its checkpoint, availableNow. The seed does not show `schema`; the
# lab's device events are (event_id, device, event_time) as scenarios/lab/ has them. `spark`
# comes from the session builder.
from pyspark.sql import SparkSession
from pyspark.sql import functions as F

schema = "event_id string, device string, event_time timestamp"


def main():
  spark = SparkSession.builder.getOrCreate()

  q = (spark.readStream.schema(schema).json("/root/landing")
         .withWatermark("event_time", "10 minutes")
         .dropDuplicates(["event_id", "event_time"])
         .writeStream.format("parquet")
         .option("path", "/root/out")
         .option("checkpointLocation", "/root/chk")
         .trigger(availableNow=True)
         .start())
  q.awaitTermination()
  return q


# The lab's last step, as the seed describes it (its code is not shown): a second landing folder
# copied with its modification times, one file per trigger, a 10-minute watermark and a
# 10-minute window count in append mode; no-data batches off, so each trigger is one file.
def windows_main():
  spark = SparkSession.builder.getOrCreate()
  spark.conf.set("spark.sql.streaming.noDataMicroBatches.enabled", "false")

  q = (spark.readStream.schema(schema).option("maxFilesPerTrigger", 1).json("/root/landing2")
         .withWatermark("event_time", "10 minutes")
         .groupBy(F.window("event_time", "10 minutes")).count()
         .writeStream.format("memory").queryName("windows")
         .outputMode("append")
         .option("checkpointLocation", "/root/chk2")
         .trigger(availableNow=True)
         .start())
  q.awaitTermination()
  return q
