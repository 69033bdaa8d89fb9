"""pyspark.sql.Column for streamsim: a column is Spark SQL expression text.

Every Column renders to the expression string the engine's one parser reads (docs/scenarios.md
"Expressions"): ``col("a").cast("string")`` is ``CAST(`a` AS STRING)``, ``col("a") + 1`` is
``(`a` + 1)``, ``.alias("n")`` adds ``AS `n```. So a job's Columns and its SQL strings
(``selectExpr``, ``expr()``, ``filter("...")``) are analysed and evaluated by the same code.
"""

import datetime as _dt
from typing import Any, Iterable, Optional

from pyspark.errors import PySparkTypeError, PySparkValueError

__all__ = ["Column"]


def _quote_name(part: str) -> str:
    return "`" + part.replace("`", "``") + "`"


def _name_sql(name: str) -> str:
    """A column name as col() takes it (``a.b``, ```a.b`.c``, ``*``, ``s.*``) as SQL text."""
    if name == "*":
        return "*"
    parts, cur, i = [], "", 0
    while i < len(name):
        c = name[i]
        if c == "`":
            j = name.find("`", i + 1)
            while j >= 0 and j + 1 < len(name) and name[j + 1] == "`":
                j = name.find("`", j + 2)
            if j < 0:
                raise PySparkValueError(f"unclosed backquote in column name {name!r}",
                                        errorClass="INVALID_COLUMN_NAME")
            cur += name[i + 1:j].replace("``", "`")
            i = j + 1
            continue
        if c == ".":
            parts.append(cur)
            cur = ""
        else:
            cur += c
        i += 1
    parts.append(cur)
    return ".".join("*" if p == "*" and k == len(parts) - 1 else _quote_name(p)
                    for k, p in enumerate(parts))


