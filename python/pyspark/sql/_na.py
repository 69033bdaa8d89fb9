"""DataFrame.na / fillna / dropna (DataFrameNaFunctions, sql/core classic/DataFrameNaFunctions.scala
and pyspark/sql/dataframe.py), as expressions over the DataFrame's columns -- so the same on a
batch and on a stream:

- fill(value, subset): an int or float fills every numeric column (the value cast to the
  column's type: 3.7 in an INT column is 3), a str every string column, a bool every boolean
  column -- of `subset` when given; a DOUBLE/FLOAT column's NaN is filled too (nanvl). A dict
  fills each named column with its value (cast to the column's type); subset is then ignored.
- drop(how='any'|'all', thresh, subset): keeps a row with at least `thresh` (how='any': all of
  the columns; 'all': one) values that are neither null nor NaN (AtLeastNNonNulls).
- replace is not built."""

from typing import Any, Dict, List, Optional, Sequence

from pyspark.errors import PySparkTypeError, PySparkValueError
from pyspark.sql.column import _literal_sql

_NUMERIC = ("tinyint", "smallint", "int", "bigint", "float", "double", "byte", "short", "integer",
            "long")
_FLOATING = ("float", "double")


def _type(f: Any) -> str:
    t = f.dataType.simpleString()
    return "decimal" if t.startswith("decimal") else t


def _q(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def _fill_expr(name: str, t: str, value: Any) -> str:
    c = _q(name)
    if t in _FLOATING:
        c = f"nanvl({c}, CAST(NULL AS DOUBLE))"
    return f"coalesce({c}, CAST({_literal_sql(value)} AS {t.upper()})) AS {_q(name)}"


def _check_subset(subset: Any) -> Optional[List[str]]:
    if subset is None:
        return None
    if isinstance(subset, str):
        return [subset]
    if not isinstance(subset, (list, tuple)):
        raise PySparkTypeError("[NOT_LIST_OR_STR_OR_TUPLE] Argument `subset` should be a list, str "
                               f"or tuple, got {type(subset).__name__}.",
                               errorClass="NOT_LIST_OR_STR_OR_TUPLE")
    return list(subset)


def fill(df: Any, value: Any, subset: Any = None) -> Any:
    if not isinstance(value, (float, int, str, bool, dict)):
        raise PySparkTypeError("[NOT_BOOL_OR_DICT_OR_FLOAT_OR_INT_OR_STR] Argument `value` should be a "
                               f"bool, dict, float, int or str, got {type(value).__name__}.",
                               errorClass="NOT_BOOL_OR_DICT_OR_FLOAT_OR_INT_OR_STR")
    fields = df.schema.fields
    names = [f.name for f in fields]
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(v, (float, int, str, bool)):
                raise PySparkTypeError(f"Unsupported value type {type(v).__name__} ({v!r}).",
                                       errorClass="NOT_BOOL_OR_FLOAT_OR_INT_OR_STR")
            if k not in names:
                from pyspark.errors import AnalysisException
                raise AnalysisException(f"[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column or function "
                                        f"parameter with name `{k}` cannot be resolved.",
                                        errorClass="UNRESOLVED_COLUMN.WITH_SUGGESTION")
        exprs = [_fill_expr(f.name, _type(f), value[f.name]) if f.name in value else _q(f.name)
                 for f in fields]
        return df.selectExpr(*exprs)
    cols = _check_subset(subset)
    if isinstance(value, bool):
        match = ("boolean",)
    elif isinstance(value, (int, float)):
        value, match = float(value), _NUMERIC + ("decimal",)
    else:
        match = ("string",)
    exprs = [_fill_expr(f.name, _type(f), value)
             if _type(f) in match and (cols is None or f.name in cols) else _q(f.name)
             for f in fields]
    return df.selectExpr(*exprs)


def drop(df: Any, how: str = "any", thresh: Optional[int] = None, subset: Any = None) -> Any:
    if how not in ("any", "all"):
        raise PySparkValueError(f"[VALUE_NOT_ANY_OR_ALL] Value for `how` must be 'any' or 'all', got "
                                f"'{how}'.", errorClass="VALUE_NOT_ANY_OR_ALL")
    cols = _check_subset(subset)
    fields = [f for f in df.schema.fields if cols is None or f.name in cols]
    if thresh is None:
        thresh = len(fields) if how == "any" else 1
    if not fields:
        return df if thresh <= 0 else df.where("false")
    terms = []
    for f in fields:
        test = f"{_q(f.name)} IS NOT NULL"
        if _type(f) in _FLOATING:
            test += f" AND NOT isnan({_q(f.name)})"
        terms.append(f"CASE WHEN {test} THEN 1 ELSE 0 END")
    return df.where(f"({' + '.join(terms)}) >= {int(thresh)}")


class DataFrameNaFunctions:
    def __init__(self, df: Any) -> None:
        self.df = df

    def fill(self, value: Any, subset: Any = None) -> Any:
        return fill(self.df, value, subset)

    def drop(self, how: str = "any", thresh: Optional[int] = None, subset: Any = None) -> Any:
        return drop(self.df, how, thresh, subset)

    def replace(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("DataFrame.na.replace is not built in streamsim; see docs/python.md")
