"""pyspark.sql.DataFrame for streamsim. A streaming DataFrame accumulates its query in the shape
of a scenario's ``query:`` (a source, then operators with Spark SQL expression text), which
``writeStream...start()`` hands to the engine (docs/python.md "PySpark jobs"). A batch DataFrame
holds rows in memory (a memory sink's table, a saved table, createDataFrame) and evaluates its
expressions with the engine's analyzer (pyspark/sql/_batch.py)."""

import copy
from typing import Any, Dict, List, Optional, Sequence, Union

from pyspark.errors import PySparkTypeError, PySparkValueError
from pyspark.sql import _batch
from pyspark.sql._durations import duration_ms
from pyspark.sql.column import Column, _as_column, _name_sql, _names_or_columns
from pyspark.sql.types import Row, StructType, _create_row

__all__ = ["DataFrame", "GroupedData"]


def _not_built(api: str) -> NotImplementedError:
    return NotImplementedError(f"{api} is not built in streamsim; see docs/python.md (PySpark jobs)")


def _sql_of(c: Any) -> str:
    return _as_column(c)._sql()


class DataFrame:
    def __init__(self, session: Any, *, stream: Optional[Dict[str, Any]] = None,
                 rel: Optional[_batch.Rel] = None) -> None:
        self.sparkSession = session
        self._stream = stream  # {"source": {...}, "operators": [...], "schema": StructType|None}
        self._rel = rel
        self._alias: Optional[str] = None

    # --- what it is ---
    @property
    def isStreaming(self) -> bool:
        return self._stream is not None

    def _derive(self, op: Dict[str, Any], schema: Optional[StructType] = None) -> "DataFrame":
        s = copy.copy(self._stream)
        s["operators"] = list(self._stream["operators"]) + [op]
        s["schema"] = schema
        return DataFrame(self.sparkSession, stream=s)

    def _schema_after(self, items: List[str]) -> Optional[StructType]:
        """The columns a projection ``items`` (SQL select items) leaves, from the engine's
        analyzer over this stream's known columns; None when they are unknown or the analysis
        fails here (the engine reports that when the query starts)."""
        schema = self._stream.get("schema") if self._stream is not None else None
        if schema is None:
            return None
        try:
            return _batch.select(_batch.Rel(schema, []), list(items), self._conf()).schema
        except Exception:  # noqa: BLE001 -- the query's start reports it with Spark's error
            return None

    def _conf(self) -> Dict[str, str]:
        return self.sparkSession.conf._sql_conf()

    def _from_rel(self, rel: _batch.Rel) -> "DataFrame":
        return DataFrame(self.sparkSession, rel=rel)

    def _needs_batch(self, api: str) -> _batch.Rel:
        if self._stream is not None:
            from pyspark.errors import AnalysisException
            raise AnalysisException(
                f"Queries with streaming sources must be executed with writeStream.start(); "
                f"{api} is a batch action", errorClass="_LEGACY_ERROR_TEMP_1000")
        return self._rel

    @property
    def schema(self) -> StructType:
        if self._stream is not None:
            if self._stream.get("schema") is None:
                raise _not_built("DataFrame.schema of a streaming DataFrame after expressions")
            return self._stream["schema"]
        return self._rel.schema

    @property
    def columns(self) -> List[str]:
        return self.schema.fieldNames()

    def printSchema(self, level: Optional[int] = None) -> None:
        print("root")
        for f in self.schema.fields:
            print(f" |-- {f.name}: {f.dataType.typeName() if hasattr(f.dataType, 'typeName') else f.dataType} "
                  f"(nullable = {str(f.nullable).lower()})")

    # --- projections and filters (both kinds) ---
    def select(self, *cols: Any) -> "DataFrame":
        items = [_sql_of(c) for c in _names_or_columns(cols)]
        if self._stream is not None:
            return self._derive({"select": items}, self._schema_after(items))
        return self._from_rel(_batch.select(self._rel, items, self._conf()))

    def selectExpr(self, *expr: Union[str, List[str]]) -> "DataFrame":
        items = _names_or_columns(expr)
        if self._stream is not None:
            return self._derive({"selectExpr": list(items)}, self._schema_after(list(items)))
        return self._from_rel(_batch.select(self._rel, list(items), self._conf()))

    def filter(self, condition: Union[Column, str]) -> "DataFrame":
        text = condition if isinstance(condition, str) else condition._sql()
        if self._stream is not None:
            return self._derive({"where": text}, self._stream.get("schema"))
        return self._from_rel(_batch.where(self._rel, text, self._conf()))

    where = filter

    def withColumns(self, *colsMap: Dict[str, Column]) -> "DataFrame":
        if len(colsMap) != 1 or not isinstance(colsMap[0], dict):
            raise PySparkTypeError("[NOT_DICT] Argument `colsMap` should be a dict",
                                   errorClass="NOT_DICT")
        m = {k: v._expr if isinstance(v, Column) else _sql_of(v) for k, v in colsMap[0].items()}

        def items_over(names: List[str]) -> List[str]:
            out = []
            for n in names:
                hit = [k for k in m if k.lower() == n.lower()]
                out.append(f"{m[hit[0]]} AS `{hit[0]}`" if hit else _name_sql(n))
            return out + [f"{v} AS `{k}`" for k, v in m.items() if k.lower() not in [n.lower() for n in names]]
        if self._stream is not None:
            known = self._stream.get("schema")
            return self._derive({"withColumn": m},
                                self._schema_after(items_over(known.fieldNames())) if known is not None else None)
        return self._from_rel(_batch.select(self._rel, items_over(self._rel.schema.fieldNames()), self._conf()))

    def withColumn(self, colName: str, col: Column) -> "DataFrame":
        if not isinstance(col, Column):
            raise PySparkTypeError("[NOT_COLUMN] Argument `col` should be a Column, got "
                                   f"{type(col).__name__}.", errorClass="NOT_COLUMN",
                                   messageParameters={"arg_name": "col", "arg_type": type(col).__name__})
        return self.withColumns({colName: col})

    def withColumnsRenamed(self, colsMap: Dict[str, str]) -> "DataFrame":
        if self._stream is not None:
            known = self._stream.get("schema")
            renamed = [f"{_name_sql(n)} AS `{colsMap.get(n, n)}`" for n in known.fieldNames()] \
                if known is not None else None
            return self._derive({"withColumnRenamed": dict(colsMap)},
                                self._schema_after(renamed) if renamed is not None else None)
        items = [f"{_name_sql(n)} AS `{colsMap.get(n, n)}`" for n in self._rel.schema.fieldNames()]
        return self._from_rel(_batch.select(self._rel, items, self._conf()))

    def withColumnRenamed(self, existing: str, new: str) -> "DataFrame":
        return self.withColumnsRenamed({existing: new})

    def drop(self, *cols: Any) -> "DataFrame":
        names = []
        for c in cols:
            if isinstance(c, Column):
                names.append(c._expr.strip("`"))
            else:
                names.append(c)
        low = [n.lower() for n in names]
        if self._stream is not None:
            known = self._stream.get("schema")
            kept = [_name_sql(n) for n in known.fieldNames() if n.lower() not in low] if known is not None else None
            return self._derive({"drop": names}, self._schema_after(kept) if kept else None)
        items = [_name_sql(n) for n in self._rel.schema.fieldNames() if n.lower() not in low]
        return self._from_rel(_batch.select(self._rel, items, self._conf()))

    def alias(self, alias: str) -> "DataFrame":
        """The DataFrame under an alias: a MERGE's source names its columns by it
        (``s.id``); elsewhere streamsim keeps the columns' own names."""
        if not isinstance(alias, str):
            raise PySparkTypeError("[NOT_STR] Argument `alias` should be a str", errorClass="NOT_STR")
        out = DataFrame(self.sparkSession, stream=self._stream, rel=self._rel)
        out._alias = alias
        return out

    # --- streaming operators ---
    def withWatermark(self, eventTime: str, delayThreshold: str) -> "DataFrame":
        if not isinstance(eventTime, str):
            raise PySparkTypeError("[NOT_STR] Argument `eventTime` should be a str",
                                   errorClass="NOT_STR")
        ms = duration_ms(delayThreshold, "withWatermark delayThreshold")
        if self._stream is None:
            return self  # a batch DataFrame ignores it, as Spark does
        return self._derive({"withWatermark": {"column": eventTime, "delay": f"{ms}ms"}},
                            self._stream.get("schema"))

    def dropDuplicates(self, subset: Optional[List[str]] = None) -> "DataFrame":
        if subset is not None and not isinstance(subset, (list, tuple)):
            raise PySparkTypeError("[NOT_LIST_OR_TUPLE] Argument `subset` should be a list or tuple",
                                   errorClass="NOT_LIST_OR_TUPLE")
        if self._stream is not None:
            cols = list(subset) if subset else self.columns
            return self._derive({"dropDuplicates": cols}, self._stream.get("schema"))
        names = self._rel.schema.fieldNames()
        idx = [names.index(c) for c in subset] if subset else list(range(len(names)))
        seen, rows = set(), []
        for r in self._rel.rows:
            k = _batch._hashable(tuple(r[i] for i in idx))
            if k not in seen:
                seen.add(k)
                rows.append(r)
        return self._from_rel(_batch.Rel(self._rel.schema, rows))

    drop_duplicates = dropDuplicates

    def dropDuplicatesWithinWatermark(self, subset: Optional[List[str]] = None) -> "DataFrame":
        if self._stream is None:
            return self.dropDuplicates(subset)
        cols = list(subset) if subset else self.columns
        return self._derive({"dropDuplicatesWithinWatermark": cols}, self._stream.get("schema"))

    _JOIN_TYPES = {"inner": "inner", "left": "left_outer", "leftouter": "left_outer",
                   "left_outer": "left_outer", "semi": "left_semi", "leftsemi": "left_semi",
                   "left_semi": "left_semi", "anti": "left_anti", "leftanti": "left_anti",
                   "left_anti": "left_anti", "right": "right_outer", "rightouter": "right_outer",
                   "right_outer": "right_outer", "outer": "full_outer", "full": "full_outer",
                   "fullouter": "full_outer", "full_outer": "full_outer", "cross": "cross"}

    def join(self, other: "DataFrame", on: Any = None, how: Optional[str] = None) -> "DataFrame":
        """A stream joined with a static (batch) DataFrame on equal columns: the scenario's
        stream-static join (Spark's output: the join columns, the stream's other columns, then
        the table's). Refused as Spark refuses them (a right or full outer join with a static
        right side) by the engine when the query starts."""
        if not isinstance(other, DataFrame):
            raise PySparkTypeError(f"[NOT_DATAFRAME] Argument `other` should be a DataFrame, got "
                                   f"{type(other).__name__}.", errorClass="NOT_DATAFRAME")
        if isinstance(on, str):
            on = [on]
        if self._stream is None:
            return self._batch_join(other, on, how)
        streams = other._stream is not None
        if not streams and (not isinstance(on, (list, tuple)) or not on
                            or not all(isinstance(c, str) for c in on)):
            raise _not_built("DataFrame.join of a stream and a static DataFrame on a Column "
                             "condition (join on column names: join(static, on=['k'], how=...))")
        key = (how or "inner").lower()
        kind = self._JOIN_TYPES.get(key) or self._JOIN_TYPES.get(key.replace("_", ""))
        if kind is None:
            raise PySparkValueError(f"[UNSUPPORTED_JOIN_TYPE] Unsupported join type '{how}'. "
                                    "Supported join types include: 'inner', 'outer', 'full', "
                                    "'fullouter', 'full_outer', 'leftouter', 'left', 'left_outer', "
                                    "'rightouter', 'right', 'right_outer', 'leftsemi', 'left_semi', "
                                    "'semi', 'leftanti', 'left_anti', 'anti', 'cross'.",
                                    errorClass="UNSUPPORTED_JOIN_TYPE")
        if streams:
            return self._stream_join(other, on, kind)
        from pyspark.sql.types import toEngineDDL
        rel = other._rel
        names = rel.schema.fieldNames()
        static = {"schema": toEngineDDL(rel.schema),
                  "rows": [{n: _batch.json_value(v) for n, v in zip(names, r)} for r in rel.rows]}
        return self._derive({"join": {"static": static, "on": list(on), "how": kind}})

    def _batch_join(self, other: "DataFrame", on: Any, how: Optional[str]) -> "DataFrame":
        """Two batch DataFrames joined (pyspark/sql/_batch_join.py)."""
        from pyspark.sql import _batch_join
        if other._stream is not None:
            raise _not_built("DataFrame.join of a static DataFrame with a streaming one on its right")
        key = (how or "inner").lower()
        kind = self._JOIN_TYPES.get(key) or self._JOIN_TYPES.get(key.replace("_", ""))
        if kind is None:
            return self.join(other, on, how)  # raises Spark's UNSUPPORTED_JOIN_TYPE
        return self._from_rel(_batch_join.join(self._rel, other._rel, on, kind, self._conf()))

    def crossJoin(self, other: "DataFrame") -> "DataFrame":
        if self._stream is not None or other._stream is not None:
            raise _not_built("DataFrame.crossJoin of a streaming DataFrame")
        return self._batch_join(other, None, "cross")

    def distinct(self) -> "DataFrame":
        if self._stream is not None:
            raise _not_built("DataFrame.distinct of a streaming DataFrame (dropDuplicates is built)")
        return self.dropDuplicates()

    # Caching and partitioning do not change a batch DataFrame's rows (streamsim holds them in
    # memory, in one partition); foreachBatch bodies call them around their writes.
    def cache(self) -> "DataFrame":
        self._needs_batch_or_not_built("DataFrame.cache")
        return self

    def persist(self, storageLevel: Any = None) -> "DataFrame":
        self._needs_batch_or_not_built("DataFrame.persist")
        return self

    def unpersist(self, blocking: bool = False) -> "DataFrame":
        self._needs_batch_or_not_built("DataFrame.unpersist")
        return self

    def repartition(self, numPartitions: Any = None, *cols: Any) -> "DataFrame":
        self._needs_batch_or_not_built("DataFrame.repartition")
        return self

    def coalesce(self, numPartitions: int) -> "DataFrame":
        self._needs_batch_or_not_built("DataFrame.coalesce")
        return self

    # Null handling as expressions over the columns (pyspark/sql/_na.py): batch and stream alike.
    @property
    def na(self) -> Any:
        from pyspark.sql import _na
        return _na.DataFrameNaFunctions(self)

    def fillna(self, value: Any, subset: Any = None) -> "DataFrame":
        from pyspark.sql import _na
        return _na.fill(self, value, subset)

    def dropna(self, how: str = "any", thresh: Optional[int] = None, subset: Any = None) -> "DataFrame":
        from pyspark.sql import _na
        return _na.drop(self, how, thresh, subset)

    def transform(self, func: Any, *args: Any, **kwargs: Any) -> "DataFrame":
        result = func(self, *args, **kwargs)
        if not isinstance(result, DataFrame):
            raise PySparkTypeError("[NOT_DATAFRAME] Argument `func` should return a DataFrame, got "
                                   f"{type(result).__name__}.", errorClass="NOT_DATAFRAME")
        return result

    def agg(self, *exprs: Any) -> "DataFrame":
        return self.groupBy().agg(*exprs)

    # A batch's rows handed to the function (one partition: foreachPartition calls it once).
    def foreach(self, f: Any) -> None:
        self._needs_batch("DataFrame.foreach")
        for row in self._rows():
            f(row)

    def foreachPartition(self, f: Any) -> None:
        self._needs_batch("DataFrame.foreachPartition")
        f(iter(self._rows()))

    def _needs_batch_or_not_built(self, api: str) -> None:
        if self._stream is not None:
            raise _not_built(f"{api} of a streaming DataFrame")

    # Per-row operators, and what a side of a union or join may run on its own rows before it.
    _PER_ROW_OPS = ("select", "selectExpr", "where", "withColumn", "withColumnRenamed", "drop")
    _SIDE_OPS = _PER_ROW_OPS + ("withWatermark",)

    def _side_sources(self, api: str) -> List[Dict[str, Any]]:
        """This stream as the input of a union or a stream-stream join: its sources, each with
        its own ``operators`` (the scenario's per-source chain, run on that source's rows only,
        as the operators of that child in Spark's plan). A stream of one source takes its
        operators along; a union's per-row operators go to each of its sources (the same rows
        either way); a watermark or stateful operator after a union of sources, or a join of a
        join, is not built."""
        sources = self._stream.get("sources") or [self._stream["source"]]
        ops = list(self._stream["operators"])
        if not ops:
            return [dict(src) for src in sources]
        names = [next(iter(op)) for op in ops]
        if len(sources) == 1 and all(n in self._SIDE_OPS for n in names):
            return [{**sources[0], "operators": list(sources[0].get("operators", [])) + ops}]
        if all(n in self._PER_ROW_OPS for n in names):
            return [{**src, "operators": list(src.get("operators", [])) + ops} for src in sources]
        bad = next(n for n in names if n not in (self._SIDE_OPS if len(sources) == 1 else self._PER_ROW_OPS))
        raise _not_built(f"{api} of a stream with {bad} before it (a side of a union or stream-stream "
                         "join may run per-row operators and withWatermark on its own rows; a union's "
                         "may not add a watermark or state)")

    def union(self, other: "DataFrame") -> "DataFrame":
        """Spark's Union of two streams by column position (the first side's names, the types
        widened as Spark's analyzer widens them; the engine checks the columns when the query
        starts). Each side keeps its own per-row operators and withWatermark, run on its own
        rows before the union (the scenario's per-source ``operators``); a side with a stateful
        operator raises NotImplementedError; a stream with a batch DataFrame is Spark's
        AnalysisException (UnsupportedOperationChecker)."""
        if not isinstance(other, DataFrame):
            raise PySparkTypeError(f"[NOT_DATAFRAME] Argument `other` should be a DataFrame, got "
                                   f"{type(other).__name__}.", errorClass="NOT_DATAFRAME")
        if (self._stream is None) != (other._stream is None):
            from pyspark.errors import AnalysisException
            raise AnalysisException("Union between streaming and batch DataFrames/Datasets is not "
                                    "supported;", errorClass="_LEGACY_ERROR_TEMP_2428")
        if self._stream is None:
            from pyspark.sql import _batch_union
            return self._from_rel(_batch_union.union(self._rel, other._rel))
        sources = self._side_sources("DataFrame.union") + other._side_sources("DataFrame.union")
        ls, rs = self._stream.get("schema"), other._stream.get("schema")
        schema = ls if ls is not None and rs is not None and \
            [f.dataType.simpleString() for f in ls.fields] == [f.dataType.simpleString() for f in rs.fields] \
            else None
        return DataFrame(self.sparkSession, stream={"sources": sources, "operators": [], "schema": schema})

    unionAll = union

    def unionByName(self, other: "DataFrame", allowMissingColumns: bool = False) -> "DataFrame":
        """Spark's union by name (ResolveUnion.unionTwoSides): the other side's columns are put
        in this side's order by name (spark.sql.caseSensitive: false by default); a column
        missing from the other side is _LEGACY_ERROR_TEMP_1201, or with allowMissingColumns a
        null of this side's type, and this side gets nulls for the other's extra columns, at the
        end. Then the union by position, each side's projection run on its own rows."""
        from pyspark.errors import AnalysisException
        if not isinstance(other, DataFrame):
            raise PySparkTypeError(f"[NOT_DATAFRAME] Argument `other` should be a DataFrame, got "
                                   f"{type(other).__name__}.", errorClass="NOT_DATAFRAME")
        if (self._stream is None) != (other._stream is None):
            return self.union(other)  # the mixed case union() refuses
        ls, rs = (self._stream.get("schema"), other._stream.get("schema")) if self._stream is not None \
            else (self._rel.schema, other._rel.schema)
        if ls is None or rs is None:
            raise _not_built("DataFrame.unionByName of a stream whose columns are unknown")
        sensitive = str(self._conf().get("spark.sql.caseSensitive", "false")).lower() == "true"

        def key(name: str) -> str:
            return name if sensitive else name.lower()
        for side in (ls, rs):
            seen: Dict[str, str] = {}
            for n in side.fieldNames():
                if key(n) in seen:
                    raise AnalysisException(f"[COLUMN_ALREADY_EXISTS] The column `{n.lower()}` already "
                                            "exists. Choose another name or rename the existing column.",
                                            errorClass="COLUMN_ALREADY_EXISTS")
                seen[key(n)] = n
        right_by = {key(f.name): f for f in rs.fields}
        right_items = []
        for f in ls.fields:
            found = right_by.get(key(f.name))
            if found is not None:
                right_items.append(_name_sql(found.name))
            elif allowMissingColumns:
                right_items.append(f"CAST(NULL AS {f.dataType.simpleString()}) AS {_name_sql(f.name)}")
            else:
                raise AnalysisException(f'Cannot resolve column name "{f.name}" among '
                                        f'({", ".join(rs.fieldNames())}).',
                                        errorClass="_LEGACY_ERROR_TEMP_1201",
                                        messageParameters={"colName": f.name,
                                                           "fieldNames": ", ".join(rs.fieldNames())})
        left_keys = {key(n) for n in ls.fieldNames()}
        extra = [f for f in rs.fields if key(f.name) not in left_keys]
        right_items += [_name_sql(f.name) for f in extra]
        left, right = self, other.selectExpr(*right_items) \
            if right_items != [_name_sql(n) for n in rs.fieldNames()] else other
        if allowMissingColumns and extra:
            left = self.selectExpr(*([_name_sql(n) for n in ls.fieldNames()] +
                                 [f"CAST(NULL AS {f.dataType.simpleString()}) AS {_name_sql(f.name)}"
                                  for f in extra]))
        return left.union(right)

    def _stream_join(self, other: "DataFrame", on: Any, kind: str) -> "DataFrame":
        """Two streams joined (Spark's StreamingSymmetricHashJoinExec, the engine's
        ops/stream_stream_join.h): on column names (a using join: the join columns once, then
        each side's others) or on a Column condition (keys `l = r` ANDed with an event-time range,
        _join_condition.py: every column of both sides). Each side keeps its own per-row
        operators and withWatermark, run on its own rows before the join (the scenario's
        per-source ``operators``); Spark's analysis errors come from the engine when the query
        starts."""
        from pyspark.sql import _join_condition
        from pyspark.sql.types import StructField, StructType
        if kind == "cross":
            kind = "inner"
        left_sources = self._side_sources("DataFrame.join of two streams")
        right_sources = other._side_sources("DataFrame.join of two streams")
        ls, rs = self._stream.get("schema"), other._stream.get("schema")
        join: Dict[str, Any] = {"stream": {"from": len(left_sources)}, "how": kind}
        if isinstance(on, Column):
            if ls is None or rs is None:
                raise _not_built("DataFrame.join of two streams on a Column condition with a side "
                                 "whose schema is unknown")
            join.update(_join_condition.read_condition(on._sql(), ls.fieldNames(), rs.fieldNames()))
        elif isinstance(on, (list, tuple)) and on and all(isinstance(c, str) for c in on):
            join["on"] = list(on)
        else:
            raise _not_built("DataFrame.join of two streams without join columns or a condition")
        schema = None
        if ls is not None and rs is not None:
            pad_left = kind in ("right_outer", "full_outer")
            pad_right = kind in ("left_outer", "full_outer")
            using = "rightOn" not in join
            keys = join["on"] if using else []
            fields = [ls[c] if kind != "right_outer" else rs[c] for c in keys]
            fields += [StructField(f.name, f.dataType, f.nullable or pad_left)
                       for f in ls.fields if f.name not in keys]
            if kind != "left_semi":
                fields += [StructField(f.name, f.dataType, f.nullable or pad_right)
                           for f in rs.fields if f.name not in keys]
            schema = StructType(fields)
        stream = {"sources": left_sources + right_sources, "operators": [{"join": join}], "schema": schema}
        return DataFrame(self.sparkSession, stream=stream)

    def groupBy(self, *cols: Any) -> "GroupedData":
        return GroupedData(self, _names_or_columns(cols))

    groupby = groupBy

    # --- batch: order, limits, actions ---
    def orderBy(self, *cols: Any, **kwargs: Any) -> "DataFrame":
        rel = self._needs_batch("orderBy")
        ascending = kwargs.get("ascending", True)
        specs = []
        for k, c in enumerate(_names_or_columns(cols)):
            col = _as_column(c)
            asc = ascending[k] if isinstance(ascending, list) else bool(ascending)
            if col._sort:
                specs.append(_batch.parse_sort(col._expr + col._sort))
            else:
                specs.append((col._expr, asc, asc))
        return self._from_rel(_batch.order_by(rel, specs, self._conf()))

    sort = orderBy

    def limit(self, num: int) -> "DataFrame":
        if not isinstance(num, int) or isinstance(num, bool):
            raise PySparkTypeError(f"[NOT_INT] Argument `num` should be an int, got {type(num).__name__}.",
                                   errorClass="NOT_INT")
        if self._stream is not None:
            # Spark's StreamingGlobalLimitExec (the engine's ops/streaming_limit.h): at most num rows
            # over the query's life in Append mode; Update mode is refused as the query starts.
            return self._derive({"limit": num}, self._stream.get("schema"))
        return self._from_rel(_batch.Rel(self._rel.schema, self._rel.rows[:num]))

    def _rows(self) -> List[Row]:
        rel = self._needs_batch("collect")
        names = rel.schema.fieldNames()
        return [_create_row(names, tuple(r)) for r in rel.rows]

    def collect(self) -> List[Row]:
        return self._rows()

    def count(self) -> int:
        return len(self._needs_batch("count").rows)

    def isEmpty(self) -> bool:
        return not self._needs_batch("isEmpty").rows

    def first(self) -> Optional[Row]:
        rows = self._rows()
        return rows[0] if rows else None

    def head(self, n: Optional[int] = None) -> Any:
        rows = self._rows()
        if n is None:
            return rows[0] if rows else None
        return rows[:n]

    def take(self, num: int) -> List[Row]:
        return self._rows()[:num]

    def show(self, n: int = 20, truncate: Union[bool, int] = True, vertical: bool = False) -> None:
        rel = self._needs_batch("show")
        print(_batch.show_text(rel, n, bool(truncate)), end="")

    def toPandas(self) -> Any:
        import pandas as pd
        rel = self._needs_batch("toPandas")
        return pd.DataFrame.from_records([tuple(r) for r in rel.rows], columns=rel.schema.fieldNames())

    def createOrReplaceTempView(self, name: str) -> None:
        self.sparkSession._catalog.put_view(name, self)

    createTempView = createOrReplaceTempView

    @property
    def write(self) -> Any:
        from pyspark.sql.readwriter import DataFrameWriter
        self._needs_batch("write")
        return DataFrameWriter(self)

    @property
    def writeStream(self) -> Any:
        from pyspark.sql.streaming.readwriter import DataStreamWriter
        if self._stream is None:
            from pyspark.errors import AnalysisException
            raise AnalysisException("'writeStream' can be called only on streaming Dataset/DataFrame",
                                    errorClass="WRITE_STREAM_NOT_ALLOWED")
        return DataStreamWriter(self)

    def __getattr__(self, name: str) -> Column:
        if name.startswith("_"):
            raise AttributeError(name)
        if name in ("rdd", "explain", "observe"):
            raise _not_built(f"DataFrame.{name}")
        return Column(_name_sql(name))

    def __getitem__(self, item: Any) -> Column:
        if isinstance(item, str):
            return Column(_name_sql(item))
        if isinstance(item, Column):
            return self.filter(item)  # type: ignore[return-value]
        raise PySparkTypeError("[NOT_COLUMN_OR_STR] DataFrame[...] takes a column name",
                               errorClass="NOT_COLUMN_OR_STR")

    def __repr__(self) -> str:
        try:
            return "DataFrame[" + ", ".join(f"{f.name}: {f.dataType.simpleString()}" for f in self.schema.fields) + "]"
        except NotImplementedError:
            return "DataFrame[streaming]"


