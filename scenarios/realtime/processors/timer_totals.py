# Two processing-time processors that emit from handleExpiredTimer, for the real-time mode's timer
# rule (docs/real-time.md): in micro-batch mode a timer due by the batch's timestamp fires after the
# batch's rows, but in real-time mode timers are checked as rows arrive, so a timer can fire between
# two rows of the same key inside one long batch (Spark's TransformWithStateExec in real-time mode;
# scenarios/realtime/late_timer_fires_with_next_row.yaml).
from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor, StatefulProcessorHandle
from pyspark.sql.types import LongType, StructField, StructType

_count = StructType([StructField("n", LongType(), True)])


class RunningTotalAtTimer(StatefulProcessor):
    """Correct: the timer reports the key's running total, whenever it fires."""

    def init(self, handle: StatefulProcessorHandle) -> None:
        self.handle = handle
        self.total = handle.getValueState("total", _count)

    def handleInputRows(self, key, rows, timerValues):
        total = (self.total.get() or (0,))[0] + sum(1 for _ in rows)
        self.total.update((total,))
        if not list(self.handle.listTimers()):
            self.handle.registerTimer(timerValues.getCurrentProcessingTimeInMs())
        return iter([])

    def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):
        yield Row(key=key[0], n=self.total.get()[0])

    def close(self) -> None:
        pass


class BatchTotalAtTimer(StatefulProcessor):
    """Buggy: treats its timer as "the batch is over" — it emits the rows counted since the last
    timer as the batch's count and starts again. True in micro-batch mode (the timer fires after
    all of the batch's rows); in real-time mode the timer fires between rows of one long batch,
    so each report covers a few rows and the last one is not the batch's count."""

    def init(self, handle: StatefulProcessorHandle) -> None:
        self.handle = handle
        self.pending = handle.getValueState("pending", _count)

    def handleInputRows(self, key, rows, timerValues):
        pending = (self.pending.get() or (0,))[0] + sum(1 for _ in rows)
        self.pending.update((pending,))
        if not list(self.handle.listTimers()):
            self.handle.registerTimer(timerValues.getCurrentProcessingTimeInMs())
        return iter([])

    def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):
        n = self.pending.get()[0]
        self.pending.clear()
        yield Row(key=key[0], n=n)

    def close(self) -> None:
        pass
