"""pyspark.sql.SparkSession for streamsim. A session belongs to a World (streamsim.world): its
simulated filesystem, Kafka log and virtual clock are what ``readStream``, ``writeStream`` and
the batch side see. ``SparkSession.builder...getOrCreate()`` returns the session of the current
World (a new World when there is none), so a job's own ``main()`` runs as written."""

import datetime as _dt
import json
import re
from typing import Any, Callable, Dict, Iterable, List, Optional

from pyspark.errors import AnalysisException, PySparkTypeError, PySparkValueError
from pyspark.sql import _batch
from pyspark.sql.types import Row, StructField, StructType, _parse_datatype_string, toEngineDDL

__all__ = ["SparkSession", "RuntimeConfig", "SparkContext"]

# Settings the engine's expressions read (expr/sql_conf.h), by Spark's keys.
_SQL_CONF = ("spark.sql.ansi.enabled", "spark.sql.session.timeZone", "spark.sql.caseSensitive")
# Streaming settings the engine's queries read (query/data_frame.cc), by Spark's keys.
_STREAMING_CONF = ("spark.sql.streaming.noDataMicroBatches.enabled",
                   "spark.sql.streaming.minBatchesToRetain",
                   "spark.sql.streaming.multipleWatermarkPolicy",
                   "spark.sql.streaming.realTimeMode.minBatchDuration")
_DEFAULTS = {"spark.sql.shuffle.partitions": "200", "spark.app.name": "streamsim",
             "spark.master": "local[*]", "spark.sql.sources.default": "parquet",
             "spark.sql.session.timeZone": "UTC", "spark.sql.ansi.enabled": "true"}


class RuntimeConfig:
    """spark.conf: settings by Spark's keys (the ones streamsim reads are listed in docs/python.md;
    others are kept and returned)."""

    def __init__(self, initial: Optional[Dict[str, str]] = None) -> None:
        self._conf: Dict[str, str] = dict(_DEFAULTS)
        self._conf.update(initial or {})

    def set(self, key: str, value: Any) -> None:
        if not isinstance(key, str):
            raise PySparkTypeError("[NOT_STR] Argument `key` should be a str", errorClass="NOT_STR")
        self._conf[key] = str(value).lower() if isinstance(value, bool) else str(value)

    def get(self, key: str, default: Any = "__unset__") -> Any:
        if key in self._conf:
            return self._conf[key]
        if default != "__unset__":
            return default
        from pyspark.errors import PySparkException
        raise PySparkException(f"[SQL_CONF_NOT_FOUND] The SQL config \"{key}\" cannot be found.",
                               errorClass="SQL_CONF_NOT_FOUND")

    def unset(self, key: str) -> None:
        self._conf.pop(key, None)
        if key in _DEFAULTS:
            self._conf[key] = _DEFAULTS[key]

    def getAll(self) -> Dict[str, str]:
        return dict(self._conf)

    def isModifiable(self, key: str) -> bool:
        return True

    def _sql_conf(self) -> Dict[str, str]:
        return {k: v for k, v in self._conf.items() if k in _SQL_CONF}

    def _query_conf(self) -> Dict[str, str]:
        """What a streaming query started in this session runs with: the SQL settings and the
        streaming ones the engine reads (DataFrame option names, data_frame.cc)."""
        return {k: v for k, v in self._conf.items() if k in _SQL_CONF or k in _STREAMING_CONF}


class SparkContext:
    def __init__(self, session: "SparkSession") -> None:
        self._session = session
        self._level = "WARN"

    def setLogLevel(self, logLevel: str) -> None:
        levels = ("ALL", "DEBUG", "ERROR", "FATAL", "INFO", "OFF", "TRACE", "WARN")
        if logLevel.upper() not in levels:
            raise PySparkValueError(f"Supplied level {logLevel} did not match one of: "
                                    f"{','.join(levels)}", errorClass="INVALID_LOG_LEVEL")
        self._level = logLevel.upper()

    @property
    def appName(self) -> str:
        return self._session.conf.get("spark.app.name")

    @property
    def master(self) -> str:
        return self._session.conf.get("spark.master")

    @property
    def defaultParallelism(self) -> int:
        return 2

    def stop(self) -> None:
        self._session.stop()


