"""Python UDFs for streamsim: ``udf`` (row at a time), ``pandas_udf`` (scalar: Series -> Series)
and ``spark.udf.register``, run by the interpreter the job runs in, called by the engine's
analyzer and evaluator as user-defined functions (engine/include/streamsim/expr/user_functions.h,
python/native/python_udf.cc).

What a UDF gets and returns follows PySpark (docs/python.md "Python UDFs"):

- a ``udf`` is called once per row with the argument values as PySpark's worker unpickles them
  (a struct a Row, an array a list, a map a dict, a timestamp a naive datetime in UTC); its result
  goes through the return type's ``toInternal`` in the worker and then Spark's
  ``EvaluatePython.makeFromJava`` (sql/core/.../python/EvaluatePython.scala): a value of another
  type becomes null -- an int for a DoubleType, a float for an IntegerType, a str for a number --
  while a StringType takes any value as its Java ``toString`` (``4`` -> ``"4"``, ``True`` ->
  ``"true"``, ``1e10`` -> ``"1.0E10"``);
- a scalar ``pandas_udf`` is called once per batch of rows with one ``pandas.Series`` per
  argument and must return a Series of the same length (python/pyspark/worker.py
  ``verify_result_length``: ``UDF_RETURN_TYPE``, ``SCHEMA_MISMATCH_FOR_PANDAS_UDF``); its values
  are converted as Arrow converts them safely (an int for a double, a whole float for an int; a
  fraction for an int or a str for a number fails);
- an exception the function raises fails the task with PythonException and the function's
  traceback (core/.../api/python/PythonRDD.scala), so the streaming query fails
  (StreamingQueryException) and a batch action raises ``pyspark.errors.PythonException``.
"""

import datetime as _dt
import functools
import inspect
import traceback
from typing import Any, Callable, Dict, List, Optional, Tuple

from pyspark.errors import PySparkRuntimeError, PySparkTypeError
from pyspark.sql.types import (ArrayType, BooleanType, ByteType, DataType, DateType, DoubleType,
                               FloatType, IntegerType, LongType, MapType, Row, ShortType,
                               StringType, StructType, TimestampNTZType, TimestampType,
                               _engine_type, _parse_datatype_string)

__all__ = ["UserDefinedFunction", "UDFRegistration", "PythonEvalType"]


class PythonEvalType:
    """PySpark's evaluation types (python/pyspark/util.py) of the UDFs streamsim runs."""
    NON_UDF = 0
    SQL_BATCHED_UDF = 100
    SQL_SCALAR_PANDAS_UDF = 200
    SQL_GROUPED_MAP_PANDAS_UDF = 201
    SQL_GROUPED_AGG_PANDAS_UDF = 202
    SQL_WINDOW_AGG_PANDAS_UDF = 203
    SQL_SCALAR_PANDAS_ITER_UDF = 204


# Every UDF object made in this process, by the name its calls carry in SQL text ("name__udfN");
# a query or a batch evaluation hands the engine the ones its text calls.
_anonymous: Dict[str, "UserDefinedFunction"] = {}


def _sql_name(display: str) -> str:
    keep = "".join(c if c.isalnum() or c == "_" else "_" for c in display) or "udf"
    if keep[0].isdigit():
        keep = "_" + keep
    return f"{keep}__udf{len(_anonymous) + 1}"


