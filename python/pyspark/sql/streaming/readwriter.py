"""DataStreamReader / DataStreamWriter for streamsim: sources and sinks of a PySpark streaming
job as a scenario's query spec (docs/python.md "PySpark jobs")."""

from typing import Any, Callable, Dict, Optional

from pyspark.errors import PySparkTypeError, PySparkValueError
from pyspark.sql._durations import duration_ms

__all__ = ["DataStreamReader", "DataStreamWriter"]


def _not_built(api: str) -> NotImplementedError:
    return NotImplementedError(f"{api} is not built in streamsim; see docs/python.md (PySpark jobs)")


# Kafka options that reach the engine's Kafka source (kafka_source.h), by their lower-case names
# (Spark's options are case-insensitive); kafka.* configure the client only and are accepted and
# ignored, but for those KafkaSourceProvider.validateGeneralOptions refuses.
_KAFKA_OPTIONS = {"subscribe": "subscribe", "subscribepattern": "subscribePattern", "assign": "assign",
                  "startingoffsets": "startingOffsets", "failondataloss": "failOnDataLoss",
                  "maxoffsetspertrigger": "maxOffsetsPerTrigger", "endingoffsets": "endingOffsets",
                  "startingtimestamp": "startingTimestamp",
                  "startingoffsetsbytimestamp": "startingOffsetsByTimestamp",
                  "startingoffsetsbytimestampstrategy": "startingOffsetsByTimestampStrategy",
                  "includeheaders": "includeHeaders"}
_KAFKA_CLIENT_ONLY = {"groupidprefix", "fetchoffset.numretries",
                      "fetchoffset.retryintervalms", "minpartitions", "maxtriggerdelay"}
# KafkaSourceProvider.validateGeneralOptions: kafka.* settings a source refuses, and why.
_KAFKA_REFUSED = {
    "kafka.auto.offset.reset":
        "\nKafka option 'auto.offset.reset' is not supported.\nInstead set the source option "
        "'startingoffsets' to 'earliest' or 'latest'\nto specify where to start. Structured Streaming "
        "manages which offsets are consumed\ninternally, rather than relying on the kafkaConsumer to do "
        "it. This will ensure that no\ndata is missed when new topics/partitions are dynamically "
        "subscribed. Note that\n'startingoffsets' only applies when a new Streaming query is started, "
        "and\nthat resuming will always pick up from where the query left off. See the docs for more"
        "\ndetails.\n",
    "kafka.key.deserializer":
        "Kafka option 'key.deserializer' is not supported as keys are deserialized as byte arrays "
        "with ByteArrayDeserializer. Use DataFrame operations to explicitly deserialize the keys.",
    "kafka.value.deserializer":
        "Kafka option 'value.deserializer' is not supported as values are deserialized as byte "
        "arrays with ByteArrayDeserializer. Use DataFrame operations to explicitly deserialize the "
        "values.",
    "kafka.enable.auto.commit": "Kafka option 'enable.auto.commit' is not supported",
    "kafka.interceptor.classes": "Kafka option 'interceptor.classes' is not supported",
}


def _given(options: Dict[str, Any]) -> Dict[str, Any]:
    """PySpark's _set_opts: keyword options that are None are not set."""
    return {k: v for k, v in options.items() if v is not None}


