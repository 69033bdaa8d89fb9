"""Python UDFs in PySpark jobs (docs/python.md "Python UDFs"): udf (decorator and function forms,
a DataType or a DDL string), a scalar pandas_udf, spark.udf.register for SQL, run by the
interpreter the job runs in, in streams and on the batch side. The rules followed:
python/pyspark/sql/udf.py and functions (PySpark's udf/pandas_udf/UDFRegistration), the worker's
result checks (python/pyspark/worker.py verify_result_length), Spark's
EvaluatePython.makeFromJava (sql/core/src/main/scala/org/apache/spark/sql/execution/python/
EvaluatePython.scala) for a row UDF's result, and PythonException
(core/src/main/scala/org/apache/spark/api/python/PythonRDD.scala) for a failing one."""

import pytest

from job_support import load_job, rows_of
from streamsim.world import DriverCrashed

pd = pytest.importorskip("pandas")


def order(world, i, customer, amount, country="FR"):
    world.produce("orders", {"order_id": f"o{i}", "customer": customer, "amount": amount,
                             "country": country}, key=f"o{i}")


def test_udfs_enrich_a_kafka_stream_into_delta_exactly_once_across_a_crash(world):
    world.create_topic("orders", partitions=2)
    order(world, 1, "  Ann ", 50.0)
    order(world, 2, "BOB", 5.0)
    job = load_job("kafka_udf_enrich_delta")
    job.main()
    got = rows_of(world.spark.sql("SELECT order_id, customer, gross, tier FROM orders_enriched ORDER BY order_id"))
    assert got == [("o1", "ann", 60.0, 2), ("o2", "bob", 6.0, 1)]
    order(world, 3, "Cid", 250.0)
    world.crash_at("commits.before_write")
    with pytest.raises(DriverCrashed):
        world._query.processAllAvailable()
    world.restart(job.main)
    got = rows_of(world.spark.sql("SELECT order_id, customer, gross, tier FROM orders_enriched ORDER BY order_id"))
    assert got == [("o1", "ann", 60.0, 2), ("o2", "bob", 6.0, 1), ("o3", "cid", 300.0, 3)]
    # The output columns are named as Spark names them: the function's name and its arguments.
    assert world.spark.table("orders_enriched").columns == ["order_id", "customer", "gross", "tier", "country"]


def test_a_row_udfs_result_of_another_type_is_null_as_evaluate_python_reads_it(world):
    """EvaluatePython.makeFromJava: an int for a DoubleType, a float or str for an IntegerType,
    a non-bool for a BooleanType is null; a StringType takes any value as its Java toString."""
    from pyspark.sql.functions import col, udf
    from pyspark.sql.types import BooleanType, DoubleType, IntegerType
    spark = world.spark
    df = spark.createDataFrame([(1,), (2,)], "n int")
    as_double = udf(lambda n: n * 2, DoubleType())
    as_int = udf(lambda n: n / 2, IntegerType())
    as_bool = udf(lambda n: n, BooleanType())
    text = udf(lambda n: {1: 4, 2: 1e10}[n])          # the default returnType: StringType()
    flag = udf(lambda n: n == 1, "string")
    got = rows_of(df.select(as_double("n"), as_int(col("n")), as_bool("n"), text("n"), flag("n")))
    assert got == [(None, None, None, "4", "true"), (None, None, None, "1.0E10", "false")]
    fixed = udf(lambda n: float(n * 2), DoubleType())
    assert rows_of(df.select(fixed("n"))) == [(2.0,), (4.0,)]
    # int wraps to the type's width as Scala's c.toInt does
    assert rows_of(df.select(udf(lambda n: 2**31 + n, IntegerType())("n"))) == [(-2147483647,), (-2147483646,)]


def test_udf_forms_names_and_registration(world):
    from pyspark.errors import PySparkTypeError
    from pyspark.sql.functions import udf
    from pyspark.sql.types import IntegerType, StringType
    spark = world.spark

    @udf
    def shout(s):
        return s.upper() + "!"

    @udf("int")
    def plus_one(n):
        return n + 1

    @udf(returnType=IntegerType())
    def twice(n):
        return n * 2

    assert shout.returnType == StringType() and plus_one.returnType == IntegerType()
    assert shout.__name__ == "shout" and shout.evalType == 100 and shout.deterministic
    df = spark.createDataFrame([("a", 1)], "s string, n int")
    out = df.select(shout("s"), plus_one("n"), twice(df.n))
    assert out.columns == ["shout(s)", "plus_one(n)", "twice(n)"]
    assert rows_of(out) == [("A!", 2, 2)]
    # register: a plain function (StringType by default) or a udf (its own type; no returnType)
    spark.udf.register("str_len", lambda s: len(s))
    registered = spark.udf.register("plus_one_sql", plus_one)
    df.createOrReplaceTempView("t")
    assert rows_of(spark.sql("SELECT str_len(s) AS a, plus_one_sql(n) AS b FROM t")) == [("1", 2)]
    assert rows_of(df.selectExpr("plus_one_sql(n) + 1 AS c")) == [(3,)]
    assert rows_of(df.select(registered("n"))) == [(2,)]
    with pytest.raises(PySparkTypeError) as e:
        spark.udf.register("bad", plus_one, IntegerType())
    assert e.value.getCondition() == "CANNOT_SPECIFY_RETURN_TYPE_FOR_UDF"
    with pytest.raises(PySparkTypeError) as e:
        udf(lambda x: x, 42)
    assert e.value.getCondition() == "NOT_DATATYPE_OR_STR"
    # a registered function replaces a built-in one of the same name, as Spark's temporary function
    spark.udf.register("upper", lambda s: "custom:" + s)
    assert rows_of(spark.sql("SELECT upper(s) AS u FROM t")) == [("custom:a",)]


