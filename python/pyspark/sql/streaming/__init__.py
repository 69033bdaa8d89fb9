"""pyspark.sql.streaming for streamsim: the transformWithState processor API."""

from pyspark.sql.streaming.stateful_processor import (
    AsyncStatefulProcessor,
    AsyncStatefulProcessorHandle,
    ExpiredTimerInfo,
    ListState,
    MapState,
    StatefulProcessor,
    StatefulProcessorHandle,
    TimerValues,
    ValueState,
)

__all__ = [
    "StatefulProcessor",
    "StatefulProcessorHandle",
    "AsyncStatefulProcessor",
    "AsyncStatefulProcessorHandle",
    "TimerValues",
    "ExpiredTimerInfo",
    "ValueState",
    "ListState",
    "MapState",
]
