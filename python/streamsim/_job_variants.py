"""The opt-in oracles of a swept test function that need a second run of the test under a varied
world (docs/python.md "Sweeps of a test"). Each one is a relation between the test's fault-free
run and a variant run of the same test that a correct job keeps and a class of bugs breaks; the
test names it on its marker because only its author knows the relation holds for the job:

- ``batch_split=[columns]`` -- each key's last row in every output (the rows matched by those
  columns) is the same when the job's input is cut into other micro-batches: before each record
  or file the test adds while the query runs, the query processes what is available with
  probability 1/2 (drawn from the seed), as Spark's trigger would had the input arrived slower.
  Catches per-batch logic: data kept in the processor's ``self`` (a new object every task, in
  Spark and here), calls counted as rows. As the harness's ``batch_split`` oracle
  (docs/oracles.md), whose cut of a scenario's steps this mirrors.
- ``producer_clock=True`` -- the outputs are exactly the same when the producers' clocks are
  off: each Kafka record the test produces carries a timestamp up to ten minutes before or after
  the virtual time it was sent at (a producer host's clock sets a record's CreateTime). Catches a
  job that takes Kafka's ``timestamp`` column for event time (a watermark or window on it).

The variant runs without the seed's fault plan: the relation is checked on its own, and a
failure's shrunk plan is empty (the seed alone shows it).
"""

import collections
import json
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence

OrderedRows = Dict[str, List[Dict[str, Any]]]   # output name -> its rows in write order, by column

PRODUCER_SKEW_MS = 10 * 60 * 1000


@dataclass(frozen=True)
class VariantOracle:
    name: str
    world_options: Callable[[int], Dict[str, Any]]       # seed -> World(...) keyword arguments
    check: Callable[[Any, Any, Any], Optional[str]]     # (reference Run, variant Run, marker value)
    needs_rows: bool                                     # the check reads Run.rows
    usage: Callable[[Any, Any], Optional[str]] = lambda reference, value: None  # misuse, once


def committed_files(world: Any, folder: str) -> List[str]:
    """The data files a streaming file sink's log (_spark_metadata) committed, in batch order."""
    log = f"{folder.rstrip('/')}/_spark_metadata"
    entries = [p for p in world._native.list_files(log) if not p.endswith(".tmp")]
    live: Dict[str, None] = {}
    for p in sorted(entries, key=lambda p: int(p.rsplit("/", 1)[-1].split(".")[0] or 0)):
        for line in world._native.read_file(p).decode("utf-8").splitlines()[1:]:
            if not line.strip():
                continue
            entry = json.loads(line)
            path = entry.get("path", "")
            path = path.split(":", 1)[-1] if path.startswith("file:") else path
            if entry.get("action") == "add":
                live[path] = None
            else:
                live.pop(path, None)
    return list(live)


