# Seed 000's count per grouping key as the synchronous StatefulProcessor it is converted from:
# async_count.py without `async def` and `await` (the seed: "compared with the synchronous
# StatefulProcessor, the changes are the async def keyword of each method and the await of the
# state reads and updates"). The same ValueState and schema, so both run on one checkpoint.
from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor, StatefulProcessorHandle
from pyspark.sql.types import StructType, StructField, LongType

value_schema = StructType([StructField("count", LongType(), True)])

class CountProcessor(StatefulProcessor):
  def init(self, handle: StatefulProcessorHandle) -> None:
    self.count = handle.getValueState("count", value_schema)

  def handleInputRows(self, key, rows, timerValues):
    total = (self.count.get() or (0,))[0]
    for _ in rows:
      total += 1
    self.count.update((total,))
    yield Row(action=key[0], count=total)

  def close(self) -> None:
    pass
