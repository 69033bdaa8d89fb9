"""spark.sql("SELECT ... FROM v") where `v` is a temporary view of a streaming DataFrame: a
streaming DataFrame, as Spark's analyzer gives one for a streaming relation -- the statement's
clauses as the DataFrame operators the stream already has (WHERE -> where, GROUP BY/aggregates ->
groupBy().agg, items -> selectExpr, DISTINCT -> dropDuplicates, LIMIT -> limit). HAVING and ORDER
BY on a stream raise NotImplementedError (Spark sorts a stream only after an aggregation in
complete mode)."""

import re
from typing import Any, Dict

from pyspark.sql import _batch
from pyspark.sql.column import Column


def _not_built(api: str) -> NotImplementedError:
    return NotImplementedError(f"{api} is not built in streamsim; see docs/python.md (PySpark jobs)")


def select(df: Any, plan: Dict[str, Any]) -> Any:
    from pyspark.sql.dataframe import GroupedData
    if plan["having"]:
        raise _not_built("spark.sql with HAVING over a streaming view")
    if plan["order"]:
        raise _not_built("spark.sql with ORDER BY over a streaming view")
    if plan["where"]:
        df = df.where(plan["where"])
    if plan["group"] or _batch.has_aggregates(plan["items"]):
        df = _aggregate(df, plan, GroupedData)
    elif plan["items"] != ["*"]:
        df = df.selectExpr(*plan["items"])
    if plan["distinct"]:
        df = df.dropDuplicates()
    if plan["limit"] is not None:
        df = df.limit(plan["limit"])
    return df


def _norm(text: str) -> str:
    return text.strip().replace("`", "").lower()


def _aggregate(df: Any, plan: Dict[str, Any], grouped: Any) -> Any:
    """GROUP BY as groupBy().agg: the grouping columns come first in the stream's rows, then the
    aggregates; a SELECT that orders or drops them differently is projected by name after."""
    groups = [g.strip("`") if _batch._is_plain_name(g) else Column(g) for g in plan["group"]]
    gtexts = [_norm(g) for g in plan["group"]]
    aggs, names = [], []
    for item in plan["items"]:
        if _norm(item) in gtexts:
            names.append(item.strip())
            continue
        aggs.append(Column(item))
        m = re.search(r"\s+AS\s+(`[^`]+`|\w+)\s*$", item, re.I)
        names.append(m.group(1) if m else None)
    out = grouped(df, groups).agg(*aggs)
    if [_norm(i) for i in plan["items"][:len(gtexts)]] == gtexts:
        return out  # the grouping columns first, as the stream's rows have them
    if any(n is None for n in names) or not all(_batch._is_plain_name(g) for g in plan["group"]):
        raise _not_built("spark.sql over a streaming view whose SELECT orders or drops the GROUP BY "
                         "columns, with an aggregate without an alias or a grouping expression "
                         "(list the grouping columns first, or alias each aggregate)")
    return out.selectExpr(*names)
