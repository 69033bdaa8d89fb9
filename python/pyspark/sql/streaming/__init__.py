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

from pyspark.sql.streaming import stateful_processor as _sp

__all__ = list(_sp.__all__)
