"""streamsim for Python: run PySpark transformWithState processors on streamsim's engine.

``from streamsim.pyspark import TwsTester`` is PySpark's TwsTester API on the engine's own state,
timer and TTL code (plus ``restart()``); ``streamsim.run(path)`` and ``streamsim.sweep(path,
seeds=N)`` run scenario files and return their results as Python objects.
"""

from streamsim._api import run, sweep, sweep_processor

__all__ = ["run", "sweep", "sweep_processor"]
