"""The batch side of the PySpark job API: rows in memory (a memory sink's table, a saved table,
createDataFrame) and what a job or a test does with them — select/where/withColumn through the
engine's expression analyzer and evaluator (``_streamsim_native.eval_select/eval_where``, the
same code a stream runs), grouping and aggregates (count, sum, min, max, avg, first, last,
collect_list, collect_set, count(DISTINCT ...)) here, sorting, and ``spark.sql``'s SELECT
statements over tables (``SELECT ... FROM t [WHERE] [GROUP BY] [HAVING] [ORDER BY] [LIMIT]``)."""

import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

from pyspark.errors import PySparkValueError
from pyspark.sql.types import StructField, StructType, toEngineDDL

_AGGS = {"count", "sum", "min", "max", "avg", "mean", "first", "last", "collect_list",
         "collect_set", "first_value", "last_value", "any_value"}


def _native() -> Any:
    import _streamsim_native
    return _streamsim_native


class Rel:
    """Rows of a schema (tuples in the schema's column order)."""

    def __init__(self, schema: StructType, rows: List[tuple]) -> None:
        self.schema = schema
        self.rows = rows

    def ddl(self) -> str:
        return toEngineDDL(self.schema) if len(self.schema) else ""


def json_value(v: Any) -> Any:
    """A value as the JSON the file source reads back: a timestamp in UTC ISO form with
    milliseconds, a Row as an object, lists and dicts element by element."""
    import datetime as dt
    from pyspark.sql.types import Row
    if isinstance(v, dt.datetime):
        if v.tzinfo is not None:
            v = v.astimezone(dt.timezone.utc).replace(tzinfo=None)
        return v.isoformat(timespec="milliseconds") + "Z"
    if isinstance(v, dt.date):
        return v.isoformat()
    if isinstance(v, Row) and hasattr(v, "__fields__"):
        return {k: json_value(x) for k, x in v.asDict().items()}
    if isinstance(v, (list, tuple)):
        return [json_value(x) for x in v]
    if isinstance(v, dict):
        return {k: json_value(x) for k, x in v.items()}
    return v


def _schema_of(ddl: str) -> StructType:
    return StructType.fromDDL(ddl) if ddl else StructType([])


def _udfs(texts: Sequence[str]) -> Dict[str, Any]:
    """The Python UDFs the expression texts may call (pyspark/sql/udf.py)."""
    from pyspark.sql import udf
    from pyspark.sql.session import SparkSession
    return udf.table(SparkSession.getActiveSession(), list(texts))


def _python_exception(e: Exception) -> Exception:
    """A UDF's failure as PySpark raises it from a batch action: PythonException with the
    worker's traceback (pyspark/errors/exceptions/captured.py); other errors as they are."""
    marker = "org.apache.spark.api.python.PythonException: "
    text = str(e)
    if marker not in text:
        from pyspark.errors.exceptions.base import _from_engine_error
        return _from_engine_error(e)
    from pyspark.errors import PythonException
    return PythonException("\n  An exception was thrown from the Python worker. Please see the stack "
                           "trace below.\n" + text.split(marker, 1)[1])


def select(rel: Rel, exprs: Sequence[str], conf: Dict[str, str], now_ms: int = 0) -> Rel:
    if not len(rel.schema) and all(e.strip() == "*" for e in exprs):
        return rel
    try:
        ddl, rows = _native().eval_select(rel.ddl() or "_dummy int", rel.rows if len(rel.schema)
                                          else [(None,)] * len(rel.rows), list(exprs), conf, now_ms,
                                          _udfs(exprs))
    except (ValueError, RuntimeError) as e:
        raise _python_exception(e) from None
    return Rel(_schema_of(ddl), [tuple(r) for r in rows])


def where(rel: Rel, condition: str, conf: Dict[str, str], now_ms: int = 0) -> Rel:
    try:
        keep = _native().eval_where(rel.ddl(), rel.rows, condition, conf, now_ms, _udfs([condition]))
    except (ValueError, RuntimeError) as e:
        raise _python_exception(e) from None
    return Rel(rel.schema, [rel.rows[i] for i in keep])


def rel_from_json_lines(lines: Sequence[str], schema: StructType, conf: Dict[str, str]) -> Rel:
    """JSON lines read as rows of ``schema``: each column's JSON value cast by the engine to the
    column's type (timestamps from their text), a missing key null."""
    import json
    from pyspark.sql.types import _parse_datatype_string
    names = schema.fieldNames()
    texts = []
    for line in lines:
        r = json.loads(line)
        texts.append(tuple(None if r.get(n) is None else
                           (r[n] if isinstance(r[n], str) else json.dumps(r[n])) for n in names))
    strings = Rel(StructType([StructField(n, _parse_datatype_string("string")) for n in names]), texts)
    return select(strings, [f"CAST(`{n}` AS {f.dataType.simpleString().upper()}) AS `{n}`"
                            for n, f in zip(names, schema.fields)], conf)


