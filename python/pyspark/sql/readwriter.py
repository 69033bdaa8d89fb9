"""pyspark.sql's batch reader and writer for streamsim: ``spark.read.table(name)`` /
``.format("json").schema(s).load(path)`` and ``df.write.mode(m).saveAsTable(name)`` on the
world's catalog (tables are JSON-lines files in the world's simulated filesystem, so a later
``spark.readStream.table(name)`` streams them through the file source)."""

from typing import Any, Dict, Optional

from pyspark.errors import PySparkValueError

__all__ = ["DataFrameReader", "DataFrameWriter"]


class DataFrameReader:
    def __init__(self, session: Any) -> None:
        self._session = session
        self._format = "parquet"
        self._schema: Any = None
        self._options: Dict[str, str] = {}

    def format(self, source: str) -> "DataFrameReader":
        self._format = source.lower()
        return self

    def schema(self, schema: Any) -> "DataFrameReader":
        self._schema = schema
        return self

    def option(self, key: str, value: Any) -> "DataFrameReader":
        self._options[key] = str(value)
        return self

    def options(self, **options: Any) -> "DataFrameReader":
        for k, v in options.items():
            self.option(k, v)
        return self

    def table(self, tableName: str) -> Any:
        return self._session.table(tableName)

    def load(self, path: Optional[str] = None, format: Optional[str] = None, schema: Any = None,
             **options: Any) -> Any:
        if format:
            self._format = format.lower()
        if schema is not None:
            self._schema = schema
        self.options(**options)
        from pyspark.sql import _external
        if _external.is_external(self._format):
            return self._session._batch_df(_external.read(self._session, self._format,
                                                          dict(self._options, **({"path": path} if path else {}))))
        if path is None:
            raise PySparkValueError("load() needs a path", errorClass="INVALID_ARGUMENT")
        if self._format == "delta":
            from pyspark.sql import _delta
            return self._session._batch_df(_delta.DeltaLog(self._session._world, path).rows())
        if self._format == "parquet":
            # Parquet files (engine io/parquet.h): a file sink's folder (the files its
            # _spark_metadata log committed), a folder of files or one file, with the given
            # schema (columns matched by name) or the files' own.
            return self._session._catalog.read_parquet(path, self._schema)
        if self._format in ("csv", "text"):
            return self._csv_or_text(path)
        if self._format != "json":
            raise NotImplementedError(f"spark.read.format({self._format!r}) is not built in "
                                      "streamsim (json, csv and text files, delta and tables only); "
                                      "see docs/python.md")
        return self._session._catalog.read_json_folder(path, self._schema, self._options)

    def jdbc(self, url: str, table: str, properties: Optional[Dict[str, str]] = None, **kwargs: Any) -> Any:
        """A JDBC table: the simulated table a write with the same url and table filled."""
        return self.format("jdbc").options(**(properties or {})).option("url", url) \
            .option("dbtable", table).load()

    def parquet(self, *paths: str, **options: Any) -> Any:
        if len(paths) != 1:
            raise NotImplementedError("spark.read.parquet of several paths is not built in streamsim")
        return self.load(paths[0], "parquet", **options)

    def json(self, path: str, schema: Any = None, **options: Any) -> Any:
        return self.load(path, "json", schema, **options)

    def csv(self, path: str, schema: Any = None, **options: Any) -> Any:
        """spark.read.csv with a schema (schema inference is not built): the engine's CSV reader
        (io/csv_rows.h) over the folder's files, options as Spark's CSV options."""
        return self.load(path, "csv", schema, **{k: v for k, v in options.items() if v is not None})

    def text(self, paths: str, wholetext: bool = False, lineSep: Optional[str] = None,
             **options: Any) -> Any:
        if lineSep is not None:
            raise NotImplementedError("spark.read.text(lineSep=...) is not built in streamsim; see "
                                      "docs/python.md")
        return self.load(paths, "text", None, wholetext=wholetext,
                         **{k: v for k, v in options.items() if v is not None})

    def _csv_or_text(self, path: str) -> Any:
        from pyspark.sql import _batch
        from pyspark.sql.types import StructType, toEngineDDL
        schema = self._schema
        if self._format == "text":
            schema = schema or "value string"
        elif schema is None:
            raise NotImplementedError("spark.read.csv without a schema (inferSchema and the header's "
                                      "names) is not built in streamsim; give .schema(...). See "
                                      "docs/python.md")
        st = schema if isinstance(schema, StructType) else StructType.fromDDL(schema)
        opts = {k: (str(v).lower() if isinstance(v, bool) else str(v)) for k, v in self._options.items()}
        ddl, rows = self._session._world._native.read_format_files(path, self._format, toEngineDDL(st), opts)
        return self._session._batch_df(_batch.Rel(StructType.fromDDL(ddl), [tuple(r) for r in rows]))

    def delta(self, path: str) -> Any:
        return self.load(path, "delta")


