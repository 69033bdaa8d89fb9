"""streamsim for Python: run PySpark transformWithState processors on streamsim's engine.

``from streamsim.pyspark import TwsTester`` is PySpark's TwsTester API on the engine's own state,
timer and TTL code (plus ``restart()``); ``streamsim.run(path)`` and ``streamsim.sweep(path,
seeds=N)`` run scenario files and return their results as Python objects.
"""

import sys as _sys
import warnings as _warnings

from streamsim._api import run, sweep, sweep_processor
from streamsim._isolation import shim as pyspark_shim

if _sys.flags.hash_randomization and not hasattr(_sys, "_streamsim_hash_seed"):
    # The `streamsim` CLI and its worker processes fix the seed (sys._streamsim_hash_seed: 0, or
    # the hash_seed oracle's other one); a python3 started without it
    # hashes str at random, so a processor iterating a set may see another order in each run.
    _warnings.warn("streamsim: this Python hashes str at random (PYTHONHASHSEED is not set), so "
                   "a set's order can differ from run to run; run it with PYTHONHASHSEED=0 for "
                   "tests that repeat exactly", RuntimeWarning, stacklevel=2)

__all__ = ["run", "sweep", "sweep_processor", "pyspark_shim"]