class _Catalog:
    """Tables (saved with saveAsTable: JSON-lines files under the warehouse folder of the world's
    filesystem), temp views, and the memory sinks' tables (by query name)."""

    WAREHOUSE = "/user/hive/warehouse"

    def __init__(self, session: "SparkSession") -> None:
        self._session = session
        self._tables: Dict[str, Dict[str, Any]] = {}
        self._views: Dict[str, Any] = {}  # name -> DataFrame or a callable returning a Rel
        self._schemas = {"default"}
        self._files = 0

    @staticmethod
    def _key(name: str) -> str:
        parts = [p.strip("`").lower() for p in name.strip().split(".")]
        if len(parts) == 3 and parts[0] == "spark_catalog":
            parts = parts[1:]
        if len(parts) == 1:
            parts = ["default"] + parts
        return ".".join(parts)

    def create_schema(self, name: str, if_not_exists: bool) -> None:
        key = name.strip("`").lower()
        if key in self._schemas and not if_not_exists:
            raise AnalysisException(f"[SCHEMA_ALREADY_EXISTS] Cannot create schema `{name}` because "
                                    "it already exists.", errorClass="SCHEMA_ALREADY_EXISTS")
        self._schemas.add(key)

    def drop_table(self, name: str, if_exists: bool) -> None:
        key = self._key(name)
        if key not in self._tables:
            if not if_exists:
                raise AnalysisException(f"[TABLE_OR_VIEW_NOT_FOUND] The table or view `{name}` cannot "
                                        "be found.", errorClass="TABLE_OR_VIEW_NOT_FOUND")
            return
        self._tables.pop(key)

    def _folder(self, key: str) -> str:
        parts = key.split(".")
        return f"{self.WAREHOUSE}/{'.'.join(parts[:-1])}.db/{parts[-1]}"

    def delta_path(self, name: str) -> Optional[str]:
        """The folder of a Delta table: `delta.`/path`` names a path; a table saved as delta its
        warehouse folder; None for other tables and unknown names."""
        text = name.strip()
        m = re.fullmatch(r"delta\.`([^`]+)`", text, re.I) or re.fullmatch(r"delta\.(/\S+)", text, re.I)
        if m:
            return m.group(1)
        t = self._tables.get(self._key(name))
        return t["path"] if t is not None and t.get("format") == "delta" else None

    def save_delta(self, name: Optional[str], path: Optional[str], rel: _batch.Rel, mode: str,
                   options: Dict[str, str]) -> None:
        """df.write.format("delta"): saveAsTable(name) (the table's folder in the warehouse) or
        save(path); Spark's save modes; txnAppId/txnVersion make it idempotent (_delta.py)."""
        from pyspark.sql import _delta
        if path is None:
            key = self._key(name)
            t = self._tables.get(key)
            if t is not None and t.get("format") != "delta":
                raise AnalysisException(f"[DELTA_TABLE_NOT_FOUND] `{name}` is not a Delta table",
                                        errorClass="DELTA_TABLE_NOT_FOUND")
            path = t["path"] if t is not None else self._folder(key)
            self._tables[key] = {"format": "delta", "path": path}
        log = _delta.DeltaLog(self._session._world, path)
        if log.exists():
            if mode == "errorifexists":
                raise AnalysisException(f"[DELTA_PATH_EXISTS] Cannot write to already existent path "
                                        f"{path} without setting OVERWRITE = 'true'.",
                                        errorClass="DELTA_PATH_EXISTS")
            if mode == "ignore":
                return
        log.write(rel, "overwrite" if mode == "overwrite" else "append",
                  _delta.txn_of(options, self._session.conf))

    def create_delta_table(self, name: str, columns: str, if_not_exists: bool) -> None:
        """CREATE TABLE [IF NOT EXISTS] name (columns) USING DELTA: an empty Delta table."""
        key = self._key(name)
        if key in self._tables:
            if if_not_exists:
                return
            raise AnalysisException(f"[TABLE_OR_VIEW_ALREADY_EXISTS] Cannot create table or view "
                                    f"`{name}` because it already exists.",
                                    errorClass="TABLE_OR_VIEW_ALREADY_EXISTS")
        self.save_delta(name, None, _batch.Rel(StructType.fromDDL(columns), []), "errorifexists", {})

    def table_exists(self, name: str) -> bool:
        return self._key(name) in self._tables or name.strip("`").lower() in self._views

    def table_to_write(self, key: str, shown: str, rel: _batch.Rel, mode: str,
                       fresh: Callable[[], Dict[str, Any]]) -> Optional[Dict[str, Any]]:
        """Spark's save modes on the catalog's table `key` (`shown` in messages): the entry
        `rel`'s rows go to -- a fresh one (`fresh()`) at the first write or on overwrite -- or
        None when mode ignore leaves an existing table as it is."""
        existing = self._tables.get(key)
        if existing is not None:
            if mode == "errorifexists":
                raise AnalysisException(f"[TABLE_OR_VIEW_ALREADY_EXISTS] Cannot create table or view "
                                        f"{shown} because it already exists.",
                                        errorClass="TABLE_OR_VIEW_ALREADY_EXISTS")
            if mode == "ignore":
                return None
            if mode == "append" and [n.lower() for n in existing["schema"].fieldNames()] != \
                    [n.lower() for n in rel.schema.fieldNames()]:
                raise AnalysisException(f"cannot append to {shown}: its columns are "
                                        f"{existing['schema'].fieldNames()}, the rows' "
                                        f"{rel.schema.fieldNames()}", errorClass="INSERT_COLUMN_ARITY_MISMATCH")
        if existing is None or mode == "overwrite":
            existing = fresh()
            self._tables[key] = existing
        return existing

    def save_table(self, name: str, rel: _batch.Rel, mode: str) -> None:
        key = self._key(name)
        existing = self._tables.get(key)
        if existing is not None and existing.get("format") == "delta":
            return self.save_delta(name, None, rel, mode, {})
        existing = self.table_to_write(key, f"`{name}`", rel, mode, lambda: {
            "schema": rel.schema, "rows": [], "folder": self._folder(key) + f"-v{self._files}"})
        if existing is None:
            return
        existing["rows"] = existing["rows"] + list(rel.rows)
        self._files += 1
        names = rel.schema.fieldNames()
        text = "".join(json.dumps({n: _batch.json_value(v) for n, v in zip(names, r)}) + "\n" for r in rel.rows)
        self._session._world._native.put_file(f"{existing['folder']}/part-{self._files:05d}.json",
                                              text.encode("utf-8"))

    def put_view(self, name: str, df: Any) -> None:
        self._views[name.lower()] = df

    def put_query_table(self, name: str, rel_fn: Any) -> None:
        self._views[name.lower()] = rel_fn

    def stream_view(self, name: str) -> Any:
        """The streaming DataFrame a temporary view holds, or None."""
        v = self._views.get(name.strip("`").lower())
        return v if getattr(v, "_stream", None) is not None else None

    def relation(self, name: str) -> _batch.Rel:
        low = name.strip("`").lower()
        if low in self._views:
            v = self._views[low]
            return v._rel if hasattr(v, "_rel") else v()
        delta = self.delta_path(name)
        if delta is not None:
            from pyspark.sql import _delta
            return _delta.DeltaLog(self._session._world, delta).rows()
        key = self._key(name)
        if key in self._tables:
            t = self._tables[key]
            return _batch.Rel(t["schema"], list(t["rows"]))
        raise AnalysisException(f"[TABLE_OR_VIEW_NOT_FOUND] The table or view `{name}` cannot be "
                                "found. Verify the spelling and correctness of the schema and "
                                "catalog.", errorClass="TABLE_OR_VIEW_NOT_FOUND",
                                messageParameters={"relationName": f"`{name}`"})

    def stream_table(self, name: str, options: Dict[str, str]) -> Any:
        delta = self.delta_path(name)
        if delta is not None:
            return self.stream_delta(delta, options)
        key = self._key(name)
        if key not in self._tables:
            raise AnalysisException(f"[TABLE_OR_VIEW_NOT_FOUND] The table or view `{name}` cannot be "
                                    "found.", errorClass="TABLE_OR_VIEW_NOT_FOUND",
                                    messageParameters={"relationName": f"`{name}`"})
        t = self._tables[key]
        source = {"kind": "files", "path": t["folder"], "format": "json",
                  "schema": toEngineDDL(t["schema"]), "options": dict(options)}
        return self._session._stream_df(source, t["schema"])

    def stream_delta(self, path: str, options: Dict[str, str]) -> Any:
        """readStream of a Delta table: its data files through the file source, as an
        append-only table's commits add them. A table whose log removed files (an overwrite, a
        MERGE) is refused as Delta's source refuses it without skipChangeCommits."""
        from pyspark.sql import _delta
        log = _delta.DeltaLog(self._session._world, path)
        snap = log.snapshot()
        if snap.schema is None:
            raise AnalysisException(f"[DELTA_TABLE_NOT_FOUND] `{path}` is not a Delta table.",
                                    errorClass="DELTA_TABLE_NOT_FOUND")
        if log.has_removes():
            raise NotImplementedError(
                f"readStream of the Delta table {path}, whose log updated or deleted rows (an "
                "overwrite or MERGE; Delta's source fails with DELTA_SOURCE_TABLE_IGNORE_CHANGES "
                "unless skipChangeCommits), is not built in streamsim; see docs/python.md")
        source = {"kind": "files", "path": path, "format": "json",
                  "schema": toEngineDDL(snap.schema), "options": dict(options)}
        return self._session._stream_df(source, snap.schema)

    def read_parquet(self, path: str, schema: Any) -> Any:
        from pyspark.errors import AnalysisException
        ddl = ""
        if schema is not None:
            ddl = toEngineDDL(schema if isinstance(schema, StructType) else StructType.fromDDL(schema))
        native = self._session._world._native
        try:
            out_ddl, rows = native.read_parquet(path, ddl)
        except (ValueError, RuntimeError) as e:
            text = str(e)
            for cls in ("PATH_NOT_FOUND", "UNABLE_TO_INFER_SCHEMA"):
                if f"[{cls}]" in text:
                    raise AnalysisException(text[text.index(f"[{cls}]"):], errorClass=cls) from None
            raise
        return self._session._batch_df(_batch.Rel(StructType.fromDDL(out_ddl), [tuple(r) for r in rows]))

    def read_json_folder(self, path: str, schema: Any, options: Optional[Dict[str, Any]] = None) -> Any:
        if schema is None:
            raise NotImplementedError("spark.read.json without a schema (schema inference) is not "
                                      "built in streamsim; see docs/python.md")
        st = schema if isinstance(schema, StructType) else StructType.fromDDL(schema)
        native = self._session._world._native
        if native.list_files(f"{path.rstrip('/')}/_spark_metadata"):
            # A streaming file sink's folder: the files its log committed (Spark's
            # MetadataLogFileIndex), never a half-written batch's.
            ddl, rows = native.file_sink_rows(path, toEngineDDL(st))
            return self._session._batch_df(_batch.Rel(StructType.fromDDL(ddl), [tuple(r) for r in rows]))
        # The folder's files read by the engine's JSON reader (io/json_rows.h: JacksonParser's
        # casts, modes, datetime options and partial results), as the streaming source reads them.
        opts = {k: (str(v).lower() if isinstance(v, bool) else str(v)) for k, v in (options or {}).items()}
        ddl, rows = native.read_format_files(path, "json", toEngineDDL(st), opts)
        return self._session._batch_df(_batch.Rel(StructType.fromDDL(ddl), [tuple(r) for r in rows]))


