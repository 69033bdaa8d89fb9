"""Unions of batch DataFrames (Spark's Union; union/unionAll by position, unionByName through
ResolveUnion's projection, done by the caller): the first side's column names, each column's
type widened as WidenSetOperationTypes widens numbers (TINYINT < SMALLINT < INT < BIGINT < FLOAT
< DOUBLE; a NULL column takes the other side's type), duplicates kept (UNION ALL)."""

from typing import Any, List

from pyspark.errors import AnalysisException
from pyspark.sql import _batch
from pyspark.sql.types import StructField, StructType, _parse_datatype_string

_NUMERIC = ["tinyint", "smallint", "int", "bigint", "float", "double"]


def _wider(a: str, b: str) -> str:
    if a == b or b == "void":
        return a
    if a == "void":
        return b
    if a in _NUMERIC and b in _NUMERIC:
        return _NUMERIC[max(_NUMERIC.index(a), _NUMERIC.index(b))]
    raise NotImplementedError(f"DataFrame.union of batch DataFrames whose columns are {a} and {b} "
                              "is not built in streamsim (numeric widening is); see docs/python.md")


def union(left: _batch.Rel, right: _batch.Rel) -> _batch.Rel:
    lf, rf = left.schema.fields, right.schema.fields
    if len(lf) != len(rf):
        raise AnalysisException(
            f"[NUM_COLUMNS_MISMATCH] UNION can only be performed on inputs with the same number of "
            f"columns, but the first input has {len(lf)} columns and the second input has {len(rf)} "
            "columns.", errorClass="NUM_COLUMNS_MISMATCH")
    fields: List[StructField] = []
    floating: List[bool] = []
    for a, b in zip(lf, rf):
        t = _wider(a.dataType.simpleString(), b.dataType.simpleString())
        fields.append(StructField(a.name, _parse_datatype_string(t), a.nullable or b.nullable))
        floating.append(t in ("float", "double"))

    def widen(row: Any) -> tuple:
        return tuple(float(v) if f and isinstance(v, int) and not isinstance(v, bool) else v
                     for v, f in zip(row, floating))
    return _batch.Rel(StructType(fields), [widen(r) for r in left.rows] + [widen(r) for r in right.rows])
