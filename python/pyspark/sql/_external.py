"""Formats streamsim does not model -- jdbc, postgresql, Elasticsearch, Cassandra, MongoDB, ... --
as named simulated tables (docs/python.md "External systems"): a write with such a format goes to
the World's table named by the format and the options that name its target (jdbc: url and
dbtable; others: table, keyspace, es.resource, collection, database, index, path; else every
option but credentials), said once per table on stderr; a read with the same format and options
gives the rows back. The table is outside the driver: it keeps what was written across a crash,
and a batch a restarted query writes again is written again (at least once, as the real system
would see it) -- so the job sweeps' exactly_once oracle sees a non-idempotent external write
(streamsim/_job_sweep.py reads every catalog table)."""

import sys
from typing import Any, Dict, List, Optional

from pyspark.errors import AnalysisException
from pyspark.sql import _batch

# Formats with a model of their own (files, tables, Kafka, Delta, the engine's sinks).
MODELED = {"json", "csv", "text", "parquet", "orc", "avro", "delta", "memory", "console", "kafka",
           "rate", "rate-micro-batch", "foreachbatch", "foreach", "noop", "socket"}
_TARGET = ("url", "dbtable", "table", "keyspace", "es.resource", "es.resource.write", "collection",
           "database", "index", "path", "query")
_SECRET_WORDS = ("password", "secret", "token", "credential", "auth", "user", "key")


def is_external(fmt: str) -> bool:
    return fmt.lower() not in MODELED


def _short(fmt: str) -> str:
    """Spark's short names for the common connectors' class names."""
    low = fmt.lower()
    for long_name, short in (("org.elasticsearch.spark.sql", "es"), ("org.apache.spark.sql.cassandra", "cassandra"),
                             ("com.mongodb.spark.sql", "mongodb")):
        if low.startswith(long_name):
            return short
    return low


def table_key(fmt: str, options: Dict[str, Any]) -> str:
    low = {k.lower(): str(v) for k, v in options.items()}
    named = [f"{k}={low[k]}" for k in _TARGET if k in low]
    if not named:
        named = [f"{k}={v}" for k, v in sorted(low.items())
                 if not any(w in k for w in _SECRET_WORDS)]
    return f"{_short(fmt)}:" + ",".join(named)


def _say_once(session: Any, key: str, verb: str) -> None:
    world = session._world
    said = world.__dict__.setdefault("_external_said", set())
    if key not in said:
        said.add(key)
        sys.stderr.write(f"streamsim: {key.split(':', 1)[0]} is not modelled; {verb} the simulated "
                         f"table '{key}' (docs/python.md, External systems)\n")


def write(session: Any, fmt: str, options: Dict[str, Any], rel: _batch.Rel, mode: str) -> None:
    """DataFrameWriter.save / jdbc with an external format; Spark's save modes."""
    catalog = session._catalog
    key = table_key(fmt, options)
    _say_once(session, key, "writes go to")
    existing = catalog.table_to_write(key, f"'{key}'", rel, mode,
                                      lambda: {"format": "external", "schema": rel.schema, "rows": []})
    if existing is None:
        return
    existing["rows"] = existing["rows"] + list(rel.rows)


def read(session: Any, fmt: str, options: Dict[str, Any]) -> _batch.Rel:
    key = table_key(fmt, options)
    _say_once(session, key, "reads come from")
    t = session._catalog._tables.get(key)
    if t is None:
        raise AnalysisException(f"[TABLE_OR_VIEW_NOT_FOUND] The table or view '{key}' cannot be found: "
                                "nothing was written to it in this World.",
                                errorClass="TABLE_OR_VIEW_NOT_FOUND")
    return _batch.Rel(t["schema"], list(t["rows"]))


def stream_sink_call(session: Any, fmt: str, options: Dict[str, Any], stream: Dict[str, Any]) -> Any:
    """A streaming write with an external format: every batch appended to the simulated table
    (a batch re-run after a crash is appended again, as the system would receive it)."""
    from pyspark.sql.types import StructType
    if fmt.lower() in ("jdbc", "postgresql"):
        # DataSource.createSink: a relation provider without a streaming sink.
        from pyspark.errors.exceptions.base import UnsupportedOperationException
        raise UnsupportedOperationException(f"Data source {fmt} does not support streamed writing",
                                            errorClass="_LEGACY_ERROR_TEMP_2049")
    key = table_key(fmt, options)

    def call(ddl: str, rows: List[Any], batch_id: int) -> None:
        schema = StructType.fromDDL(ddl) if ddl else stream.get("schema")
        if schema is None:
            return
        write(session, fmt, options, _batch.Rel(schema, [tuple(r) for r in rows]), "append")
    _say_once(session, key, "writes go to")
    return call


