# Rows per key with transformWithStateInPandas (issue 40: a bug class of Python processors).
# PySpark hands a key's rows as several DataFrames when they are more than
# spark.sql.execution.arrow.maxRecordsPerBatch (TransformWithStateInPandasSerializer.load_stream).
# CountAllFrames reads every one; CountFirstFrame reads only the first, right only while a key's
# rows fit one DataFrame. The pandas_chunks oracle catches it
# (scenarios/python/buggy/pandas_first_frame.yml).
import pandas as pd
from pyspark.sql.streaming import StatefulProcessor, StatefulProcessorHandle
from pyspark.sql.types import StructType, StructField, LongType

count_schema = StructType([StructField("count", LongType(), True)])


class CountAllFrames(StatefulProcessor):
  def init(self, handle: StatefulProcessorHandle) -> None:
    self.count = handle.getValueState("count", count_schema)

  def rows_in(self, rows):
    return sum(len(pdf) for pdf in rows)

  def handleInputRows(self, key, rows, timerValues):
    total = (self.count.get() or (0,))[0] + self.rows_in(rows)
    self.count.update((total,))
    yield pd.DataFrame({"device": [key[0]], "count": [total]})

  def close(self) -> None:
    pass


class CountFirstFrame(CountAllFrames):
  def rows_in(self, rows):
    return len(next(rows))  # the bug: the key's other DataFrames are never read
