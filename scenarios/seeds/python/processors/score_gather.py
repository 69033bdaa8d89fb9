# Seed 000's HttpScoreRowGatherProcessor, written the way the seed writes it: one request per
# row, all at once with asyncio.gather, the best score in ValueState "last_score", emitted.
# streamsim has no network: the aiohttp session of the seed is the run's simulated outside
# service "scoring" (handle.getService, a streamsim extension; a scenario's `services:`), which
# answers after its latency in virtual time with a score that depends on the request only.
import asyncio
from pyspark.sql import Row
from pyspark.sql.streaming import AsyncStatefulProcessor

class HttpScoreRowGatherProcessor(AsyncStatefulProcessor):
  async def init(self, handle):
    self._score_state = handle.getValueState("last_score", "score double")
    self._session = handle.getService("scoring", timeoutMs=1000)

  async def _fetch_score(self, row) -> float:
    resp = await self._session.call(f"/score/{row.event_id}")
    resp.raise_for_status()
    return float(resp.body)

  async def handleInputRows(self, key, rows, timerValues):
    user_id = key[0]
    scores = await asyncio.gather(*[self._fetch_score(row) for row in rows])

    max_score = max(scores)
    await self._score_state.update((max_score,))
    yield Row(user_id=user_id, score=max_score)

  async def close(self):
    pass


class HttpScoreRowSequentialProcessor(HttpScoreRowGatherProcessor):
  """The same, one request at a time (the latency baseline the gather overlaps)."""

  async def handleInputRows(self, key, rows, timerValues):
    scores = [await self._fetch_score(row) for row in rows]
    max_score = max(scores)
    await self._score_state.update((max_score,))
    yield Row(user_id=key[0], score=max_score)
