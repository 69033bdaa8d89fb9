# Processors that fall into the traps the seed documents warn about (for the scenarios and tests
# that show streamsim catching them), next to a correct one.
import time
import random
import uuid
from datetime import datetime

from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor


class CountProcessor(StatefulProcessor):
    """Correct: the count per key lives in a ValueState."""

    def init(self, handle):
        self.count = handle.getValueState("count", "count long")

    def handleInputRows(self, key, rows, timerValues):
        n = (self.count.get() or (0,))[0] + sum(1 for _ in rows)
        self.count.update((n,))
        yield Row(key=key[0], count=n)


class SelfCountProcessor(StatefulProcessor):
    """Wrong: keeps the count in ``self`` (shared by every key of a task, lost between batches)."""

    def init(self, handle):
        self.seen = 0

    def handleInputRows(self, key, rows, timerValues):
        self.seen += sum(1 for _ in rows)
        yield Row(key=key[0], count=self.seen)


class WallClockProcessor(StatefulProcessor):
    """Wrong: stamps its output with the wall clock instead of timerValues."""

    def init(self, handle):
        self.count = handle.getValueState("count", "count long")

    def handleInputRows(self, key, rows, timerValues):
        n = (self.count.get() or (0,))[0] + sum(1 for _ in rows)
        self.count.update((n,))
        stamp = int(time.time() * 1000)
        yield Row(key=key[0], count=n, at=stamp)


class DatetimeNowProcessor(StatefulProcessor):
    def init(self, handle):
        pass

    def handleInputRows(self, key, rows, timerValues):
        today = datetime.now().isoformat()
        yield Row(key=key[0], day=today)


class FailingProcessor(StatefulProcessor):
    def init(self, handle):
        self.count = handle.getValueState("count", "count long")

    def handleInputRows(self, key, rows, timerValues):
        n = sum(1 for _ in rows)
        ratio = n / (n - n)
        yield Row(key=key[0], count=ratio)


class UuidRowIdProcessor(StatefulProcessor):
    """Wrong: gives each output row a fresh uuid4() id, so a re-run of a batch writes other ids
    (the duplicate after a crash that an idempotent writer keyed by the id cannot see)."""

    def init(self, handle):
        self.count = handle.getValueState("count", "count long")

    def handleInputRows(self, key, rows, timerValues):
        n = (self.count.get() or (0,))[0] + sum(1 for _ in rows)
        self.count.update((n,))
        yield Row(key=key[0], count=n, row_id=str(uuid.uuid4()))


class ReseededRandomIdProcessor(StatefulProcessor):
    """Wrong: says it seeds the module-level generator itself (``seededRandom = True``), but seeds
    it from the system's entropy, so its ids differ on every run: the determinism oracle finds it
    by the rows it wrote."""

    seededRandom = True

    def init(self, handle):
        self.count = handle.getValueState("count", "count long")
        random.seed()  # no seed given: the system's entropy

    def handleInputRows(self, key, rows, timerValues):
        n = (self.count.get() or (0,))[0] + sum(1 for _ in rows)
        self.count.update((n,))
        yield Row(key=key[0], count=n, row_id=str(random.getrandbits(64)))