def show_text(rel: Rel, n: int, truncate: bool) -> str:
    return _native().show_rows(rel.ddl(), rel.rows, n, truncate)


# --- scanning SQL text (quotes, backquotes, parentheses) ---
def _skip_quoted(text: str, i: int) -> int:
    q = text[i]
    j = i + 1
    while j < len(text):
        if text[j] == "\\" and q != "`":
            j += 2
            continue
        if text[j] == q:
            if q == "`" and j + 1 < len(text) and text[j + 1] == "`":
                j += 2
                continue
            return j + 1
        j += 1
    raise PySparkValueError(f"[PARSE_SYNTAX_ERROR] Syntax error: unclosed {q} in {text!r}",
                            errorClass="PARSE_SYNTAX_ERROR")


def split_top(text: str, sep: str = ",") -> List[str]:
    """``text`` split at ``sep`` outside quotes and parentheses."""
    out, depth, start, i = [], 0, 0, 0
    while i < len(text):
        c = text[i]
        if c in "'\"`":
            i = _skip_quoted(text, i)
            continue
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == sep and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
        i += 1
    out.append(text[start:].strip())
    return [p for p in out if p]


def _closing(text: str, open_at: int) -> int:
    depth, i = 0, open_at
    while i < len(text):
        c = text[i]
        if c in "'\"`":
            i = _skip_quoted(text, i)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise PySparkValueError(f"[PARSE_SYNTAX_ERROR] Syntax error: unbalanced parentheses in {text!r}",
                            errorClass="PARSE_SYNTAX_ERROR")


_IDENT = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


class AggCall:
    def __init__(self, fn: str, arg: Optional[str], distinct: bool) -> None:
        self.fn, self.arg, self.distinct = fn, arg, distinct


def extract_aggregates(text: str, calls: List[AggCall]) -> str:
    """``text`` with each aggregate call replaced by `__agg_N` (N its index in ``calls``)."""
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c in "'\"`":
            j = _skip_quoted(text, i)
            out.append(text[i:j])
            i = j
            continue
        m = _IDENT.match(text, i)
        if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "_.")):
            name = m.group(0)
            k = m.end()
            while k < len(text) and text[k] == " ":
                k += 1
            if name.lower() in _AGGS and k < len(text) and text[k] == "(":
                close = _closing(text, k)
                arg = text[k + 1:close].strip()
                distinct = False
                if arg.upper().startswith("DISTINCT "):
                    distinct, arg = True, arg[9:].strip()
                if extract_aggregates(arg, []) != arg:
                    raise PySparkValueError(
                        "[NESTED_AGGREGATE_FUNCTION] It is not allowed to use an aggregate function "
                        "in the argument of another aggregate function.",
                        errorClass="NESTED_AGGREGATE_FUNCTION")
                calls.append(AggCall(name.lower(), None if arg in ("*", "1", "") and
                                     name.lower() == "count" else arg, distinct))
                out.append(f"`__agg_{len(calls) - 1}`")
                i = close + 1
                continue
            out.append(name)
            i = m.end()
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _agg_value(call: AggCall, values: List[Any]) -> Any:
    if call.fn == "count":
        if call.arg is None:
            return len(values)
        vals = [v for v in values if v is not None]
        return len(set(map(_hashable, vals))) if call.distinct else len(vals)
    vals = [v for v in values if v is not None]
    if call.distinct:
        seen, uniq = set(), []
        for v in vals:
            h = _hashable(v)
            if h not in seen:
                seen.add(h)
                uniq.append(v)
        vals = uniq
    if call.fn == "sum":
        return sum(vals) if vals else None
    if call.fn in ("avg", "mean"):
        return float(sum(vals)) / len(vals) if vals else None
    if call.fn == "min":
        return min(vals) if vals else None
    if call.fn == "max":
        return max(vals) if vals else None
    if call.fn in ("first", "first_value", "any_value"):
        return values[0] if values else None
    if call.fn in ("last", "last_value"):
        return values[-1] if values else None
    if call.fn == "collect_list":
        return list(vals)
    if call.fn == "collect_set":
        seen, out = set(), []
        for v in vals:
            if _hashable(v) not in seen:
                seen.add(_hashable(v))
                out.append(v)
        return out
    raise PySparkValueError(f"aggregate {call.fn} is not built", errorClass="UNRESOLVED_ROUTINE")


def _hashable(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_hashable(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _hashable(x)) for k, x in v.items()))
    return v