def file_rows(world: Any, fmt: str, path: str, options: Optional[Dict[str, str]] = None) -> List[Dict[str, Any]]:
    """The rows of one data file a file sink wrote, by column name: JSON lines or Parquet; a text
    file's lines as ``value``, a CSV file's records as their ``line`` (its header line, with
    the sink's option header, left out)."""
    if fmt in ("csv", "text"):
        lines = world._native.read_file(path).decode("utf-8").splitlines()
        if fmt == "text":
            return [{"value": line} for line in lines]
        header = any(k.lower() == "header" and str(v).lower() == "true" for k, v in (options or {}).items())
        return [{"line": line} for line in lines[1 if header else 0:]]
    if fmt == "parquet":
        ddl, rows = world._native.read_parquet(path, "")
        from pyspark.sql.types import StructType
        names = StructType.fromDDL(ddl).fieldNames()
        return [dict(zip(names, r)) for r in rows]
    text = world._native.read_file(path).decode("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _named(rel: Any) -> List[Dict[str, Any]]:
    names = rel.schema.fieldNames()
    return [dict(zip(names, row)) for row in rel.rows]


def ordered_rows(world: Any) -> OrderedRows:
    """What the job wrote, each output as its rows in the order they were written (a file sink's
    in batch order; a table's in its own order), each row by column name."""
    out: OrderedRows = {}
    for topic in world._native.topics():
        out[f"kafka topic {topic}"] = [{"key": r["key"], "value": r["value"]} for r in world.records(topic)]
    catalog = world.spark._catalog
    for fmt, sink, name in world._sinks:
        if sink.get("kind") == "files":
            rows: List[Dict[str, Any]] = []
            for f in committed_files(world, sink["path"]):
                rows += file_rows(world, fmt, f, sink.get("options"))
            out[f"file sink {sink['path']}"] = rows
        elif sink.get("kind") == "memory" and name:
            out[f"memory table {name}"] = _named(catalog.relation(name))
        elif sink.get("kind") == "delta":
            out[f"delta table {sink['path']}"] = _delta_named(world, sink["path"])
    for key, table in getattr(catalog, "_tables", {}).items():
        if table.get("format") == "delta":
            out[f"delta table {table['path']}"] = _delta_named(world, table["path"])
        elif table.get("schema") is not None:
            names = table["schema"].fieldNames()
            out[f"table {key}"] = [dict(zip(names, r)) for r in table["rows"]]
    return out


def _delta_named(world: Any, path: str) -> List[Dict[str, Any]]:
    from pyspark.sql import _delta
    log = _delta.DeltaLog(world, path)
    return _named(log.rows()) if log.exists() else []


def last_per_key(rows: Sequence[Dict[str, Any]], keys: Sequence[str]) -> Dict[tuple, Dict[str, Any]]:
    last: Dict[tuple, Dict[str, Any]] = collections.OrderedDict()
    for r in rows:
        last[tuple(_frozen(r[k]) for k in keys)] = r
    return last


def _frozen(v: Any) -> Any:
    return json.dumps(v, sort_keys=True, default=str) if isinstance(v, (dict, list)) else v


def _show_row(r: Dict[str, Any]) -> str:
    return "{" + ", ".join(f"{k}: {v!r}" for k, v in r.items()) + "}"


def _keys(value: Any) -> List[str]:
    return [value] if isinstance(value, str) else list(value)


def _keyed(reference: Any, keys: Sequence[str]) -> List[str]:
    return [name for name, rows in reference.rows.items() if rows and all(k in rows[0] for k in keys)]


def batch_split_usage(reference: Any, value: Any) -> Optional[str]:
    keys = _keys(value)
    if _keyed(reference, keys):
        return None
    have = {name: sorted(rows[0]) for name, rows in reference.rows.items() if rows}
    return (f"batch_split={value!r}: no output of the job's fault-free run has the column"
            f"{'s' if len(keys) > 1 else ''} {', '.join(keys)} that it matches rows by (the outputs "
            f"and their columns: {have or 'none written'})")


def check_batch_split(reference: Any, variant: Any, value: Any) -> Optional[str]:
    keys = _keys(value)
    for name in _keyed(reference, keys):
        want = last_per_key(reference.rows[name], keys)
        got = last_per_key(variant.rows.get(name, []), keys)
        for key, row in want.items():
            other = got.get(key)
            if other != row:
                shown = _show_row(other) if other is not None else "no row"
                return (f"the {name}'s last row for {', '.join(f'{k}={v!r}' for k, v in zip(keys, key))} "
                        f"is {_show_row(row)} with the input in the test's batches, and {shown} with "
                        f"it cut into other batches (the query ran {variant.cuts} more times while the "
                        "test added its input): the job's result depends on how its input is batched")
        extra = [k for k in got if k not in want]
        if extra:
            return (f"the {name} has a row for {extra[0]!r} only with the input cut into other batches: "
                    "the job's result depends on how its input is batched")
    return None


def check_producer_clock(reference: Any, variant: Any, enabled: Any) -> Optional[str]:
    if not enabled:
        return None
    from streamsim._job_sweep import exactly_once
    diff = exactly_once(reference.outputs, variant.outputs)
    if diff is None:
        return None
    return (f"with the producers' clocks up to 10 minutes off (the records' Kafka timestamps), {diff} "
            "-- the job reads Kafka's timestamp column where its results depend on it (a watermark "
            "or window on it instead of the event's own time?)")


ORACLES: Dict[str, VariantOracle] = {o.name: o for o in [
    VariantOracle("batch_split", lambda seed: {"batch_cut": seed}, check_batch_split, True,
                  batch_split_usage),
    VariantOracle("producer_clock", lambda seed: {"producer_skew": seed}, check_producer_clock, False),
]}


def requested(marker_kwargs: Dict[str, Any]) -> Dict[str, Any]:
    """The variant oracles a test's ``@pytest.mark.streamsim(...)`` names, with their values;
    an unknown name is an error."""
    unknown = sorted(set(marker_kwargs) - set(ORACLES))
    if unknown:
        raise ValueError(f"@pytest.mark.streamsim: unknown argument {unknown[0]!r} (known: "
                         f"{', '.join(sorted(ORACLES))}; docs/python.md \"Sweeps of a test\")")
    return {name: value for name, value in marker_kwargs.items() if value}
