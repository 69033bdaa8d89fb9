"""delta-spark's Python API for streamsim's Delta table stand-in (pyspark/sql/_delta.py):
``delta.tables.DeltaTable`` and its MERGE builder (docs/python.md "Delta")."""

from delta.tables import DeltaMergeBuilder, DeltaTable

__all__ = ["DeltaTable", "DeltaMergeBuilder"]
