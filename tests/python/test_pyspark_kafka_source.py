"""readStream.format("kafka") with Spark's options (docs/python.md "Supported API"): the
consumer strategies subscribe (several topics), subscribePattern and assign, exactly one of them,
startingOffsets per topic-partition, the topic column, and key/value as BINARY. Follows Spark 4.1's
connector/kafka-0-10-sql/src/main/scala/org/apache/spark/sql/kafka010/KafkaSourceProvider.scala
(validateGeneralOptions, strategy) and ConsumerStrategy.scala; from_json's STRING input as
sql/catalyst/.../expressions/jsonExpressions.scala (JsonToStructs: ExpectsInputTypes)."""

import pytest

from pyspark.errors import AnalysisException, IllegalArgumentException
from pyspark.sql.functions import col, from_json


def _kafka(world, **options):
    reader = world.spark.readStream.format("kafka").option("kafka.bootstrap.servers", "broker:9092")
    for k, v in options.items():
        reader = reader.option(k, v)
    return reader.load()


def _run(world, df, name="out"):
    q = (df.writeStream.format("memory").queryName(name).outputMode("append")
         .option("checkpointLocation", f"/chk/{name}").start())
    q.processAllAvailable()
    return q


def _values(world, sql):
    return [tuple(r) for r in world.spark.sql(sql).collect()]


def test_subscribe_to_several_topics_gives_each_row_its_topic(world):
    world.create_topic("orders", 2)
    world.create_topic("refunds")
    world.create_topic("other")
    world.produce("orders", "o1", partition=1)
    world.produce("refunds", "r1")
    world.produce("other", "x1")
    df = _kafka(world, subscribe="orders, refunds", startingOffsets="earliest")
    q = _run(world, df.select(col("topic"), col("partition"), col("value").cast("string").alias("v")))
    assert _values(world, "SELECT topic, partition, v FROM out ORDER BY topic") == \
        [("orders", 1, "o1"), ("refunds", 0, "r1")]
    assert q.lastProgress["sources"][0]["description"] == "KafkaV2[Subscribe[orders, refunds]]"


def test_subscribe_pattern_reads_a_matching_topic_created_after_the_start(world):
    world.create_topic("clicks-eu")
    world.create_topic("audit")
    world.produce("clicks-eu", "c1")
    world.produce("audit", "a1")
    df = _kafka(world, subscribePattern="clicks-.*", startingOffsets="earliest")
    q = _run(world, df.select(col("topic"), col("value").cast("string").alias("v")))
    world.produce("clicks-us", "c2")  # a new topic: read from its earliest offset
    q.processAllAvailable()
    assert _values(world, "SELECT topic, v FROM out ORDER BY v") == [("clicks-eu", "c1"), ("clicks-us", "c2")]
    assert q.lastProgress["sources"][0]["description"] == "KafkaV2[SubscribePattern[clicks-.*]]"


def test_assign_reads_the_named_partitions_only(world):
    world.create_topic("t", 3)
    for p in range(3):
        world.produce("t", f"v{p}", partition=p)
    df = _kafka(world, assign='{"t":[0,2]}', startingOffsets="earliest")
    _run(world, df.select(col("partition"), col("value").cast("string").alias("v")))
    assert _values(world, "SELECT partition, v FROM out ORDER BY partition") == [(0, "v0"), (2, "v2")]


def test_starting_offsets_per_topic_partition(world):
    for v in ("a0", "a1", "a2"):
        world.produce("a", v)
    for v in ("b0", "b1"):
        world.produce("b", v)
    df = _kafka(world, subscribe="a,b", startingOffsets='{"a":{"0":2},"b":{"0":-2}}')
    _run(world, df.select(col("value").cast("string").alias("v")))
    assert _values(world, "SELECT v FROM out ORDER BY v") == [("a2",), ("b0",), ("b1",)]


