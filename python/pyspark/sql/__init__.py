"""pyspark.sql for streamsim: Row and the types (no SparkSession: queries are YAML scenarios)."""

from pyspark.sql.types import Row

__all__ = ["Row"]
