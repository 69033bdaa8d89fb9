"""delta.tables for streamsim: DeltaTable.forName/forPath, toDF, alias, merge with
whenMatchedUpdate(All)/whenMatchedDelete/whenNotMatchedInsert(All), execute -- over the Delta
table stand-in of the world (pyspark/sql/_delta.py). MERGE follows Delta's rules: the matched
clauses in order (the first whose condition holds applies), a target row matched by several
source rows is DELTA_MULTIPLE_SOURCE_ROW_MATCHING_TARGET_ROW_IN_MERGE, source rows no target row
matches go to the not-matched clauses in order. The condition and the expressions are Spark SQL
text evaluated by the engine over each (target, source) pair, the target's columns under its
alias and the source's under its own (``t.id = s.id``); a column only one side has is also there
by its plain name."""

from typing import Any, Dict, List, Optional, Tuple, Union

from pyspark.errors import AnalysisException, PySparkTypeError
from pyspark.sql import _batch, _delta
from pyspark.sql.column import Column
from pyspark.sql.types import StructField, StructType

__all__ = ["DeltaTable", "DeltaMergeBuilder"]


def _sql(c: Union[str, Column, None]) -> Optional[str]:
    if c is None:
        return None
    if isinstance(c, Column):
        return c._sql()
    if isinstance(c, str):
        return c
    raise PySparkTypeError(f"[NOT_COLUMN_OR_STR] a condition or expression must be a Column or a SQL "
                           f"string, got {type(c).__name__}", errorClass="NOT_COLUMN_OR_STR")


def _not_built(api: str) -> NotImplementedError:
    return NotImplementedError(f"{api} is not built in streamsim; see docs/python.md (Delta)")


class DeltaTable:
    def __init__(self, spark: Any, path: str, name: Optional[str] = None, alias: Optional[str] = None) -> None:
        self._spark = spark
        self._path = path
        self._name = name
        self._alias = alias

    @classmethod
    def forPath(cls, sparkSession: Any, path: str, hadoopConf: Optional[Dict[str, str]] = None) -> "DeltaTable":
        if not _delta.DeltaLog(sparkSession._world, path).exists():
            raise AnalysisException(f"[DELTA_MISSING_DELTA_TABLE] `{path}` is not a Delta table.",
                                    errorClass="DELTA_MISSING_DELTA_TABLE",
                                    messageParameters={"tableName": path})
        return cls(sparkSession, path)

    @classmethod
    def forName(cls, sparkSession: Any, tableOrViewName: str) -> "DeltaTable":
        path = sparkSession._catalog.delta_path(tableOrViewName)
        if path is None or not _delta.DeltaLog(sparkSession._world, path).exists():
            raise AnalysisException(f"[DELTA_MISSING_DELTA_TABLE] `{tableOrViewName}` is not a Delta "
                                    "table.", errorClass="DELTA_MISSING_DELTA_TABLE",
                                    messageParameters={"tableName": tableOrViewName})
        return cls(sparkSession, path, tableOrViewName)

    @classmethod
    def isDeltaTable(cls, sparkSession: Any, identifier: str) -> bool:
        return _delta.DeltaLog(sparkSession._world, identifier).exists()

    def _log(self) -> "_delta.DeltaLog":
        return _delta.DeltaLog(self._spark._world, self._path)

    def toDF(self) -> Any:
        return self._spark._batch_df(self._log().rows())

    def alias(self, aliasName: str) -> "DeltaTable":
        return DeltaTable(self._spark, self._path, self._name, aliasName)

    def history(self, limit: Optional[int] = None) -> Any:
        rows = []
        log = self._log()
        for v in reversed(log._versions()):
            for line in self._spark._world.read(f"{self._path}/{_delta.LOG}/{v:020d}.json").splitlines():
                if '"commitInfo"' in line:
                    import json
                    ci = json.loads(line)["commitInfo"]
                    rows.append((v, ci.get("operation")))
        if limit is not None:
            rows = rows[:limit]
        return self._spark._batch_df(_batch.Rel(StructType.fromDDL("version bigint, operation string"), rows))

    def merge(self, source: Any, condition: Union[str, Column]) -> "DeltaMergeBuilder":
        if source is None or not hasattr(source, "_rel") or source._rel is None:
            raise PySparkTypeError("[NOT_DATAFRAME] merge() takes a batch DataFrame as its source "
                                   "(in a stream: inside foreachBatch)", errorClass="NOT_DATAFRAME")
        if condition is None:
            raise PySparkTypeError("[NOT_COLUMN_OR_STR] merge condition must be a Column or str",
                                   errorClass="NOT_COLUMN_OR_STR")
        return DeltaMergeBuilder(self, source, _sql(condition))

    def __getattr__(self, name: str) -> Any:
        if name in ("update", "delete", "vacuum", "detail", "optimize", "restoreToVersion",
                    "restoreToTimestamp", "upgradeTableProtocol", "generate", "convertToDelta",
                    "create", "createIfNotExists", "replace", "createOrReplace", "clone"):
            raise _not_built(f"DeltaTable.{name}")
        raise AttributeError(name)


