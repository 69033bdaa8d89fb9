# The distinct tags each user was seen with, as one comma-separated string (issue 40: a bug class
# of Python processors). TagsSorted is correct: it emits the tags sorted. TagsInSetOrder joins the
# set as Python iterates it, an order the interpreter's hash seed decides (PYTHONHASHSEED): on
# Spark its output changes with the Python version or the cluster's seed. The hash_seed oracle
# catches it (scenarios/python/buggy/set_order.yml).
from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor, StatefulProcessorHandle
from pyspark.sql.types import StructType, StructField, StringType

tags_schema = StructType([StructField("tags", StringType(), True)])


class TagsInSetOrder(StatefulProcessor):
  def init(self, handle: StatefulProcessorHandle) -> None:
    self.tags = handle.getValueState("tags", tags_schema)

  def seen(self, rows):
    stored = (self.tags.get() or ("",))[0]
    tags = set(t for t in stored.split(",") if t)
    for r in rows:
      tags.add(r.tag)
    return tags

  def handleInputRows(self, key, rows, timerValues):
    joined = ",".join(self.seen(rows))  # the bug: a set's order
    self.tags.update((joined,))
    yield Row(user=key[0], tags=joined)

  def close(self) -> None:
    pass


class TagsSorted(TagsInSetOrder):
  def handleInputRows(self, key, rows, timerValues):
    joined = ",".join(sorted(self.seen(rows)))
    self.tags.update((joined,))
    yield Row(user=key[0], tags=joined)
