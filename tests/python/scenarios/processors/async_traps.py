# Traps in async processors, reported as in sync ones: a wall-clock read, a Python exception.
import time

from pyspark.sql import Row
from pyspark.sql.streaming import AsyncStatefulProcessor


class ReadsTheClock(AsyncStatefulProcessor):
    async def init(self, handle):
        self.seen = handle.getValueState("seen", "at double")

    async def handleInputRows(self, key, rows, timerValues):
        await self.seen.update((time.time(),))  # the trap: use timerValues
        yield Row(key=key[0])


class Raises(AsyncStatefulProcessor):
    async def init(self, handle):
        self.v = handle.getValueState("v", "n long")

    async def handleInputRows(self, key, rows, timerValues):
        await self.v.update((1,))
        raise KeyError("no such user")
        yield Row(key=key[0])
