"""A World to run a PySpark job in (docs/python.md "PySpark jobs"): the simulated filesystem,
Kafka-like log and virtual clock of one streamsim run, with a ``spark`` session bound to them.

    world = World()
    world.put("/data/events/1.json", rows=[{"time": 1, "action": "Open"}])
    main()                       # the job as written: SparkSession.builder.getOrCreate(), ...
    world.spark.sql("SELECT ...").collect()

``awaitTermination()`` in the job returns once the query has processed all the input available
(an AvailableNow or Once query: once it terminated). ``world.crash_at("commits.before_write")``
arms a crash at a named fault point (``streamsim list-faults``); when it fires, the driver dies:
``awaitTermination`` raises ``DriverCrashed`` (not an Exception: the job's own ``except
Exception`` does not catch a dead process), and ``world.restart(main)`` runs the job's function
again, on the same checkpoint, as a restarted driver does.
"""

import datetime as _dt
import json
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from streamsim._isolation import inside_shim

__all__ = ["World", "DriverCrashed"]


def _say(text: str) -> None:
    """A difference from Spark a job meets, said as a warning (Python's filters show it once
    per place by default)."""
    import warnings
    warnings.warn(text, UserWarning, stacklevel=4)


def _refusal(e: ValueError) -> Exception:
    """What the query loader refuses when a query starts, as PySpark raises it: an analysis
    error (a column, a function, a type) as AnalysisException with its condition, a bad source
    or sink option as IllegalArgumentException (Spark's option checks throw
    IllegalArgumentException: RateStreamProvider, FileStreamOptions, KafkaSourceProvider)."""
    from pyspark.errors import IllegalArgumentException
    from pyspark.errors.exceptions.base import _from_engine_error
    converted = _from_engine_error(e)
    if converted is not e:
        return converted
    return IllegalArgumentException(str(e))


class DriverCrashed(BaseException):
    """The driver process died at an armed fault point: restart it with ``World.restart``."""


_current: List["World"] = []


def _parse_time(t: Union[str, _dt.datetime, int]) -> int:
    if isinstance(t, int):
        return t
    if isinstance(t, str):
        t = _dt.datetime.fromisoformat(t.replace("Z", "+00:00"))
    if t.tzinfo is None:
        t = t.replace(tzinfo=_dt.timezone.utc)
    return int(t.timestamp() * 1000)


@inside_shim
class _Closed:
    """A closed World's native side: every use says so."""

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(f"this streamsim World is closed (World.{name} after close())")


