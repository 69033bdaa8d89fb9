# A user's PySpark-style TwsTester test, unchanged but for its import line: on PySpark it read
#   from pyspark.sql.streaming.tws_tester import TwsTester
from streamsim.pyspark import TwsTester  # the one-line swap

from typing import Iterator

from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor, StatefulProcessorHandle
from pyspark.sql.types import IntegerType, StringType, StructField, StructType


class SessionTracker(StatefulProcessor):
    def init(self, handle: StatefulProcessorHandle) -> None:
        self.sessions = handle.getMapState("sessions", "session_id string", "count long")

    def handleInputRows(self, key, rows: Iterator[Row], timerValues) -> Iterator[Row]:
        for row in rows:
            session_key = (row["session_id"],)
            count = self.sessions.getValue(session_key)[0] if self.sessions.containsKey(session_key) else 0
            self.sessions.updateValue(session_key, (count + 1,))
        yield from []

    def close(self) -> None:
        pass


class CounterWithInitialState(StatefulProcessor):
    def init(self, handle: StatefulProcessorHandle) -> None:
        state_schema = StructType([StructField("count", IntegerType(), True)])
        self.count_state = handle.getValueState("countState", state_schema)

    def handleInitialState(self, key, initialState: Row, timerValues) -> None:
        self.count_state.update((initialState["count"],))

    def handleInputRows(self, key, rows: Iterator[Row], timerValues) -> Iterator[Row]:
        count = self.count_state.get()[0] if self.count_state.exists() else 0
        for _ in rows:
            count += 1
        self.count_state.update((count,))
        yield Row(id=key[0], count=count)


def test_session_tracker_counts_sessions_per_user():
    tester = TwsTester(SessionTracker())
    assert tester.test("u1", [Row(session_id="s1"), Row(session_id="s1"), Row(session_id="s2")]) == []
    assert tester.peekMapState("sessions", "u1") == {("s1",): (2,), ("s2",): (1,)}
    tester.setMapState("sessions", "u2", {("s9",): (5,)})
    tester.test("u2", [Row(session_id="s9")])
    assert tester.peekMapState("sessions", "u2") == {("s9",): (6,)}
    tester.deleteState("sessions", "u1")
    assert tester.peekMapState("sessions", "u1") == {}


def test_initial_state_x_10_plus_two_rows_is_12():
    tester = TwsTester(CounterWithInitialState(), initialStateRow=[("x", Row(id="x", count=10))])
    assert tester.peekValueState("countState", "x") == (10,)
    assert tester.test("x", [Row(id="x", value="a"), Row(id="x", value="b")]) == [Row(id="x", count=12)]