def _agg_type(call: AggCall, arg_type: Any) -> str:
    t = arg_type.simpleString() if arg_type is not None else "bigint"
    if call.fn == "count":
        return "bigint"
    if call.fn in ("avg", "mean"):
        return "double"
    if call.fn == "sum":
        return "bigint" if t in ("int", "integer", "bigint", "long", "smallint", "tinyint") else "double"
    if call.fn in ("collect_list", "collect_set"):
        return f"array<{t}>"
    return t


def aggregate(rel: Rel, group_exprs: Sequence[str], items: Sequence[str], conf: Dict[str, str],
              having: Optional[str] = None, now_ms: int = 0) -> Rel:
    """``SELECT items FROM rel GROUP BY group_exprs [HAVING having]`` (no GROUP BY: one group)."""
    calls: List[AggCall] = []
    rewritten = [extract_aggregates(it, calls) for it in items]
    having_rw = extract_aggregates(having, calls) if having else None
    # The grouping values, named as the expressions name them (a plain column keeps its name).
    groups = select(rel, list(group_exprs), conf, now_ms) if group_exprs else Rel(StructType([]), [()] * len(rel.rows))
    args = [c.arg for c in calls if c.arg is not None]
    argrel = select(rel, args, conf, now_ms) if args else None
    order: List[tuple] = []
    buckets: Dict[Any, List[int]] = {}
    for i, g in enumerate(groups.rows):
        key = _hashable(tuple(g))
        if key not in buckets:
            buckets[key] = []
            order.append(g)
        buckets[key].append(i)
    if not group_exprs and not rel.rows:
        order, buckets = [()], {(): []}
    fields = list(groups.schema.fields)
    ai = 0
    arg_index = []
    for c in calls:
        if c.arg is None:
            arg_index.append(None)
            fields.append(StructField(f"__agg_{len(arg_index) - 1}", _parse(_agg_type(c, None))))
        else:
            arg_index.append(ai)
            fields.append(StructField(f"__agg_{len(arg_index) - 1}",
                                      _parse(_agg_type(c, argrel.schema.fields[ai].dataType))))
            ai += 1
    out_rows = []
    for g in order:
        idx = buckets[_hashable(tuple(g))]
        vals = list(g)
        for c, a in zip(calls, arg_index):
            column = [argrel.rows[i][a] for i in idx] if a is not None else [None] * len(idx)
            vals.append(_agg_value(c, column))
        out_rows.append(tuple(vals))
    mid = Rel(StructType(fields), out_rows)
    # The select list and HAVING see the grouping expressions as the columns they became.
    for gi, g in enumerate(group_exprs):
        name = groups.schema.fields[gi].name
        gtext = g.strip()
        for k, it in enumerate(rewritten):
            if it.strip() == gtext and not _is_plain_name(gtext):
                rewritten[k] = f"`{name}` AS `{name}`"
    if having_rw:
        mid = where(mid, having_rw, conf, now_ms)
    # An item that is only an aggregate keeps Spark's generated name (`max(count)`).
    final = []
    for it, orig in zip(rewritten, items):
        if re.fullmatch(r"`__agg_\d+`", it.strip()):
            final.append(f"{it} AS `{_generated_name(orig)}`")
        else:
            final.append(it)
    return select(mid, final, conf, now_ms)


def _is_plain_name(t: str) -> bool:
    return re.fullmatch(r"[A-Za-z_][A-Za-z_0-9]*|`[^`]+`", t) is not None


def _generated_name(text: str) -> str:
    """Spark's name of an aggregate call column: ``max(count)``, ``count(1)``."""
    m = re.fullmatch(r"\s*([A-Za-z_]+)\s*\((.*)\)\s*", text, re.S)
    if not m:
        return text.strip()
    fn, arg = m.group(1).lower(), m.group(2).strip()
    if fn == "count" and arg in ("*", ""):
        arg = "1"
    arg = re.sub(r"`([^`]+)`", r"\1", arg)
    return f"{fn}({arg})"


def _parse(t: str) -> Any:
    from pyspark.sql.types import _parse_datatype_string
    return _parse_datatype_string(t)


def order_by(rel: Rel, specs: Sequence[Tuple[str, bool, bool]], conf: Dict[str, str]) -> Rel:
    """Sorted by (expression, ascending, nulls first) specs, stably, as Spark orders."""
    if not specs or not rel.rows:
        return rel
    keys = select(rel, [s[0] for s in specs], conf)
    idx = list(range(len(rel.rows)))
    for k in reversed(range(len(specs))):
        _, asc, nulls_first = specs[k]
        non_null = [i for i in idx if keys.rows[i][k] is not None]
        nulls = [i for i in idx if keys.rows[i][k] is None]
        non_null.sort(key=lambda i: keys.rows[i][k], reverse=not asc)
        idx = nulls + non_null if nulls_first else non_null + nulls
    return Rel(rel.schema, [rel.rows[i] for i in idx])


