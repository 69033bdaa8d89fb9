"""StreamingQuery / StreamingQueryManager for streamsim: a query runs in its World
(streamsim.world), which decides when "all available input" has been processed."""

import json
from typing import Any, Dict, List, Optional

__all__ = ["StreamingQuery", "StreamingQueryManager"]


class StreamingQuery:
    def __init__(self, world: Any, name: Optional[str], ids: Dict[str, str], trigger: Any) -> None:
        self._world = world
        self._name = name
        self._id = ids.get("id")
        self._run_id = ids.get("runId")
        self._trigger = trigger
        self._stopped = False
        self._progress: List[Dict[str, Any]] = []  # kept once another query replaced this one
        self._replaced = False

    def _current(self) -> bool:
        return self._world._query is self and not self._replaced

    @property
    def id(self) -> str:
        return self._id

    @property
    def runId(self) -> str:
        return self._run_id

    @property
    def name(self) -> Optional[str]:
        return self._name

    @property
    def isActive(self) -> bool:
        return self._current() and not self._stopped and self._world._native.status() == "active"

    def awaitTermination(self, timeout: Optional[int] = None) -> Optional[bool]:
        """Runs the query in the world until it has processed all available input (an
        AvailableNow or Once trigger: until it terminates), then returns; raises the query's
        StreamingQueryException when it failed, and streamsim.world.DriverCrashed when a crash the
        world armed fired (the driver process died: nothing after it in the job runs)."""
        if timeout is not None and (not isinstance(timeout, (int, float)) or timeout <= 0):
            from pyspark.errors import PySparkValueError
            raise PySparkValueError(f"[VALUE_NOT_POSITIVE] Value for `timeout` must be positive, "
                                    f"got '{timeout}'.", errorClass="VALUE_NOT_POSITIVE")
        if self._current() and not self._stopped:
            self._world._run_available(self)
        self._raise_failure()
        if timeout is not None:
            return not self.isActive
        return None

    def processAllAvailable(self) -> None:
        if self._current() and not self._stopped:
            self._world._run_available(self)
        self._raise_failure()

    def _raise_failure(self) -> None:
        e = self.exception()
        if e is not None:
            raise e

    def stop(self) -> None:
        if self._current() and not self._stopped:
            self._world._native.stop()
        self._stopped = True

    def exception(self) -> Optional[Any]:
        if not self._current():
            return self._world._failures.get(id(self))
        exc = self._world._native.exception()
        if exc is None:
            return None
        from pyspark.errors import StreamingQueryException
        message, condition = exc
        return StreamingQueryException(message, errorClass=condition or None)

    @property
    def recentProgress(self) -> List[Dict[str, Any]]:
        if not self._current():
            return list(self._progress)
        out = []
        for text in self._world._native.progress():
            p = json.loads(text)
            p["name"] = self._name
            out.append(p)
        return out

    @property
    def lastProgress(self) -> Optional[Dict[str, Any]]:
        p = self.recentProgress
        return p[-1] if p else None

    @property
    def status(self) -> Dict[str, Any]:
        active = self.isActive
        return {"message": "Waiting for data to arrive" if active else "Stopped",
                "isDataAvailable": False, "isTriggerActive": False}

    def explain(self, extended: bool = False) -> None:
        raise NotImplementedError("StreamingQuery.explain is not built in streamsim; see docs/python.md")


class StreamingQueryManager:
    def __init__(self, world: Any) -> None:
        self._world = world

    @property
    def active(self) -> List[StreamingQuery]:
        q = self._world._query
        return [q] if q is not None and q.isActive else []

    def get(self, id: str) -> Optional[StreamingQuery]:
        q = self._world._query
        return q if q is not None and q.id == id and q.isActive else None

    def awaitAnyTermination(self, timeout: Optional[int] = None) -> Optional[bool]:
        q = self._world._query
        if q is None:
            return True if timeout is not None else None
        return q.awaitTermination(timeout)

    def resetTerminated(self) -> None:
        pass
