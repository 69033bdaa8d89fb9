# Seed 000's async count job (/work/shared/seeds/000_*.txt), verbatim: the processor, the schemas
# and the query; `spark` comes from the session builder, display(...) is returned instead.
from pyspark.sql import Row, SparkSession
from pyspark.sql.streaming import AsyncStatefulProcessor, AsyncStatefulProcessorHandle
from pyspark.sql.types import StructType, StructField, LongType

value_schema = StructType([StructField("count", LongType(), True)])

class AsyncCountProcessor(AsyncStatefulProcessor):
  async def init(self, handle: AsyncStatefulProcessorHandle) -> None:
    self.count = handle.getValueState("count", value_schema)

  async def handleInputRows(self, key, rows, timerValues):
    total = (await self.count.get() or (0,))[0]
    for _ in rows:
      total += 1
    await self.count.update((total,))
    yield Row(action=key[0], count=total)

  async def close(self) -> None:
    pass


def main():
  spark = SparkSession.builder.appName("async_counts").getOrCreate()

  from pyspark.sql.types import StructType, StructField, StringType, LongType

  input_schema = StructType([
    StructField("time", LongType(), True),
    StructField("action", StringType(), True),
  ])

  output_schema = StructType([
    StructField("action", StringType(), True),
    StructField("count", LongType(), True),
  ])

  events = (
    spark.readStream.schema(input_schema)
      .option("maxFilesPerTrigger", 10)
      .json("/databricks-datasets/structured-streaming/events")
  )

  q = (
    events.groupBy("action")
      .transformWithState(
        statefulProcessor=AsyncCountProcessor(),
        outputStructType=output_schema,
        outputMode="Update",
        timeMode="None",
      )
      .writeStream.format("memory")
      .queryName("async_counts")
      .trigger(availableNow=True)
      .start()
  )

  q.awaitTermination()

  return spark.sql("SELECT action, MAX(count) AS count FROM async_counts GROUP BY action ORDER BY action")
