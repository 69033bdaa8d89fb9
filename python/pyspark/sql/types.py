"""pyspark.sql.types for streamsim: Row, the scalar types, StructField/StructType and DDL strings.

The types streamsim's engine stores are boolean, int (byte/short/int), long, double (float and
double) and timestamp, and string, and structs, arrays and maps of them; ``toEngineDDL`` writes a
schema in the engine's DDL and rejects any other type with a PySparkTypeError naming it.
"""

import functools
import re
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

from pyspark.errors import PySparkTypeError, PySparkValueError


class DataType:
    """Base of every type; ``simpleString()`` is its DDL name."""

    _ddl = "?"
    _engine: Optional[str] = None  # the engine's type name, None when not storable

    def simpleString(self) -> str:
        return self._ddl

    def typeName(self) -> str:
        return type(self).__name__[:-4].lower()

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def __eq__(self, other: Any) -> bool:
        return type(self) is type(other)

    def __hash__(self) -> int:
        return hash(type(self).__name__)


def _scalar(name: str, ddl: str, engine: Optional[str]) -> type:
    return type(name, (DataType,), {"_ddl": ddl, "_engine": engine})


NullType = _scalar("NullType", "void", None)
StringType = _scalar("StringType", "string", "string")
BooleanType = _scalar("BooleanType", "boolean", "boolean")
ByteType = _scalar("ByteType", "tinyint", "int")
ShortType = _scalar("ShortType", "smallint", "int")
IntegerType = _scalar("IntegerType", "int", "int")
LongType = _scalar("LongType", "bigint", "long")
FloatType = _scalar("FloatType", "float", "double")
DoubleType = _scalar("DoubleType", "double", "double")
TimestampType = _scalar("TimestampType", "timestamp", "timestamp")
TimestampNTZType = _scalar("TimestampNTZType", "timestamp_ntz", "timestamp")
DateType = _scalar("DateType", "date", "date")
BinaryType = _scalar("BinaryType", "binary", "binary")


class DecimalType(DataType):
    def __init__(self, precision: int = 10, scale: int = 0) -> None:
        self.precision, self.scale = precision, scale

    def simpleString(self) -> str:
        return f"decimal({self.precision},{self.scale})"


class ArrayType(DataType):
    def __init__(self, elementType: DataType, containsNull: bool = True) -> None:
        self.elementType, self.containsNull = elementType, containsNull

    def simpleString(self) -> str:
        return f"array<{self.elementType.simpleString()}>"


class MapType(DataType):
    def __init__(self, keyType: DataType, valueType: DataType, valueContainsNull: bool = True):
        self.keyType, self.valueType, self.valueContainsNull = keyType, valueType, valueContainsNull

    def simpleString(self) -> str:
        return f"map<{self.keyType.simpleString()},{self.valueType.simpleString()}>"


class StructField(DataType):
    def __init__(self, name: str, dataType: DataType, nullable: bool = True,
                 metadata: Optional[Dict[str, Any]] = None) -> None:
        if not isinstance(name, str):
            raise PySparkTypeError(errorClass="NOT_STR",
                                   messageParameters={"arg_name": "name",
                                                      "arg_type": type(name).__name__})
        if not isinstance(dataType, DataType):
            raise PySparkTypeError(errorClass="NOT_DATATYPE",
                                   messageParameters={"arg_name": "dataType",
                                                      "arg_type": type(dataType).__name__})
        self.name, self.dataType, self.nullable = name, dataType, nullable
        self.metadata = metadata or {}

    def simpleString(self) -> str:
        return f"{self.name}:{self.dataType.simpleString()}"

    def __repr__(self) -> str:
        return f"StructField('{self.name}', {self.dataType!r}, {self.nullable})"

    def __eq__(self, other: Any) -> bool:
        return (isinstance(other, StructField) and self.name == other.name
                and self.dataType == other.dataType and self.nullable == other.nullable)

    def __hash__(self) -> int:
        return hash((self.name, self.dataType))


