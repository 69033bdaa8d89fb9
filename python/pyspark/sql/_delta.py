"""A Delta table stand-in (docs/python.md "Delta"): a folder in the world's simulated filesystem
holding data files and a Delta-log-shaped ``_delta_log/`` of numbered JSON commits (Delta's
PROTOCOL.md actions: ``commitInfo``, ``protocol``, ``metaData`` with Spark's JSON schema, ``add``,
``remove``, ``txn``). The table's rows are what the log's ``add`` actions (minus its ``remove``
actions) name, replayed commit by commit, as a Delta reader builds its snapshot.

Idempotent writes are Delta's ``txn`` action (SetTransaction: appId, version): a write that
carries (appId, version) is skipped when the log already holds a version >= it for that appId --
the streaming Delta sink (appId = the query id, version = the batch id: a batch re-run after a
crash is not written twice) and ``txnAppId``/``txnVersion`` (the writer's options, or the session's
``spark.databricks.delta.write.txnAppId``/``txnVersion`` for MERGE) in foreachBatch.

Differences from Delta Lake: data files are JSON lines (``part-NNNNN-<version>.json``), not
Parquet; every commit that changes rows rewrites the whole table into one file (removes all, adds
one); no checkpoints (``.checkpoint.parquet``), deletion vectors, partitioning, column mapping,
schema evolution or time travel."""

import json
import uuid
from typing import Any, Dict, List, Optional, Tuple

from pyspark.errors import AnalysisException
from pyspark.sql import _batch
from pyspark.sql.types import StructType

LOG = "_delta_log"


def _type_json(t: Any) -> Any:
    """A DataType as Spark's JSON schema form (DataType.jsonValue)."""
    from pyspark.sql.types import ArrayType, MapType
    if isinstance(t, StructType):
        return {"type": "struct", "fields": [{"name": f.name, "type": _type_json(f.dataType),
                                              "nullable": bool(f.nullable), "metadata": {}}
                                             for f in t.fields]}
    if isinstance(t, ArrayType):
        return {"type": "array", "elementType": _type_json(t.elementType),
                "containsNull": bool(getattr(t, "containsNull", True))}
    if isinstance(t, MapType):
        return {"type": "map", "keyType": _type_json(t.keyType), "valueType": _type_json(t.valueType),
                "valueContainsNull": bool(getattr(t, "valueContainsNull", True))}
    name = t.simpleString()
    return {"bigint": "long", "int": "integer", "smallint": "short", "tinyint": "byte"}.get(name, name)


def _type_ddl(j: Any) -> str:
    if isinstance(j, str):
        return {"long": "bigint", "integer": "int", "short": "smallint", "byte": "tinyint"}.get(j, j)
    if j["type"] == "struct":
        return "struct<" + ", ".join(f"`{f['name']}`: {_type_ddl(f['type'])}" for f in j["fields"]) + ">"
    if j["type"] == "array":
        return f"array<{_type_ddl(j['elementType'])}>"
    return f"map<{_type_ddl(j['keyType'])}, {_type_ddl(j['valueType'])}>"


def schema_string(schema: StructType) -> str:
    return json.dumps(_type_json(schema), separators=(",", ":"))


def schema_of_string(text: str) -> StructType:
    j = json.loads(text)
    return StructType.fromDDL(", ".join(f"`{f['name']}` {_type_ddl(f['type'])}" for f in j["fields"]))


class Snapshot:
    def __init__(self) -> None:
        self.version = -1
        self.schema: Optional[StructType] = None
        self.table_id = ""
        self.files: List[str] = []  # data files, relative to the table folder, in add order
        self.txns: Dict[str, int] = {}


