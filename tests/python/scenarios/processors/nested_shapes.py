# Python processors whose nested output or state values do not fit their schema
# (tests/python/test_nested_values.py): each fails its task with PySpark's condition.
from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor


class StringForArrayOutput(StatefulProcessor):
    def init(self, handle):
        pass

    def handleInputRows(self, key, rows, timerValues):
        yield Row(key=key[0], xs="not a list")


class ShortStructOutput(StatefulProcessor):
    def init(self, handle):
        pass

    def handleInputRows(self, key, rows, timerValues):
        yield Row(key=key[0], s=(1,))


class NullArrayElementInState(StatefulProcessor):
    def init(self, handle):
        self.xs = handle.getValueState("xs", "xs array<long>")
        self.m = handle.getMapState("m", "k string", "v map<string, long>")

    def handleInputRows(self, key, rows, timerValues):
        self.m.updateValue(("k",), ({None: 1},))  # a map key is never null
        yield Row(key=key[0])
