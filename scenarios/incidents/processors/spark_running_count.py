# Spark's RunningCountStatefulProcessor (TransformWithStateSuite.scala), the processor that wrote
# tests/fixtures/spark-rocksdb/tws-valuestate-unsaferow-4.0, as PySpark: per call the count + 1; at 3
# the count is cleared and nothing is emitted, else it is kept and (key, count) emitted. Its
# ValueState "countState" holds a long, as Spark's getValueState[Long] records it ("value long").
from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor, StatefulProcessorHandle
from pyspark.sql.types import StructType, StructField, LongType

value_schema = StructType([StructField("value", LongType(), True)])

class RunningCountStatefulProcessor(StatefulProcessor):
  def init(self, handle: StatefulProcessorHandle) -> None:
    self.count_state = handle.getValueState("countState", value_schema)

  def handleInputRows(self, key, rows, timerValues):
    for _ in rows:
      pass
    count = (self.count_state.get() or (0,))[0] + 1
    if count == 3:
      self.count_state.clear()
      return
    self.count_state.update((count,))
    yield Row(_1=key[0], _2=str(count))

  def close(self) -> None:
    pass
