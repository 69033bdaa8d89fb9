"""PySpark's exception modules (pyspark/errors/exceptions/)."""
