# A planted race in a Python async processor (the bug class seed 000 warns about): the row count
# of the current call is kept in a member across the first await, so another key's handler that
# runs while this one waits at its state read overwrites it. RaceFreeCountProcessor is the same
# count written correctly (a local variable).
import asyncio

from pyspark.sql import Row
from pyspark.sql.streaming import AsyncStatefulProcessor


class RacyCountProcessor(AsyncStatefulProcessor):
    async def init(self, handle):
        self.count = handle.getValueState("count", "count long")

    async def handleInputRows(self, key, rows, timerValues):
        self.rows_in_call = sum(1 for _ in rows)  # the bug: shared by every key of the task
        total = (await self.count.get() or (0,))[0] + self.rows_in_call
        await self.count.update((total,))
        yield Row(word=key[0], count=total)


class RaceFreeCountProcessor(AsyncStatefulProcessor):
    async def init(self, handle):
        self.count = handle.getValueState("count", "count long")

    async def handleInputRows(self, key, rows, timerValues):
        rows_in_call = sum(1 for _ in rows)
        total = (await self.count.get() or (0,))[0] + rows_in_call
        await self.count.update((total,))
        yield Row(word=key[0], count=total)


class LockedCountProcessor(AsyncStatefulProcessor):
    """RacyCountProcessor with the member guarded by an asyncio.Lock kept in `self`: one lock for
    every key of the task, so a key that comes while another holds it waits at `async with`
    instead of overwriting the member (tests/python/scenarios/async_lock_in_self.yaml)."""

    async def init(self, handle):
        self.count = handle.getValueState("count", "count long")
        self.lock = asyncio.Lock()

    async def handleInputRows(self, key, rows, timerValues):
        async with self.lock:
            self.rows_in_call = sum(1 for _ in rows)
            total = (await self.count.get() or (0,))[0] + self.rows_in_call
            await self.count.update((total,))
        yield Row(word=key[0], count=total)


class LockWaitProbe(LockedCountProcessor):
    """Fails its task when a key got the lock after waiting for it: a sweep that fails with this
    message shows that keys do wait for each other and are woken (test_async.py)."""

    async def handleInputRows(self, key, rows, timerValues):
        held = self.lock.locked()
        async with self.lock:
            if held:
                raise RuntimeError(f"key {key[0]} waited for the lock and got it")
            total = (await self.count.get() or (0,))[0] + sum(1 for _ in rows)
            await self.count.update((total,))
        yield Row(word=key[0], count=total)


class TimeoutCountProcessor(AsyncStatefulProcessor):
    """Counts rows and asks the service "lookup" with a 20 ms asyncio.wait_for: a slow reply is
    abandoned (the engine's call is still pending when the handler returns) while other keys
    run (tests/python/scenarios/async_wait_for_timeouts.yaml)."""

    async def init(self, handle):
        self.count = handle.getValueState("count", "count long")
        self.lookup = handle.getService("lookup")

    async def handleInputRows(self, key, rows, timerValues):
        import asyncio
        n = sum(1 for _ in rows)
        try:
            resp = await asyncio.wait_for(self.lookup.call(key[0]), timeout=0.02)
            answered = resp.ok
        except asyncio.TimeoutError:
            answered = False
        total = (await self.count.get() or (0,))[0] + n
        await self.count.update((total,))
        yield Row(word=key[0], count=total, answered=answered)


class DeclaredOrderDependentCount(RacyCountProcessor):
    """The racy count, declared order-dependent on purpose: the interleaving oracle leaves it."""

    orderDependent = True