class World:
    """One simulated world; the newest one is current (SparkSession.builder.getOrCreate())."""

    def __init__(self, seed: int = 0, start: Union[str, _dt.datetime] = "2026-01-01T00:00:00Z",
                 plan: str = "", record_reach: bool = False, batch_cut: Optional[int] = None,
                 producer_skew: Optional[int] = None) -> None:
        """``plan``: a fault plan the world executes (docs/faults.md's JSON; a pytest sweep's
        seed); ``record_reach``: the fault points passed are recorded (a sweep's fault-free
        run, which its seeds' plans aim at). ``batch_cut`` and ``producer_skew`` seed the
        variants of the sweep's opt-in oracles (streamsim/_job_variants.py): the running query
        processes what is available before an input with probability 1/2; each record produced
        gets a timestamp up to ten minutes off."""
        import random
        import _streamsim_native
        from pyspark.sql.session import SparkSession
        self._native = _streamsim_native.JobWorld(seed, _parse_time(start), plan, record_reach)
        self._job: Optional[Any] = None   # run_job's (function, args, kwargs)
        self._restarts = 0
        self._job_depth = 0
        self._sinks: List[Any] = []       # (format, sink spec) of each query started
        self.spark = SparkSession(self)
        self._query: Any = None
        self._failures: Dict[int, Any] = {}
        self._temp_checkpoints = 0
        self._console_before = ""  # console sinks' text of the queries before the current one
        self._sink_schemas: Dict[str, Any] = {}  # a file sink's folder -> the writing query's schema
        self._cut = None if batch_cut is None else random.Random(f"batch_cut {batch_cut}")
        self.cuts = 0  # batches the cut ran
        self._skew = None if producer_skew is None else random.Random(f"producer_clock {producer_skew}")
        _current.append(self)

    @staticmethod
    def current() -> Optional["World"]:
        return _current[-1] if _current else None

    def close(self) -> None:
        """Ends the world: it is no longer current, and its simulated filesystem, topics and
        state stores are freed now. A job module's globals (``spark = ...getOrCreate()`` at
        import) keep its session, and so the World object, alive for as long as the module
        lives; a sweep's hundreds of worlds must not keep their state with it
        (world_kept_alive_by_a_job_module_leaked_its_state)."""
        if self in _current:
            _current.remove(self)
        self._native = _Closed()

    def __enter__(self) -> "World":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # --- input ---
    def put(self, path: str, rows: Optional[List[Dict[str, Any]]] = None, text: Optional[str] = None,
            mtime: Union[str, _dt.datetime, None] = None, data: Optional[bytes] = None) -> None:
        """A file appears atomically: JSON lines of ``rows``, ``text`` as it is, or the bytes
        ``data`` (a Parquet file, say)."""
        if sum(x is not None for x in (rows, text, data)) != 1:
            raise ValueError("put() takes rows, text or data")
        from pyspark.sql._batch import json_value
        if data is not None:
            content = bytes(data)
        else:
            content = (text if text is not None else
                       "".join(json.dumps(json_value(r)) + "\n" for r in rows)).encode("utf-8")
        self._maybe_cut()
        self._native.put_file(path, content, None if mtime is None else _parse_time(mtime))

    def create_topic(self, topic: str, partitions: int = 1) -> None:
        self._native.create_topic(topic, partitions)

    def produce(self, topic: str, value: Any, key: Optional[str] = None, partition: int = -1,
                timestamp: Union[str, _dt.datetime, int, None] = None,
                headers: Optional[List[Tuple[str, Union[str, bytes]]]] = None) -> None:
        """A producer sends a record now (a dict value is sent as its JSON); ``timestamp``, the
        record's CreateTime as its producer set it, is the virtual time now unless given;
        ``headers`` the record's (key, value) headers, as kafka-python's producers take them (a
        str value is sent as its UTF-8 bytes), read by ``option("includeHeaders", "true")``."""
        if self._native.topic_partitions(topic) == 0:
            self.create_topic(topic)
        if not isinstance(value, str):
            from pyspark.sql._batch import json_value
            value = json.dumps(json_value(value))
        ts = self._native.now() if timestamp is None else _parse_time(timestamp)
        if self._skew is not None:
            from streamsim._job_variants import PRODUCER_SKEW_MS
            ts += self._skew.randint(-PRODUCER_SKEW_MS, PRODUCER_SKEW_MS)
        self._maybe_cut()
        pairs = [(k, v.encode("utf-8") if isinstance(v, str) else bytes(v)) for k, v in (headers or [])]
        self._native.produce(topic, key, value, partition, ts, pairs)

    def _maybe_cut(self) -> None:
        """The batch_split variant: the running query processes what is available before the
        test's next input, with probability 1/2."""
        if self._cut is None or self._query is None or self._native.status() != "active":
            return
        if self._cut.random() < 0.5:
            self.cuts += 1
            self._run_available(self._query)

    def records(self, topic: str) -> List[Dict[str, Any]]:
        """What a topic holds (a Kafka sink's output): key, value, partition, offset per record."""
        return [{"key": k, "value": v, "partition": p, "offset": o}
                for k, v, p, o in self._native.records(topic)]

    def console_text(self) -> str:
        """What the current query's console sink printed (every batch, re-runs included)."""
        return self._console_before + self._native.console_text()

    def advance(self, duration: Union[str, int], trigger: bool = False) -> None:
        """Moves the virtual clock: "10 seconds", or milliseconds. With ``trigger=True`` the
        running query then fires one trigger at the new time, as its trigger loop would: a batch
        for new data, or the no-data batch a due processing-time timer or timeout asks for
        (``processAllAvailable`` runs data batches only, as Spark's)."""
        from pyspark.sql._durations import duration_ms
        self._native.advance(duration if isinstance(duration, int) else duration_ms(duration, "advance"))
        if trigger and self._query is not None:
            self._native.trigger_now()
            if self._native.status() == "crashed":
                raise DriverCrashed("the driver crashed at an armed fault point; World.restart(job) "
                                    "brings it back")

    @property
    def now(self) -> _dt.datetime:
        return _dt.datetime.fromtimestamp(self._native.now() / 1000, _dt.timezone.utc)

    def files(self, folder: str) -> List[str]:
        return sorted(self._native.list_files(folder))

    def read(self, path: str) -> str:
        return self._native.read_file(path).decode("utf-8")

    def read_bytes(self, path: str) -> bytes:
        return self._native.read_file(path)

    # --- faults ---
    def crash_at(self, point: str, batch: int = -1, partition: int = -1, nth: int = 1) -> None:
        """Arms a crash of the driver at a named fault point (``streamsim list-faults``), in
        ``batch`` (any when -1)."""
        self._native.arm_crash(point, batch, partition, nth)

    def armed_crashes_fired(self) -> bool:
        return self._native.armed_crashes_fired()

    @property
    def crashes(self) -> int:
        return self._native.crashes()

    def run_job(self, job: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Runs ``job`` (the job's ``main``) as a supervisor runs a driver: when the driver dies at
        a fault point -- while the job runs or in any later call that processes data -- the job
        runs again on its checkpoint, and the call goes on. A pytest sweep's faults need it
        (docs/python.md "Sweeps of a test"); ``crash_at`` + ``restart`` remain for a test that
        restarts by hand."""
        self._job = (job, args, kwargs)
        return self._run_restarting()

    def _run_restarting(self) -> Any:
        job, args, kwargs = self._job
        while True:
            self._job_depth += 1
            try:
                return job(*args, **kwargs)
            except DriverCrashed:
                self._restarts += 1
                if self._restarts > 100:
                    raise
            finally:
                self._job_depth -= 1

    def _in_job(self) -> bool:
        return self._job_depth > 0

    def restart(self, job: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """The driver comes back: ``job`` (the function that builds and starts the query, the
        job's ``main``) runs again and starts the query on its checkpoint."""
        if self._query is not None and self._native.status() == "active":
            self._native.crash_now()
        return job(*args, **kwargs)

    # --- queries (called by the pyspark shim) ---
    def _start_query(self, writer: Any) -> Any:
        from pyspark.errors import AnalysisException
        from pyspark.sql.streaming.query import StreamingQuery
        df, session = writer._df, writer._session
        stream = df._stream
        fmt = (writer._format or session.conf.get("spark.sql.sources.default", "parquet")).lower()
        opts = dict(writer._options)
        # Spark's resolveCheckpointLocation (ResolveWriteToStream.scala): the option, else the
        # session's root + the query name (a fresh name without one), else a temporary folder
        # for the sinks of one-time queries, else _LEGACY_ERROR_TEMP_1298.
        checkpoint = opts.pop("checkpointLocation", None)
        root = session.conf.get("spark.sql.streaming.checkpointLocation", None)
        if not checkpoint and root:
            self._temp_checkpoints += 1
            checkpoint = f"{root.rstrip('/')}/{writer._query_name or f'query-{self._temp_checkpoints}'}"
        foreach_batch = None
        foreach_writer = None
        if fmt == "foreach":
            sink = {"kind": "memory"}  # replaced by the foreach sink
            code = getattr(getattr(writer._foreach, "f", writer._foreach), "__code__", None) or \
                getattr(getattr(type(writer._foreach), "process", None), "__code__", None)
            foreach_writer = (writer._foreach, code.co_filename if code is not None else "<foreach>")
        elif fmt == "foreachbatch":
            foreach_batch = self._foreach_batch_call(writer, stream)
            sink: Dict[str, Any] = {"kind": "memory"}  # replaced by the function's sink
        elif fmt == "memory":
            if not writer._query_name:
                raise AnalysisException("queryName must be specified for memory sink.",
                                        errorClass="_LEGACY_ERROR_TEMP_1194")
            sink = {"kind": "memory"}
        elif fmt == "console":
            sink = {"kind": "console"}
            for k in ("numRows", "truncate"):
                if k in opts:
                    sink[k] = int(opts.pop(k)) if k == "numRows" else opts.pop(k) == "true"
        elif fmt == "kafka":
            topic = opts.pop("topic", None)
            for k in list(opts):
                if k.startswith("kafka."):
                    opts.pop(k)
            if not topic:
                raise AnalysisException("topic option required when no 'topic' attribute is "
                                        "present. Use the topic option for setting a topic.",
                                        errorClass="_LEGACY_ERROR_TEMP_KAFKA")
            sink = {"kind": "kafka", "topic": topic}
        elif fmt == "delta":
            path = opts.pop("path", None) or writer._table_path
            if not path:
                raise AnalysisException("'path' is not specified", errorClass="_LEGACY_ERROR_TEMP_1195")
            mode = (writer._output_mode or "append")
            if mode == "update":  # DeltaDataSource.createSink
                raise AnalysisException("[DELTA_UNSUPPORTED_OUTPUT_MODE] Data source "
                                        "org.apache.spark.sql.delta.sources.DeltaDataSource does not "
                                        "support Update output mode",
                                        errorClass="DELTA_UNSUPPORTED_OUTPUT_MODE",
                                        messageParameters={"dataSource": "DeltaDataSource",
                                                           "mode": "Update"})
            for k in [k for k in opts if k.lower() in ("mergeschema", "overwriteschema")]:
                opts.pop(k)
            sink = {"kind": "memory"}  # replaced by the Delta sink's function
        elif fmt in ("json", "parquet", "csv", "text"):
            path = opts.pop("path", None)
            if not path:
                raise AnalysisException("'path' is not specified", errorClass="_LEGACY_ERROR_TEMP_1195")
            sink = {"kind": "files", "path": path, "format": fmt}
            if fmt in ("csv", "text"):
                codec = opts.pop("compression", None) or opts.pop("codec", None)
                if codec is not None and str(codec).lower() not in ("none", "uncompressed"):
                    raise NotImplementedError(f"the {fmt} sink's compression {codec!r} is not built in "
                                              "streamsim (uncompressed files are); see docs/python.md")
            if fmt == "text" and opts:
                raise NotImplementedError(f"the text sink's options {sorted(opts)} are not built in "
                                          "streamsim (lines end with \\n); see docs/python.md")
            if fmt == "csv":
                # The CSV writer's options (sep, header, quote, escape, nullValue, ...), checked by
                # the engine's writer (io/csv_rows.h) as the query starts.
                sink["options"] = dict(opts)
                opts.clear()
            if fmt == "parquet":
                # Real Parquet data files (engine io/parquet.h), compressed as Spark's
                # ParquetOptions picks: the `compression` option, else
                # spark.sql.parquet.compression.codec (snappy).
                codec = opts.pop("compression", None) or session.conf.get(
                    "spark.sql.parquet.compression.codec", "snappy")
                sink["compression"] = str(codec).lower()
                if sink["compression"] in ("lzo", "brotli", "lz4", "lz4_raw", "zstd"):
                    raise NotImplementedError(
                        f"the parquet sink's compression {codec!r} is not built in streamsim "
                        "(snappy, gzip, none, uncompressed are); see docs/python.md")
            self._sink_schemas[path.rstrip("/")] = stream.get("schema")
        else:
            from pyspark.sql import _external
            if not _external.is_external(fmt):
                raise NotImplementedError(f"writeStream.format({fmt!r}) is not built in streamsim; see "
                                          "docs/python.md (PySpark jobs)")
            # A system streamsim does not model: every batch appended to its simulated table.
            if writer._table_path and "path" not in opts:
                opts["path"] = writer._table_path
            foreach_batch = _external.stream_sink_call(session, fmt, opts, stream)
            sink = {"kind": "memory"}  # replaced by the simulated table's function
            opts = {}
        if not checkpoint:
            if fmt in ("memory", "console", "foreachbatch", "foreach", "noop"):
                self._temp_checkpoints += 1
                checkpoint = f"/tmp/temporary-{self._temp_checkpoints}"
            else:
                raise AnalysisException(
                    "checkpointLocation must be specified either through option(\"checkpointLocation\", "
                    "...) or SparkSession.conf.set(\"spark.sql.streaming.checkpointLocation\", ...).",
                    errorClass="_LEGACY_ERROR_TEMP_1298")
        if opts:
            raise NotImplementedError(f"writeStream options {sorted(opts)} are not built in "
                                      "streamsim; see docs/python.md")
        mode = writer._output_mode or "append"
        if fmt == "delta":
            foreach_batch = self._delta_sink_call(writer, stream, path, checkpoint, mode)
        if fmt == "memory" and mode != "complete" and self._native.list_files(f"{checkpoint}/offsets"):
            # DataStreamWriter.scala: a memory sink recovers from its checkpoint in complete mode
            # only; otherwise an existing offsets folder is _LEGACY_ERROR_TEMP_1299.
            raise AnalysisException(f"This query does not support recovering from checkpoint "
                                    f"location. Delete {checkpoint}/offsets to start over.",
                                    errorClass="_LEGACY_ERROR_TEMP_1299",
                                    messageParameters={"checkpointPath": f"{checkpoint}/offsets"})
        provider = session.conf.get("spark.sql.streaming.stateStore.providerClass", "")
        spec = {
            **({"sources": stream["sources"]} if "sources" in stream else {"source": stream["source"]}),
            "operators": stream["operators"],
            "sink": sink,
            "outputMode": mode,
            "checkpoint": checkpoint,
            "shufflePartitions": int(session.conf.get("spark.sql.shuffle.partitions")),
            "conf": session.conf._query_conf(),
        }
        if provider:  # unset: the engine's default (HDFS-backed; real-time mode: RocksDB, as Spark)
            spec["stateStore"] = "rocksdb" if "RocksDB" in provider else "memory"
        if writer._trigger is not None:
            spec["trigger"] = writer._trigger
        self._retire_query()
        self._console_before += self._native.console_text()  # stdout keeps what was printed
        from pyspark.sql import udf as _udf
        text = json.dumps(spec)
        try:
            ids = self._native.start(text, session._processors, foreach_batch,
                                     _udf.table(session, [text]), foreach_writer)
        except ValueError as e:
            raise _refusal(e) from None
        q = StreamingQuery(self, writer._query_name, ids, writer._trigger)
        self._query = q
        if fmt == "memory":
            session._catalog.put_query_table(writer._query_name, lambda q=q, s=stream: self._memory_rel(q, s))
        if self._native.status() == "crashed":
            raise DriverCrashed("the driver crashed while the query started")
        if self._native.status() == "failed" and not self._native.progress():
            # The query was refused as it started (Spark's analysis: UnsupportedOperationChecker,
            # the sink's checks): DataStreamWriter.start() raises, nothing ran.
            message, condition = self._native.exception()
            raise AnalysisException(message, errorClass=condition or None)
        # What the job sweeps' oracles read (streamsim/_job_sweep.py): the sink as it writes.
        recorded = {"kind": "delta", "path": path} if fmt == "delta" else \
            {"kind": "foreachBatch"} if fmt == "foreachbatch" else {"kind": "foreach"} if fmt == "foreach" else sink
        self._sinks.append((fmt, recorded, writer._query_name))
        return q

    def _foreach_batch_call(self, writer: Any, stream: Dict[str, Any]) -> Any:
        from pyspark.sql import _batch
        from pyspark.sql.types import StructType
        func, session = writer._foreach_batch, writer._session

        def call(ddl: str, rows: list, batch_id: int) -> None:
            schema = StructType.fromDDL(ddl) if ddl else (stream.get("schema") or StructType([]))
            func(session._batch_df(_batch.Rel(schema, [tuple(r) for r in rows])), batch_id)
        return call

    def _delta_sink_call(self, writer: Any, stream: Dict[str, Any], path: str, checkpoint: str,
                         mode: str) -> Any:
        """Delta's streaming sink (DeltaSink.addBatch) on the Delta table stand-in: each batch is
        one commit carrying the txn action (appId = the query id from the checkpoint's
        metadata, version = the batch id); a batch whose txn the table holds already (a re-run
        after a crash) is skipped, so the table gets every batch exactly once. Complete mode
        replaces the table's rows."""
        from pyspark.sql import _batch, _delta
        from pyspark.sql.types import StructType

        def call(ddl: str, rows: list, batch_id: int) -> None:
            schema = StructType.fromDDL(ddl) if ddl else stream.get("schema")
            log = _delta.DeltaLog(self, path)
            if schema is None:
                snap = log.snapshot()
                if snap.schema is None:
                    return  # nothing to create a table with yet
                schema = snap.schema
            query_id = json.loads(self.read(f"{checkpoint}/metadata"))["id"]
            log.write(_batch.Rel(schema, [tuple(r) for r in rows]),
                      "overwrite" if mode == "complete" else "append", (query_id, batch_id),
                      operation="STREAMING UPDATE")
        return call

    def _memory_rel(self, q: Any, stream: Dict[str, Any]) -> Any:
        from pyspark.sql import _batch
        from pyspark.sql.types import StructType
        if q is not self._query:
            return q._frozen
        ddl, rows = self._native.memory_rows()
        if ddl:
            schema = StructType.fromDDL(ddl)
        else:
            schema = stream.get("schema") or StructType([])
        return _batch.Rel(schema, [tuple(r) for r in rows])

    def _retire_query(self) -> None:
        """Before another query starts: the last one's table and progress are kept as they are."""
        q = self._query
        if q is None:
            return
        if q.isActive:
            # Spark would run both queries side by side; silently retiring the first would leave
            # its sink without the input still to come (a wrong answer), so it is refused.
            raise NotImplementedError(
                f"a second streaming query while {q.name or q.id} is active: several concurrent "
                "queries in one World are not built in streamsim (stop() the first, or run each "
                "query in its own World); see docs/python.md")
        q._frozen = self._memory_rel(q, {"schema": None})
        q._progress = q.recentProgress
        exc = q.exception()
        if exc is not None:
            self._failures[id(q)] = exc
        q._replaced = True

    def _run_available(self, q: Any) -> None:
        self._native.process_all_available()
        if self._native.status() == "crashed" and self._job is not None and not self._in_job():
            self._run_restarting()  # run_job's supervisor: the job comes back, the call goes on
            return
        if self._native.status() == "crashed":
            raise DriverCrashed("the driver crashed at an armed fault point; World.restart(job) "
                                "brings it back")
