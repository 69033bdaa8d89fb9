"""The PySpark job API's pieces (docs/python.md "PySpark jobs"): Columns as Spark SQL text, the
batch side (createDataFrame, select/where/withColumn through the engine's expressions, groupBy
aggregates, spark.sql SELECT), the session's conf, sinks, errors with PySpark's conditions, and
NotImplementedError naming the API for what is not built."""

import pytest

from pyspark.errors import AnalysisException, PySparkValueError, StreamingQueryException
from pyspark.sql import Row, SparkSession
from pyspark.sql import functions as F
from pyspark.sql.streaming import StatefulProcessor
from streamsim.world import World


@pytest.fixture
def spark():
    w = World()
    yield w.spark
    w.close()


def rows(df):
    return [tuple(r) for r in df.collect()]


def test_columns_render_spark_sql_text():
    # PySpark's Column.cast / alias / from_json as the engine's parser reads them.
    assert F.col("value").cast("string")._sql() == "CAST(`value` AS STRING)"
    assert F.from_json(F.col("value"), "id string")._sql() == "from_json(`value`, 'id string')"
    assert F.col("e.*")._sql() == "`e`.*"
    assert (F.col("a") + 1).alias("b")._sql() == "((`a`) + 1) AS `b`"
    with pytest.raises(PySparkValueError) as e:
        bool(F.col("a") > 1)
    assert e.value.getCondition() == "CANNOT_CONVERT_COLUMN_INTO_BOOL"


def test_builder_returns_the_worlds_session_with_its_conf(spark):
    s = SparkSession.builder.appName("x").config("spark.sql.shuffle.partitions", 3).getOrCreate()
    assert s is spark
    assert s.conf.get("spark.app.name") == "x"
    assert s.conf.get("spark.sql.shuffle.partitions") == "3"
    assert s.conf.get("no.such.key", None) is None
    s.sparkContext.setLogLevel("ERROR")
    with pytest.raises(PySparkValueError):
        s.sparkContext.setLogLevel("LOUD")


def test_batch_select_where_with_column_are_the_engines_expressions(spark):
    df = spark.createDataFrame([("a", 1), ("b", 2), ("c", None)], "k string, n int")
    out = df.where(F.col("n") > 1).withColumn("m", F.col("n") * 10).select("k", "m")
    assert rows(out) == [("b", 20)]
    assert rows(df.selectExpr("upper(k) AS K").where("K != 'B'")) == [("A",), ("C",)]
    # An expression without an alias is named as Spark names it.
    assert df.select(F.col("n") * 2, F.upper("k")).columns == ["(n * 2)", "upper(k)"]
    assert df.count() == 3
    assert rows(df.withColumnRenamed("k", "key").drop("n")) == [("a",), ("b",), ("c",)]
    # QueryCompilationErrors: PySpark raises AnalysisException (not a ValueError) with the condition
    with pytest.raises(AnalysisException) as e:
        df.select("nope").collect()
    assert e.value.getCondition().startswith("UNRESOLVED_COLUMN")


def test_spark_sql_select_group_by_aggregates_order_limit(spark):
    spark.createDataFrame([("Open", 1), ("Open", 2), ("Close", 5), ("Close", 1), ("Open", 3)],
                          "action string, count int").createOrReplaceTempView("t")
    assert rows(spark.sql("SELECT action, MAX(count) AS count FROM t GROUP BY action ORDER BY action")) == \
        [("Close", 5), ("Open", 3)]
    df = spark.sql("SELECT action, count(*), sum(count) AS s, avg(count) FROM t GROUP BY action "
                   "HAVING avg(count) < 3 ORDER BY s DESC")
    assert df.columns == ["action", "count(1)", "s", "avg(count)"]
    assert rows(df) == [("Open", 3, 6, 2.0)]
    assert rows(spark.sql("SELECT count(DISTINCT action) AS n FROM t")) == [(2,)]
    assert rows(spark.sql("SELECT action FROM t WHERE count >= 2 ORDER BY action DESC LIMIT 1")) == [("Open",)]
    assert rows(spark.table("t").groupBy("action").count().orderBy("action")) == [("Close", 2), ("Open", 3)]
    with pytest.raises(AnalysisException) as e:
        spark.sql("SELECT * FROM missing")
    assert e.value.getCondition() == "TABLE_OR_VIEW_NOT_FOUND"


class Boom(StatefulProcessor):
    def init(self, handle):
        self.n = handle.getValueState("n", "n long")

    def handleInputRows(self, key, rows, timerValues):
        for r in rows:
            if r.v == "bad":
                raise ValueError("bad row for key " + key[0])
        yield Row(k=key[0])


def test_a_processor_exception_fails_the_query_as_streaming_query_exception(spark):
    w = World.current()
    w.put("/in/1.json", rows=[{"k": "a", "v": "ok"}, {"k": "b", "v": "bad"}])
    q = (spark.readStream.schema("k string, v string").json("/in").groupBy("k")
         .transformWithState(Boom(), "k string", "Append", "None")
         .writeStream.format("memory").queryName("boom").start())
    with pytest.raises(StreamingQueryException) as e:
        q.awaitTermination()
    assert "bad row for key b" in str(e.value)
    assert not q.isActive
    assert q.exception() is not None


def test_console_sink_prints_each_batch(spark, capsys):
    w = World.current()
    w.put("/in/1.json", rows=[{"k": "a"}])
    q = spark.readStream.schema("k string").json("/in").writeStream.format("console").start()
    q.processAllAvailable()
    assert "Batch: 0" in w._native.console_text()


def test_what_is_not_built_says_so(spark):
    df = spark.readStream.schema("k string").json("/in")
    with pytest.raises(NotImplementedError, match="DataStreamWriter.partitionBy.*docs/python.md"):
        df.writeStream.partitionBy("k")
    with pytest.raises(NotImplementedError, match="readStream.format\\('socket'\\)"):
        spark.readStream.format("socket").load()
    with pytest.raises(NotImplementedError, match="applyInPandas"):
        df.groupBy("k").applyInPandas(lambda pdf: pdf, "k string")
    with pytest.raises(NotImplementedError, match="pandas_udf"):
        F.pandas_udf(lambda s: s, "long", 204)   # SQL_SCALAR_PANDAS_ITER_UDF
    with pytest.raises(NotImplementedError, match="DeltaTable.vacuum"):
        from delta.tables import DeltaTable
        DeltaTable(spark, "/d").vacuum()


def test_errors_are_pysparks(spark):
    df = spark.readStream.schema("k string").json("/in")
    with pytest.raises(AnalysisException, match="queryName must be specified"):
        df.writeStream.format("memory").start()
    with pytest.raises(AnalysisException, match="checkpointLocation must be specified"):
        df.writeStream.format("json").start("/out")
    with pytest.raises(PySparkValueError) as e:
        df.writeStream.trigger(processingTime="1 second", once=True)
    assert e.value.getCondition() == "ONLY_ALLOW_SINGLE_TRIGGER"
    with pytest.raises(AnalysisException, match="Schema must be specified"):
        spark.readStream.json("/in")