class StructType(DataType):
    def __init__(self, fields: Optional[List[StructField]] = None) -> None:
        self.fields: List[StructField] = list(fields or [])
        for f in self.fields:
            if not isinstance(f, StructField):
                raise PySparkTypeError(errorClass="NOT_LIST_OF_STRUCTFIELD",
                                       messageParameters={"arg_name": "fields"})
        self.names = [f.name for f in self.fields]

    def add(self, field: Union[str, StructField], data_type: Union[str, DataType, None] = None,
            nullable: bool = True, metadata: Optional[Dict[str, Any]] = None) -> "StructType":
        if isinstance(field, StructField):
            self.fields.append(field)
        else:
            if isinstance(data_type, str):
                data_type = _parse_type(data_type)
            self.fields.append(StructField(field, data_type, nullable, metadata))
        self.names = [f.name for f in self.fields]
        return self

    def fieldNames(self) -> List[str]:
        return list(self.names)

    def simpleString(self) -> str:
        return "struct<" + ",".join(f.simpleString() for f in self.fields) + ">"

    def __iter__(self) -> Iterator[StructField]:
        return iter(self.fields)

    def __len__(self) -> int:
        return len(self.fields)

    def __getitem__(self, key: Union[str, int]) -> StructField:
        if isinstance(key, str):
            for f in self.fields:
                if f.name == key:
                    return f
            raise PySparkKeyError(errorClass="KEY_NOT_EXISTS", messageParameters={"key": key})
        return self.fields[key]

    def __repr__(self) -> str:
        return "StructType([" + ", ".join(repr(f) for f in self.fields) + "])"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, StructType) and self.fields == other.fields

    def __hash__(self) -> int:
        return hash(tuple(self.fields))

    @classmethod
    def fromDDL(cls, ddl: str) -> "StructType":
        return _parse_datatype_string(ddl)


from pyspark.errors import PySparkKeyError  # noqa: E402  (used above)

_TYPE_NAMES = {
    "string": StringType, "varchar": StringType, "char": StringType,
    "boolean": BooleanType, "bool": BooleanType,
    "tinyint": ByteType, "byte": ByteType, "smallint": ShortType, "short": ShortType,
    "int": IntegerType, "integer": IntegerType, "bigint": LongType, "long": LongType,
    "float": FloatType, "real": FloatType, "double": DoubleType,
    "timestamp": TimestampType, "timestamp_ltz": TimestampType,
    "timestamp_ntz": TimestampNTZType, "date": DateType, "binary": BinaryType, "void": NullType,
}


