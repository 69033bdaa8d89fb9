"""streamsim's PySpark shim: the parts of PySpark's API that transformWithState processors import.

Written for streamsim from Spark's documented API (it is not PySpark): ``pyspark.sql.Row``,
``pyspark.sql.types``, ``pyspark.errors`` and ``pyspark.sql.streaming``'s StatefulProcessor API.
A processor file that runs on Spark runs here unchanged, on streamsim's engine.
"""

__version__ = "4.1.0+streamsim"
