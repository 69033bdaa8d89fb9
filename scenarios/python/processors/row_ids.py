# Row ids for each key's output (issue 40's "uuid4() row ids" class). A re-run of a batch after a
# crash must write the same rows (Spark's exactly-once sinks dedupe by batch id, not by content),
# so an id must come from the input and state, not from a random draw.
import uuid

from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor, StatefulProcessorHandle
from pyspark.sql.types import LongType, StructField, StructType

_seq = StructType([StructField("seq", LongType(), True)])


class SequencedRowIds(StatefulProcessor):
    """Correct: the id is the key and a per-key sequence number kept in state."""

    def init(self, handle: StatefulProcessorHandle) -> None:
        self.seq = handle.getValueState("seq", _seq)

    def handleInputRows(self, key, rows, timerValues):
        seq = (self.seq.get() or (0,))[0]
        for _ in rows:
            seq += 1
            yield Row(key=key[0], id=f"{key[0]}-{seq}")
        self.seq.update((seq,))


class RandomRowIds(StatefulProcessor):
    """Buggy: a uuid4 per row differs on every re-run of the batch."""

    def init(self, handle: StatefulProcessorHandle) -> None:
        pass

    def handleInputRows(self, key, rows, timerValues):
        for _ in rows:
            yield Row(key=key[0], id=str(uuid.uuid4()))
