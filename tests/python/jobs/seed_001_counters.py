# Seed 001's jobs (/work/shared/seeds/001_*.txt), verbatim: the row-based SimpleCounterProcessor
# with its end-to-end query, the pandas one, and the initial-state counter with its query.
# `spark` comes from the session builder; display(...) is returned instead.
import pandas as pd
from pyspark.sql import Row, SparkSession
from pyspark.sql.streaming import StatefulProcessor, StatefulProcessorHandle
from pyspark.sql.types import StructType, StructField, IntegerType, StringType
from typing import Iterator

spark = SparkSession.builder.getOrCreate()

spark.conf.set("spark.sql.streaming.stateStore.providerClass", "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider")

output_schema = StructType(
  [
    StructField("id", StringType(), True),
    StructField("countAsString", StringType(), True),
  ]
)

class SimpleCounterProcessor(StatefulProcessor):
  def init(self, handle: StatefulProcessorHandle) -> None:
    value_state_schema = StructType([StructField("count", IntegerType(), True)])
    list_state_schema = StructType([StructField("count", IntegerType(), True)])
    self.value_state = handle.getValueState(stateName="valueState", schema=value_state_schema)
    self.list_state = handle.getListState(stateName="listState", schema=list_state_schema)
    self.map_state = handle.getMapState(stateName="mapState", userKeySchema="name string", valueSchema="count int")

  def handleInputRows(self, key, rows: Iterator[Row], timerValues) -> Iterator[Row]:
    # Seed the running total from state so the count accumulates across micro-batches
    count = self.value_state.get()[0] if self.value_state.exists() else 0
    for row in rows:
      list_state_rows = [(120,), (20,)]  # A list of tuples
      self.list_state.put(list_state_rows)
      self.list_state.appendValue((111,))
      self.list_state.appendList(list_state_rows)
      count += 1
    self.value_state.update((count,))  # Count is passed as a tuple
    iter_list = self.list_state.get()
    list_state_value = next(iter_list)[0]
    value = count
    user_key = ("user_key",)
    if self.map_state.exists():
      if self.map_state.containsKey(user_key):
        value += self.map_state.getValue(user_key)[0]
    self.map_state.updateValue(user_key, (value,))  # Value is a tuple
    yield Row(id=key[0], countAsString=str(count))


class PandasSimpleCounterProcessor(StatefulProcessor):
  def init(self, handle: StatefulProcessorHandle) -> None:
    value_state_schema = StructType([StructField("count", IntegerType(), True)])
    list_state_schema = StructType([StructField("count", IntegerType(), True)])
    self.value_state = handle.getValueState(stateName="valueState", schema=value_state_schema)
    self.list_state = handle.getListState(stateName="listState", schema=list_state_schema)
    # Schema can also be defined using strings and SQL DDL syntax
    self.map_state = handle.getMapState(stateName="mapState", userKeySchema="name string", valueSchema="count int")

  def handleInputRows(self, key, rows, timerValues) -> Iterator[pd.DataFrame]:
    # Seed the running total from state so the count accumulates across micro-batches
    count = self.value_state.get()[0] if self.value_state.exists() else 0
    for pdf in rows:
      list_state_rows = [(120,), (20,)] # A list of tuples
      self.list_state.put(list_state_rows)
      self.list_state.appendValue((111,))
      self.list_state.appendList(list_state_rows)
      pdf_count = pdf.count()
      count += pdf_count.get("value")
    self.value_state.update((count,)) # Count is passed as a tuple
    iter = self.list_state.get()
    list_state_value = next(iter)[0]
    value = count
    user_key = ("user_key",)
    if self.map_state.exists():
      if self.map_state.containsKey(user_key):
        value += self.map_state.getValue(user_key)[0]
    self.map_state.updateValue(user_key, (value,)) # Value is a tuple
    yield pd.DataFrame({"id": key, "countAsString": str(count)})