class DataStreamReader:
    def __init__(self, session: Any) -> None:
        self._session = session
        self._format: Optional[str] = None
        self._schema: Any = None
        self._options: Dict[str, str] = {}

    def format(self, source: str) -> "DataStreamReader":
        self._format = source.lower()
        return self

    def schema(self, schema: Any) -> "DataStreamReader":
        from pyspark.sql.types import StructType
        if not isinstance(schema, (StructType, str)):
            raise PySparkTypeError("[NOT_STR_OR_STRUCT] Argument `schema` should be a str or "
                                   f"StructType, got {type(schema).__name__}.",
                                   errorClass="NOT_STR_OR_STRUCT")
        self._schema = schema
        return self

    def option(self, key: str, value: Any) -> "DataStreamReader":
        self._options[key] = str(value).lower() if isinstance(value, bool) else str(value)
        return self

    def options(self, **options: Any) -> "DataStreamReader":
        for k, v in options.items():
            self.option(k, v)
        return self

    def load(self, path: Optional[str] = None, format: Optional[str] = None, schema: Any = None,
             **options: Any) -> Any:
        if format is not None:
            self.format(format)
        if schema is not None:
            self.schema(schema)
        self.options(**options)
        fmt = self._format or self._session.conf.get("spark.sql.sources.default", "parquet")
        if fmt == "kafka":
            return self._kafka()
        if fmt in ("json", "csv", "text", "parquet", "orc"):
            if path is None:
                raise PySparkValueError("a file source needs a path", errorClass="INVALID_ARGUMENT")
            return self._files(fmt, path)
        if fmt == "rate":
            return self._rate()
        if fmt == "rate-micro-batch":
            return self._rate_micro_batch()
        raise _not_built(f"readStream.format({fmt!r})")

    def json(self, path: str, schema: Any = None, **options: Any) -> Any:
        return self.load(path, "json", schema, **_given(options))

    def csv(self, path: str, schema: Any = None, **options: Any) -> Any:
        """PySpark's csv(path, schema, sep, encoding, quote, escape, comment, header, ...): the
        options given (not None) as the CSV options (io/csv_rows.h)."""
        return self.load(path, "csv", schema, **_given(options))

    def text(self, path: str, wholetext: bool = False, lineSep: Optional[str] = None,
             **options: Any) -> Any:
        """The text source: one ``value string`` row per line (``wholetext``: per file)."""
        if lineSep is not None:
            raise _not_built("readStream.text(lineSep=...) (lines end at \\n, \\r\\n or \\r)")
        return self.load(path, "text", None, wholetext=wholetext, **_given(options))

    def parquet(self, path: str, **options: Any) -> Any:
        return self.load(path, "parquet", None, **options)

    def table(self, tableName: str) -> Any:
        return self._session._catalog.stream_table(tableName, self._options)

    def _files(self, fmt: str, path: str) -> Any:
        from pyspark.errors import AnalysisException
        from pyspark.sql.types import StructType, toEngineDDL
        if fmt not in ("json", "csv", "text", "parquet"):
            raise _not_built(f"readStream.format({fmt!r}) (streamsim's file source reads JSON lines, "
                             "CSV, text and Parquet)")
        if fmt == "text":
            # TextFileFormat: one string column, "value" unless the schema given names it.
            if self._schema is None:
                self._schema = "value string"
            schema = self._schema if isinstance(self._schema, StructType) else StructType.fromDDL(self._schema)
            if len(schema.fields) != 1 or schema.fields[0].dataType.simpleString() != "string":
                raise AnalysisException(
                    f"Text data source supports only a single column, and you have "
                    f"{len(schema.fields)} columns.", errorClass="_LEGACY_ERROR_TEMP_1133")
        if self._schema is None:
            raise AnalysisException(
                "Schema must be specified when creating a streaming source DataFrame. Depending on "
                "the source, you may need to set spark.sql.streaming.schemaInference to true.",
                errorClass="_LEGACY_ERROR_TEMP_1203")
        schema = self._schema if isinstance(self._schema, StructType) else StructType.fromDDL(self._schema)
        source = {"kind": "files", "path": path, "format": fmt, "schema": toEngineDDL(schema),
                  "options": dict(self._options)}
        return self._session._stream_df(source, schema)

    def _rate(self) -> Any:
        """Spark's rate source (RateStreamProvider): rows (timestamp, value) on the world's
        virtual clock; options rowsPerSecond, rampUpTime, numPartitions (default: the context's
        default parallelism), checked by the engine (io/rate_source.h)."""
        from pyspark.errors import UnsupportedOperationException
        from pyspark.sql.types import StructType
        if self._schema is not None:  # QueryExecutionErrors.userSpecifiedSchemaUnsupportedByDataSourceError
            raise UnsupportedOperationException(
                "RateStreamProvider source does not support user-specified schema.",
                errorClass="_LEGACY_ERROR_TEMP_2242", messageParameters={"provider": "RateStreamProvider"})
        opts: Dict[str, str] = {}
        for key, value in self._options.items():
            if key.lower() not in ("rowspersecond", "rampuptime", "numpartitions"):
                raise _not_built(f"the rate source option {key!r} (rowsPerSecond, rampUpTime and "
                                 "numPartitions are built)")
            opts[key] = value
        if not any(k.lower() == "numpartitions" for k in opts):
            opts["numPartitions"] = str(self._session.sparkContext.defaultParallelism)
        source = {"kind": "rate", "options": opts}
        return self._session._stream_df(source, StructType.fromDDL("timestamp timestamp, value bigint"))

    def _rate_micro_batch(self) -> Any:
        """Spark's rate-micro-batch source (RatePerMicroBatchProvider): each batch the next
        ``rowsPerBatch`` values, stamped ``startTimestamp`` + ``advanceMillisPerBatch`` per batch
        before it, whatever the clock (io/rate_micro_batch_source.h). Options checked at load()
        as Spark's getTable does; others are ignored, as Spark ignores them."""
        from pyspark.errors import IllegalArgumentException, UnsupportedOperationException
        from pyspark.sql.types import StructType
        if self._schema is not None:  # DataSourceV2Utils.getTableFromProvider
            raise UnsupportedOperationException(
                "RatePerMicroBatchProvider source does not support user-specified schema.",
                errorClass="_LEGACY_ERROR_TEMP_2242",
                messageParameters={"provider": "RatePerMicroBatchProvider"})
        known = ("rowsperbatch", "numpartitions", "starttimestamp", "advancemillisperbatch")
        opts = {k: str(v) for k, v in self._options.items() if k.lower() in known}
        if not any(k.lower() == "numpartitions" for k in opts):
            opts["numPartitions"] = str(self._session.sparkContext.defaultParallelism)
        problem = self._session._world._native.check_rate_micro_batch_source(opts)
        if problem is not None:
            raise IllegalArgumentException(problem)
        source = {"kind": "rate-micro-batch", "options": opts}
        return self._session._stream_df(source, StructType.fromDDL("timestamp timestamp, value bigint"))

    def _kafka(self) -> Any:
        """Spark's Kafka source (KafkaSourceProvider.sourceSchema): the options checked as
        validateStreamOptions does, by the engine's checks (io/kafka_source.h: exactly one of
        subscribe, subscribePattern, assign; startingOffsets; ...), at load() as Spark's
        IllegalArgumentException; key and value BINARY."""
        import json as _json
        from pyspark.errors import IllegalArgumentException
        from pyspark.sql.types import StructType
        opts = {k.lower(): (k, v) for k, v in self._options.items()}
        engine_opts: Dict[str, str] = {}
        for low, (key, value) in opts.items():
            if low.startswith("kafka.") or low in _KAFKA_CLIENT_ONLY:
                continue
            if low in _KAFKA_OPTIONS:
                engine_opts[_KAFKA_OPTIONS[low]] = value
            else:
                raise _not_built(f"the Kafka source option {key!r}")
        world = self._session._world
        problem = world._native.check_kafka_source(engine_opts)
        if problem is None:
            problem = next((_KAFKA_REFUSED[low] for low in opts if low in _KAFKA_REFUSED), None)
        if problem is None and "kafka.bootstrap.servers" not in opts:
            problem = ("Option 'kafka.bootstrap.servers' must be specified for configuring Kafka "
                       "consumer")
        if problem is not None:
            raise IllegalArgumentException(problem)
        if self._schema is not None:
            from pyspark.errors import AnalysisException
            raise AnalysisException("Kafka source has a fixed schema and cannot be set with a custom "
                                    "one", errorClass="_LEGACY_ERROR_TEMP_2045")
        # A topic the job names that the world does not have yet is created with one partition
        # (a broker's auto-creation); a pattern reads the topics that exist at each batch.
        named: list = []
        if "subscribe" in engine_opts:
            named = [t.strip() for t in engine_opts["subscribe"].split(",") if t.strip()]
        elif "assign" in engine_opts:
            named = list(_json.loads(engine_opts["assign"]))
        for topic in named:
            if world._native.topic_partitions(topic) == 0:
                world.create_topic(topic)
        source = {"kind": "kafka", "keyValueType": "binary", "options": engine_opts}
        ddl = ("key binary, value binary, topic string, partition int, offset bigint, "
               "timestamp timestamp, timestampType int")
        if str(engine_opts.get("includeHeaders", "false")).lower() == "true":
            ddl += ", headers array<struct<key: string, value: binary>>"  # KafkaRecordToRowConverter
        schema = StructType.fromDDL(ddl)
        return self._session._stream_df(source, schema)


