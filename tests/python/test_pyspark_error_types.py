"""The exception types a job can observe, as PySpark raises them (pyspark/errors/exceptions/
captured.py converts the JVM's: QueryCompilationErrors -> AnalysisException, the parser's ->
ParseException, SparkArithmeticException -> ArithmeticException, SparkNumberFormatException ->
NumberFormatException, IllegalArgumentException of a source's option check), not plain
ValueErrors; what streamsim does not build is NotImplementedError naming docs/python.md."""

import pytest

from pyspark.errors import (AnalysisException, ArithmeticException, IllegalArgumentException,
                            NumberFormatException, ParseException)


def test_batch_expression_errors_raise_pysparks_exceptions(world):
    spark = world.spark
    df = spark.createDataFrame([(1, "x")], "n int, s string")
    with pytest.raises(AnalysisException) as e:
        df.select("nope").collect()
    assert e.value.getCondition().startswith("UNRESOLVED_COLUMN") and not isinstance(e.value, ValueError)
    with pytest.raises(AnalysisException) as e:
        df.selectExpr("no_such_function(n)").collect()
    assert e.value.getCondition() == "UNRESOLVED_ROUTINE"
    with pytest.raises(ParseException) as e:
        df.selectExpr("n +").collect()
    assert e.value.getCondition() == "PARSE_SYNTAX_ERROR"
    with pytest.raises(ArithmeticException) as e:       # ANSI mode (Spark 4's default)
        df.selectExpr("n / 0").collect()
    assert e.value.getCondition() == "DIVIDE_BY_ZERO"
    with pytest.raises(NumberFormatException) as e:
        df.selectExpr("CAST(s AS INT)").collect()
    assert e.value.getCondition() == "CAST_INVALID_INPUT"
    assert isinstance(e.value, IllegalArgumentException)   # as PySpark's class hierarchy


def test_streaming_refusals_at_start_raise_pysparks_exceptions(world):
    spark = world.spark
    world.put("/in/1.json", rows=[{"a": 1}])
    src = spark.readStream.schema("a int").json("/in")
    with pytest.raises(AnalysisException) as e:
        src.select("b").writeStream.format("memory").queryName("q1").start()
    assert e.value.getCondition().startswith("UNRESOLVED_COLUMN")
    with pytest.raises(IllegalArgumentException, match="rowsPerSecond"):
        (spark.readStream.format("rate").option("rowsPerSecond", -1).load()
         .writeStream.format("memory").queryName("q2").start())


def test_stream_stream_join_of_a_side_with_a_stateful_operator_is_not_built_and_says_so(world):
    spark = world.spark
    left = spark.readStream.schema("k string").json("/l").select("k")
    right = spark.readStream.schema("k string").json("/r")
    assert left.join(right, "k").isStreaming  # a side's per-row operators are built
    with pytest.raises(NotImplementedError, match="docs/python.md"):
        left.dropDuplicates(["k"]).join(right, "k")
