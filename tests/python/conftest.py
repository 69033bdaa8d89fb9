# pytest configuration: the shim (python/) and the built module (build/python) come from
# PYTHONPATH set by CTest; run by hand with
#   PYTHONPATH=python:build/python PYTHONHASHSEED=0 /usr/bin/python3 -m pytest tests/python
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.environ.get("STREAMSIM_SOURCE_DIR", os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, HERE)

import pytest


@pytest.fixture
def world():
    """A fresh World for a PySpark job test (streamsim.world), closed after it."""
    from streamsim.world import World
    w = World()
    yield w
    w.close()
