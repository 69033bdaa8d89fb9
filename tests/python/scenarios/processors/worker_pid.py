"""A row counter that also writes the id of the process it runs in (os.getpid()) to the file
named by $STREAMSIM_TEST_PID_FILE when that is set: how test_parallel_sweeps.py sees which
process ran a sweep's seeds (the hash_seed oracle's worker, whose Python has another hash seed,
records nothing: it runs every seed's fault-free run again). Its output does not depend on it. With $STREAMSIM_TEST_EXIT_IN_INIT
set, init kills its process (SIGKILL: os._exit from a processor is intercepted and fails the call
instead, docs/python.md): a sweep worker that dies."""

import os
import signal
import sys

from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor


class PidRecordingCounter(StatefulProcessor):
    def init(self, handle):
        if os.environ.get("STREAMSIM_TEST_EXIT_IN_INIT"):
            os.kill(os.getpid(), signal.SIGKILL)
        path = os.environ.get("STREAMSIM_TEST_PID_FILE")
        if path and not getattr(sys, "_streamsim_hash_seed", 0):
            with open(path, "a", encoding="utf-8") as f:
                f.write(f"{os.getpid()}\n")
        self.count = handle.getValueState("count", "count long")

    def handleInputRows(self, key, rows, timerValues):
        current = self.count.get()
        n = (current[0] if current is not None else 0) + sum(1 for _ in rows)
        self.count.update((n,))
        yield Row(id=key[0], count=n)