class Catalog:
    """spark.catalog: tableExists over the world's catalog (the rest raises NotImplementedError)."""

    def __init__(self, session: "SparkSession") -> None:
        self._session = session

    def tableExists(self, tableName: str, dbName: Optional[str] = None) -> bool:
        return self._session._catalog.table_exists(f"{dbName}.{tableName}" if dbName else tableName)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        raise NotImplementedError(f"spark.catalog.{name} is not built in streamsim; see docs/python.md")


class _Builder:
    def __init__(self) -> None:
        self._options: Dict[str, str] = {}

    def appName(self, name: str) -> "_Builder":
        return self.config("spark.app.name", name)

    def master(self, master: str) -> "_Builder":
        return self.config("spark.master", master)

    def remote(self, url: str) -> "_Builder":
        return self.config("spark.remote", url)

    def enableHiveSupport(self) -> "_Builder":
        return self.config("spark.sql.catalogImplementation", "hive")

    def config(self, key: Optional[str] = None, value: Any = None, conf: Any = None,
               *, map: Optional[Dict[str, Any]] = None) -> "_Builder":
        if key is not None:
            self._options[key] = str(value).lower() if isinstance(value, bool) else str(value)
        for k, v in (map or {}).items():
            self._options[k] = str(v)
        return self

    def getOrCreate(self) -> "SparkSession":
        from streamsim.world import World
        world = World.current() or World()
        session = world.spark
        for k, v in self._options.items():
            session.conf.set(k, v)
        return session

    create = getOrCreate


