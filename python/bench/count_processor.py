# The count processor of `streamsim bench` workload 1, in Python: rows per key in a ValueState.
from pyspark.sql import Row
from pyspark.sql.streaming import AsyncStatefulProcessor, StatefulProcessor


class CountProcessor(StatefulProcessor):
    def init(self, handle):
        self.count = handle.getValueState("count", "count long")

    def handleInputRows(self, key, rows, timerValues):
        current = self.count.get()
        n = (current[0] if current is not None else 0) + sum(1 for _ in rows)
        self.count.update((n,))
        yield Row(key=key[0], count=n)


class AsyncCountProcessor(AsyncStatefulProcessor):
    """The same count as seed 000's async processor: awaited get and update."""

    async def init(self, handle):
        self.count = handle.getValueState("count", "count long")

    async def handleInputRows(self, key, rows, timerValues):
        current = await self.count.get()
        n = (current[0] if current is not None else 0) + sum(1 for _ in rows)
        await self.count.update((n,))
        yield Row(key=key[0], count=n)