def test_starting_offsets_must_name_every_assigned_partition(world):
    world.produce("a", "a0")
    world.produce("b", "b0")
    df = _kafka(world, subscribe="a,b", startingOffsets='{"a":{"0":0}}')
    # Spark's assertion fails the query's first batch; streamsim resolves the initial offsets as
    # the query starts, so start() raises (docs/python.md).
    with pytest.raises(AnalysisException, match=r"(?s)you must specify all TopicPartitions.*"
                       r"Specified: Set\(a-0\) Assigned: Set\(a-0, b-0\)"):
        _run(world, df)


@pytest.mark.parametrize("options,message", [
    ({}, "One of the following options must be specified for Kafka source: subscribe, "
         "subscribepattern, assign. See the docs for more details."),
    ({"subscribe": "a", "assign": '{"a":[0]}'},
     "Only one of the following options can be specified for Kafka source: subscribe, "
     "subscribepattern, assign. See the docs for more details."),
    ({"subscribe": ","}, "No topics to subscribe to as specified value for option 'subscribe' is ','"),
    ({"assign": "a"}, "No topicpartitions to assign as specified value for option 'assign' is 'a'"),
    ({"assign": "{\"a\":0}"}, 'Expected e.g. {"topicA":[0,1],"topicB":[0,1]}, got {"a":0}'),
    ({"subscribePattern": " "},
     "Pattern to subscribe is empty as specified value for option 'subscribePattern' is ' '"),
    ({"subscribe": "a", "kafka.auto.offset.reset": "earliest"},
     "Kafka option 'auto.offset.reset' is not supported."),
    ({"subscribe": "a", "endingOffsets": "latest"}, "ending offset not valid in streaming queries"),
])
def test_bad_options_fail_load_as_sparks_illegal_argument(world, options, message):
    with pytest.raises(IllegalArgumentException) as e:
        _kafka(world, **options)
    assert message in str(e.value)


def test_bootstrap_servers_are_required(world):
    with pytest.raises(IllegalArgumentException, match="Option 'kafka.bootstrap.servers' must be "
                                                       "specified for configuring Kafka consumer"):
        world.spark.readStream.format("kafka").option("subscribe", "a").load()


def test_key_and_value_are_binary_and_cast_to_string_is_the_real_cast(world):
    world.produce("t", '{"id": "e1"}', key="k1")
    df = _kafka(world, subscribe="t", startingOffsets="earliest")
    assert [(f.name, f.dataType.simpleString()) for f in df.schema.fields][:3] == \
        [("key", "binary"), ("value", "binary"), ("topic", "string")]
    _run(world, df.select("key", "value", col("value").cast("string").alias("text"),
                          from_json(col("value").cast("string"), "id string").alias("e")))
    row = world.spark.table("out").collect()[0]
    assert bytes(row["key"]) == b"k1" and bytes(row["value"]) == b'{"id": "e1"}'
    assert row["text"] == '{"id": "e1"}' and row["e"]["id"] == "e1"


def test_from_json_of_the_binary_value_without_a_cast_fails_as_sparks_analyzer(world):
    world.produce("t", '{"id": "e1"}')
    df = _kafka(world, subscribe="t", startingOffsets="earliest")
    with pytest.raises(AnalysisException) as e:
        _run(world, df.select(from_json(col("value"), "id string").alias("e")))
    assert e.value.getCondition() == "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"
    assert '"BINARY"' in str(e.value)


def test_options_not_built_are_said_so(world):
    with pytest.raises(NotImplementedError, match="minOffsetsPerTrigger"):
        _kafka(world, subscribe="a", minOffsetsPerTrigger="1")


# --- starting from a timestamp (KafkaSourceProvider.getKafkaOffsetRangeLimit; KafkaOffsetReaderAdmin
# fetchGlobalTimestampBasedOffsets / fetchSpecificTimestampBasedOffsets / readTimestampOffsets) ---

def _stamped(world):
    world.create_topic("ev", 2)
    for i, ts in enumerate([1000, 2000, 3000]):
        world.produce("ev", f"a{i}", partition=0, timestamp=ts)
    world.produce("ev", "b0", partition=1, timestamp=1500)


