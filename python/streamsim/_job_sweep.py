"""Sweeps of a test function under seeded fault plans (the pytest plugin's ``--streamsim-seeds``;
docs/python.md "Sweeps of a test").

A swept test takes the ``streamsim_world`` fixture and starts its job with
``world.run_job(main)``. Its fault-free run is the reference: it records where the run went (the
fault points passed, per batch) and what the job's outputs hold. Each seed then runs the test in a
fresh World executing the seed's plan -- crashes of the driver at places the reference passed
(the job restarts on its checkpoint, as under a supervisor), from the harness's one plan
generator (`plan_for_seed`; no task failures by default: a World runs as Spark's local mode, whose
spark.task.maxFailures is 1, so one fails the query) -- and the test's own assertions hold, and the oracles:

- ``exactly_once``: every output the job writes ends as in the reference: a memory sink, a file
  sink (the files its log committed), a table, exactly; a Kafka topic at least once, as Spark's
  Kafka sink is (no record lost, none the reference never had: duplicates of a crashed batch's
  records are Spark's behaviour, not a bug);
- ``determinism``: the same seed run again writes the same outputs along the same trace;
- the opt-in oracles a test names on its marker (``batch_split``, ``producer_clock``), each a
  relation between the fault-free run and a variant run of the test (streamsim/_job_variants.py).

A run is judged against the fault-free run restarted where the run restarted cleanly
(``References``: the harness's one rule, harness/run/clean_restarts.h). The driver's own
randomness (``uuid.uuid4()``, ``random``) is drawn from the seed while the test runs.

A failing seed's plan is shrunk with the harness's one shrinker (``shrink_plan``) and a line to
rerun exactly that seed is printed.
"""

import collections
import contextlib
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterator, List, Optional, Set, Tuple

from streamsim.world import DriverCrashed, World

Outputs = Dict[str, collections.Counter]
AT_LEAST_ONCE = "kafka topic "  # Spark's Kafka sink is at least once


def _committed_rows(world: World, fmt: str, folder: str, options: Optional[Dict[str, str]] = None) -> List[str]:
    """The rows of the files a streaming file sink's log (_spark_metadata) committed, each as its
    JSON text (keys sorted)."""
    from streamsim._job_variants import committed_files, file_rows
    return [json.dumps(r, sort_keys=True, default=str)
            for f in sorted(committed_files(world, folder)) for r in file_rows(world, fmt, f, options)]


def outputs(world: World) -> Outputs:
    """What the job wrote, each output as a multiset of its rows or records."""
    out: Outputs = {}
    for topic in world._native.topics():
        out[AT_LEAST_ONCE + topic] = collections.Counter(
            (r["key"], r["value"]) for r in world.records(topic))
    catalog = world.spark._catalog
    for fmt, sink, name in world._sinks:
        if sink.get("kind") == "files":
            out[f"file sink {sink['path']}"] = collections.Counter(_committed_rows(world, fmt, sink["path"], sink.get("options")))
        elif sink.get("kind") == "memory" and name:
            rows = catalog.relation(name).rows
            out[f"memory table {name}"] = collections.Counter(tuple(r) for r in rows)
        elif sink.get("kind") == "delta":
            out[f"delta table {sink['path']}"] = _delta_rows(world, sink["path"])
    for key, table in getattr(catalog, "_tables", {}).items():
        if table.get("format") == "delta":
            out[f"delta table {table['path']}"] = _delta_rows(world, table["path"])
        else:
            out[f"table {key}"] = collections.Counter(tuple(r) for r in table["rows"])
    return out


def _delta_rows(world: World, path: str) -> "collections.Counter[Any]":
    """A Delta table stand-in's rows (pyspark/sql/_delta.py), none when it was never written."""
    from pyspark.sql import _delta
    log = _delta.DeltaLog(world, path)
    if not log.exists():
        return collections.Counter()
    return collections.Counter(tuple(r) for r in log.rows().rows)


def _show(item: Any) -> str:
    return repr(item) if not isinstance(item, tuple) else "(" + ", ".join(map(repr, item)) + ")"


def exactly_once(reference: Outputs, run: Outputs) -> Optional[str]:
    for name in sorted(set(reference) | set(run)):
        want, got = reference.get(name, collections.Counter()), run.get(name, collections.Counter())
        lost = want - got
        extra = got - want
        if name.startswith(AT_LEAST_ONCE):
            foreign = [r for r in extra if r not in want]
            if lost:
                return f"the {name} lost {_show(next(iter(lost)))}: the fault-free run has it ({sum(lost.values())} missing)"
            if foreign:
                return (f"the {name} shows {_show(foreign[0])}, which the fault-free run never "
                        f"wrote ({len(foreign)} such records)")
            continue
        if extra:
            r = next(iter(extra))
            what = "a duplicate: one more copy of" if r in want else "a row the fault-free run never wrote:"
            return (f"the {name} shows {what} {_show(r)} ({sum(extra.values())} rows extra, "
                    f"{sum(lost.values())} missing)")
        if lost:
            return f"the {name} lost {_show(next(iter(lost)))}: the fault-free run has it ({sum(lost.values())} missing)"
    return None


