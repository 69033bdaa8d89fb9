"""The exceptions PySpark raises for the JVM's ones (pyspark/errors/exceptions/base.py):
IllegalArgumentException, which PySpark's TwsTester raises when time does not move forward, and
those of a job (docs/python.md "PySpark jobs"): CapturedException and its AnalysisException,
ParseException and StreamingQueryException, with the engine's message and Spark's condition."""

from typing import Dict, Optional

from pyspark.errors import PySparkException


class IllegalArgumentException(PySparkException):
    """Passed an illegal or inappropriate argument."""

    def __init__(self, message: Optional[str] = None, errorClass: Optional[str] = None,
                 messageParameters: Optional[Dict[str, str]] = None) -> None:
        super().__init__(message=message, errorClass=errorClass, messageParameters=messageParameters)


class CapturedException(PySparkException):
    """An error of the engine (the JVM's, in Spark), with its condition and message."""


class AnalysisException(CapturedException):
    """Failed to analyze a query (a missing table, a missing queryName, ...)."""


class ParseException(AnalysisException):
    """Failed to parse a SQL command."""


class StreamingQueryException(CapturedException):
    """A streaming query terminated by an exception (awaitTermination, processAllAvailable,
    StreamingQuery.exception())."""


class UnsupportedOperationException(CapturedException):
    """An operation the engine does not support (Spark's SparkUnsupportedOperationException)."""
