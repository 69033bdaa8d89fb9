"""streamsim.run / streamsim.sweep: the CLI's run and sweep of scenario files, from Python."""

from typing import Any, Dict

from streamsim._isolation import shim


def run(path: str, seed: int = 0) -> Dict[str, Any]:
    """Runs a scenario file (or several, a folder) once: {"passed", "exit_code", "output"}."""
    import _streamsim_native
    with shim():
        return _streamsim_native.run(str(path), seed)


def sweep(path: str, seeds: int = 0, jobs: int = 1, first_seed: int = 0) -> Dict[str, Any]:
    """Sweeps a scenario file or folder over ``seeds`` fault plans: {"passed", "exit_code",
    "output", "report"} where report is the sweep's JSON report as Python objects."""
    import _streamsim_native
    with shim():
        return _streamsim_native.sweep(str(path), seeds, jobs, first_seed)


def sweep_processor(path: str, class_name: str, seeds: int = 50,
                    oracles: Any = None,
                    output_schema: str = "key string, count long", time_mode: str = "None",
                    jobs: int = 1) -> Dict[str, Any]:
    """Sweeps a Python processor file over generated workloads: landing files of events
    ``event_id string, key string, event_time timestamp, value long`` grouped by ``key``, under
    seeded crashes and task failures, checked by ``oracles`` (``batch_split``: the same events in
    one batch must end with the same row per key; this is what catches per-key data kept in
    ``self``). By default ``exactly_once``, plus ``batch_split`` when ``output_schema`` has the
    grouping column ``key`` (batch_split matches rows by it; naming it for an output without
    that column is an error). Returns {"passed", "exit_code", "failures", "summary", "report"}: the
    sweep of the generated scenario as ``sweep`` reports a file's ("report" its JSON report:
    "results" per seed with "replay" and, when shrunk, "shrunkTraceHash"; "totals")."""
    import _streamsim_native
    with shim():
        if oracles is None:
            from pyspark.sql.types import StructType
            names = StructType.fromDDL(output_schema).fieldNames()
            oracles = ("exactly_once", "batch_split") if "key" in names else ("exactly_once",)
        return _streamsim_native.sweep_processor(str(path), class_name, seeds, list(oracles),
                                                 output_schema, time_mode, jobs)