class DeltaLog:
    """The log of the table at ``path`` in ``world``'s filesystem."""

    def __init__(self, world: Any, path: str) -> None:
        self.world = world
        self.path = path.rstrip("/") or "/"

    def _log_dir(self) -> str:
        return f"{self.path}/{LOG}"

    def exists(self) -> bool:
        return bool(self._versions())

    def _versions(self) -> List[int]:
        out = []
        for p in self.world._native.list_files(self._log_dir()):
            name = p.rsplit("/", 1)[-1]
            if name.endswith(".json") and name[:-5].isdigit():
                out.append(int(name[:-5]))
        return sorted(out)

    def snapshot(self) -> Snapshot:
        """The table's state after its last commit (Delta's log replay: the newest metaData, the
        add actions no later remove names, the newest txn version per appId)."""
        s = Snapshot()
        versions = self._versions()
        if versions and versions[0] != 0 or versions != list(range(len(versions))):
            raise AnalysisException(f"[DELTA_VERSIONS_NOT_CONTIGUOUS] the log of {self.path} has "
                                    f"versions {versions}: a gap", errorClass="DELTA_VERSIONS_NOT_CONTIGUOUS")
        for v in versions:
            text = self.world.read(f"{self._log_dir()}/{v:020d}.json")
            for line_no, line in enumerate(text.splitlines(), 1):
                if not line.strip():
                    continue
                try:
                    action = json.loads(line)
                except ValueError as e:
                    raise AnalysisException(f"{self._log_dir()}/{v:020d}.json:{line_no}: not a JSON "
                                            f"action ({e})", errorClass="DELTA_LOG_CORRUPTED") from None
                if "metaData" in action:
                    s.schema = schema_of_string(action["metaData"]["schemaString"])
                    s.table_id = action["metaData"].get("id", "")
                elif "add" in action:
                    s.files.append(action["add"]["path"])
                elif "remove" in action:
                    gone = action["remove"]["path"]
                    s.files = [f for f in s.files if f != gone]
                elif "txn" in action:
                    s.txns[action["txn"]["appId"]] = int(action["txn"]["version"])
            s.version = v
        return s

    def has_removes(self) -> bool:
        return any('"remove"' in self.world.read(f"{self._log_dir()}/{v:020d}.json")
                   for v in self._versions())

    def rows(self, snap: Optional[Snapshot] = None) -> _batch.Rel:
        snap = snap or self.snapshot()
        if snap.schema is None:
            raise AnalysisException(f"[DELTA_TABLE_NOT_FOUND] `{self.path}` is not a Delta table.",
                                    errorClass="DELTA_TABLE_NOT_FOUND",
                                    messageParameters={"tableName": self.path})
        lines: List[str] = []
        for f in snap.files:
            lines += [ln for ln in self.world.read(f"{self.path}/{f}").splitlines() if ln.strip()]
        return _batch.rel_from_json_lines(lines, snap.schema, self.world.spark.conf._sql_conf())

    def write(self, rel: _batch.Rel, mode: str, txn: Optional[Tuple[str, int]] = None,
              operation: str = "WRITE", keep: Optional[_batch.Rel] = None) -> bool:
        """Appends ``rel`` (mode "append"), or replaces the table's rows with it ("overwrite",
        and MERGE, whose ``rel`` is the whole new table); one new commit. Returns False when
        ``txn`` (appId, version) was already committed (the write is skipped, as Delta skips it)."""
        snap = self.snapshot()
        if txn is not None and snap.txns.get(txn[0], -1) >= txn[1]:
            return False
        actions: List[Dict[str, Any]] = []
        now = self.world._native.now()
        actions.append({"commitInfo": {"timestamp": now, "operation": operation,
                                       "operationParameters": {"mode": mode.capitalize()},
                                       "isBlindAppend": mode == "append"}})
        if snap.version < 0:
            actions.append({"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}})
        if snap.schema is None:
            actions.append({"metaData": {"id": str(uuid.uuid5(uuid.NAMESPACE_URL, self.path)),
                                         "format": {"provider": "json", "options": {}},
                                         "schemaString": schema_string(rel.schema),
                                         "partitionColumns": [], "configuration": {},
                                         "createdTime": now}})
        elif snap.schema.fieldNames() != rel.schema.fieldNames():
            raise AnalysisException(
                f"[_LEGACY_ERROR_TEMP_DELTA_0007] A schema mismatch detected when writing to the "
                f"Delta table {self.path}: table columns {snap.schema.fieldNames()}, data columns "
                f"{rel.schema.fieldNames()}", errorClass="_LEGACY_ERROR_TEMP_DELTA_0007")
        version = snap.version + 1
        if mode == "overwrite":
            actions += [{"remove": {"path": f, "deletionTimestamp": now, "dataChange": True}}
                        for f in snap.files]
        if rel.rows:
            name = f"part-{version:05d}.json"
            names = rel.schema.fieldNames()
            text = "".join(json.dumps({n: _batch.json_value(v) for n, v in zip(names, r)}) + "\n"
                           for r in rel.rows)
            self.world._native.put_file(f"{self.path}/{name}", text.encode("utf-8"), None)
            actions.append({"add": {"path": name, "partitionValues": {}, "size": len(text.encode("utf-8")),
                                    "modificationTime": now, "dataChange": True}})
        if txn is not None:
            actions.append({"txn": {"appId": txn[0], "version": txn[1], "lastUpdated": now}})
        body = "".join(json.dumps(a, separators=(",", ":")) + "\n" for a in actions)
        # Delta commits by creating N.json only if it is absent (put-if-absent); the world's
        # put is atomic and durable.
        target = f"{self._log_dir()}/{version:020d}.json"
        if target in self.world._native.list_files(self._log_dir()):
            raise AnalysisException(f"[DELTA_CONCURRENT_WRITE] {target} exists",
                                    errorClass="DELTA_CONCURRENT_WRITE")
        self.world._native.put_file(target, body.encode("utf-8"), None)
        return True



def txn_of(options: Dict[str, str], conf: Any) -> Optional[Tuple[str, int]]:
    """(appId, version) of a write: the writer's txnAppId/txnVersion options, else the session's
    spark.databricks.delta.write.txnAppId/txnVersion; both or neither (Delta's rule)."""
    low = {k.lower(): v for k, v in options.items()}
    app = low.get("txnappid") or conf.get("spark.databricks.delta.write.txnAppId", None)
    ver = low.get("txnversion") or conf.get("spark.databricks.delta.write.txnVersion", None)
    if (app is None) != (ver is None):
        raise AnalysisException("[DELTA_INVALID_IDEMPOTENT_WRITES_OPTIONS] Invalid options for "
                                "idempotent Dataframe writes: both txnAppId and txnVersion must be "
                                "specified for idempotent Delta writes",
                                errorClass="DELTA_INVALID_IDEMPOTENT_WRITES_OPTIONS")
    if app is None:
        return None
    try:
        return str(app), int(ver)
    except ValueError:
        raise AnalysisException(f"[DELTA_INVALID_IDEMPOTENT_WRITES_OPTIONS] txnVersion {ver!r} is "
                                "not a number", errorClass="DELTA_INVALID_IDEMPOTENT_WRITES_OPTIONS") from None

