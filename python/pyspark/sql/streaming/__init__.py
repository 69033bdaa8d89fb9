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

__all__ = list(_sp.__all__) + ["DataStreamReader", "DataStreamWriter", "StreamingQuery",
                                "StreamingQueryManager"]


def __getattr__(name: str):
    # The job API's classes, imported on first use (a processor file imports only the above).
    if name in ("DataStreamReader", "DataStreamWriter"):
        from pyspark.sql.streaming import readwriter
        return getattr(readwriter, name)
    if name in ("StreamingQuery", "StreamingQueryManager"):
        from pyspark.sql.streaming import query
        return getattr(query, name)
    raise AttributeError(name)