class _Clause:
    def __init__(self, kind: str, condition: Optional[str], assignments: Optional[Dict[str, str]]) -> None:
        self.kind = kind  # update | delete | insert
        self.condition = condition
        self.assignments = assignments  # None: all columns by name (UpdateAll / InsertAll)


class DeltaMergeBuilder:
    def __init__(self, table: DeltaTable, source: Any, condition: str) -> None:
        self._table = table
        self._source = source
        self._condition = condition
        self._matched: List[_Clause] = []
        self._not_matched: List[_Clause] = []
        self._metrics = (0, 0, 0)  # updated, deleted, inserted by execute (SQL MERGE's result row)

    @staticmethod
    def _assign(values: Optional[Dict[str, Any]], what: str) -> Dict[str, str]:
        if not isinstance(values, dict) or not values:
            raise PySparkTypeError(f"[NOT_DICT] {what} must be a non-empty dict of column -> "
                                   "expression", errorClass="NOT_DICT")
        return {k: _sql(v) for k, v in values.items()}

    def whenMatchedUpdate(self, condition: Any = None, set: Optional[Dict[str, Any]] = None) -> "DeltaMergeBuilder":
        self._matched.append(_Clause("update", _sql(condition), self._assign(set, "set")))
        return self

    def whenMatchedUpdateAll(self, condition: Any = None) -> "DeltaMergeBuilder":
        self._matched.append(_Clause("update", _sql(condition), None))
        return self

    def whenMatchedDelete(self, condition: Any = None) -> "DeltaMergeBuilder":
        self._matched.append(_Clause("delete", _sql(condition), None))
        return self

    def whenNotMatchedInsert(self, condition: Any = None, values: Optional[Dict[str, Any]] = None) -> "DeltaMergeBuilder":
        self._not_matched.append(_Clause("insert", _sql(condition), self._assign(values, "values")))
        return self

    def whenNotMatchedInsertAll(self, condition: Any = None) -> "DeltaMergeBuilder":
        self._not_matched.append(_Clause("insert", _sql(condition), None))
        return self

    def whenNotMatchedBySourceUpdate(self, *args: Any, **kwargs: Any) -> "DeltaMergeBuilder":
        raise _not_built("DeltaMergeBuilder.whenNotMatchedBySourceUpdate")

    def whenNotMatchedBySourceDelete(self, *args: Any, **kwargs: Any) -> "DeltaMergeBuilder":
        raise _not_built("DeltaMergeBuilder.whenNotMatchedBySourceDelete")

    def withSchemaEvolution(self) -> "DeltaMergeBuilder":
        raise _not_built("DeltaMergeBuilder.withSchemaEvolution")

    def execute(self) -> None:
        spark = self._table._spark
        conf = spark.conf._sql_conf()
        log = self._table._log()
        snap = log.snapshot()
        txn = _delta.txn_of({}, spark.conf)
        if txn is not None and snap.txns.get(txn[0], -1) >= txn[1]:
            return  # Delta skips a write whose (appId, version) it committed already
        target = log.rows(snap)
        source = self._source._rel
        t_alias = self._table._alias or (self._table._name or "target").split(".")[-1]
        s_alias = getattr(self._source, "_alias", None) or "source"
        pairs = _Pairs(target, source, t_alias, s_alias)
        # Every (target, source) pair the condition holds for.
        cand = [(i, j) for i in range(len(target.rows)) for j in range(len(source.rows))]
        hit = pairs.where(self._condition, cand, conf)
        by_target: Dict[int, List[int]] = {}
        matched_sources = set()
        for i, j in hit:
            by_target.setdefault(i, []).append(j)
            matched_sources.add(j)
        t_names = target.schema.fieldNames()
        s_names = source.schema.fieldNames()
        out_rows: List[tuple] = []
        updated = deleted = inserted = 0
        for i, row in enumerate(target.rows):
            js = by_target.get(i)
            if not js:
                out_rows.append(row)
                continue
            if self._matched and len(js) > 1:
                raise AnalysisException(
                    "[DELTA_MULTIPLE_SOURCE_ROW_MATCHING_TARGET_ROW_IN_MERGE] Cannot perform Merge as "
                    "multiple source rows matched and attempted to modify the same target row in the "
                    "Delta table in possibly conflicting ways.",
                    errorClass="DELTA_MULTIPLE_SOURCE_ROW_MATCHING_TARGET_ROW_IN_MERGE")
            clause = self._first(self._matched, pairs, (i, js[0]), conf)
            if clause is None:
                out_rows.append(row)
            elif clause.kind == "delete":
                deleted += 1
            else:
                out_rows.append(self._values(clause, pairs, (i, js[0]), t_names, s_names, target.schema, conf))
                updated += 1
        for j in range(len(source.rows)):
            if j in matched_sources:
                continue
            clause = self._first(self._not_matched, pairs, (None, j), conf)
            if clause is not None:
                out_rows.append(self._values(clause, pairs, (None, j), t_names, s_names, target.schema, conf))
                inserted += 1
        self._metrics = (updated, deleted, inserted)
        if updated == deleted == inserted == 0 and txn is None:
            return  # nothing changed: Delta commits no new version's data change
        log.write(_batch.Rel(target.schema, out_rows), "overwrite", txn, operation="MERGE")

    @staticmethod
    def _first(clauses: List[_Clause], pairs: "_Pairs", pair: Tuple[Optional[int], int],
               conf: Dict[str, str]) -> Optional[_Clause]:
        for c in clauses:
            if c.condition is None or pairs.where(c.condition, [pair], conf):
                return c
        return None

    @staticmethod
    def _values(clause: _Clause, pairs: "_Pairs", pair: Tuple[Optional[int], int], t_names: List[str],
                s_names: List[str], schema: StructType, conf: Dict[str, str]) -> tuple:
        low_s = {n.lower(): n for n in s_names}
        exprs = []
        for n, f in zip(t_names, schema.fields):
            if clause.assignments is None:
                if n.lower() not in low_s:
                    raise AnalysisException(
                        f"[DELTA_MERGE_UNRESOLVED_EXPRESSION] Cannot resolve {n} in {clause.kind.upper()} "
                        f"clause given columns {', '.join(pairs.s_alias + '.' + s for s in s_names)}.",
                        errorClass="DELTA_MERGE_UNRESOLVED_EXPRESSION")
                e = f"`{pairs.s_alias}`.`{low_s[n.lower()]}`"
            else:
                hit = [k for k in clause.assignments if k.split(".")[-1].strip("`").lower() == n.lower()]
                if hit:
                    e = clause.assignments[hit[0]]
                elif clause.kind == "insert":
                    e = "NULL"
                else:
                    e = f"`{pairs.t_alias}`.`{n}`"
            exprs.append(f"CAST({e} AS {f.dataType.simpleString().upper()}) AS `{n}`")
        if clause.assignments is not None:
            for k in clause.assignments:
                if k.split(".")[-1].strip("`").lower() not in [n.lower() for n in t_names]:
                    raise AnalysisException(
                        f"[DELTA_MERGE_UNRESOLVED_EXPRESSION] Cannot resolve {k} in {clause.kind.upper()} "
                        f"clause given columns {', '.join(t_names)}.",
                        errorClass="DELTA_MERGE_UNRESOLVED_EXPRESSION")
        return tuple(pairs.select(exprs, [pair], conf).rows[0])