@dataclass
class Run:
    outputs: Outputs = field(default_factory=dict)
    error: Optional[str] = None       # the test's own failure (its exception)
    error_type: str = ""
    crashes: int = 0
    faults_fired: int = 0
    trace_hash: int = 0
    reach: List[Tuple[str, int, int]] = field(default_factory=list)
    partitions: int = 4
    same_restarts: str = ""           # its reference's plan (JobWorld.same_restarts_plan)
    rows: Dict[str, Any] = field(default_factory=dict)  # outputs in write order (_job_variants)
    cuts: int = 0                     # batches the batch_split variant's cut ran


@contextlib.contextmanager
def seeded_driver_randomness(seed: int) -> Iterator[None]:
    """The driver's own randomness (``uuid.uuid4()``, the ``random`` module) drawn from the run's
    seed while a test runs: a job that names a fresh checkpoint ``f"/tmp/checkpoint_{uuid4()}"``,
    as seed 001's do, runs along the same trace when its seed runs again (the determinism
    oracle), and each run still draws new values after a restart, as a cluster's driver does."""
    import random
    import uuid
    rng = random.Random(seed)
    saved_uuid4, saved_state = uuid.uuid4, random.getstate()
    uuid.uuid4 = lambda: uuid.UUID(int=rng.getrandbits(128), version=4)
    random.seed(seed)
    try:
        yield
    finally:
        uuid.uuid4 = saved_uuid4
        random.setstate(saved_state)


def run_once(call: Callable[[World], None], seed: int, plan: str = "", record_reach: bool = False,
             rows: bool = False, **variant: Any) -> Run:
    """The test in a fresh World (seed, plan, a variant's knobs); what it left (``rows``: its
    outputs in write order too)."""
    import traceback
    from streamsim._job_variants import ordered_rows
    world = World(seed=seed, plan=plan, record_reach=record_reach, **variant)
    r = Run()
    try:
        try:
            with seeded_driver_randomness(seed):
                call(world)
        except DriverCrashed:
            r.error_type = "DriverCrashed"
            r.error = ("the driver crashed at a fault point of the plan and nothing restarted the "
                       "job: start it with streamsim_world.run_job(main), which restarts it on "
                       "its checkpoint as a supervisor does")
        except Exception as e:  # the test's assertion, or the job's failure
            r.error_type = type(e).__name__
            r.error = "".join(traceback.format_exception_only(type(e), e)).strip()
        r.outputs = outputs(world)
        r.rows = ordered_rows(world) if rows else {}
        r.cuts = world.cuts
        r.crashes = world.crashes
        r.faults_fired = world._native.faults_fired()
        r.trace_hash = world._native.trace_hash()
        r.same_restarts = world._native.same_restarts_plan()
        r.reach = list(world._native.reach())
        try:
            r.partitions = int(world.spark.conf.get("spark.sql.shuffle.partitions"))
        except Exception:
            pass
    finally:
        world.close()
    return r


@dataclass
class Verdict:
    kinds: Set[str]
    message: str


def judge(reference: Run, run: Run, again: Optional[Run],
          variants: Optional[Dict[str, Tuple[Run, Any]]] = None) -> Optional[Verdict]:
    """``variants``: each opt-in oracle's variant run and the marker's value for it, judged
    against the test's fault-free run (the first ``reference`` of a sweep)."""
    from streamsim._job_variants import ORACLES
    kinds: Set[str] = set()
    lines: List[str] = []
    if run.error is not None:
        kinds.add("test " + run.error_type)
        lines.append(f"the test failed: {run.error}")
    v = exactly_once(reference.outputs, run.outputs)
    if v:
        kinds.add("oracle exactly_once")
        lines.append(f"exactly_once: {v}")
    if again is not None and (again.outputs != run.outputs or again.trace_hash != run.trace_hash):
        kinds.add("oracle determinism")
        diff = exactly_once(run.outputs, again.outputs) or "the same outputs along another trace"
        lines.append(f"determinism: the same seed and plan run again differed: {diff}")
    for name, (variant, value) in sorted((variants or {}).items()):
        v = ORACLES[name].check(variant.reference, variant, value)
        if v:
            kinds.add(f"oracle {name}")
            lines.append(f"{name}: {v}")
    return Verdict(kinds, "\n".join(lines)) if kinds else None


@dataclass
class SweepResult:
    seeds: int = 0
    failed: int = 0
    planned: int = 0
    fired: int = 0
    crashes: int = 0
    report: str = ""


