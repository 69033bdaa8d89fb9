# Async processors for tests/python/test_async.py: every awaited operation, timers, initial
# state, outside services, sleeps in virtual time, errors.
import asyncio
import contextvars

from pyspark.sql import Row
from pyspark.sql.streaming import AsyncStatefulProcessor


class AllOpsProcessor(AsyncStatefulProcessor):
    """Every awaited state and timer operation, in order, logged into one output column."""

    async def init(self, handle):
        self.handle = handle
        self.v = handle.getValueState("v", "n long")
        self.l = handle.getListState("l", "n long")
        self.m = handle.getMapState("m", "k string", "n long")

    async def handleInputRows(self, key, rows, timerValues):
        log = []
        log.append(f"v.exists={await self.v.exists()}")
        log.append(f"v.get={await self.v.get()}")
        await self.v.update((5,))
        log.append(f"v.exists={await self.v.exists()} v.get={await self.v.get()}")
        await self.v.clear()
        log.append(f"v.exists={await self.v.exists()}")
        log.append(f"l.exists={await self.l.exists()}")
        await self.l.put([(1,), (2,)])
        await self.l.appendValue((3,))
        await self.l.appendList([(4,), (5,)])
        log.append("l.get=" + ",".join([str(v[0]) async for v in self.l.get()]))
        await self.l.clear()
        log.append(f"l.exists={await self.l.exists()}")
        await self.m.updateValue(("a",), (1,))
        await self.m.updateValue(("b",), (2,))
        log.append(f"m.getValue={await self.m.getValue(('a',))} m.containsKey={await self.m.containsKey(('z',))}")
        log.append("m.iterator=" + ",".join([f"{k[0]}:{v[0]}" async for k, v in self.m.iterator()]))
        log.append("m.keys=" + ",".join([k[0] async for k in self.m.keys()]))
        log.append("m.values=" + ",".join([str(v[0]) async for v in self.m.values()]))
        both = await asyncio.gather(self.m.getValue(("a",)), self.m.getValue(("b",)))
        log.append(f"gather={both}")
        await self.m.removeKey(("a",))
        log.append("m.keys=" + ",".join([k[0] async for k in self.m.keys()]))
        await self.m.clear()
        log.append(f"m.exists={await self.m.exists()}")
        now = timerValues.getCurrentProcessingTimeInMs()
        await self.handle.registerTimer(now + 1000)
        await self.handle.registerTimer(now + 2000)
        await self.handle.deleteTimer(now + 1000)
        log.append("timers=" + ",".join([str(t - now) async for t in self.handle.listTimers()]))
        yield Row(key=key[0], log="; ".join(log))

    async def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):
        yield Row(key=key[0], log=f"timer {expiredTimerInfo.getExpiryTimeInMs()}")


class CountWithInitialState(AsyncStatefulProcessor):
    async def init(self, handle):
        self.count = handle.getValueState("count", "count long")

    async def handleInitialState(self, key, initialState, timerValues):
        await self.count.update((initialState.initial_count,))

    async def handleInputRows(self, key, rows, timerValues):
        total = (await self.count.get() or (0,))[0] + len(list(rows))
        await self.count.update((total,))
        yield Row(key=key[0], count=total)


class ScoreTiming(AsyncStatefulProcessor):
    """One call per row to the service "scoring"; emits the best score and how long the calls
    took in virtual time (the loop's clock). ``gather`` picks asyncio.gather or one at a time."""

    gather = True

    async def init(self, handle):
        self.best = handle.getValueState("best", "score double")
        self.svc = handle.getService("scoring")

    async def score(self, row):
        resp = await self.svc.call(row.event_id)
        resp.raise_for_status()
        return float(resp.body)

    async def handleInputRows(self, key, rows, timerValues):
        loop = asyncio.get_running_loop()
        start = loop.time()
        rows = list(rows)
        if self.gather:
            scores = await asyncio.gather(*[self.score(r) for r in rows])
        else:
            scores = [await self.score(r) for r in rows]
        elapsed_ms = round((loop.time() - start) * 1000)
        await self.best.update((max(scores),))
        yield Row(key=key[0], score=max(scores), elapsed_ms=elapsed_ms)


class SequentialScoreTiming(ScoreTiming):
    gather = False


class SleepProcessor(AsyncStatefulProcessor):
    """asyncio.sleep, asyncio.wait_for, asyncio.timeout and create_task in virtual time."""

    async def init(self, handle):
        self.svc = handle.getService("slow", timeoutMs=0)

    async def handleInputRows(self, key, rows, timerValues):
        loop = asyncio.get_running_loop()
        start = loop.time()
        await asyncio.sleep(3600)  # an hour of virtual time, no wall time
        slept = round((loop.time() - start) * 1000)
        try:
            await asyncio.wait_for(self.svc.call("x"), timeout=0.5)
            outcome = "answered"
        except asyncio.TimeoutError:
            outcome = "timed out"
        waited = round((loop.time() - start) * 1000) - slept
        try:
            async with asyncio.timeout(0.25):
                await asyncio.create_task(self.svc.call("y"))
            second = "answered"
        except TimeoutError:
            second = "timed out"
        total = round((loop.time() - start) * 1000)
        yield Row(key=key[0], slept_ms=slept, outcome=outcome, waited_ms=waited,
                  second=second, total_ms=total)


CAUGHT = []


class SwallowsStateErrors(AsyncStatefulProcessor):
    """Tries to catch a state operation's error (an empty list): under async the error fails the
    task before this code resumes, so the except block never runs."""

    async def init(self, handle):
        self.l = handle.getListState("l", "n long")

    async def handleInputRows(self, key, rows, timerValues):
        try:
            await self.l.put([])
        except Exception as e:  # noqa: BLE001 - the point of the test
            CAUGHT.append(repr(e))
        yield Row(key=key[0], ok=True)


class RaisesInHandler(AsyncStatefulProcessor):
    async def init(self, handle):
        self.v = handle.getValueState("v", "n long")

    async def handleInputRows(self, key, rows, timerValues):
        await self.v.update((1,))
        raise ValueError("boom in an async handler")
        yield  # noqa: unreachable - makes this an async generator


class ForgetsATask(AsyncStatefulProcessor):
    async def init(self, handle):
        self.v = handle.getValueState("v", "n long")

    async def handleInputRows(self, key, rows, timerValues):
        asyncio.get_running_loop().create_task(self.v.update((1,)))
        await asyncio.sleep(0)
        yield Row(key=key[0])


STASHED = []  # StashesItsState's state variable and a call's context, for use outside the calls


class StashesItsState(AsyncStatefulProcessor):
    """Counts rows per key, and leaves its ValueState where a test can await it outside a call."""

    async def init(self, handle):
        self.count = handle.getValueState("count", "count long")
        STASHED.append(self.count)

    async def handleInputRows(self, key, rows, timerValues):
        STASHED.append(contextvars.copy_context())
        total = (await self.count.get() or (0,))[0] + len(list(rows))
        await self.count.update((total,))
        yield Row(key=key[0], count=total)
