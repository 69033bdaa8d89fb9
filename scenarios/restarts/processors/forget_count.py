# Two versions of one processor (scenarios/restarts/delete_state_variable_counts_deleted_vars.yaml):
# Counting keeps a per-key count in ValueState "count"; Forgetting, its next version, drops that
# variable with deleteIfExists in init and counts afresh in "seen".
from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor


class Counting(StatefulProcessor):
    variable = "count"

    def init(self, handle):
        self.state = handle.getValueState(self.variable, "n long")

    def handleInputRows(self, key, rows, timerValues):
        old = self.state.get()
        n = (old[0] if old else 0) + sum(1 for _ in rows)
        self.state.update((n,))
        yield Row(word=key[0], count=n)

    def close(self):
        pass


class Forgetting(Counting):
    variable = "seen"

    def init(self, handle):
        handle.deleteIfExists("count")
        super().init(handle)
