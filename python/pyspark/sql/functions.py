"""pyspark.sql.functions for streamsim: each function renders Spark SQL text for the engine's
parser (docs/scenarios.md "Expressions" lists what the engine evaluates; a function it does not
have fails analysis with Spark's UNRESOLVED_ROUTINE). Aggregate functions (count, sum, min, max,
avg, ...) are for groupBy().agg() and spark.sql over batch data (docs/python.md)."""

from typing import Any, Dict, Optional

from pyspark.sql.column import Column, _as_column, _literal_sql, _name_sql, _to_sql
from pyspark.errors import PySparkTypeError


def col(col: str) -> Column:
    if not isinstance(col, str):
        raise PySparkTypeError(f"[NOT_STR] Argument `col` should be a str, got {type(col).__name__}.",
                               errorClass="NOT_STR",
                               messageParameters={"arg_name": "col", "arg_type": type(col).__name__})
    return Column(_name_sql(col))


column = col


def lit(col: Any) -> Column:
    if isinstance(col, Column):
        return col
    return Column(_literal_sql(col))


def expr(str: str) -> Column:
    return Column(str)


def _call(name: str, *args: Any) -> Column:
    return Column(f"{name}({', '.join(args)})")


def _c(c: Any) -> str:
    return _as_column(c)._expr


def _fn1(name: str):
    def f(col: Any) -> Column:
        return _call(name, _c(col))
    f.__name__ = name
    return f


for _n in ["upper", "lower", "length", "trim", "ltrim", "rtrim", "abs", "sqrt", "cbrt", "exp",
           "expm1", "log10", "log2", "log1p", "sin", "cos", "tan", "signum", "floor", "ceil",
           "year", "quarter", "month", "dayofmonth", "dayofweek", "dayofyear", "hour", "minute",
           "second", "weekday", "size", "map_keys", "map_values", "explode", "explode_outer",
           "posexplode", "posexplode_outer", "isnull", "isnotnull", "isnan", "unix_seconds", "unix_millis",
           "timestamp_seconds", "timestamp_millis", "timestamp_micros", "ln"]:
    globals()[_n] = _fn1(_n)
ceiling = globals()["ceil"]
day = globals()["dayofmonth"]


def _ddl(schema: Any) -> str:
    from pyspark.sql.types import DataType, toEngineDDL
    if isinstance(schema, Column):
        return schema._expr
    if isinstance(schema, DataType):
        return _literal_sql(toEngineDDL(schema))
    return _literal_sql(str(schema))


def _options(options: Optional[Dict[str, str]]) -> str:
    if not options:
        return ""
    kv = ", ".join(f"{_literal_sql(str(k))}, {_literal_sql(str(v))}" for k, v in options.items())
    return f", map({kv})"


def from_json(col: Any, schema: Any, options: Optional[Dict[str, str]] = None) -> Column:
    return Column(f"from_json({_c(col)}, {_ddl(schema)}{_options(options)})")


def to_json(col: Any, options: Optional[Dict[str, str]] = None) -> Column:
    return Column(f"to_json({_c(col)}{_options(options)})")


def get_json_object(col: Any, path: str) -> Column:
    return _call("get_json_object", _c(col), _literal_sql(path))


def to_timestamp(col: Any, format: Optional[str] = None) -> Column:
    return _call("to_timestamp", _c(col)) if format is None else _call("to_timestamp", _c(col), _literal_sql(format))


def to_date(col: Any, format: Optional[str] = None) -> Column:
    return _call("to_date", _c(col)) if format is None else _call("to_date", _c(col), _literal_sql(format))


def current_date() -> Column:
    return _call("current_date")


def date_add(start: Any, days: Any) -> Column:
    return _call("date_add", _c(start), _c(days) if not isinstance(days, int) else str(days))


def date_sub(start: Any, days: Any) -> Column:
    return _call("date_sub", _c(start), _c(days) if not isinstance(days, int) else str(days))


def datediff(end: Any, start: Any) -> Column:
    return _call("datediff", _c(end), _c(start))


def unix_timestamp(timestamp: Any = None, format: str = "yyyy-MM-dd HH:mm:ss") -> Column:
    if timestamp is None:
        return _call("unix_timestamp")
    return _call("unix_timestamp", _c(timestamp), _literal_sql(format))


def from_unixtime(timestamp: Any, format: str = "yyyy-MM-dd HH:mm:ss") -> Column:
    return _call("from_unixtime", _c(timestamp), _literal_sql(format))


def date_format(date: Any, format: str) -> Column:
    return _call("date_format", _c(date), _literal_sql(format))


def date_trunc(format: str, timestamp: Any) -> Column:
    return _call("date_trunc", _literal_sql(format), _c(timestamp))


def current_timestamp() -> Column:
    return _call("current_timestamp")


now = current_timestamp


def concat(*cols: Any) -> Column:
    return _call("concat", *(_c(c) for c in cols))


def concat_ws(sep: str, *cols: Any) -> Column:
    return _call("concat_ws", _literal_sql(sep), *(_c(c) for c in cols))


def coalesce(*cols: Any) -> Column:
    return _call("coalesce", *(_c(c) for c in cols))


def nanvl(col1: Any, col2: Any) -> Column:
    return _call("nanvl", _c(col1), _c(col2))


def greatest(*cols: Any) -> Column:
    return _call("greatest", *(_c(c) for c in cols))


def least(*cols: Any) -> Column:
    return _call("least", *(_c(c) for c in cols))


