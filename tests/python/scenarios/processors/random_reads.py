# Processors that draw randomness or read pandas' clock in a handler (test_nondeterministic_reads.py):
# each line that draws is reported with its file:line, except from a generator of their own.
import os
import random
import uuid

import numpy as np
import pandas as pd
from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor


class UuidRowIds(StatefulProcessor):
    """Wrong: a row id from uuid4 differs on every re-run of the batch."""

    def init(self, handle):
        pass

    def handleInputRows(self, key, rows, timerValues):
        yield Row(key=key[0], id=str(uuid.uuid4()))


class RandomSample(StatefulProcessor):
    """Wrong: samples with the module-level generator."""

    def init(self, handle):
        pass

    def handleInputRows(self, key, rows, timerValues):
        yield Row(key=key[0], id=str(random.random()))


class NumpyNoise(StatefulProcessor):
    def init(self, handle):
        pass

    def handleInputRows(self, key, rows, timerValues):
        yield Row(key=key[0], id=str(np.random.rand()))


class UrandomToken(StatefulProcessor):
    def init(self, handle):
        pass

    def handleInputRows(self, key, rows, timerValues):
        yield Row(key=key[0], id=os.urandom(4).hex())


class PandasNow(StatefulProcessor):
    """Wrong: stamps its output with pandas' wall clock."""

    def init(self, handle):
        pass

    def handleInputRows(self, key, rows, timerValues):
        yield Row(key=key[0], id=str(pd.Timestamp.now()))


class SeededModuleRandom(StatefulProcessor):
    """Seeds the module-level generator from the key and the batch time itself, and says so."""

    seededRandom = True

    def init(self, handle):
        pass

    def handleInputRows(self, key, rows, timerValues):
        random.seed(f"{key[0]}/{timerValues.getCurrentProcessingTimeInMs()}")
        yield Row(key=key[0], id=str(random.random()))


class OwnGenerator(StatefulProcessor):
    """A generator of its own, seeded from the key: never reported."""

    def init(self, handle):
        pass

    def handleInputRows(self, key, rows, timerValues):
        yield Row(key=key[0], id=str(random.Random(key[0]).random() + np.random.default_rng(7).random()))
