"""spark.sql("MERGE INTO ...") on streamsim's Delta stand-in: the statement read into the
DeltaTable merge builder (delta/tables.py), as Delta's SQL grammar gives it
(docs.delta.io "Upsert into a table using merge"; io.delta.sql.parser DeltaSqlBase.g4):

    MERGE INTO target [[AS] t] USING source [[AS] s] ON condition
      WHEN MATCHED [AND cond] THEN { UPDATE SET * | UPDATE SET col = expr [, ...] | DELETE }
      WHEN NOT MATCHED [BY TARGET] [AND cond] THEN { INSERT * | INSERT (cols) VALUES (exprs) }

The target is a Delta table by name or `delta.`/path``; the source a table or temporary view
(foreachBatch bodies: ``batch_df.createOrReplaceTempView("updates")``). It returns Delta's
metrics row (num_affected_rows, num_updated_rows, num_deleted_rows, num_inserted_rows).
WHEN NOT MATCHED BY SOURCE, WITH SCHEMA EVOLUTION and a subquery as the source raise
NotImplementedError."""

import re
from typing import Any, List, Optional, Tuple

from pyspark.errors import PySparkValueError
from pyspark.sql import _batch

_KEYWORDS = ("USING", "ON", "WHEN", "THEN", "SET", "VALUES", "CASE", "END")


def _not_built(api: str) -> NotImplementedError:
    return NotImplementedError(f"{api} is not built in streamsim; see docs/python.md (Delta)")


def _syntax(text: str, what: str) -> PySparkValueError:
    return PySparkValueError(f"[PARSE_SYNTAX_ERROR] Syntax error in MERGE: {what}: {text!r}",
                             errorClass="PARSE_SYNTAX_ERROR")


def _top_level_words(text: str) -> List[Tuple[int, str]]:
    """The positions of _KEYWORDS outside quotes, parentheses and CASE ... END."""
    out, depth, case, i = [], 0, 0, 0
    while i < len(text):
        c = text[i]
        if c in "'\"`":
            i = _batch._skip_quoted(text, i)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif (c.isalpha() or c == "_") and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r"[A-Za-z_][A-Za-z_0-9]*", text[i:])
            word = m.group(0).upper()
            if depth == 0 and word == "CASE":
                case += 1
            elif depth == 0 and word == "END" and case:
                case -= 1
            elif depth == 0 and case == 0 and word in _KEYWORDS:
                out.append((i, word))
            i += len(word)
            continue
        i += 1
    return out


def _name_and_alias(part: str, text: str, what: str) -> Tuple[str, Optional[str]]:
    part = part.strip()
    if part.startswith("("):
        raise _not_built(f"MERGE with a subquery as its {what} (name a table or a temporary view)")
    m = re.fullmatch(r"((?:`[^`]*`|[\w]+)(?:\.(?:`[^`]*`|[\w]+))*)(?:\s+(?:AS\s+)?(`[^`]*`|\w+))?", part, re.I)
    if not m:
        raise _syntax(text, f"expected a table name and an optional alias as the {what}, got {part!r}")
    return m.group(1), (m.group(2).strip("`") if m.group(2) else None)


def _assignment(item: str, text: str) -> Tuple[str, str]:
    m = re.match(r"\s*((?:`[^`]*`|\w+)(?:\.(?:`[^`]*`|\w+))*)\s*=(?!=)\s*(.+)$", item, re.S)
    if not m:
        raise _syntax(text, f"expected column = expression, got {item!r}")
    return m.group(1), m.group(2).strip()