class References:
    """The fault-free run a run is judged against: the test's fault-free run, restarted as the run
    restarted where that changes what a correct job writes (harness/run/clean_restarts.h, the
    harness's one rule: after a clean restart Spark runs no no-data batch until new data arrives,
    so a window the watermark closed may wait -- Spark's behaviour, not a loss). Each such
    reference runs once."""

    def __init__(self, call: Callable[[World], None], fault_free: Run) -> None:
        self.call, self.fault_free = call, fault_free
        self.runs: Dict[str, Run] = {}

    def of(self, run: Run) -> Run:
        plan = run.same_restarts
        if not plan or not json.loads(plan)["faults"]:
            return self.fault_free
        if plan not in self.runs:
            self.runs[plan] = run_once(self.call, seed=0, plan=plan)
        return self.runs[plan]


def run_variants(call: Callable[[World], None], seed: int, reference: Run,
                 oracles: Dict[str, Any]) -> Dict[str, Tuple[Run, Any]]:
    """Each opt-in oracle's variant run of the test for ``seed`` (without the seed's plan: the
    relation is checked on its own). The test's own assertions are not judged there: a variant
    changes what its steps see (other batches, other timestamps) on purpose."""
    from streamsim._job_variants import ORACLES
    out: Dict[str, Tuple[Run, Any]] = {}
    for name, value in oracles.items():
        o = ORACLES[name]
        v = run_once(call, seed, rows=o.needs_rows, **o.world_options(seed))
        v.reference = reference  # type: ignore[attr-defined]
        out[name] = (v, value)
    return out


def sweep(call: Callable[[World], None], seeds: List[int], rerun_line: Callable[[int, str], str],
          plan: Optional[str] = None, max_crashes: int = 1, task_failures: float = 0.0,
          oracles: Optional[Dict[str, Any]] = None) -> SweepResult:
    """Runs the test's reference, then each seed (or the one ``plan`` given); stops at the first
    failing seed, shrunk. ``oracles``: the opt-in ones the test's marker names, with their values."""
    import _streamsim_native as native
    oracles = oracles or {}
    result = SweepResult()
    reference = run_once(call, seed=0, record_reach=True, rows=bool(oracles))
    if reference.error is not None:
        result.failed = 1
        result.report = f"the fault-free run failed: {reference.error}"
        return result
    from streamsim._job_variants import ORACLES
    for name, value in oracles.items():
        misuse = ORACLES[name].usage(reference, value)
        if misuse:
            result.failed = 1
            result.report = misuse
            return result
    references = References(call, reference)
    batches = 1 + max((b for _, b, _ in reference.reach), default=0)
    for seed in seeds:
        seed_plan = plan if plan is not None else native.plan_for_seed(
            seed, reference.reach, max_crashes, task_failures, batches, reference.partitions)
        run = run_once(call, seed, seed_plan)
        again = run_once(call, seed, seed_plan)
        result.seeds += 1
        result.planned += len(json.loads(seed_plan)["faults"])
        result.fired += run.faults_fired
        result.crashes += run.crashes
        variants = run_variants(call, seed, reference, oracles)
        verdict = judge(references.of(run), run, again, variants)
        if verdict is None:
            continue
        result.failed += 1
        plan_kinds = verdict.kinds - {f"oracle {name}" for name in variants}

        def rerun(p: str) -> List[str]:
            """The kind of plan ``p``'s failure (empty: the test passed under it)."""
            if not plan_kinds:  # only a variant's relation failed: it runs without the plan
                return sorted(verdict.kinds)
            r = run_once(call, seed, p)
            v = judge(references.of(r), r,
                      run_once(call, seed, p) if "oracle determinism" in verdict.kinds else None)
            return sorted(v.kinds) if v is not None else []

        # The harness's one shrinker keeps the failure's kind (a key shared with plan_kinds).
        shrunk, runs = native.shrink_plan(seed_plan, sorted(plan_kinds or verdict.kinds), rerun, 60)
        faults = native.describe_plan(shrunk)
        result.report = "\n".join([
            f"seed {seed} failed:",
            *("  " + line for line in verdict.message.splitlines()),
            f"  fault plan: {seed_plan}",
            f"  shrunk to:  {shrunk} ({len(faults)} fault{'s' if len(faults) != 1 else ''}, {runs} shrink runs)",
            *(f"    {f}" for f in faults),
            *([f"  no fault is needed: the variant run of {', '.join(sorted(variants))} under seed "
               f"{seed} shows it on its own"] if not faults and not plan_kinds else []),
            *([f"  no fault is needed: under seed {seed} the job writes other rows than under the "
               "fault-free run's seed -- something in it draws new values each run (Spark's "
               "uuid(), rand() without a seed: their seed comes from the query run, which a "
               "restart and every batch it re-runs change too)"] if not faults and plan_kinds else []),
            f"  rerun: {rerun_line(seed, shrunk)}",
        ])
        return result
    return result