class UserDefinedFunction:
    """A Python UDF (PySpark's pyspark/sql/udf.py UserDefinedFunction): called on Columns or
    column names it makes a Column calling the function."""

    def __init__(self, func: Callable[..., Any], returnType: Any = StringType(),
                 name: Optional[str] = None, evalType: int = PythonEvalType.SQL_BATCHED_UDF,
                 deterministic: bool = True) -> None:
        if not callable(func):
            raise PySparkTypeError(f"[NOT_CALLABLE] Argument `func` should be a callable, got "
                                   f"{type(func).__name__}.", errorClass="NOT_CALLABLE",
                                   messageParameters={"arg_name": "func",
                                                      "arg_type": type(func).__name__})
        if not isinstance(returnType, (DataType, str)):
            raise PySparkTypeError(f"[NOT_DATATYPE_OR_STR] Argument `returnType` should be a "
                                   f"DataType or str, got {type(returnType).__name__}.",
                                   errorClass="NOT_DATATYPE_OR_STR",
                                   messageParameters={"arg_name": "returnType",
                                                      "arg_type": type(returnType).__name__})
        if not isinstance(evalType, int):
            raise PySparkTypeError(f"[NOT_INT] Argument `evalType` should be an int, got "
                                   f"{type(evalType).__name__}.", errorClass="NOT_INT",
                                   messageParameters={"arg_name": "evalType",
                                                      "arg_type": type(evalType).__name__})
        self.func = func
        self._returnType = returnType
        self._name = name or getattr(func, "__name__", type(func).__name__)
        self.evalType = evalType
        self.deterministic = deterministic
        self._key = _sql_name(self._name)
        _anonymous[self._key] = self

    @property
    def returnType(self) -> DataType:
        if isinstance(self._returnType, DataType):
            return self._returnType
        return _parse_datatype_string(self._returnType)

    def __call__(self, *cols: Any) -> Any:
        from pyspark.sql.column import Column, _as_column
        args = ", ".join(_as_column(c)._expr for c in cols)
        return Column(f"{self._key}({args})")

    def asNondeterministic(self) -> "UserDefinedFunction":
        self.deterministic = False
        return self

    # --- what the engine calls ---
    def _entry(self, key: str) -> Tuple[Callable[[List[List[Any]], int], List[Any]], str, str, str]:
        """(evaluate(columns, rows), return type in the engine's DDL, display name, file)."""
        rt = self.returnType
        ddl = _engine_type(rt, f"the return type of UDF {self._name}")
        code = getattr(self.func, "__code__", None)
        where = code.co_filename if code is not None else "<udf>"
        if self.evalType == PythonEvalType.SQL_SCALAR_PANDAS_UDF:
            run = functools.partial(_evaluate_pandas, self.func, rt)
        else:
            run = functools.partial(_evaluate_rows, self.func, rt)
        return run, ddl, self._name, where

    def _wrapped(self) -> Callable[..., Any]:
        """PySpark's wrapper: a function carrying func, returnType, evalType, deterministic."""
        assignments = tuple(a for a in functools.WRAPPER_ASSIGNMENTS
                            if a not in ("__name__", "__module__"))

        @functools.wraps(self.func, assigned=assignments)
        def wrapper(*args: Any) -> Any:
            return self(*args)

        wrapper.__name__ = self._name
        wrapper.__module__ = getattr(self.func, "__module__", type(self.func).__module__)
        wrapper.func = self.func  # type: ignore[attr-defined]
        wrapper.returnType = self.returnType  # type: ignore[attr-defined]
        wrapper.evalType = self.evalType  # type: ignore[attr-defined]
        wrapper.deterministic = self.deterministic  # type: ignore[attr-defined]
        wrapper.asNondeterministic = lambda: self.asNondeterministic()._wrapped()  # type: ignore[attr-defined]
        wrapper._unwrapped = self  # type: ignore[attr-defined]
        return wrapper