class DataStreamWriter:
    def __init__(self, df: Any) -> None:
        self._df = df
        self._session = df.sparkSession
        self._format: Optional[str] = None
        self._output_mode: Optional[str] = None
        self._trigger: Any = None
        self._query_name: Optional[str] = None
        self._options: Dict[str, str] = {}
        self._foreach_batch: Optional[Callable[[Any, int], None]] = None
        self._table_path: Optional[str] = None  # toTable's Delta table folder
        self._foreach: Any = None  # foreach's writer object

    def format(self, source: str) -> "DataStreamWriter":
        self._format = source.lower()
        return self

    def outputMode(self, outputMode: str) -> "DataStreamWriter":
        if not isinstance(outputMode, str) or outputMode.lower() not in ("append", "update", "complete"):
            raise PySparkValueError(f"Unknown output mode {outputMode}. Accepted output modes are "
                                    "'append', 'complete', 'update'", errorClass="INVALID_OUTPUT_MODE")
        self._output_mode = outputMode.lower()
        return self

    def queryName(self, queryName: str) -> "DataStreamWriter":
        if not queryName or not isinstance(queryName, str) or not queryName.strip():
            raise PySparkValueError("[VALUE_NOT_NON_EMPTY_STR] Value for `queryName` must be a "
                                    "non empty string", errorClass="VALUE_NOT_NON_EMPTY_STR")
        self._query_name = queryName.strip()
        return self

    def option(self, key: str, value: Any) -> "DataStreamWriter":
        self._options[key] = str(value).lower() if isinstance(value, bool) else str(value)
        return self

    def options(self, **options: Any) -> "DataStreamWriter":
        for k, v in options.items():
            self.option(k, v)
        return self

    def partitionBy(self, *cols: str) -> "DataStreamWriter":
        raise _not_built("DataStreamWriter.partitionBy")

    def trigger(self, *, processingTime: Optional[str] = None, once: Optional[bool] = None,
                continuous: Optional[str] = None, availableNow: Optional[bool] = None,
                realTime: Optional[str] = None) -> "DataStreamWriter":
        given = [p for p in (processingTime, once, continuous, availableNow, realTime) if p is not None]
        if len(given) > 1:
            raise PySparkValueError("[ONLY_ALLOW_SINGLE_TRIGGER] Only a single trigger is allowed.",
                                    errorClass="ONLY_ALLOW_SINGLE_TRIGGER")
        if not given:
            raise PySparkValueError("[ONLY_ALLOW_SINGLE_TRIGGER] No trigger provided",
                                    errorClass="ONLY_ALLOW_SINGLE_TRIGGER")
        if processingTime is not None:
            if not isinstance(processingTime, str) or not processingTime.strip():
                raise PySparkValueError("[VALUE_NOT_NON_EMPTY_STR] Value for `processingTime` must "
                                        "be a non empty string", errorClass="VALUE_NOT_NON_EMPTY_STR")
            self._trigger = {"processingTime": f"{duration_ms(processingTime, 'trigger processingTime')}ms"}
        elif once is not None:
            if once is not True:
                raise PySparkValueError(f"[VALUE_NOT_TRUE] Value for `once` must be True, got '{once}'.",
                                        errorClass="VALUE_NOT_TRUE")
            self._trigger = "once"
        elif availableNow is not None:
            if availableNow is not True:
                raise PySparkValueError("[VALUE_NOT_TRUE] Value for `availableNow` must be True, got "
                                        f"'{availableNow}'.", errorClass="VALUE_NOT_TRUE")
            self._trigger = "availableNow"
        elif realTime is not None:
            self._trigger = {"realTime": f"{duration_ms(realTime, 'trigger realTime')}ms"}
        else:
            raise _not_built("trigger(continuous=...)")
        return self

    def foreachBatch(self, func: Callable[[Any, int], None]) -> "DataStreamWriter":
        """``func(batch_df, batch_id)`` for every batch (no-data batches included), as Spark's
        ForeachBatchSink; an exception it raises fails the query with
        FOREACH_BATCH_USER_FUNCTION_ERROR."""
        if not callable(func):
            raise PySparkTypeError(f"[NOT_CALLABLE] Argument `func` should be a callable, got "
                                   f"{type(func).__name__}.", errorClass="NOT_CALLABLE",
                                   messageParameters={"arg_name": "func",
                                                      "arg_type": type(func).__name__})
        self._foreach_batch = func
        self._format = "foreachBatch"
        return self

    def foreach(self, f: Any) -> "DataStreamWriter":
        """PySpark's foreach (pyspark/sql/streaming/readwriter.py): ``f(row)`` for every row, or
        an object with ``process(row)`` and optional ``open(partition_id, epoch_id)`` (a falsy
        result skips the partition's rows) and ``close(error)``. Each partition task gets its
        own copy of the object, as Spark unpickles it per task; at least once: a batch re-run
        after a crash is handed over again with the same epoch id (python/native/python_foreach.cc)."""
        from pyspark.errors import PySparkAttributeError
        if callable(f):
            writer: Any = _RowFunctionWriter(f)
        else:
            if not hasattr(f, "process"):
                raise PySparkAttributeError("[ATTRIBUTE_NOT_CALLABLE] Attribute `process` in provided "
                                            "object `f` is not callable.",
                                            errorClass="ATTRIBUTE_NOT_CALLABLE",
                                            messageParameters={"attr_name": "process", "obj_name": "f"})
            for name in ("process", "open", "close"):
                if hasattr(f, name) and not callable(getattr(f, name)):
                    raise PySparkAttributeError(f"[ATTRIBUTE_NOT_CALLABLE] Attribute `{name}` in "
                                                "provided object `f` is not callable.",
                                                errorClass="ATTRIBUTE_NOT_CALLABLE",
                                                messageParameters={"attr_name": name, "obj_name": "f"})
            writer = f
        self._foreach = writer
        self._format = "foreach"
        return self

    def toTable(self, tableName: str, format: Optional[str] = None, outputMode: Optional[str] = None,
                partitionBy: Any = None, queryName: Optional[str] = None, **options: Any) -> Any:
        """The stream into the table ``tableName`` of the session's catalog, as a Delta table
        (streamsim's tables written by a stream are Delta tables: spark.table reads them)."""
        fmt = (format or self._format or "delta").lower()
        if fmt not in ("delta", "parquet"):
            raise _not_built(f"DataStreamWriter.toTable with format({fmt!r})")
        catalog = self._session._catalog
        path = catalog.delta_path(tableName)
        if path is None:
            key = catalog._key(tableName)
            if key in catalog._tables:
                raise _not_built(f"DataStreamWriter.toTable into the non-Delta table {tableName!r}")
            path = catalog._folder(key)
            catalog._tables[key] = {"format": "delta", "path": path}
        self._format = "delta"
        self._table_path = path
        return self.start(outputMode=outputMode, partitionBy=partitionBy, queryName=queryName, **options)

    def start(self, path: Optional[str] = None, format: Optional[str] = None,
              outputMode: Optional[str] = None, partitionBy: Any = None,
              queryName: Optional[str] = None, **options: Any) -> Any:
        if format is not None:
            self.format(format)
        if outputMode is not None:
            self.outputMode(outputMode)
        if queryName is not None:
            self.queryName(queryName)
        if partitionBy:
            self.partitionBy(partitionBy)
        self.options(**options)
        if path is not None:
            self._options["path"] = path
        return self._session._world._start_query(self)


class _RowFunctionWriter:
    """foreach(f) of a function: process(row) calls it (PySpark's func_without_process)."""

    def __init__(self, f: Callable[[Any], None]) -> None:
        self.f = f

    def process(self, row: Any) -> None:
        self.f(row)
