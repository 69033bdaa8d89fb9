# A processor as PySpark's own TwsTester tests write them: a running count per key (row and
# pandas flavours), a processing-time timer processor and a TTL'd value.
from typing import Iterator

from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor, StatefulProcessorHandle
from pyspark.sql.types import LongType, StructField, StructType


class RunningCountProcessor(StatefulProcessor):
    def init(self, handle: StatefulProcessorHandle) -> None:
        self.count = handle.getValueState("count", StructType([StructField("value", LongType())]))

    def handleInputRows(self, key, rows, timerValues) -> Iterator[Row]:
        n = self.count.get()[0] if self.count.exists() else 0
        n += sum(1 for _ in rows)
        self.count.update((n,))
        yield Row(key=key[0], count=n)

    def handleInitialState(self, key, initialState, timerValues) -> None:
        self.count.update((initialState.initial_count,))


class RunningCountPandasProcessor(StatefulProcessor):
    def init(self, handle: StatefulProcessorHandle) -> None:
        self.count = handle.getValueState("count", "value long")

    def handleInputRows(self, key, rows, timerValues):
        import pandas as pd
        n = self.count.get()[0] if self.count.exists() else 0
        for pdf in rows:
            n += len(pdf)
        self.count.update((n,))
        yield pd.DataFrame({"key": [key[0]], "count": [n]})


class TimeoutProcessor(StatefulProcessor):
    """Registers a timer 10 s after the last row; emits (key, "expired") when it fires."""

    def init(self, handle: StatefulProcessorHandle) -> None:
        self.handle = handle
        self.last = handle.getValueState("last", "t long")

    def handleInputRows(self, key, rows, timerValues):
        for t in self.handle.listTimers():
            self.handle.deleteTimer(t)
        now = timerValues.getCurrentProcessingTimeInMs()
        self.last.update((now,))
        self.handle.registerTimer(now + 10_000)
        return iter([])

    def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):
        self.last.clear()
        yield Row(key=key[0], status="expired", at=expiredTimerInfo.getExpiryTimeInMs())


class TtlProcessor(StatefulProcessor):
    def init(self, handle: StatefulProcessorHandle) -> None:
        self.seen = handle.getValueState("seen", "n int", ttlDurationMs=5_000)
        self.names = handle.getMapState("names", "name string", "n int", ttlDurationMs=5_000)

    def handleInputRows(self, key, rows, timerValues):
        n = (self.seen.get() or (0,))[0]
        for r in rows:
            n += 1
            self.names.updateValue((r.name,), (n,))
        self.seen.update((n,))
        yield Row(key=key[0], n=n)


class FailingProcessor(StatefulProcessor):
    def init(self, handle):
        self.count = handle.getValueState("count", "value long")

    def handleInputRows(self, key, rows, timerValues):
        self.count.update((1,))
        raise ValueError("boom for " + str(key[0]))
