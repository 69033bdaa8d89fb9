"""streamsim's pytest plugin (registered by the package's ``pytest11`` entry point; in a checkout,
``pytest -p streamsim.pytest_plugin``).

The ``streamsim_world`` fixture gives each test a fresh simulated World (streamsim.world): its
filesystem, Kafka-like topics and virtual clock, with ``world.spark`` a SparkSession on them. For
the test's length ``import pyspark`` gives streamsim's pyspark (streamsim/_isolation.py), so a
real PySpark installed beside streamsim serves every other test unchanged; with one installed,
import the job's module inside the test (``import my_job`` in the test function), not at the top
of the test file, where ``pyspark`` is the real one.

``--streamsim-seeds N`` sweeps every test marked ``@pytest.mark.streamsim`` (it takes the fixture
and starts its job with ``streamsim_world.run_job(main)``) under N seeded fault plans
(streamsim/_job_sweep.py: crashes where the fault-free run went, task failures; the test's own
assertions and the exactly_once and determinism oracles); a failure is shrunk and reported with a
line that reruns exactly that seed (``--streamsim-seed S --streamsim-plan '...'``). The marker
names the opt-in oracles: ``@pytest.mark.streamsim(batch_split=["user"], producer_clock=True)``
(streamsim/_job_variants.py).
``--streamsim-shard i/n`` takes every n-th seed from the i-th (1-based).
"""

import os
import shlex
import sys
from typing import Any, Iterator, List, Optional

import pytest

from streamsim._isolation import shim


def pytest_addoption(parser: Any) -> None:
    g = parser.getgroup("streamsim", "streamsim: sweeps of PySpark job tests under fault plans")
    g.addoption("--streamsim-seeds", type=int, default=0, metavar="N",
                help="sweep each test marked streamsim over N seeded fault plans")
    g.addoption("--streamsim-first-seed", type=int, default=1, metavar="S",
                help="the first seed of --streamsim-seeds (default 1)")
    g.addoption("--streamsim-seed", type=int, default=None, metavar="S",
                help="run one seed (with --streamsim-plan: that plan, as a failure's line prints it)")
    g.addoption("--streamsim-plan", default=None, metavar="JSON",
                help="the fault plan of --streamsim-seed (docs/faults.md's JSON)")
    g.addoption("--streamsim-shard", default=None, metavar="i/n",
                help="run every n-th seed from the i-th (1-based), for CI shards")


def _shard(text: Optional[str]) -> tuple:
    if text is None:
        return (1, 1)
    try:
        i, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise pytest.UsageError(f"--streamsim-shard {text!r}: expected i/n, e.g. 2/4") from None
    if not (n >= 1 and 1 <= i <= n):
        raise pytest.UsageError(f"--streamsim-shard {text!r}: i must be in 1..n")
    return (i, n)


def pytest_configure(config: Any) -> None:
    config.addinivalue_line(
        "markers", "streamsim: a test of a PySpark job run in streamsim's simulated world")
    opt = config.option
    if opt.streamsim_plan is not None and opt.streamsim_seed is None:
        raise pytest.UsageError("--streamsim-plan needs --streamsim-seed")
    if opt.streamsim_seeds < 0:
        raise pytest.UsageError("--streamsim-seeds must be >= 0")
    config._streamsim_shard = _shard(opt.streamsim_shard)
    config._streamsim_totals: List[str] = []


def _seeds(config: Any) -> Optional[List[int]]:
    opt = config.option
    if opt.streamsim_seed is not None:
        return [opt.streamsim_seed]
    if opt.streamsim_seeds == 0:
        return None
    i, n = config._streamsim_shard
    first = opt.streamsim_first_seed
    return [s for s in range(first, first + opt.streamsim_seeds) if (s - first) % n == i - 1]


def _rerun_line(item: Any, seed: int, plan: str) -> str:
    """A shell line that reruns exactly this seed of this test, from where pytest ran."""
    config = item.config
    env = []
    start = str(config.invocation_params.dir)
    for var in ("PYTHONPATH", "PYTHONHASHSEED"):
        value = os.environ.get(var)
        if value is None:
            continue
        if var == "PYTHONPATH":  # absolute: the line runs from the rootdir
            value = os.pathsep.join(os.path.join(start, p) if p else p for p in value.split(os.pathsep))
        env.append(f"{var}={shlex.quote(value)}")
    words = [sys.executable, "-m", "pytest"]
    if "streamsim.pytest_plugin" in (getattr(config.option, "plugins", None) or []):
        words += ["-p", "streamsim.pytest_plugin"]
    words += ["-p", "no:cacheprovider", item.nodeid, "--streamsim-seed", str(seed),
              "--streamsim-plan", plan]
    return f"cd {shlex.quote(str(config.rootpath))} && " + \
        " ".join(env + [shlex.quote(w) for w in words])


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: Any) -> Optional[bool]:
    seeds = _seeds(pyfuncitem.config)
    if seeds is None or pyfuncitem.get_closest_marker("streamsim") is None:
        return None
    if "streamsim_world" not in pyfuncitem.fixturenames:
        pytest.fail("streamsim: a test marked streamsim is swept in the streamsim_world fixture's "
                    "worlds: take it as an argument", pytrace=False)
    from streamsim import _job_sweep, _job_variants
    try:
        oracles = _job_variants.requested(pyfuncitem.get_closest_marker("streamsim").kwargs)
    except ValueError as e:
        pytest.fail(f"streamsim: {e}", pytrace=False)
    args = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}

    def call(world: Any) -> None:
        pyfuncitem.obj(**dict(args, streamsim_world=world))

    with shim():
        r = _job_sweep.sweep(call, seeds, lambda seed, plan: _rerun_line(pyfuncitem, seed, plan),
                             plan=pyfuncitem.config.option.streamsim_plan, oracles=oracles)
    pyfuncitem.config._streamsim_totals.append(
        f"{'PASS' if not r.failed else 'FAIL'} {pyfuncitem.nodeid}: {r.seeds} seeds, {r.failed} failed; "
        f"{r.fired} of {r.planned} planned faults fired, {r.crashes} crashes")
    if r.failed:
        pytest.fail(f"streamsim: {r.report}", pytrace=False)
    return True


def pytest_terminal_summary(terminalreporter: Any, config: Any) -> None:
    totals = getattr(config, "_streamsim_totals", [])
    if totals:
        terminalreporter.section("streamsim sweeps")
        for line in totals:
            terminalreporter.write_line(line)


@pytest.fixture
def streamsim_world() -> Iterator["object"]:
    """A fresh World (seed 0), closed after the test; streamsim's pyspark meanwhile."""
    with shim():
        from streamsim.world import World
        world = World()
        try:
            yield world
        finally:
            world.close()