class _Pairs:
    """(target row, source row) pairs as rows of one relation: a struct column per side under
    its alias, and each column only one side has by its plain name."""

    def __init__(self, target: _batch.Rel, source: _batch.Rel, t_alias: str, s_alias: str) -> None:
        self.target, self.source = target, source
        self.t_alias, self.s_alias = t_alias, s_alias
        t_low = {n.lower() for n in target.schema.fieldNames()}
        s_low = {n.lower() for n in source.schema.fieldNames()}
        fields = [StructField(t_alias, target.schema), StructField(s_alias, source.schema)]
        self.t_only = [k for k, n in enumerate(target.schema.fieldNames()) if n.lower() not in s_low]
        self.s_only = [k for k, n in enumerate(source.schema.fieldNames()) if n.lower() not in t_low]
        fields += [target.schema.fields[k] for k in self.t_only]
        fields += [source.schema.fields[k] for k in self.s_only]
        self.schema = StructType(fields)

    def _rel(self, pairs: List[Tuple[Optional[int], int]]) -> _batch.Rel:
        rows = []
        for i, j in pairs:
            t = self.target.rows[i] if i is not None else None
            s = self.source.rows[j]
            rows.append((t, s) + tuple(t[k] if t is not None else None for k in self.t_only)
                        + tuple(s[k] for k in self.s_only))
        return _batch.Rel(self.schema, rows)

    def where(self, condition: str, pairs: List[Tuple[Optional[int], int]], conf: Dict[str, str]) -> List[Tuple[Optional[int], int]]:
        if not pairs:
            return []
        keep = _batch._native().eval_where(self.schema_ddl(), self._rel(pairs).rows, condition, conf, 0)
        return [pairs[k] for k in keep]

    def select(self, exprs: List[str], pairs: List[Tuple[Optional[int], int]], conf: Dict[str, str]) -> _batch.Rel:
        return _batch.select(self._rel(pairs), exprs, conf)

    def schema_ddl(self) -> str:
        return _batch.Rel(self.schema, []).ddl()