class _BuilderDescriptor:
    def __get__(self, instance: Any, owner: Any) -> _Builder:
        return _Builder()


class SparkSession:
    """A session bound to a streamsim World (build it with ``World().spark`` or
    ``SparkSession.builder.getOrCreate()``)."""

    builder = _BuilderDescriptor()

    def __init__(self, world: Any) -> None:
        self._world = world
        self.conf = RuntimeConfig()
        self._catalog = _Catalog(self)
        self._processors: Dict[str, Any] = {}
        self._sc = SparkContext(self)
        self._stopped = False

    @classmethod
    def getActiveSession(cls) -> Optional["SparkSession"]:
        from streamsim.world import World
        w = World.current()
        return w.spark if w is not None else None

    active = getActiveSession

    @property
    def sparkContext(self) -> SparkContext:
        return self._sc

    @property
    def version(self) -> str:
        import pyspark
        return pyspark.__version__

    @property
    def readStream(self) -> Any:
        from pyspark.sql.streaming.readwriter import DataStreamReader
        return DataStreamReader(self)

    @property
    def read(self) -> Any:
        from pyspark.sql.readwriter import DataFrameReader
        return DataFrameReader(self)

    @property
    def streams(self) -> Any:
        from pyspark.sql.streaming.query import StreamingQueryManager
        return StreamingQueryManager(self._world)

    @property
    def catalog(self) -> "Catalog":
        return Catalog(self)

    @property
    def udf(self) -> Any:
        """UDFRegistration: ``spark.udf.register(name, f, returnType)`` (pyspark/sql/udf.py)."""
        from pyspark.sql.udf import UDFRegistration
        if getattr(self, "_udf_registration", None) is None:
            self._udf_registration = UDFRegistration(self)
        return self._udf_registration

    def newSession(self) -> "SparkSession":
        return self

    def stop(self) -> None:
        q = self._world._query
        if q is not None and q.isActive:
            q.stop()
        self._stopped = True

    def __enter__(self) -> "SparkSession":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # --- DataFrames ---
    def _stream_df(self, source: Dict[str, Any], schema: Optional[StructType]) -> Any:
        from pyspark.sql.dataframe import DataFrame
        return DataFrame(self, stream={"source": source, "operators": [], "schema": schema})

    def _batch_df(self, rel: _batch.Rel) -> Any:
        from pyspark.sql.dataframe import DataFrame
        return DataFrame(self, rel=rel)

    def _register_processor(self, processor: Any, output_ddl: str, in_pandas: bool) -> str:
        name = f"job:{len(self._processors)}"
        self._processors[name] = (processor, output_ddl, in_pandas)
        return name

    def _register_group_function(self, func: Any, output_ddl: str, state_ddl: str,
                                 columns: Optional[List[str]]) -> str:
        """applyInPandasWithState's function, bound to its operator when the query starts
        (python/native/python_group_state.cc reads the entry)."""
        name = f"job:{len(self._processors)}"
        self._processors[name] = ("applyInPandasWithState", func, output_ddl, state_ddl, columns)
        return name

    def createDataFrame(self, data: Any, schema: Any = None, samplingRatio: Any = None,
                        verifySchema: bool = True) -> Any:
        rows = list(data.itertuples(index=False, name=None)) if hasattr(data, "itertuples") else list(data)
        if schema is None and hasattr(data, "columns"):
            schema = list(data.columns)
        if isinstance(schema, str):
            st = _parse_schema_string(schema)
        elif isinstance(schema, StructType):
            st = schema
        elif isinstance(schema, (list, tuple)) or schema is None:
            st = _infer_schema(rows, list(schema) if schema else None)
        else:
            raise PySparkTypeError("[NOT_LIST_OR_NONE_OR_STRUCT] schema should be a StructType, a "
                                   "DDL string or a list of names", errorClass="NOT_LIST_OR_NONE_OR_STRUCT")
        names = st.fieldNames()
        tuples = []
        for r in rows:
            if isinstance(r, dict):
                tuples.append(tuple(r.get(n) for n in names))
            elif isinstance(r, Row) and hasattr(r, "__fields__"):
                d = r.asDict()
                tuples.append(tuple(d.get(n) for n in names))
            elif isinstance(r, (tuple, list)):
                if len(r) != len(names):
                    raise PySparkValueError(f"[LENGTH_SHOULD_BE_THE_SAME] a row of {len(r)} values "
                                            f"for the {len(names)} columns {names}",
                                            errorClass="LENGTH_SHOULD_BE_THE_SAME")
                tuples.append(tuple(r))
            else:
                tuples.append((r,))
        rel = _batch.Rel(st, tuples)
        # Checked and converted by the engine, column by column (a value that does not fit fails
        # with the condition the engine's conversion raises).
        return self._batch_df(_batch.select(rel, [f"`{n}`" for n in names], self.conf._sql_conf()))

    def table(self, tableName: str) -> Any:
        stream = self._catalog.stream_view(tableName)
        if stream is not None:
            return stream  # a temporary view of a streaming DataFrame is that stream
        return self._batch_df(self._catalog.relation(tableName))

    def range(self, start: int, end: Optional[int] = None, step: int = 1,
              numPartitions: Optional[int] = None) -> Any:
        if end is None:
            start, end = 0, start
        return self._batch_df(_batch.Rel(StructType.fromDDL("id bigint"),
                                         [(i,) for i in range(start, end, step)]))

    def sql(self, sqlQuery: str, args: Any = None, **kwargs: Any) -> Any:
        if args or kwargs:
            raise NotImplementedError("spark.sql with parameters is not built in streamsim; see docs/python.md")
        text = sqlQuery.strip().rstrip(";").strip()
        m = re.fullmatch(r"CREATE\s+(?:SCHEMA|DATABASE)\s+(IF\s+NOT\s+EXISTS\s+)?([\w.`]+)", text, re.I | re.S)
        if m:
            self._catalog.create_schema(m.group(2), bool(m.group(1)))
            return self._batch_df(_batch.Rel(StructType([]), []))
        m = re.fullmatch(r"DROP\s+(?:TABLE|VIEW)\s+(IF\s+EXISTS\s+)?([\w.`]+)", text, re.I | re.S)
        if m:
            self._catalog.drop_table(m.group(2), bool(m.group(1)))
            return self._batch_df(_batch.Rel(StructType([]), []))
        m = re.fullmatch(r"CREATE\s+TABLE\s+(IF\s+NOT\s+EXISTS\s+)?([\w.`]+)\s*\((.*)\)\s*USING\s+DELTA",
                         text, re.I | re.S)
        if m:
            self._catalog.create_delta_table(m.group(2), m.group(3), bool(m.group(1)))
            return self._batch_df(_batch.Rel(StructType([]), []))
        if re.match(r"MERGE\b", text, re.I):
            from pyspark.sql import _merge_sql
            return _merge_sql.run(self, text)
        if not re.match(r"SELECT\b", text, re.I):
            raise NotImplementedError(f"spark.sql({sqlQuery!r}): streamsim runs SELECT, MERGE INTO, CREATE SCHEMA, "
                                      "CREATE TABLE ... USING DELTA and DROP TABLE statements; see "
                                      "docs/python.md")
        plan = _batch.parse_select(text)
        stream = self._catalog.stream_view(plan["table"])
        if stream is not None:
            from pyspark.sql import _stream_sql
            return _stream_sql.select(stream, plan)
        rel = self._catalog.relation(plan["table"])
        return self._batch_df(_batch.run_select(plan, rel, self.conf._sql_conf()))