def test_starting_timestamp_starts_each_partition_at_its_first_record_at_or_after_it(world):
    _stamped(world)
    df = _kafka(world, subscribe="ev", startingTimestamp="1800", startingOffsetsByTimestampStrategy="latest")
    _run(world, df.select(col("value").cast("string").alias("v")))
    # Partition 0 from a1 (2000 >= 1800); partition 1 has none: its latest offset (the strategy).
    assert _values(world, "SELECT v FROM out ORDER BY v") == [("a1",), ("a2",)]


def test_starting_timestamp_wins_over_starting_offsets_by_timestamp_and_starting_offsets(world):
    _stamped(world)
    df = _kafka(world, subscribe="ev", startingTimestamp="0", startingOffsets="latest",
                startingOffsetsByTimestamp='{"ev":{"0":9999,"1":9999}}')
    _run(world, df.select(col("value").cast("string").alias("v")))
    assert _values(world, "SELECT v FROM out ORDER BY v") == [("a0",), ("a1",), ("a2",), ("b0",)]


def test_starting_offsets_by_timestamp_per_partition(world):
    _stamped(world)
    df = _kafka(world, subscribe="ev", startingOffsetsByTimestamp='{"ev":{"0":2500,"1":0}}')
    _run(world, df.select(col("value").cast("string").alias("v")))
    assert _values(world, "SELECT v FROM out ORDER BY v") == [("a2",), ("b0",)]


def test_no_record_at_or_after_the_timestamp_fails_the_query_by_default(world):
    _stamped(world)
    df = _kafka(world, subscribe="ev", startingTimestamp="2500")
    with pytest.raises(Exception) as e:
        _run(world, df.select(col("value").cast("string").alias("v")))
    assert "No offset matched from request of topic-partition ev-1 and timestamp 2500." in str(e.value)


@pytest.mark.parametrize("options,message", [
    ({"startingTimestamp": "soon"}, "Expected a single long value, got soon"),
    ({"startingOffsetsByTimestamp": "ev"}, 'Expected e.g. {"topicA": {"0": 123456789, "1": 123456789}, '
                                           '"topicB": {"0": 123456789, "1": 123456789}}, got ev'),
    ({"startingTimestamp": "1", "startingOffsetsByTimestampStrategy": "oldest"}, "No value found for 'OLDEST'"),
])
def test_bad_timestamp_options_fail_load_with_sparks_messages(world, options, message):
    with pytest.raises(IllegalArgumentException) as e:
        _kafka(world, subscribe="ev", **options)
    assert message in str(e.value)


def test_starting_offsets_by_timestamp_must_name_every_assigned_partition(world):
    _stamped(world)
    df = _kafka(world, subscribe="ev", startingOffsetsByTimestamp='{"ev":{"0":0}}')
    with pytest.raises(Exception) as e:
        _run(world, df.select(col("value").cast("string").alias("v")))
    assert "If startingOffsetsByTimestamp contains specific offsets, you must specify all topics." in str(e.value)


# --- includeHeaders (KafkaSourceProvider.KafkaScan.includeHeaders; KafkaRecordToRowConverter) ---

def test_include_headers_adds_the_headers_column_null_for_a_record_without_any(world):
    world.create_topic("h")
    world.produce("h", "v0", headers=[("trace", "t-1"), ("bin", b"\x00\x01")])
    world.produce("h", "v1")
    df = _kafka(world, subscribe="h", startingOffsets="earliest", includeHeaders="true")
    assert df.columns[-1] == "headers"
    assert df.schema["headers"].dataType.simpleString() == "array<struct<key:string,value:binary>>"
    _run(world, df.select(col("value").cast("string").alias("v"), col("headers")))
    rows = {r.v: r.headers for r in world.spark.sql("SELECT v, headers FROM out").collect()}
    assert [(h.key, bytes(h.value)) for h in rows["v0"]] == [("trace", b"t-1"), ("bin", b"\x00\x01")]
    assert rows["v1"] is None


def test_without_include_headers_there_is_no_headers_column(world):
    world.create_topic("h")
    df = _kafka(world, subscribe="h", includeHeaders="false")
    assert "headers" not in df.columns


def test_include_headers_must_be_a_boolean_string(world):
    with pytest.raises(IllegalArgumentException, match="yes is not a boolean string."):
        _kafka(world, subscribe="h", includeHeaders="yes")
