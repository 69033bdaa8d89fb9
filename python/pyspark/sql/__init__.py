"""pyspark.sql for streamsim: Row and the types (what processor files import), and the job API
(SparkSession, DataFrame, Column, functions; docs/python.md "PySpark jobs"), imported on first use
so that a processor file's import stays light."""

from pyspark.sql.types import Row

__all__ = ["Row", "SparkSession", "DataFrame", "Column", "GroupedData", "functions"]


def __getattr__(name: str):
    if name == "SparkSession":
        from pyspark.sql.session import SparkSession
        return SparkSession
    if name in ("DataFrame", "GroupedData"):
        from pyspark.sql import dataframe
        return getattr(dataframe, name)
    if name == "Column":
        from pyspark.sql.column import Column
        return Column
    if name == "functions":
        import importlib
        return importlib.import_module("pyspark.sql.functions")
    raise AttributeError(name)