def _literal_sql(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return f"{value}L" if not -2**31 <= value < 2**31 else str(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return f"CAST('{value}' AS DOUBLE)"
        return repr(value) + "D"
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(value, _dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(_dt.timezone.utc).replace(tzinfo=None)
        return f"TIMESTAMP '{value.isoformat(sep=' ')}'"
    if isinstance(value, Column):
        return value._sql()
    raise PySparkTypeError(
        f"[UNSUPPORTED_LITERAL] streamsim cannot make a literal of {type(value).__name__} "
        f"({value!r})", errorClass="UNSUPPORTED_LITERAL")


def _to_sql(value: Any) -> str:
    """A Column, or a literal as lit() makes it."""
    return value._sql() if isinstance(value, Column) else _literal_sql(value)


class Column:
    """A column expression (PySpark's Column), held as Spark SQL text."""

    def __init__(self, expr: str, alias: Optional[str] = None, sort: str = "") -> None:
        self._expr = expr
        self._alias = alias
        self._sort = sort  # "", " ASC NULLS FIRST", ... (orderBy)

    # The expression as the parser reads it (with its alias).
    def _sql(self) -> str:
        return self._expr if self._alias is None else f"{self._expr} AS {_quote_name(self._alias)}"

    def __repr__(self) -> str:
        return f"Column<'{self._sql()}'>"

    # --- operators ---
    def _bin(self, op: str, other: Any, reverse: bool = False) -> "Column":
        a = f"({self._expr})"
        b = f"({other._expr})" if isinstance(other, Column) else _literal_sql(other)
        return Column(f"({b} {op} {a})" if reverse else f"({a} {op} {b})")

    def __add__(self, o: Any) -> "Column": return self._bin("+", o)
    def __radd__(self, o: Any) -> "Column": return self._bin("+", o, True)
    def __sub__(self, o: Any) -> "Column": return self._bin("-", o)
    def __rsub__(self, o: Any) -> "Column": return self._bin("-", o, True)
    def __mul__(self, o: Any) -> "Column": return self._bin("*", o)
    def __rmul__(self, o: Any) -> "Column": return self._bin("*", o, True)
    def __truediv__(self, o: Any) -> "Column": return self._bin("/", o)
    def __rtruediv__(self, o: Any) -> "Column": return self._bin("/", o, True)
    def __mod__(self, o: Any) -> "Column": return self._bin("%", o)
    def __rmod__(self, o: Any) -> "Column": return self._bin("%", o, True)
    def __eq__(self, o: Any) -> "Column": return self._bin("=", o)  # type: ignore[override]
    def __ne__(self, o: Any) -> "Column": return self._bin("!=", o)  # type: ignore[override]
    def __lt__(self, o: Any) -> "Column": return self._bin("<", o)
    def __le__(self, o: Any) -> "Column": return self._bin("<=", o)
    def __gt__(self, o: Any) -> "Column": return self._bin(">", o)
    def __ge__(self, o: Any) -> "Column": return self._bin(">=", o)
    def __and__(self, o: Any) -> "Column": return self._bin("AND", o)
    def __rand__(self, o: Any) -> "Column": return self._bin("AND", o, True)
    def __or__(self, o: Any) -> "Column": return self._bin("OR", o)
    def __ror__(self, o: Any) -> "Column": return self._bin("OR", o, True)
    def __invert__(self) -> "Column": return Column(f"(NOT {self._expr})")
    def __neg__(self) -> "Column": return Column(f"(- {self._expr})")
    __hash__ = None  # type: ignore[assignment]

    def __bool__(self) -> bool:
        raise PySparkValueError(
            "Cannot convert column into bool: please use '&' for 'and', '|' for 'or', '~' for "
            "'not' when building DataFrame boolean expressions.",
            errorClass="CANNOT_CONVERT_COLUMN_INTO_BOOL")

    def __iter__(self) -> Any:
        raise PySparkTypeError("Column is not iterable", errorClass="NOT_ITERABLE",
                               messageParameters={"objectName": "Column"})

    def eqNullSafe(self, o: Any) -> "Column": return self._bin("<=>", o)
    def bitwiseAND(self, o: Any) -> "Column": return self._bin("&", o)
    def bitwiseOR(self, o: Any) -> "Column": return self._bin("|", o)
    def bitwiseXOR(self, o: Any) -> "Column": return self._bin("^", o)

    # --- names, types ---
    def alias(self, *alias: str, **kwargs: Any) -> "Column":
        if len(alias) != 1:
            raise PySparkValueError("streamsim: alias() takes one name (multi-name aliases of "
                                    "generators are not built; docs/python.md)",
                                    errorClass="NOT_IMPLEMENTED")
        return Column(self._expr, alias[0])

    name = alias

    def cast(self, dataType: Any) -> "Column":
        from pyspark.sql.types import DataType
        t = dataType.simpleString() if isinstance(dataType, DataType) else str(dataType)
        return Column(f"CAST({self._expr} AS {t.upper()})")

    astype = cast

    def try_cast(self, dataType: Any) -> "Column":
        from pyspark.sql.types import DataType
        t = dataType.simpleString() if isinstance(dataType, DataType) else str(dataType)
        return Column(f"TRY_CAST({self._expr} AS {t.upper()})")

    # --- predicates ---
    def isNull(self) -> "Column": return Column(f"({self._expr} IS NULL)")
    def isNotNull(self) -> "Column": return Column(f"({self._expr} IS NOT NULL)")

    def isin(self, *cols: Any) -> "Column":
        if len(cols) == 1 and isinstance(cols[0], (list, set, tuple)):
            cols = tuple(cols[0])
        return Column(f"({self._expr} IN ({', '.join(_to_sql(c) for c in cols)}))")

    def like(self, other: str) -> "Column": return self._bin("LIKE", other)
    def ilike(self, other: str) -> "Column": return self._bin("ILIKE", other)
    def rlike(self, other: str) -> "Column": return self._bin("RLIKE", other)
    def contains(self, other: Any) -> "Column": return Column(f"contains({self._expr}, {_to_sql(other)})")
    def startswith(self, other: Any) -> "Column": return Column(f"startswith({self._expr}, {_to_sql(other)})")
    def endswith(self, other: Any) -> "Column": return Column(f"endswith({self._expr}, {_to_sql(other)})")

    def between(self, lowerBound: Any, upperBound: Any) -> "Column":
        return Column(f"({self._expr} BETWEEN {_to_sql(lowerBound)} AND {_to_sql(upperBound)})")

    def substr(self, startPos: Any, length: Any) -> "Column":
        return Column(f"substring({self._expr}, {_to_sql(startPos)}, {_to_sql(length)})")

    # --- nested values ---
    def getField(self, name: str) -> "Column": return Column(f"{self._expr}.{_quote_name(name)}")
    def getItem(self, key: Any) -> "Column": return Column(f"{self._expr}[{_to_sql(key)}]")

    def __getitem__(self, k: Any) -> "Column":
        if isinstance(k, slice):
            raise PySparkValueError("slicing a Column is substr(); streamsim does not build it",
                                    errorClass="NOT_IMPLEMENTED")
        return self.getField(k) if isinstance(k, str) else self.getItem(k)

    def __getattr__(self, item: str) -> "Column":
        if item.startswith("__"):
            raise AttributeError(item)
        return self.getField(item)

    # --- CASE WHEN ---
    def when(self, condition: "Column", value: Any) -> "Column":
        if not self._expr.startswith("CASE ") or " ELSE " in self._expr:
            raise PySparkTypeError("when() can only be applied on a Column previously generated "
                                   "by when() function", errorClass="INVALID_WHEN_USAGE")
        return Column(self._expr[:-4] + f"WHEN {_to_sql(condition)} THEN {_to_sql(value)} END")

    def otherwise(self, value: Any) -> "Column":
        if not self._expr.startswith("CASE ") or " ELSE " in self._expr:
            raise PySparkTypeError("otherwise() can only be applied on a Column previously "
                                   "generated by when() function", errorClass="INVALID_WHEN_USAGE")
        return Column(self._expr[:-4] + f"ELSE {_to_sql(value)} END")

    # --- sort order (orderBy) ---
    def asc(self) -> "Column": return Column(self._expr, self._alias, " ASC NULLS FIRST")
    def asc_nulls_first(self) -> "Column": return Column(self._expr, self._alias, " ASC NULLS FIRST")
    def asc_nulls_last(self) -> "Column": return Column(self._expr, self._alias, " ASC NULLS LAST")
    def desc(self) -> "Column": return Column(self._expr, self._alias, " DESC NULLS LAST")
    def desc_nulls_first(self) -> "Column": return Column(self._expr, self._alias, " DESC NULLS FIRST")
    def desc_nulls_last(self) -> "Column": return Column(self._expr, self._alias, " DESC NULLS LAST")

    def over(self, window: Any) -> "Column":
        raise NotImplementedError("Column.over (window functions) is not built in streamsim; "
                                  "see docs/python.md")


def _as_column(c: Any) -> Column:
    """A column name (str) or a Column, as PySpark's functions take them."""
    if isinstance(c, Column):
        return c
    if isinstance(c, str):
        return Column(_name_sql(c))
    raise PySparkTypeError(f"[NOT_COLUMN_OR_STR] Argument `col` should be a Column or str, got "
                           f"{type(c).__name__}.", errorClass="NOT_COLUMN_OR_STR",
                           messageParameters={"arg_name": "col", "arg_type": type(c).__name__})


def _names_or_columns(cols: Iterable[Any]) -> list:
    out = []
    for c in cols:
        if isinstance(c, (list, tuple)):
            out.extend(c)
        else:
            out.append(c)
    return out
