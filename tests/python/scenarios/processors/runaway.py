# Processors whose code would take the process with it (test_user_code_isolation.py): each must
# end `streamsim run` and `sweep` with exit 1 and a message naming this file, never exit 0 with
# nothing checked, a bare crash or a hang.
import os
import sys

from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor

if os.environ.get("STREAMSIM_TEST_EXIT_AT_IMPORT") == "1":
    os._exit(0)


class ExitsInHandler(StatefulProcessor):
    def init(self, handle):
        pass

    def handleInputRows(self, key, rows, timerValues):
        os._exit(0)
        yield Row(key=key[0])


class Node:
    """Recursion through a constructor: every level costs C stack."""

    def __init__(self, depth):
        self.child = Node(depth + 1)


class RecursesTooDeep(StatefulProcessor):
    def init(self, handle):
        pass

    def handleInputRows(self, key, rows, timerValues):
        sys.setrecursionlimit(10_000_000)
        Node(0)
        yield Row(key=key[0])


class LoopsForever(StatefulProcessor):
    def init(self, handle):
        pass

    def handleInputRows(self, key, rows, timerValues):
        n = 0
        while True:
            n += 1
        yield Row(key=key[0])


class LoopsSwallowingEverything(StatefulProcessor):
    def init(self, handle):
        pass

    def handleInputRows(self, key, rows, timerValues):
        while True:
            try:
                while True:
                    pass
            except BaseException:
                pass
        yield Row(key=key[0])


class SleepsPastItsLimit(StatefulProcessor):
    """A call longer than its limit in wall-clock time that hardly runs: what a loaded machine
    does to any call (it waits for a CPU)."""

    def init(self, handle):
        pass

    def handleInputRows(self, key, rows, timerValues):
        import time
        time.sleep(1.5)
        yield Row(key=key[0])


class WaitsForever(StatefulProcessor):
    def init(self, handle):
        pass

    def handleInputRows(self, key, rows, timerValues):
        import time
        while True:
            time.sleep(0.05)
        yield Row(key=key[0])
