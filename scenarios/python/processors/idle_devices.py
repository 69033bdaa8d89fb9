# A device is idle 10 s of event time after its latest reading (issue 40: a bug class of Python
# processors). IdleByEventTime sets its event-time timer from the readings' event times (fires
# when the watermark passes it). IdleByProcessingTime sets it from
# timerValues.getCurrentProcessingTimeInMs(), which under TimeMode.EventTime() fires only when the
# event times reach the wall-clock time, if ever; streamsim reports it
# (EVENT_TIME_TIMER_FROM_PROCESSING_TIME; scenarios/python/buggy/event_time_timer_from_processing_time.yml).
from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor, StatefulProcessorHandle
from pyspark.sql.types import StructType, StructField, LongType

timer_schema = StructType([StructField("at", LongType(), True)])
IDLE_MS = 10_000


class IdleByEventTime(StatefulProcessor):
  def init(self, handle: StatefulProcessorHandle) -> None:
    self.handle = handle
    self.timer = handle.getValueState("timer", timer_schema)

  def deadline(self, rows, timerValues):
    return max(r.ts_ms for r in rows) + IDLE_MS

  def handleInputRows(self, key, rows, timerValues):
    at = self.deadline(rows, timerValues)
    old = self.timer.get()
    if old is not None:
      self.handle.deleteTimer(old[0])
    self.handle.registerTimer(at)
    self.timer.update((int(at),))
    return iter([])

  def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):
    self.timer.clear()
    yield Row(device=key[0], idle_at=expiredTimerInfo.getExpiryTimeInMs())

  def close(self) -> None:
    pass


class IdleByProcessingTime(IdleByEventTime):
  def deadline(self, rows, timerValues):
    list(rows)
    return timerValues.getCurrentProcessingTimeInMs() + IDLE_MS  # the bug: another clock
