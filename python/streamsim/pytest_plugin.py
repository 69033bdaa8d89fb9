"""streamsim's pytest plugin (registered by the package's ``pytest11`` entry point; in a checkout,
``pytest -p streamsim.pytest_plugin``).

The ``streamsim_world`` fixture gives each test a fresh simulated World (streamsim.world): its
filesystem, Kafka-like topics and virtual clock, with ``world.spark`` a SparkSession on them. For
the test's length ``import pyspark`` gives streamsim's pyspark (streamsim/_isolation.py), so a
real PySpark installed beside streamsim serves every other test unchanged; with one installed,
import the job's module inside the test (``import my_job`` in the test function), not at the top
of the test file, where ``pyspark`` is the real one.
"""

from typing import Iterator

import pytest

from streamsim._isolation import shim


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "streamsim: a test of a PySpark job run in streamsim's simulated world")


@pytest.fixture
def streamsim_world() -> Iterator["object"]:
    """A fresh World (seed 0), closed after the test; streamsim's pyspark meanwhile."""
    with shim():
        from streamsim.world import World
        world = World()
        try:
            yield world
        finally:
            world.close()
