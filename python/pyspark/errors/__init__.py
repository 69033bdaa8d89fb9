"""PySpark's error classes, carrying Spark's condition names (errorClass) and parameters."""

from typing import Dict, Optional


class PySparkException(Exception):
    """Base of PySpark's errors: ``[CONDITION] message``, with getCondition() and parameters."""

    def __init__(
        self,
        message: Optional[str] = None,
        errorClass: Optional[str] = None,
        messageParameters: Optional[Dict[str, str]] = None,
    ) -> None:
        self._errorClass = errorClass
        self._messageParameters = dict(messageParameters or {})
        if message is None:
            params = ", ".join(f"{k}={v}" for k, v in self._messageParameters.items())
            message = f"[{errorClass}] {params}" if errorClass else params
        elif errorClass and not message.startswith("["):
            message = f"[{errorClass}] {message}"
        self._message = message
        super().__init__(message)

    def getCondition(self) -> Optional[str]:
        return self._errorClass

    def getErrorClass(self) -> Optional[str]:
        return self._errorClass

    def getMessageParameters(self) -> Dict[str, str]:
        return dict(self._messageParameters)

    def getMessage(self) -> str:
        return self._message

    def getSqlState(self) -> Optional[str]:
        return None

    def __str__(self) -> str:
        return self._message


class PySparkValueError(PySparkException, ValueError):
    pass


class PySparkTypeError(PySparkException, TypeError):
    pass


class PySparkAssertionError(PySparkException, AssertionError):
    pass


class PySparkRuntimeError(PySparkException, RuntimeError):
    pass


class PySparkNotImplementedError(PySparkException, NotImplementedError):
    pass


class PySparkKeyError(PySparkException, KeyError):
    pass


class PySparkAttributeError(PySparkException, AttributeError):
    pass


from pyspark.errors.exceptions.base import (  # noqa: E402
    AnalysisException,
    ArithmeticException,
    ArrayIndexOutOfBoundsException,
    DateTimeException,
    NumberFormatException,
    SparkRuntimeException,
    CapturedException,
    IllegalArgumentException,
    ParseException,
    PythonException,
    StreamingQueryException,
    UnsupportedOperationException,
)

__all__ = [
    "CapturedException",
    "AnalysisException",
    "ParseException",
    "PythonException",
    "ArithmeticException",
    "ArrayIndexOutOfBoundsException",
    "DateTimeException",
    "NumberFormatException",
    "SparkRuntimeException",
    "PySparkAttributeError",
    "IllegalArgumentException",
    "StreamingQueryException",
    "UnsupportedOperationException",
    "PySparkException",
    "PySparkValueError",
    "PySparkTypeError",
    "PySparkAssertionError",
    "PySparkRuntimeError",
    "PySparkNotImplementedError",
    "PySparkKeyError",
]