def parse_sort(text: str) -> Tuple[str, bool, bool]:
    t = text.strip()
    asc, nulls_first = True, None
    m = re.search(r"\s+NULLS\s+(FIRST|LAST)\s*$", t, re.I)
    if m:
        nulls_first = m.group(1).upper() == "FIRST"
        t = t[:m.start()]
    m = re.search(r"\s+(ASC|DESC)\s*$", t, re.I)
    if m:
        asc = m.group(1).upper() == "ASC"
        t = t[:m.start()]
    if nulls_first is None:
        nulls_first = asc  # Spark: ASC NULLS FIRST, DESC NULLS LAST
    return t.strip(), asc, nulls_first


# --- SQL statements ---
_CLAUSES = ["SELECT", "FROM", "WHERE", "GROUP BY", "HAVING", "ORDER BY", "SORT BY", "LIMIT"]


def _clause_positions(text: str) -> List[Tuple[int, str]]:
    found, depth, i = [], 0, 0
    up = text.upper()
    while i < len(text):
        c = text[i]
        if c in "'\"`":
            i = _skip_quoted(text, i)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif depth == 0 and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            for kw in _CLAUSES:
                if re.match(kw.replace(" ", r"\s+") + r"\b", up[i:]):
                    m = re.match(kw.replace(" ", r"\s+"), up[i:])
                    found.append((i, kw, i + m.end()))
                    i += m.end() - 1
                    break
        i += 1
    return found


def parse_select(text: str) -> Dict[str, Any]:
    """A SELECT statement's clauses: items, table, where, group, having, order, limit."""
    t = text.strip().rstrip(";").strip()
    pos = _clause_positions(t)
    if not pos or pos[0][0] != 0 or pos[0][1] != "SELECT":
        raise PySparkValueError(f"[PARSE_SYNTAX_ERROR] streamsim's spark.sql runs SELECT statements "
                                f"(and CREATE SCHEMA / DROP TABLE); got {text!r}",
                                errorClass="PARSE_SYNTAX_ERROR")
    parts: Dict[str, str] = {}
    for k, (start, kw, body) in enumerate(pos):
        end = pos[k + 1][0] if k + 1 < len(pos) else len(t)
        if kw in parts:
            raise PySparkValueError(f"[PARSE_SYNTAX_ERROR] {kw} twice in {text!r}",
                                    errorClass="PARSE_SYNTAX_ERROR")
        parts[kw] = t[body:end].strip()
    items = parts["SELECT"]
    distinct = False
    if items.upper().startswith("DISTINCT "):
        distinct, items = True, items[9:]
    if "FROM" not in parts:
        raise PySparkValueError("streamsim's spark.sql needs FROM a table", errorClass="PARSE_SYNTAX_ERROR")
    table = parts["FROM"].strip()
    if " " in table.replace("` ", "`_") and not re.fullmatch(r"[\w.`]+(\s+(AS\s+)?\w+)?", table, re.I):
        raise NotImplementedError(f"spark.sql: FROM {table!r} (joins, subqueries) is not built in "
                                  "streamsim; see docs/python.md")
    table = re.split(r"\s+", table)[0]
    return {
        "items": split_top(items), "distinct": distinct, "table": table.replace("`", ""),
        "where": parts.get("WHERE"),
        "group": split_top(parts["GROUP BY"]) if "GROUP BY" in parts else [],
        "having": parts.get("HAVING"),
        "order": [parse_sort(s) for s in split_top(parts.get("ORDER BY") or parts.get("SORT BY") or "")],
        "limit": int(parts["LIMIT"]) if "LIMIT" in parts else None,
    }


def has_aggregates(items: Sequence[str]) -> bool:
    calls: List[AggCall] = []
    for it in items:
        extract_aggregates(it, calls)
    return bool(calls)


def run_select(plan: Dict[str, Any], rel: Rel, conf: Dict[str, str]) -> Rel:
    if plan["where"]:
        rel = where(rel, plan["where"], conf)
    if plan["group"] or has_aggregates(plan["items"]) or plan["having"]:
        out = aggregate(rel, plan["group"], plan["items"], conf, plan["having"])
    else:
        out = select(rel, plan["items"], conf)
    if plan["distinct"]:
        seen, rows = set(), []
        for r in out.rows:
            if _hashable(r) not in seen:
                seen.add(_hashable(r))
                rows.append(r)
        out = Rel(out.schema, rows)
    out = order_by(out, plan["order"], conf)
    if plan["limit"] is not None:
        out = Rel(out.schema, out.rows[:plan["limit"]])
    return out