def _parse_schema_string(s: str) -> StructType:
    try:
        return StructType.fromDDL(s)
    except Exception:
        t = _parse_datatype_string(s)
        return t if isinstance(t, StructType) else StructType([StructField("value", t)])


def _infer_type(v: Any) -> str:
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "bigint"
    if isinstance(v, float):
        return "double"
    if isinstance(v, str):
        return "string"
    if isinstance(v, _dt.datetime):
        return "timestamp"
    if isinstance(v, _dt.date):
        return "date"
    raise PySparkTypeError(f"[CANNOT_INFER_TYPE_FOR_FIELD] cannot infer a type for {v!r}; give a "
                           "schema", errorClass="CANNOT_INFER_TYPE_FOR_FIELD")


def _infer_schema(rows: List[Any], names: Optional[List[str]]) -> StructType:
    if not rows:
        raise PySparkValueError("[CANNOT_INFER_EMPTY_SCHEMA] Can not infer schema from an empty "
                                "dataset.", errorClass="CANNOT_INFER_EMPTY_SCHEMA")
    first = rows[0]
    if isinstance(first, dict):
        cols = names or list(first.keys())
        values = [first.get(c) for c in cols]
    elif isinstance(first, Row) and hasattr(first, "__fields__"):
        cols = names or list(first.__fields__)
        values = list(first)
    elif isinstance(first, (tuple, list)):
        cols = names or [f"_{i + 1}" for i in range(len(first))]
        values = list(first)
    else:
        cols, values = names or ["value"], [first]
    types = []
    for i, c in enumerate(cols):
        v = values[i] if i < len(values) else None
        k = 1
        while v is None and k < len(rows):
            r = rows[k]
            v = r.get(c) if isinstance(r, dict) else r[i]
            k += 1
        types.append(_infer_type(v) if v is not None else "string")
    return StructType([StructField(c, _parse_datatype_string(t)) for c, t in zip(cols, types)])
