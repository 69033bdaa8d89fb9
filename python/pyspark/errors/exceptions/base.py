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


class PythonException(CapturedException):
    """An exception thrown from a Python UDF (the Python worker's, in Spark): the message has the
    function's traceback."""


class ArithmeticException(CapturedException):
    """Spark's SparkArithmeticException (DIVIDE_BY_ZERO, ARITHMETIC_OVERFLOW, ... in ANSI mode)."""


class NumberFormatException(IllegalArgumentException):
    """Spark's SparkNumberFormatException (CAST_INVALID_INPUT)."""


class ArrayIndexOutOfBoundsException(CapturedException):
    """Spark's SparkArrayIndexOutOfBoundsException (INVALID_ARRAY_INDEX...)."""


class DateTimeException(CapturedException):
    """Spark's SparkDateTimeException (CAST_INVALID_INPUT of dates and timestamps, ...)."""


class SparkRuntimeException(CapturedException):
    """Spark's SparkRuntimeException."""


# The JVM exception class each of the engine's conditions is thrown as in Spark, by the
# exception PySpark converts it to (pyspark/errors/exceptions/captured.py convert_exception):
# analysis errors (QueryCompilationErrors) are AnalysisException, the parser's ParseException,
# ANSI evaluation errors (QueryExecutionErrors) SparkArithmeticException /
# SparkNumberFormatException / SparkArrayIndexOutOfBoundsException.
_BY_CONDITION_PREFIX = [
    ("PARSE_SYNTAX_ERROR", ParseException),
    ("PARSE_EMPTY_STATEMENT", ParseException),
    ("UNRESOLVED_", AnalysisException),
    ("DATATYPE_MISMATCH", AnalysisException),
    ("AMBIGUOUS_REFERENCE", AnalysisException),
    ("_LEGACY_ERROR_TEMP_3102", AnalysisException),  # UnsupportedOperationChecker
    ("WRONG_NUM_ARGS", AnalysisException),
    ("FIELD_NOT_FOUND", AnalysisException),
    ("INVALID_EXTRACT_", AnalysisException),
    ("NON_FOLDABLE_INPUT", AnalysisException),
    ("INVALID_TYPED_LITERAL", AnalysisException),
    ("DIVIDE_BY_ZERO", ArithmeticException),
    ("ARITHMETIC_OVERFLOW", ArithmeticException),
    ("NUMERIC_VALUE_OUT_OF_RANGE", ArithmeticException),
    ("CAST_OVERFLOW", ArithmeticException),
    ("CAST_INVALID_INPUT", NumberFormatException),
    ("INVALID_ARRAY_INDEX", ArrayIndexOutOfBoundsException),
]


def _from_engine_error(e: Exception) -> Exception:
    """An engine error (a ValueError / RuntimeError whose message carries Spark's condition as
    "[CONDITION] ...") as the exception PySpark raises for it; others as they are."""
    import re
    m = re.search(r"\[([A-Z_][A-Z0-9_]*(?:\.[A-Z0-9_]+)*)\]", str(e))
    if not m:
        return e
    condition = m.group(1)
    for prefix, cls in _BY_CONDITION_PREFIX:
        if condition.startswith(prefix):
            return cls(str(e)[m.start():], errorClass=condition)
    return e