def _clause(builder: Any, head: str, action: str, text: str) -> Any:
    m = re.fullmatch(r"WHEN\s+(MATCHED|NOT\s+MATCHED(?:\s+BY\s+(TARGET|SOURCE))?)(?:\s+AND\s+(.+))?",
                     head.strip(), re.I | re.S)
    if not m:
        raise _syntax(text, f"expected WHEN [NOT] MATCHED [AND condition], got {head.strip()!r}")
    matched = m.group(1).upper() == "MATCHED"
    if (m.group(2) or "").upper() == "SOURCE":
        raise _not_built("MERGE ... WHEN NOT MATCHED BY SOURCE")
    cond = m.group(3).strip() if m.group(3) else None
    act = action.strip()
    if matched:
        if re.fullmatch(r"DELETE", act, re.I):
            return builder.whenMatchedDelete(cond)
        if re.fullmatch(r"UPDATE\s+SET\s+\*", act, re.I):
            return builder.whenMatchedUpdateAll(cond)
        u = re.fullmatch(r"UPDATE\s+SET\s+(.+)", act, re.I | re.S)
        if u:
            return builder.whenMatchedUpdate(cond, dict(_assignment(a, text) for a in _batch.split_top(u.group(1))))
        raise _syntax(text, f"expected DELETE, UPDATE SET * or UPDATE SET col = expr after WHEN MATCHED THEN, got {act!r}")
    if re.fullmatch(r"INSERT\s*\*", act, re.I):
        return builder.whenNotMatchedInsertAll(cond)
    ins = re.fullmatch(r"INSERT\s*\((.*)\)\s*VALUES\s*\((.*)\)", act, re.I | re.S)
    if ins:
        cols, vals = _batch.split_top(ins.group(1)), _batch.split_top(ins.group(2))
        if len(cols) != len(vals):
            raise _syntax(text, f"INSERT names {len(cols)} columns and gives {len(vals)} values")
        return builder.whenNotMatchedInsert(cond, dict(zip(cols, vals)))
    raise _syntax(text, f"expected INSERT * or INSERT (cols) VALUES (exprs) after WHEN NOT MATCHED THEN, got {act!r}")


def run(spark: Any, text: str) -> Any:
    from delta.tables import DeltaTable
    from pyspark.sql.types import StructType
    m = re.match(r"MERGE\s+(WITH\s+SCHEMA\s+EVOLUTION\s+)?INTO\s+", text, re.I)
    if not m:
        raise _syntax(text, "expected MERGE INTO")
    if m.group(1):
        raise _not_built("MERGE WITH SCHEMA EVOLUTION")
    body = text[m.end():]
    words = _top_level_words(body)
    using = next((p for p, w in words if w == "USING"), None)
    on = next((p for p, w in words if w == "ON" and using is not None and p > using), None)
    whens = [p for p, w in words if w == "WHEN" and on is not None and p > on]
    if using is None or on is None or not whens:
        raise _syntax(text, "expected MERGE INTO target USING source ON condition WHEN ...")
    target, t_alias = _name_and_alias(body[:using], text, "target")
    source, s_alias = _name_and_alias(body[using + 5:on], text, "source")
    condition = body[on + 2:whens[0]].strip()
    path = re.fullmatch(r"delta\.`([^`]+)`", target, re.I)
    table = DeltaTable.forPath(spark, path.group(1)) if path else DeltaTable.forName(spark, target.replace("`", ""))
    if t_alias:
        table = table.alias(t_alias)
    src = spark.table(source.replace("`", "")).alias(s_alias or source.replace("`", "").split(".")[-1])
    builder = table.merge(src, condition)
    for k, start in enumerate(whens):
        end = whens[k + 1] if k + 1 < len(whens) else len(body)
        clause = body[start:end]
        then = next((p for p, w in _top_level_words(clause) if w == "THEN"), None)
        if then is None:
            raise _syntax(text, f"WHEN without THEN: {clause.strip()!r}")
        builder = _clause(builder, clause[:then], clause[then + 4:], text)
    builder.execute()
    updated, deleted, inserted = builder._metrics
    return spark._batch_df(_batch.Rel(
        StructType.fromDDL("num_affected_rows bigint, num_updated_rows bigint, "
                           "num_deleted_rows bigint, num_inserted_rows bigint"),
        [(updated + deleted + inserted, updated, deleted, inserted)]))
