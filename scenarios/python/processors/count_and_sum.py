# Rows and their total per key (issue 40: a bug class of Python processors). CountThenSum reads
# `rows` twice: len(list(rows)) exhausts the iterator PySpark hands, so the sum over it is 0 on
# Spark. streamsim's `rows` is the same one-pass iterator and reports the second pass
# (ROWS_CONSUMED_TWICE at file:line; scenarios/python/buggy/rows_consumed_twice.yml).
# CountAndSum takes the rows into a list first (scenarios/python/rows_listed_once.yaml).
from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor, StatefulProcessorHandle
from pyspark.sql.types import StructType, StructField, LongType

totals_schema = StructType([StructField("n", LongType(), True), StructField("total", LongType(), True)])


class CountThenSum(StatefulProcessor):
  def init(self, handle: StatefulProcessorHandle) -> None:
    self.totals = handle.getValueState("totals", totals_schema)

  def handleInputRows(self, key, rows, timerValues):
    n, total = self.totals.get() or (0, 0)
    n += len(list(rows))
    total += sum(r.amount for r in rows)  # the bug: `rows` is exhausted
    self.totals.update((n, total))
    yield Row(account=key[0], n=n, total=total)

  def close(self) -> None:
    pass


class CountAndSum(CountThenSum):
  def handleInputRows(self, key, rows, timerValues):
    rows = list(rows)
    n, total = self.totals.get() or (0, 0)
    n += len(rows)
    total += sum(r.amount for r in rows)
    self.totals.update((n, total))
    yield Row(account=key[0], n=n, total=total)


class CallsCounted(CountAndSum):
  """Counts handleInputRows calls as rows (the bug): right only while each account has one row per
  batch. The Python reference oracle catches it (scenarios/python/buggy/calls_counted_as_rows.yml)."""

  def handleInputRows(self, key, rows, timerValues):
    rows = list(rows)
    n, total = self.totals.get() or (0, 0)
    n += 1
    total += sum(r.amount for r in rows)
    self.totals.update((n, total))
    yield Row(account=key[0], n=n, total=total)