def counter_job(processor=SimpleCounterProcessor, pandas=False):
  import uuid

  # Create a dedicated schema for the example tables
  spark.sql("CREATE SCHEMA IF NOT EXISTS main.stateful_examples")

  # Seed a small Delta table to use as the streaming source
  spark.sql("DROP TABLE IF EXISTS main.stateful_examples.tws_counter_source")
  spark.createDataFrame(
    [("a", "1"), ("a", "2"), ("a", "3"), ("b", "1"), ("b", "2")],
    "key string, value string",
  ).write.saveAsTable("main.stateful_examples.tws_counter_source")

  df = spark.readStream.table("main.stateful_examples.tws_counter_source")

  grouped = df.groupBy("key")
  tws = grouped.transformWithStateInPandas if pandas else grouped.transformWithState
  q = (
    tws(
        statefulProcessor=processor(),
        outputStructType=output_schema,
        outputMode="Update",
        timeMode="None",
      )
      .writeStream.format("memory")
      .queryName("counter_output")
      .option("checkpointLocation", f"/tmp/checkpoint_{uuid.uuid4()}")
      .trigger(availableNow=True)
      .start()
  )

  q.awaitTermination()

  return spark.sql("SELECT id, countAsString FROM counter_output ORDER BY id")


class CounterWithInitialState(StatefulProcessor):
  def init(self, handle: StatefulProcessorHandle) -> None:
    state_schema = StructType([StructField("count", IntegerType(), True)])
    self.count_state = handle.getValueState("countState", state_schema)

  def handleInitialState(self, key, initialState: Row, timerValues) -> None:
    self.count_state.update((initialState["count"],))

  def handleInputRows(self, key, rows: Iterator[Row], timerValues) -> Iterator[Row]:
    count = self.count_state.get()[0] if self.count_state.exists() else 0
    for _ in rows:
      count += 1
    self.count_state.update((count,))
    yield Row(id=key[0], count=count)

  def close(self) -> None:
    pass


def initial_state_job():
  output_schema = StructType([
    StructField("id", StringType(), True),
    StructField("count", IntegerType(), True),
  ])

  import uuid

  # Create a dedicated schema for the example tables
  spark.sql("CREATE SCHEMA IF NOT EXISTS main.stateful_examples")

  # Seed existing per-key counts to load as the initial state
  spark.sql("DROP TABLE IF EXISTS main.stateful_examples.existing_counts")
  spark.createDataFrame(
    [("x", 10)],
    "id string, count int",
  ).write.saveAsTable("main.stateful_examples.existing_counts")

  # Seed a small Delta table to use as the streaming source
  spark.sql("DROP TABLE IF EXISTS main.stateful_examples.tws_initial_source")
  spark.createDataFrame(
    [("x", "a"), ("x", "b")],
    "id string, value string",
  ).write.saveAsTable("main.stateful_examples.tws_initial_source")

  df = spark.readStream.table("main.stateful_examples.tws_initial_source")

  # Load existing counts as initial state — must use the same grouping key as the input
  initial_state = spark.read.table("main.stateful_examples.existing_counts").groupBy("id")

  q = (
    df.groupBy("id")
      .transformWithState(
        statefulProcessor=CounterWithInitialState(),
        outputStructType=output_schema,
        outputMode="Update",
        timeMode="None",
        initialState=initial_state,
      )
      .writeStream.format("memory")
      .queryName("initial_state_output")
      .option("checkpointLocation", f"/tmp/checkpoint_{uuid.uuid4()}")
      .trigger(availableNow=True)
      .start()
  )

  q.awaitTermination()

  # The initial state seeds "x" with 10, and the source adds two rows, so the count is 12
  return spark.sql("SELECT id, count FROM initial_state_output ORDER BY id")


class SessionTracker(StatefulProcessor):
  def init(self, handle: StatefulProcessorHandle) -> None:
    self.sessions = handle.getMapState("sessions", "session_id string", "count long")

  def handleInputRows(self, key, rows: Iterator[Row], timerValues) -> Iterator[Row]:
    for row in rows:
      session_key = (row["session_id"],)  # session_id is the MapState key
      count = self.sessions.getValue(session_key)[0] if self.sessions.containsKey(session_key) else 0
      new_count = count + 1
      self.sessions.updateValue(session_key, (new_count,))
    yield from []

  def close(self) -> None:
    pass


def session_job(df):
  # The seed elides the arguments (`transformWithState(SessionTracker(), ...)`): these are the
  # seed's own (an output schema, Update, None).
  return (
    df.groupBy("user_id").transformWithState(SessionTracker(), "user_id string", "Update", "None") # user_id is the grouping key
      .writeStream.format("memory").queryName("sessions").trigger(availableNow=True).start()
  )