class DataFrameWriter:
    def __init__(self, df: Any) -> None:
        self._df = df
        self._mode = "errorifexists"
        self._format: Optional[str] = None
        self._options: Dict[str, str] = {}

    def mode(self, saveMode: Optional[str]) -> "DataFrameWriter":
        m = (saveMode or "errorifexists").lower()
        if m == "default":
            m = "errorifexists"
        if m not in ("append", "overwrite", "error", "errorifexists", "ignore"):
            raise PySparkValueError(f"Unknown save mode: {saveMode}. Accepted save modes are "
                                    "'overwrite', 'append', 'ignore', 'error', 'errorifexists', "
                                    "'default'.", errorClass="INVALID_SAVE_MODE")
        self._mode = "errorifexists" if m == "error" else m
        return self

    def format(self, source: str) -> "DataFrameWriter":
        self._format = source.lower()
        return self

    def option(self, key: str, value: Any) -> "DataFrameWriter":
        self._options[key] = str(value)
        return self

    def options(self, **options: Any) -> "DataFrameWriter":
        for k, v in options.items():
            self.option(k, v)
        return self

    def saveAsTable(self, name: str, format: Optional[str] = None, mode: Optional[str] = None,
                    partitionBy: Any = None, **options: Any) -> None:
        if mode is not None:
            self.mode(mode)
        if partitionBy:
            raise NotImplementedError("saveAsTable(partitionBy=...) is not built in streamsim; "
                                      "see docs/python.md")
        if format is not None:
            self.format(format)
        self.options(**options)
        catalog = self._df.sparkSession._catalog
        if self._format == "delta":
            catalog.save_delta(name, None, self._df._rel, self._mode, self._options)
        elif self._format in (None, "json", "parquet"):
            catalog.save_table(name, self._df._rel, self._mode)
        else:
            raise NotImplementedError(f"saveAsTable with format({self._format!r}) is not built in "
                                      "streamsim (delta and the catalog's own tables are); see docs/python.md")

    def jdbc(self, url: str, table: str, mode: Optional[str] = None,
             properties: Optional[Dict[str, str]] = None) -> None:
        """A JDBC table: a simulated table (pyspark/sql/_external.py)."""
        if mode is not None:
            self.mode(mode)
        self.format("jdbc").options(**(properties or {})).option("url", url).option("dbtable", table)
        self.save()

    def partitionBy(self, *cols: Any) -> "DataFrameWriter":
        raise NotImplementedError("DataFrameWriter.partitionBy is not built in streamsim; see docs/python.md")

    def insertInto(self, tableName: str, overwrite: Optional[bool] = None) -> None:
        raise NotImplementedError("DataFrameWriter.insertInto is not built in streamsim; "
                                  "saveAsTable is. See docs/python.md")

    def save(self, path: Optional[str] = None, format: Optional[str] = None, mode: Optional[str] = None,
             **options: Any) -> None:
        if format is not None:
            self.format(format)
        if mode is not None:
            self.mode(mode)
        self.options(**options)
        from pyspark.sql import _external
        if self._format is not None and _external.is_external(self._format):
            opts = dict(self._options, **({"path": path} if path else {}))
            _external.write(self._df.sparkSession, self._format, opts, self._df._rel, self._mode)
            return
        path = path or self._options.pop("path", None)
        fmt = self._format or self._df.sparkSession.conf.get("spark.sql.sources.default", "parquet")
        if not path:
            raise PySparkValueError("save() needs a path", errorClass="INVALID_ARGUMENT")
        if fmt == "delta":
            self._df.sparkSession._catalog.save_delta(None, path, self._df._rel, self._mode, self._options)
        elif fmt in ("json", "csv", "text", "parquet"):
            self._save_files(fmt, path)
        else:
            raise NotImplementedError(f"DataFrameWriter.save with format({fmt!r}) is not built in "
                                      "streamsim; see docs/python.md")

    def _save_files(self, fmt: str, path: str) -> None:
        """A batch written as files (FileFormatWriter with one task: one part file and _SUCCESS,
        by the engine's writers: io/file_sink.h encodeDataFile), Spark's save modes on the folder."""
        from pyspark.errors import AnalysisException
        from pyspark.sql import _batch
        session = self._df.sparkSession
        native = session._world._native
        exists = bool(native.list_files(path))
        if exists and self._mode == "errorifexists":
            raise AnalysisException(f"[PATH_ALREADY_EXISTS] Path {path} already exists. Set mode as "
                                    "\"overwrite\" to overwrite the existing path.",
                                    errorClass="PATH_ALREADY_EXISTS", messageParameters={"outputPath": path})
        if exists and self._mode == "ignore":
            return
        if exists and self._mode == "overwrite":
            native.remove_all(path)
        opts = {k: (str(v).lower() if isinstance(v, bool) else str(v)) for k, v in self._options.items()}
        codec = "none"
        if fmt == "parquet":
            codec = (opts.pop("compression", None) or opts.pop("codec", None)
                     or session.conf.get("spark.sql.parquet.compression.codec", "snappy")).lower()
        elif opts.pop("compression", "none").lower() not in ("none", "uncompressed"):
            raise NotImplementedError(f"the {fmt} writer's compression is not built in streamsim "
                                      "(uncompressed files are); see docs/python.md")
        if fmt != "csv" and opts:  # the CSV writer checks its own options (io/csv_rows.h)
            raise NotImplementedError(f"the {fmt} writer's options {sorted(opts)} are not built in "
                                      "streamsim; see docs/python.md")
        rel = self._df._rel
        try:
            native.write_format_file(path, fmt, rel.ddl(), rel.rows, opts, codec)
        except (ValueError, RuntimeError) as e:
            raise _batch._python_exception(e) from None

    def parquet(self, path: str, mode: Optional[str] = None, partitionBy: Any = None,
                compression: Optional[str] = None) -> None:
        self._file_shortcut("parquet", path, mode, partitionBy, compression=compression)

    def json(self, path: str, mode: Optional[str] = None, compression: Optional[str] = None,
             **options: Any) -> None:
        self._file_shortcut("json", path, mode, None, compression=compression, **options)

    def csv(self, path: str, mode: Optional[str] = None, compression: Optional[str] = None,
            **options: Any) -> None:
        self._file_shortcut("csv", path, mode, None, compression=compression, **options)

    def text(self, path: str, compression: Optional[str] = None, lineSep: Optional[str] = None) -> None:
        if lineSep is not None:
            raise NotImplementedError("DataFrameWriter.text(lineSep=...) is not built in streamsim; "
                                      "see docs/python.md")
        self._file_shortcut("text", path, None, None, compression=compression)

    def _file_shortcut(self, fmt: str, path: str, mode: Optional[str], partitionBy: Any,
                       **options: Any) -> None:
        if partitionBy:
            raise NotImplementedError(f"DataFrameWriter.{fmt}(partitionBy=...) is not built in "
                                      "streamsim; see docs/python.md")
        self.format(fmt)
        if mode is not None:
            self.mode(mode)
        self.options(**{k: v for k, v in options.items() if v is not None})
        self.save(path)