def _split_top(text: str) -> List[str]:
    """Splits at commas outside <> and ()."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur))
    return parts


def _parse_type(text: str) -> DataType:
    t = text.strip()
    low = t.lower()
    base = re.sub(r"\(.*\)$", "", low).strip()
    if base in ("decimal", "numeric", "dec"):
        m = re.match(r"^\w+\s*\(\s*(\d+)\s*(?:,\s*(\d+))?\s*\)$", low)
        return DecimalType(int(m.group(1)), int(m.group(2) or 0)) if m else DecimalType()
    if base in ("varchar", "char"):
        return StringType()
    if low.startswith("array<") and low.endswith(">"):
        return ArrayType(_parse_type(t[6:-1]))
    if low.startswith("map<") and low.endswith(">"):
        k, v = _split_top(t[4:-1])
        return MapType(_parse_type(k), _parse_type(v))
    if low.startswith("struct<") and low.endswith(">"):
        return _parse_fields(t[7:-1], sep=":")
    if low in _TYPE_NAMES:
        return _TYPE_NAMES[low]()
    raise PySparkValueError(errorClass="UNSUPPORTED_DATA_TYPE", messageParameters={"data_type": t})


def _parse_fields(text: str, sep: Optional[str] = None) -> StructType:
    fields = []
    for part in _split_top(text):
        part = part.strip()
        m = re.match(r"^`([^`]+)`\s*:?\s*(.+)$", part) or re.match(r"^([\w$]+)\s*:?\s*(.+)$", part)
        if not m:
            raise PySparkValueError(errorClass="PARSE_SYNTAX_ERROR",
                                    messageParameters={"error": part, "hint": "expected 'name type'"})
        rest = m.group(2).strip()
        nullable = True
        if re.search(r"\s+not\s+null$", rest, re.IGNORECASE):
            rest, nullable = re.sub(r"\s+not\s+null$", "", rest, flags=re.IGNORECASE), False
        fields.append(StructField(m.group(1), _parse_type(rest), nullable))
    return StructType(fields)


def _parse_datatype_string(s: str) -> DataType:
    """A DDL string: ``"id string, count int"`` (a schema) or a single type name."""
    text = s.strip()
    if text.lower().startswith("struct<") and text.endswith(">"):
        return _parse_fields(text[7:-1])
    try:
        return _parse_fields(text)
    except PySparkValueError:
        return _parse_type(text)


def toStructType(schema: Union[StructType, DataType, str]) -> StructType:
    """A state or output schema as a StructType (a DDL string is parsed; a scalar type becomes one
    column named ``value``)."""
    if isinstance(schema, str):
        schema = _parse_datatype_string(schema)
    if isinstance(schema, StructType):
        return schema
    if isinstance(schema, DataType):
        return StructType([StructField("value", schema)])
    raise PySparkTypeError(errorClass="NOT_STR_OR_STRUCT",
                           messageParameters={"arg_name": "schema",
                                              "arg_type": type(schema).__name__})


def _engine_name(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) else "`" + name.replace("`", "``") + "`"


def _engine_type(dt: DataType, where: str) -> str:
    """A type in the engine's DDL: its scalar names, ``struct<a: int>``, ``array<long>``,
    ``map<string, int>`` (an array's containsNull and a map's valueContainsNull are not kept:
    Spark's DDL has no words for them either)."""
    if isinstance(dt, StructType):
        return "struct<" + ", ".join(
            f"{_engine_name(f.name)}: {_engine_type(f.dataType, where)}" + ("" if f.nullable else " NOT NULL")
            for f in dt.fields) + ">"
    if isinstance(dt, ArrayType):
        return f"array<{_engine_type(dt.elementType, where)}>"
    if isinstance(dt, MapType):
        return f"map<{_engine_type(dt.keyType, where)}, {_engine_type(dt.valueType, where)}>"
    engine = getattr(dt, "_engine", None)
    if engine is None:
        raise PySparkTypeError(
            errorClass="UNSUPPORTED_DATA_TYPE",
            messageParameters={"data_type": f"{where} {dt.simpleString()} (streamsim stores boolean, "
                               "int, long, double, string, timestamp, date, binary, and structs, arrays and maps of them)"})
    return engine


def toEngineDDL(schema: Union[StructType, DataType, str]) -> str:
    """The schema in streamsim's engine DDL ("count int, name string, s struct<a: int>")."""
    if isinstance(schema, str):
        return _engine_ddl_of_string(schema)
    return _engine_ddl(toStructType(schema))


@functools.lru_cache(maxsize=1024)
def _engine_ddl_of_string(schema: str) -> str:
    # A DDL string's engine DDL, parsed once: a processor's init() names its state schemas on
    # every task (each partition of each batch), and the parse was a fifth of a Python count's
    # sweep (cProfile). A string that does not parse raises each time (errors are not cached).
    return _engine_ddl(toStructType(schema))


def _engine_ddl(schema: StructType) -> str:
    return ", ".join(f"{_engine_name(f.name)} {_engine_type(f.dataType, f.name)}"
                     + ("" if f.nullable else " NOT NULL") for f in schema.fields)


class Row(tuple):
    """A row: a tuple whose values may have names. ``Row(id="a", count=3)`` names its fields (in
    the order given); ``Row("id", "count")`` makes a row class called like ``R("a", 3)``."""

    def __new__(cls, *args: Any, **kwargs: Any) -> "Row":
        if args and kwargs:
            raise PySparkValueError(errorClass="CANNOT_SET_TOGETHER",
                                    messageParameters={"arg_list": "args and kwargs"})
        if kwargs:
            named = _row_class(kwargs) if cls is Row else None
            if named is not None:
                return tuple.__new__(named, kwargs.values())
            row = tuple.__new__(cls, list(kwargs.values()))
            row.__fields__ = list(kwargs.keys())
            return row
        return tuple.__new__(cls, args)

    def asDict(self, recursive: bool = False) -> Dict[str, Any]:
        if not hasattr(self, "__fields__"):
            raise PySparkTypeError(errorClass="CANNOT_CONVERT_TYPE",
                                   messageParameters={"from_type": "Row without field names",
                                                      "to_type": "dict"})
        out = dict(zip(self.__fields__, self))
        if recursive:
            out = {k: v.asDict(True) if isinstance(v, Row) else v for k, v in out.items()}
        return out

    def __contains__(self, item: Any) -> bool:
        if hasattr(self, "__fields__"):
            return item in self.__fields__
        return tuple.__contains__(self, item)

    def __call__(self, *args: Any) -> "Row":
        """A row class (``Row("a", "b")``) called with values makes a named row."""
        if len(args) > len(self):
            raise PySparkValueError(errorClass="TOO_MANY_VALUES",
                                    messageParameters={"expected": str(len(self)),
                                                       "item": "fields", "actual": str(len(args))})
        return _create_row(list(self), args)

    def __getitem__(self, item: Any) -> Any:
        if isinstance(item, (int, slice)):
            return tuple.__getitem__(self, item)
        try:
            idx = self.__fields__.index(item)
        except (AttributeError, ValueError):
            raise PySparkValueError(errorClass="KEY_NOT_EXISTS", messageParameters={"key": str(item)})
        return tuple.__getitem__(self, idx)

    def __getattr__(self, item: str) -> Any:
        if item.startswith("__"):
            raise AttributeError(item)
        try:
            idx = self.__fields__.index(item)
        except (AttributeError, ValueError):
            raise AttributeError(item)
        return tuple.__getitem__(self, idx)

    def __setattr__(self, key: str, value: Any) -> None:
        if key != "__fields__":
            raise PySparkRuntimeError(errorClass="READ_ONLY", messageParameters={"object": "Row"})
        self.__dict__[key] = value

    def __reduce__(self) -> Any:
        if hasattr(self, "__fields__"):
            return (_create_row, (self.__fields__, tuple(self)))
        return tuple.__reduce__(self)

    def __repr__(self) -> str:
        if hasattr(self, "__fields__"):
            return "Row(" + ", ".join(f"{k}={v!r}" for k, v in zip(self.__fields__, self)) + ")"
        return "<Row(" + ", ".join(repr(v) for v in self) + ")>"


from pyspark.errors import PySparkRuntimeError  # noqa: E402


# Named rows are instances of a Row subclass per tuple of names that holds the names as a class
# attribute (``__fields__``, one list shared by the rows, which are read-only): a row then costs a
# tuple, not a tuple and a dict. Still a Row (isinstance, repr, asDict, pickling by names and
# values); the classes are kept for the first _MAX_ROW_CLASSES name tuples seen.
_ROW_CLASSES: Dict[Tuple[Any, ...], type] = {}
_MAX_ROW_CLASSES = 4096


def _row_class(fields: Any) -> Optional[type]:
    """The Row class of rows named ``fields`` (None when the names cannot key a class)."""
    try:
        key = tuple(fields)
        cls = _ROW_CLASSES.get(key)
    except TypeError:  # unhashable names
        return None
    if cls is None:
        if len(_ROW_CLASSES) >= _MAX_ROW_CLASSES:
            return None
        cls = type(Row)("Row", (Row,), {"__slots__": (), "__fields__": list(key),
                                        "__module__": Row.__module__, "__qualname__": "Row"})
        _ROW_CLASSES[key] = cls
    return cls


def _install_native_row_new() -> None:
    """Inside streamsim, Row(...) is built by the engine's module (the same rows, without a
    Python frame per row); outside it this Python __new__ stays."""
    try:
        import _streamsim_native
    except ImportError:
        return
    python_new = Row.__dict__["__new__"].__func__
    Row.__new__ = staticmethod(_streamsim_native.row_new(Row, _ROW_CLASSES, _row_class, python_new))


def _create_row(fields: List[str], values: Tuple[Any, ...]) -> Row:
    """A named row."""
    cls = _row_class(fields)
    if cls is not None:
        return tuple.__new__(cls, values)
    row = tuple.__new__(Row, values)
    row.__dict__["__fields__"] = fields
    return row


__all__ = [
    "DataType", "NullType", "StringType", "BooleanType", "ByteType", "ShortType", "IntegerType",
    "LongType", "FloatType", "DoubleType", "TimestampType", "TimestampNTZType", "DateType",
    "BinaryType", "DecimalType", "ArrayType", "MapType", "StructField", "StructType", "Row",
]


_install_native_row_new()