class UDFRegistration:
    """``spark.udf``: ``register(name, f, returnType=None)`` makes a Python function (or a udf /
    pandas_udf) callable by name from SQL text -- ``spark.sql``, ``selectExpr``, ``expr`` -- of
    this session, replacing a built-in function of that name as Spark's temporary function does."""

    def __init__(self, sparkSession: Any) -> None:
        self.sparkSession = sparkSession
        self._functions: Dict[str, UserDefinedFunction] = {}

    def register(self, name: str, f: Any, returnType: Any = None) -> Any:
        if hasattr(f, "asNondeterministic"):
            if returnType is not None:
                raise PySparkTypeError(
                    "[CANNOT_SPECIFY_RETURN_TYPE_FOR_UDF] returnType can not be specified when `f` "
                    f"is a user-defined function, but got {returnType}.",
                    errorClass="CANNOT_SPECIFY_RETURN_TYPE_FOR_UDF",
                    messageParameters={"arg_name": "f", "return_type": str(returnType)})
            source = f._unwrapped if hasattr(f, "_unwrapped") else f
            if source.evalType not in (PythonEvalType.SQL_BATCHED_UDF,
                                       PythonEvalType.SQL_SCALAR_PANDAS_UDF):
                raise PySparkTypeError(
                    "[INVALID_UDF_EVAL_TYPE] Eval type for UDF must be SQL_BATCHED_UDF, "
                    "SQL_SCALAR_PANDAS_UDF, SQL_SCALAR_PANDAS_ITER_UDF or SQL_GROUPED_AGG_PANDAS_UDF.",
                    errorClass="INVALID_UDF_EVAL_TYPE")
            registered = UserDefinedFunction(source.func, returnType=source.returnType, name=name,
                                             evalType=source.evalType,
                                             deterministic=source.deterministic)
        else:
            registered = UserDefinedFunction(f, returnType=StringType() if returnType is None
                                             else returnType, name=name)
        registered.returnType  # a bad DDL string fails here, as PySpark's register does
        self._functions[name.lower()] = registered
        return registered._wrapped()

    def registerJavaFunction(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError("spark.udf.registerJavaFunction is not built in streamsim (Python "
                                  "UDFs are); see docs/python.md (PySpark jobs)")


def table(session: Any, texts: List[str]) -> Dict[str, Any]:
    """The UDFs the SQL `texts` may call, for the engine: the session's registered functions by
    their names and every udf object whose name occurs in a text."""
    out: Dict[str, Any] = {}
    joined = "\n".join(texts).lower()
    registry = getattr(session, "_udf_registration", None)
    if registry is not None:
        for name, u in registry._functions.items():
            if name in joined:
                out[name] = u._entry(name)
    for key, u in _anonymous.items():
        if key.lower() in joined:
            out[key] = u._entry(key)
    return out


# --- evaluation ---

class _UserCodeError(Exception):
    """The function raised: the message is its traceback, as PySpark's worker sends it."""


def _user_traceback(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)[1:]  # from the user's function on
    text = "Traceback (most recent call last):\n" + "".join(traceback.format_list(frames))
    return text + "".join(traceback.format_exception_only(type(exc), exc))


def _evaluate_rows(func: Callable[..., Any], rt: DataType, columns: List[List[Any]],
                   rows: int) -> List[Any]:
    out = []
    for r in range(rows):
        args = [c[r] for c in columns]
        try:
            value = func(*args)
        except Exception as e:
            raise _UserCodeError(_user_traceback(e)) from None
        out.append(_from_python(value, rt))
    return out


def _evaluate_pandas(func: Callable[..., Any], rt: DataType, columns: List[List[Any]],
                     rows: int) -> List[Any]:
    import pandas as pd
    series = [pd.Series(c) for c in columns]
    try:
        result = func(*series)
    except Exception as e:
        raise _UserCodeError(_user_traceback(e)) from None
    if not isinstance(result, pd.Series):
        raise PySparkTypeError(
            f"[UDF_RETURN_TYPE] Return type of the user-defined function should be pandas.Series, "
            f"but is {type(result).__name__}.", errorClass="UDF_RETURN_TYPE",
            messageParameters={"expected": "pandas.Series", "actual": type(result).__name__})
    if len(result) != rows:
        raise PySparkRuntimeError(
            f"[SCHEMA_MISMATCH_FOR_PANDAS_UDF] Result vector from pandas_udf was not the required "
            f"length: expected {rows}, got {len(result)}.", errorClass="SCHEMA_MISMATCH_FOR_PANDAS_UDF",
            messageParameters={"expected": str(rows), "actual": str(len(result))})
    return [_from_arrow(v, rt, result) for v in result.tolist()]


def _java_double(d: float) -> str:
    """Java's Double.toString (what a StringType UDF returning a float gives): the shortest
    digits, plain between 1e-3 and 1e7 (``1.0``, ``0.25``), else ``d.dddE±n`` (``1.0E10``)."""
    import decimal
    import math
    if d != d:
        return "NaN"
    if math.isinf(d):
        return "Infinity" if d > 0 else "-Infinity"
    if d == 0:
        return "-0.0" if math.copysign(1.0, d) < 0 else "0.0"
    sign, a = ("-" if d < 0 else ""), abs(d)
    t = decimal.Decimal(repr(a)).normalize()
    _, ds, e10 = t.as_tuple()
    digits = "".join(map(str, ds))
    if 1e-3 <= a < 1e7:
        text = format(t, "f")
        return sign + (text if "." in text else text + ".0")
    return f"{sign}{digits[0]}.{digits[1:] or '0'}E{len(digits) - 1 + int(e10)}"


def _java_string(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return _java_double(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_java_string(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_java_string(k)}={_java_string(x)}" for k, x in v.items()) + "}"
    return str(v)


_INT_BITS = {ByteType: 8, ShortType: 16, IntegerType: 32, LongType: 64}


def _wrap(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def _from_python(v: Any, rt: DataType) -> Any:
    """A row UDF's result as Spark reads it back (the worker's toInternal, then
    EvaluatePython.makeFromJava): a value of another type is null."""
    if v is None:
        return None
    t = type(rt)
    if t is BooleanType:
        return v if isinstance(v, bool) else None
    if t in _INT_BITS:
        if isinstance(v, bool) or not isinstance(v, int) or not -2**63 <= v < 2**63:
            return None  # a Boolean, a Double, a String, a BigInteger: no case matches
        return _wrap(v, _INT_BITS[t])
    if t in (FloatType, DoubleType):
        return float(v) if isinstance(v, float) else None
    if t is StringType:
        return v if isinstance(v, str) else _java_string(v)
    if t in (TimestampType, TimestampNTZType):
        if not isinstance(v, _dt.datetime):  # TimestampType.toInternal reads dt.tzinfo
            raise _UserCodeError(f"AttributeError: '{type(v).__name__}' object has no attribute 'tzinfo' "
                                 "(a UDF returning TimestampType must return a datetime)")
        return v
    if t is DateType:
        return v if isinstance(v, _dt.date) else None
    if isinstance(rt, ArrayType):
        if not isinstance(v, (list, tuple)):
            return None
        return [_from_python(x, rt.elementType) for x in v]
    if isinstance(rt, MapType):
        if not isinstance(v, dict):
            return None
        return {_from_python(k, rt.keyType): _from_python(x, rt.valueType) for k, x in v.items()}
    if isinstance(rt, StructType):
        names = rt.fieldNames()
        if isinstance(v, dict):
            values = [v.get(n) for n in names]
        elif isinstance(v, Row) and getattr(v, "__fields__", None):
            d = v.asDict()
            values = [d.get(n) for n in names]
        elif isinstance(v, (tuple, list)):
            if len(v) != len(names):
                raise _UserCodeError(
                    f"[STRUCT_ARRAY_LENGTH_MISMATCH] Input row doesn't have expected number of "
                    f"values required by the schema. {len(names)} fields are required while "
                    f"{len(v)} values are provided.")
            values = list(v)
        else:
            raise _UserCodeError(f"ValueError: Unexpected tuple {v!r} with StructType")
        return tuple(_from_python(x, f.dataType) for x, f in zip(values, rt.fields))
    return v


def _from_arrow(v: Any, rt: DataType, series: Any) -> Any:
    """A pandas UDF's result value as pyarrow's safe conversion to the return type reads it."""
    import math

    def fail() -> None:
        raise PySparkTypeError(
            f"Exception thrown when converting pandas.Series ({series.dtype}) with name "
            f"'{series.name}' to Arrow Array ({rt.simpleString()}).", errorClass=None)
    if v is None or (isinstance(v, float) and math.isnan(v) and type(rt) not in (FloatType, DoubleType)):
        return None
    t = type(rt)
    if t is BooleanType:
        if not isinstance(v, bool):
            fail()
        return v
    if t in _INT_BITS:
        if isinstance(v, float):
            if v != int(v):
                fail()
            v = int(v)
        if isinstance(v, bool) or not isinstance(v, int) or _wrap(v, _INT_BITS[t]) != v:
            fail()
        return v
    if t in (FloatType, DoubleType):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            fail()
        return float(v)
    if t is StringType:
        if not isinstance(v, str):
            fail()
        return v
    if t in (TimestampType, TimestampNTZType):
        if hasattr(v, "to_pydatetime"):
            v = v.to_pydatetime()
        if not isinstance(v, _dt.datetime):
            fail()
        return v
    return _from_python(v, rt)


def _create_udf(f: Callable[..., Any], returnType: Any, evalType: int,
                name: Optional[str] = None, deterministic: bool = True) -> Callable[..., Any]:
    return UserDefinedFunction(f, returnType=returnType, name=name, evalType=evalType,
                               deterministic=deterministic)._wrapped()


def udf(f: Any = None, returnType: Any = StringType(), *, useArrow: Optional[bool] = None) -> Any:
    """pyspark.sql.functions.udf: ``udf(f, returnType)``, ``@udf``, ``@udf("int")`` /
    ``@udf(returnType=IntegerType())``. ``useArrow=True`` (Arrow-optimized UDFs, whose type
    coercion differs) is not built."""
    if useArrow:
        raise NotImplementedError("udf(useArrow=True) (Arrow-optimized Python UDFs) is not built in "
                                  "streamsim; see docs/python.md (Python UDFs)")
    if f is None or isinstance(f, (str, DataType)):
        rt = f or returnType
        return functools.partial(_create_udf, returnType=rt, evalType=PythonEvalType.SQL_BATCHED_UDF)
    return _create_udf(f, returnType, PythonEvalType.SQL_BATCHED_UDF)


def _pandas_eval_type(f: Callable[..., Any]) -> int:
    """The UDF type its type hints say (pyspark/sql/pandas/typehints.py): Series... -> Series is
    scalar; Iterator[Series] -> Iterator[Series] is scalar iter; Series -> a scalar is grouped agg.
    Without hints: scalar."""
    try:
        sig = inspect.signature(f)
    except (TypeError, ValueError):
        return PythonEvalType.SQL_SCALAR_PANDAS_UDF
    hints = [p.annotation for p in sig.parameters.values()]
    ret = sig.return_annotation
    if ret is inspect.Signature.empty and all(h is inspect.Parameter.empty for h in hints):
        return PythonEvalType.SQL_SCALAR_PANDAS_UDF
    text = str(ret)
    if "Iterator" in text:
        return PythonEvalType.SQL_SCALAR_PANDAS_ITER_UDF
    if "Series" in text or "DataFrame" in text or ret is inspect.Signature.empty:
        return PythonEvalType.SQL_SCALAR_PANDAS_UDF
    return PythonEvalType.SQL_GROUPED_AGG_PANDAS_UDF


def pandas_udf(f: Any = None, returnType: Any = None, functionType: Optional[int] = None) -> Any:
    """pyspark.sql.functions.pandas_udf, the scalar kind (Series -> Series): ``@pandas_udf("long")``,
    ``pandas_udf(f, "long")``. The iterator, grouped-aggregate and grouped-map kinds are not
    built (NotImplementedError)."""
    if f is not None and not callable(f) and returnType is None:
        f, returnType = None, f  # @pandas_udf("long") / @pandas_udf(LongType())
    if isinstance(returnType, int) and not isinstance(returnType, bool) and functionType is None:
        functionType, returnType = returnType, None
    if f is None:
        def decorate(g: Callable[..., Any]) -> Any:
            return pandas_udf(g, returnType, functionType)
        if returnType is None:
            raise PySparkTypeError("[CANNOT_BE_NONE] Argument `returnType` cannot be None.",
                                   errorClass="CANNOT_BE_NONE", messageParameters={"arg_name": "returnType"})
        return decorate
    if returnType is None:
        raise PySparkTypeError("[CANNOT_BE_NONE] Argument `returnType` cannot be None.",
                               errorClass="CANNOT_BE_NONE", messageParameters={"arg_name": "returnType"})
    eval_type = functionType if functionType is not None else _pandas_eval_type(f)
    if eval_type != PythonEvalType.SQL_SCALAR_PANDAS_UDF:
        raise NotImplementedError(f"pandas_udf of evalType {eval_type} (iterator, grouped aggregate "
                                  "and grouped map pandas UDFs) is not built in streamsim; the scalar "
                                  "kind (Series -> Series) is. See docs/python.md (Python UDFs)")
    return _create_udf(f, returnType, PythonEvalType.SQL_SCALAR_PANDAS_UDF)
