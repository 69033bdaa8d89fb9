"""Joins of two batch DataFrames (the rows a foreachBatch body or a test holds), as Spark's
analyzer and join operators give them:

- on column names (a using join, Analyzer's ResolveNaturalAndUsingJoin): the join columns once
  (the left side's values; the right side's in a right outer join; the first non-null in a full
  outer join), then the left side's other columns, then the right side's (none for semi and
  anti joins); the other side's columns become nullable in outer joins;
- on a Column condition: every column of both sides (read as one row by the engine's
  expression evaluator, _batch.where), the sides' names disjoint;
- equality never holds on a null key; NaN equals NaN and -0.0 equals 0.0
  (NormalizeFloatingNumbers normalizes join keys).
Row order: the left side's rows in order, each with its matches in the right side's order, then
(right and full outer joins) the right side's unmatched rows."""

import math
from typing import Any, Dict, List, Optional, Sequence, Tuple

from pyspark.sql import _batch
from pyspark.sql.types import StructField, StructType


def _not_built(api: str) -> NotImplementedError:
    return NotImplementedError(f"{api} is not built in streamsim; see docs/python.md (PySpark jobs)")


def _key(v: Any) -> Any:
    if isinstance(v, float):
        if math.isnan(v):
            return ("NaN",)
        if v == 0.0:
            return 0.0
    return _batch._hashable(v)


def _nullable(fields: Sequence[StructField], nullable: bool) -> List[StructField]:
    return [StructField(f.name, f.dataType, f.nullable or nullable) for f in fields]


def _matches_on_names(left: _batch.Rel, right: _batch.Rel, on: Sequence[str]) -> List[List[int]]:
    lnames, rnames = left.schema.fieldNames(), right.schema.fieldNames()
    for c in on:
        for side, names in (("left", lnames), ("right", rnames)):
            if c not in names:
                from pyspark.errors import AnalysisException
                raise AnalysisException(
                    f"[UNRESOLVED_USING_COLUMN_FOR_JOIN] USING column `{c}` cannot be resolved on the "
                    f"{side} side of the join. The {side}-side columns: [{', '.join(f'`{n}`' for n in names)}].",
                    errorClass="UNRESOLVED_USING_COLUMN_FOR_JOIN")
    li = [lnames.index(c) for c in on]
    ri = [rnames.index(c) for c in on]
    table: Dict[Any, List[int]] = {}
    for j, r in enumerate(right.rows):
        k = tuple(r[i] for i in ri)
        if any(v is None for v in k):
            continue
        table.setdefault(tuple(_key(v) for v in k), []).append(j)
    out = []
    for r in left.rows:
        k = tuple(r[i] for i in li)
        out.append([] if any(v is None for v in k) else table.get(tuple(_key(v) for v in k), []))
    return out


def _matches_on_condition(left: _batch.Rel, right: _batch.Rel, condition: str,
                          conf: Dict[str, str]) -> List[List[int]]:
    lnames, rnames = left.schema.fieldNames(), right.schema.fieldNames()
    both = sorted(set(lnames) & set(rnames))
    if both:
        raise _not_built(f"DataFrame.join of batch DataFrames on a Column condition when both sides "
                         f"have the columns {both} (join on column names: on={both!r}, or rename "
                         "one side's columns first)")
    pairs = _batch.Rel(StructType(list(left.schema.fields) + list(right.schema.fields)),
                       [lr + rr for lr in left.rows for rr in right.rows])
    keep = _batch.where(pairs, condition, conf).rows if pairs.rows else []
    index = {id(r): n for n, r in enumerate(pairs.rows)}
    out: List[List[int]] = [[] for _ in left.rows]
    m = len(right.rows)
    for r in keep:
        n = index[id(r)]
        out[n // m].append(n % m)
    return out


def join(left: _batch.Rel, right: _batch.Rel, on: Any, kind: str, conf: Dict[str, str]) -> _batch.Rel:
    """`kind`: inner, left_outer, right_outer, full_outer, left_semi, left_anti, cross."""
    using: Optional[List[str]] = None
    if on is None:
        if kind not in ("inner", "cross"):
            raise _not_built(f"DataFrame.join of batch DataFrames without a condition, how={kind!r}")
        matches = [list(range(len(right.rows))) for _ in left.rows]
        kind = "inner"
    elif isinstance(on, (list, tuple)) and on and all(isinstance(c, str) for c in on):
        using = list(on)
        matches = _matches_on_names(left, right, using)
    elif hasattr(on, "_sql"):
        matches = _matches_on_condition(left, right, on._sql(), conf)
    else:
        raise _not_built("DataFrame.join of batch DataFrames on a list of Columns")
    if kind == "cross":
        kind = "inner"
    lf, rf = list(left.schema.fields), list(right.schema.fields)
    if using is not None:
        lnames, rnames = left.schema.fieldNames(), right.schema.fieldNames()
        lk = [lnames.index(c) for c in using]
        rk = [rnames.index(c) for c in using]
        lrest = [i for i in range(len(lf)) if i not in lk]
        rrest = [i for i in range(len(rf)) if i not in rk]
    else:
        lk, rk, lrest, rrest = [], [], list(range(len(lf))), list(range(len(rf)))
    pad_left = kind in ("right_outer", "full_outer")
    pad_right = kind in ("left_outer", "full_outer")
    keys = []
    for a, b in zip(lk, rk):
        f = rf[b] if kind == "right_outer" else lf[a]
        nullable = (lf[a].nullable and rf[b].nullable) if kind == "full_outer" else f.nullable
        keys.append(StructField(f.name, f.dataType, nullable))
    fields = keys + _nullable([lf[i] for i in lrest], pad_left)
    if kind not in ("left_semi", "left_anti"):
        fields += _nullable([rf[i] for i in rrest], pad_right)
    none_left, none_right = (None,) * len(lf), (None,) * len(rf)

    def row(lr: Tuple, rr: Tuple) -> Tuple:
        key = tuple(lr[a] if lr[a] is not None else rr[b] for a, b in zip(lk, rk))
        if kind == "right_outer":
            key = tuple(rr[b] for b in rk)
        return key + tuple(lr[i] for i in lrest) + tuple(rr[i] for i in rrest)

    rows: List[Tuple] = []
    matched_right = set()
    for lr, js in zip(left.rows, matches):
        if kind == "left_semi":
            if js:
                rows.append(tuple(lr[a] for a in lk) + tuple(lr[i] for i in lrest))
            continue
        if kind == "left_anti":
            if not js:
                rows.append(tuple(lr[a] for a in lk) + tuple(lr[i] for i in lrest))
            continue
        for j in js:
            matched_right.add(j)
            rows.append(row(lr, right.rows[j]))
        if not js and pad_right:
            rows.append(row(lr, none_right))
    if pad_left:
        rows += [row(none_left, rr) for j, rr in enumerate(right.rows) if j not in matched_right]
    return _batch.Rel(StructType(fields), rows)