class GroupedData:
    def __init__(self, df: DataFrame, cols: List[Any]) -> None:
        self._df = df
        self._cols = cols

    def _names(self) -> List[str]:
        out = []
        for c in self._cols:
            if isinstance(c, str):
                out.append(c)
            elif isinstance(c, Column) and c._alias is None and c._expr.startswith("`") and c._expr.endswith("`"):
                out.append(c._expr[1:-1].replace("``", "`"))
            else:
                raise _not_built("groupBy on an expression of a streaming DataFrame (group by columns)")
        return out

    # --- batch aggregates ---
    def agg(self, *exprs: Any) -> DataFrame:
        if not exprs:
            raise PySparkValueError("[CANNOT_BE_EMPTY] At least one agg expression must be "
                                    "specified.", errorClass="CANNOT_BE_EMPTY",
                                    messageParameters={"item": "exprs"})
        if len(exprs) == 1 and isinstance(exprs[0], dict):
            items = [f"{fn}({_name_sql(c)})" for c, fn in exprs[0].items()]
        else:
            items = [_sql_of(e) for e in exprs]
        if self._df._stream is not None:
            return self._stream_agg(items)
        groups = [_sql_of(c) for c in self._cols]
        gitems = [_as_column(c)._sql() for c in self._cols]
        rel = _batch.aggregate(self._df._rel, [g.split(" AS ")[0] for g in groups], gitems + items,
                               self._df._conf())
        return DataFrame(self._df.sparkSession, rel=rel)

    def _stream_agg(self, items: List[str]) -> DataFrame:
        """A streaming aggregation: the scenario's expression form (groupBy items, agg calls;
        ops/expr_aggregation.h), planned and checked by the engine when the query starts --
        window()/session_window() group by time windows, no group is Spark's global
        aggregation. Append needs a watermarked grouping column (Spark's
        STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION otherwise)."""
        groups = [_sql_of(c) for c in self._cols]
        return self._df._derive({"groupBy": groups, "agg": items})

    def count(self) -> DataFrame:
        return self.agg(Column("count(1)", "count"))

    def _simple(self, fn: str, cols: Sequence[str]) -> DataFrame:
        return self.agg(*[Column(f"{fn}({_name_sql(c)})") for c in cols])

    def sum(self, *cols: str) -> DataFrame: return self._simple("sum", cols)
    def min(self, *cols: str) -> DataFrame: return self._simple("min", cols)
    def max(self, *cols: str) -> DataFrame: return self._simple("max", cols)
    def avg(self, *cols: str) -> DataFrame: return self._simple("avg", cols)
    mean = avg

    # --- stateful processors ---
    def transformWithState(self, statefulProcessor: Any, outputStructType: Any, outputMode: str,
                           timeMode: str, initialState: Optional["GroupedData"] = None,
                           eventTimeColumnName: str = "") -> DataFrame:
        return self._tws(statefulProcessor, outputStructType, outputMode, timeMode, initialState,
                         eventTimeColumnName, False)

    def transformWithStateInPandas(self, statefulProcessor: Any, outputStructType: Any,
                                   outputMode: str, timeMode: str,
                                   initialState: Optional["GroupedData"] = None,
                                   eventTimeColumnName: str = "") -> DataFrame:
        return self._tws(statefulProcessor, outputStructType, outputMode, timeMode, initialState,
                         eventTimeColumnName, True)

    def _tws(self, processor: Any, outputStructType: Any, outputMode: str, timeMode: str,
             initialState: Optional["GroupedData"], eventTimeColumnName: str, inPandas: bool) -> DataFrame:
        from pyspark.sql.streaming.stateful_processor import AsyncStatefulProcessor, StatefulProcessor
        from pyspark.sql.types import toEngineDDL, toStructType
        if self._df._stream is None:
            raise _not_built("transformWithState on a batch DataFrame")
        if not isinstance(processor, (StatefulProcessor, AsyncStatefulProcessor)):
            raise PySparkTypeError(
                f"[NOT_EXPECTED_TYPE] statefulProcessor should be a StatefulProcessor, got "
                f"{type(processor).__name__}", errorClass="NOT_EXPECTED_TYPE")
        if isinstance(outputStructType, str):
            schema = StructType.fromDDL(outputStructType)
        else:
            schema = toStructType(outputStructType)
        mode = outputMode.lower()
        if mode not in ("append", "update"):
            raise PySparkValueError(f"outputMode {outputMode!r}: transformWithState takes Append or "
                                    "Update", errorClass="STATEFUL_PROCESSOR_UNSUPPORTED_OUTPUT_MODE")
        tm = {"none": "None", "processingtime": "ProcessingTime", "eventtime": "EventTime"}.get(timeMode.lower())
        if tm is None:
            raise PySparkValueError(f"[INVALID_TIME_MODE] timeMode {timeMode!r}: None, "
                                    "ProcessingTime or EventTime", errorClass="INVALID_TIME_MODE")
        name = self._df.sparkSession._register_processor(processor, toEngineDDL(schema), inPandas)
        spec: Dict[str, Any] = {"processor": name, "outputMode": mode, "timeMode": tm}
        if eventTimeColumnName:
            spec["eventTimeColumn"] = eventTimeColumnName
        if initialState is not None:
            if not isinstance(initialState, GroupedData) or initialState._df._stream is not None:
                raise _not_built("transformWithState initialState other than a batch "
                                 "DataFrame's groupBy(...)")
            rel = initialState._df._rel
            names = rel.schema.fieldNames()
            spec["initialState"] = [{n: _batch.json_value(v) for n, v in zip(names, r)} for r in rel.rows]
        out = self._df._derive({"groupBy": self._names(), "transformWithState": spec}, schema)
        out._stream["outputMode"] = mode
        return out

    def applyInPandasWithState(self, func: Any, outputStructType: Any, stateStructType: Any,
                               outputMode: str, timeoutConf: str) -> DataFrame:
        """flatMapGroupsWithState's rules (GroupState, the three timeouts) on the engine's
        flatMapGroupsWithState operator under Spark's name applyInPandasWithState
        (FlatMapGroupsInPandasWithStateExec): its state is Spark's checkpoint layout, one row per
        key of the stateStructType and its timeout (pyspark/sql/streaming/state.py,
        docs/python.md)."""
        from pyspark.sql.streaming.state import GroupStateTimeout
        from pyspark.sql.types import toEngineDDL, toStructType
        if self._df._stream is None:
            raise _not_built("applyInPandasWithState on a batch DataFrame")
        if not callable(func):
            raise PySparkTypeError(f"[NOT_CALLABLE] Argument `func` should be a callable, got "
                                   f"{type(func).__name__}.", errorClass="NOT_CALLABLE")
        if timeoutConf not in (GroupStateTimeout.NoTimeout, GroupStateTimeout.ProcessingTimeTimeout,
                               GroupStateTimeout.EventTimeTimeout):
            raise PySparkValueError(f"timeoutConf {timeoutConf!r}: NoTimeout, ProcessingTimeTimeout or "
                                    "EventTimeTimeout", errorClass="INVALID_TIMEOUT_CONF")
        mode = outputMode.lower()
        if mode not in ("append", "update"):
            raise PySparkValueError(f"outputMode {outputMode!r}: applyInPandasWithState takes append or "
                                    "update", errorClass="INVALID_OUTPUT_MODE")
        out = StructType.fromDDL(outputStructType) if isinstance(outputStructType, str) else toStructType(outputStructType)
        state = StructType.fromDDL(stateStructType) if isinstance(stateStructType, str) else toStructType(stateStructType)
        watermarked = any("withWatermark" in op for op in self._df._stream["operators"])
        if timeoutConf == GroupStateTimeout.EventTimeTimeout and not watermarked:
            from pyspark.errors import AnalysisException
            raise AnalysisException("Watermark must be specified in the query using "
                                    "'[Dataset/DataFrame].withWatermark()' for using event-time timeout "
                                    "in a [map|flatMap]GroupsWithState. Event-time timeout not supported "
                                    "without watermark.", errorClass="_LEGACY_ERROR_TEMP_1070")
        columns = self._df._stream["schema"].fieldNames() if self._df._stream.get("schema") is not None else None
        name = self._df.sparkSession._register_group_function(func, toEngineDDL(out), toEngineDDL(state), columns)
        spec: Dict[str, Any] = {"function": name, "timeout": timeoutConf, "outputMode": mode,
                                "stateStructType": toEngineDDL(state), "outputStructType": toEngineDDL(out),
                                "name": "applyInPandasWithState"}
        derived = self._df._derive({"groupBy": self._names(), "flatMapGroupsWithState": spec}, out)
        derived._stream["outputMode"] = mode
        return derived

    def applyInPandas(self, *args: Any, **kwargs: Any) -> DataFrame:
        raise _not_built("GroupedData.applyInPandas")
