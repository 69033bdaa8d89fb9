# The async idle timeout of scenarios/async/idle_timeout_timers_ttl.yaml, in Python: a count
# with a 1 minute TTL, the key's one processing-time timer re-armed 30 s after each batch
# (awaited listTimers, deleteTimer, registerTimer) and an "idle" row when it fires.
from pyspark.sql import Row
from pyspark.sql.streaming import AsyncStatefulProcessor


class AsyncIdleTimeoutProcessor(AsyncStatefulProcessor):
    async def init(self, handle):
        self.handle = handle
        self.count = handle.getValueState("count", "count long", ttlDurationMs=60_000)

    async def handleInputRows(self, key, rows, timerValues):
        total = (await self.count.get() or (0,))[0] + sum(1 for _ in rows)
        await self.count.update((total,))
        async for t in self.handle.listTimers():
            await self.handle.deleteTimer(t)
        await self.handle.registerTimer(timerValues.getCurrentProcessingTimeInMs() + 30_000)
        yield Row(user=key[0], count=total, event="input")

    async def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):
        current = await self.count.get()
        yield Row(user=key[0], count=current[0] if current else None, event="idle")