def test_scalar_pandas_udf_checks_its_result_as_pysparks_worker(world):
    from pyspark.errors import PythonException
    from pyspark.sql.functions import pandas_udf
    spark = world.spark
    df = spark.createDataFrame([(1,), (2,), (3,)], "n bigint")

    @pandas_udf("long")
    def plus(n: pd.Series) -> pd.Series:
        return n + 10
    assert rows_of(df.select(plus("n"))) == [(11,), (12,), (13,)]
    assert df.select(plus("n")).columns == ["plus(n)"]

    short = pandas_udf(lambda n: pd.Series([1]), "long")
    with pytest.raises(PythonException, match=r"SCHEMA_MISMATCH_FOR_PANDAS_UDF.*expected 3, got 1"):
        df.select(short("n")).collect()
    not_series = pandas_udf(lambda n: [1, 2, 3], "long")
    with pytest.raises(PythonException, match=r"UDF_RETURN_TYPE.*pandas.Series, but is list"):
        df.select(not_series("n")).collect()
    halves = pandas_udf(lambda n: n / 2, "long")   # 0.5 does not convert safely to a long
    with pytest.raises(PythonException, match="to Arrow Array"):
        df.select(halves("n")).collect()


def test_udfs_not_built_raise_not_implemented_naming_the_docs(world):
    from typing import Iterator
    from pyspark.sql.functions import pandas_udf, udf
    with pytest.raises(NotImplementedError, match="docs/python.md"):
        udf(lambda x: x, "int", useArrow=True)

    def it(batches: Iterator[pd.Series]) -> Iterator[pd.Series]:
        yield from batches
    with pytest.raises(NotImplementedError, match="docs/python.md"):
        pandas_udf(it, "long")

    def total(s: pd.Series) -> float:
        return float(s.sum())
    with pytest.raises(NotImplementedError, match="docs/python.md"):
        pandas_udf(total, "double")


def test_a_udf_that_raises_fails_the_query_with_the_python_traceback(world):
    from pyspark.errors import PythonException, StreamingQueryException
    from pyspark.sql.functions import col, udf
    spark = world.spark

    @udf("double")
    def ratio(a, b):
        return a / b

    world.put("/in/1.json", rows=[{"a": 1, "b": 2}, {"a": 1, "b": 0}])
    df = spark.readStream.schema("a int, b int").json("/in")
    q = (df.select(ratio(col("a"), col("b")).alias("r")).writeStream.format("memory")
         .queryName("ratios").start())
    with pytest.raises(StreamingQueryException) as e:
        q.awaitTermination()
    text = str(e.value)
    assert "PythonException" in text and "ZeroDivisionError: division by zero" in text
    assert "return a / b" in text          # the user's frame, as the worker's traceback has it
    assert not q.isActive
    # the batch side: PythonException from the action, with the traceback
    batch = spark.createDataFrame([(1, 0)], "a int, b int")
    with pytest.raises(PythonException, match="ZeroDivisionError"):
        batch.select(ratio("a", "b")).collect()


@pytest.mark.streamsim
def test_swept_udfs_enrich_a_kafka_stream_into_delta(streamsim_world):
    world = streamsim_world
    world.create_topic("orders", partitions=2)
    order(world, 1, "  Ann ", 50.0)
    order(world, 2, "BOB", 5.0)
    world.run_job(load_job("kafka_udf_enrich_delta").main)
    order(world, 3, "Cid", 250.0)
    world._query.processAllAvailable()
    got = rows_of(world.spark.sql("SELECT order_id, customer, gross, tier FROM orders_enriched ORDER BY order_id"))
    assert got == [("o1", "ann", 60.0, 2), ("o2", "bob", 6.0, 1), ("o3", "cid", 300.0, 3)]
