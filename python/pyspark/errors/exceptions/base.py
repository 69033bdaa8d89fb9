"""The exceptions PySpark raises for the JVM's ones (pyspark/errors/exceptions/base.py): here only
IllegalArgumentException, which PySpark's TwsTester raises when time does not move forward."""

from typing import Dict, Optional

from pyspark.errors import PySparkException


class IllegalArgumentException(PySparkException):
    """Passed an illegal or inappropriate argument."""

    def __init__(self, message: Optional[str] = None, errorClass: Optional[str] = None,
                 messageParameters: Optional[Dict[str, str]] = None) -> None:
        super().__init__(message=message, errorClass=errorClass, messageParameters=messageParameters)