def struct(*cols: Any) -> Column:
    if len(cols) == 1 and isinstance(cols[0], (list, tuple)):
        cols = tuple(cols[0])
    parts = []
    for c in cols:
        cc = _as_column(c)
        parts.append(cc._sql())
    return _call("struct", *parts)


def array(*cols: Any) -> Column:
    return _call("array", *(_c(c) for c in cols))


def create_map(*cols: Any) -> Column:
    return _call("map", *(_c(c) for c in cols))


def split(str: Any, pattern: str, limit: int = -1) -> Column:
    return _call("split", _c(str), _literal_sql(pattern), _literal_sql(limit))


def substring(str: Any, pos: int, len: int) -> Column:
    return _call("substring", _c(str), _literal_sql(pos), _literal_sql(len))


def regexp_extract(str: Any, pattern: str, idx: int) -> Column:
    return _call("regexp_extract", _c(str), _literal_sql(pattern), _literal_sql(idx))


def regexp_replace(string: Any, pattern: Any, replacement: Any) -> Column:
    return _call("regexp_replace", _c(string), _to_sql(pattern), _to_sql(replacement))


def lpad(col: Any, len: int, pad: str) -> Column:
    return _call("lpad", _c(col), _literal_sql(len), _literal_sql(pad))


def rpad(col: Any, len: int, pad: str) -> Column:
    return _call("rpad", _c(col), _literal_sql(len), _literal_sql(pad))


def round(col: Any, scale: int = 0) -> Column:
    return _call("round", _c(col), _literal_sql(scale))


def pow(col1: Any, col2: Any) -> Column:
    return _call("pow", _to_sql(col1) if not isinstance(col1, str) else _c(col1),
                 _to_sql(col2) if not isinstance(col2, str) else _c(col2))


def element_at(col: Any, extraction: Any) -> Column:
    return _call("element_at", _c(col), _to_sql(extraction))


def array_contains(col: Any, value: Any) -> Column:
    return _call("array_contains", _c(col), _to_sql(value))


def when(condition: Column, value: Any) -> Column:
    return Column(f"CASE WHEN {_to_sql(condition)} THEN {_to_sql(value)} END")


# --- aggregate functions (groupBy().agg(), spark.sql over batch data) ---
def count(col: Any) -> Column:
    return Column("count(1)") if isinstance(col, str) and col == "*" else _call("count", _c(col))


def countDistinct(col: Any, *cols: Any) -> Column:
    return Column(f"count(DISTINCT {', '.join(_c(c) for c in (col,) + cols)})")


count_distinct = countDistinct


def _agg1(name: str):
    def f(col: Any) -> Column:
        return _call(name, _c(col))
    f.__name__ = name
    return f


for _n in ["sum", "min", "max", "avg", "mean", "first", "last", "collect_list", "collect_set"]:
    globals()[_n] = _agg1(_n)


# --- windows (a streaming groupBy's time windows; TimeWindow.scala / SessionWindow.scala) ---
def window(timeColumn: Any, windowDuration: str, slideDuration: Optional[str] = None,
           startTime: Optional[str] = None) -> Column:
    """PySpark's window(): the `window` struct column {start, end} of a tumbling (no slide) or
    sliding window, as the engine's window() expression."""
    for name, v in (("windowDuration", windowDuration), ("slideDuration", slideDuration),
                    ("startTime", startTime)):
        if v is not None and not isinstance(v, str):
            raise PySparkTypeError(f"[NOT_STR] Argument `{name}` should be a str, got "
                                   f"{type(v).__name__}.", errorClass="NOT_STR",
                                   messageParameters={"arg_name": name, "arg_type": type(v).__name__})
    args = [_c(timeColumn), _literal_sql(windowDuration)]
    if slideDuration is not None or startTime is not None:
        args.append(_literal_sql(slideDuration if slideDuration is not None else windowDuration))
    if startTime is not None:
        args.append(_literal_sql(startTime))
    return Column(f"window({', '.join(args)})", "window")


def session_window(timeColumn: Any, gapDuration: Any) -> Column:
    """PySpark's session_window(): the `session_window` struct column {start, end}."""
    if not isinstance(gapDuration, (str, Column)):
        raise PySparkTypeError(f"[NOT_COLUMN_OR_STR] Argument `gapDuration` should be a Column or "
                               f"str, got {type(gapDuration).__name__}.", errorClass="NOT_COLUMN_OR_STR",
                               messageParameters={"arg_name": "gapDuration",
                                                  "arg_type": type(gapDuration).__name__})
    gap = _literal_sql(gapDuration) if isinstance(gapDuration, str) else gapDuration._expr
    return Column(f"session_window({_c(timeColumn)}, {gap})", "session_window")


def rand(seed: Optional[int] = None) -> Column:
    return _call("rand") if seed is None else _call("rand", _literal_sql(seed))


def randn(seed: Optional[int] = None) -> Column:
    return _call("randn") if seed is None else _call("randn", _literal_sql(seed))


def uuid() -> Column:
    return _call("uuid")


def asc(col: str) -> Column:
    return _as_column(col).asc()


def desc(col: str) -> Column:
    return _as_column(col).desc()


# --- not built: named so that a job gets a clear error, never a silent no-op ---
def _not_built(name: str):
    def f(*args: Any, **kwargs: Any) -> Column:
        raise NotImplementedError(f"pyspark.sql.functions.{name} is not built in streamsim; see "
                                  "docs/python.md (PySpark jobs)")
    f.__name__ = name
    return f


from pyspark.sql.udf import pandas_udf, udf  # noqa: E402

for _n in ["monotonically_increasing_id",
           "base64", "json_tuple", "broadcast", "input_file_name"]:
    globals()[_n] = _not_built(_n)
