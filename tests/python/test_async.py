# Async Python processors (AsyncStatefulProcessor, seed 000) on the engine's async runtime:
# every awaited operation on both state stores, timers, initial state, outside services and
# sleeps in virtual time, state-operation errors the processor never sees, and the planted
# shared-member race caught by the interleaving oracle (shrunk, with a replay line).
import asyncio
import os
import re
import subprocess
import time

import pytest

import streamsim
from streamsim.pyspark import TwsTester
from pyspark.sql import Row

import async_processors as ap
from conftest import SOURCE_DIR

SCENARIOS = os.path.join(SOURCE_DIR, "tests", "python", "scenarios")
SEEDS = os.path.join(SOURCE_DIR, "scenarios", "seeds", "python")


@pytest.mark.parametrize("store", ["memory", "rocksdb"])
def test_every_awaited_operation_on_both_stores(store):
    tester = TwsTester(ap.AllOpsProcessor(), timeMode="ProcessingTime", stateStore=store)
    [row] = tester.test("k", [Row(x=1)])
    assert row.log == (
        "v.exists=False; v.get=None; v.exists=True v.get=(5,); v.exists=False; "
        "l.exists=False; l.get=1,2,3,4,5; l.exists=False; "
        # MapState.getValue is the named Row (as the sync API: PySpark's MapStateClient.get_value).
        "m.getValue=Row(n=1) m.containsKey=False; m.iterator=a:1,b:2; m.keys=a,b; m.values=1,2; "
        "gather=[Row(n=1), Row(n=2)]; m.keys=b; m.exists=False; timers=2000")
    assert tester.listTimers("k") == [2000]
    assert tester.advanceProcessingTime(2000) == [Row(key="k", log="timer 2000")]
    assert tester.listTimers("k") == []


def test_initial_state_and_counts_across_batches():
    tester = TwsTester(ap.CountWithInitialState(), initialStateRow=[("a", Row(initial_count=10))])
    assert tester.peekValueState("count", "a") == (10,)
    assert tester.test("a", [Row(v=1), Row(v=2)]) == [Row(key="a", count=12)]
    assert tester.test("b", [Row(v=1)]) == [Row(key="b", count=1)]


def test_a_state_operation_awaited_outside_the_handlers_is_an_error():
    ap.STASHED.clear()
    tester = TwsTester(ap.StashesItsState())
    assert tester.test("a", [Row(v=1)]) == [Row(key="a", count=1)]
    count, call_context = ap.STASHED[0], ap.STASHED[-1]

    async def outside():
        return await count.get()

    with pytest.raises(RuntimeError, match="awaited outside the handlers streamsim runs"):
        asyncio.run(outside())  # another event loop, not a handler call's
    pending = count.get()
    with pytest.raises(RuntimeError, match="awaited outside the handlers streamsim runs"):
        pending.send(None)  # stepped by hand: no event loop at all
    pending = count.get()
    with pytest.raises(RuntimeError, match="awaited outside the handlers streamsim runs"):
        call_context.run(pending.send, None)  # in a call's context, after the call
    assert tester.test("a", [Row(v=2)]) == [Row(key="a", count=2)]  # the state is untouched


def test_gather_overlaps_the_service_calls_in_virtual_time():
    services = [{"name": "scoring", "latencyMs": 10}]
    rows = [Row(event_id=f"e{i}") for i in range(4)]
    [g] = TwsTester(ap.ScoreTiming(), services=services).test("u", rows)
    [s] = TwsTester(ap.SequentialScoreTiming(), services=services).test("u", rows)
    assert g.score == s.score  # the same replies
    assert g.elapsed_ms == 10  # four calls at once
    assert s.elapsed_ms == 40  # one after the other


def test_sleep_wait_for_and_timeout_run_in_virtual_time():
    tester = TwsTester(ap.SleepProcessor(), services=[{"name": "slow", "latencyMs": 2000}])
    started = time.monotonic()
    [row] = tester.test("k", [Row(x=1)])
    assert time.monotonic() - started < 30  # an hour of virtual time is not waited for
    assert row.slept_ms == 3_600_000
    assert row.outcome == "timed out" and row.waited_ms == 500
    assert row.second == "timed out" and row.total_ms == 3_600_000 + 500 + 250


def test_a_state_operation_error_fails_the_batch_and_never_reaches_the_processor():
    ap.CAUGHT.clear()
    tester = TwsTester(ap.SwallowsStateErrors())
    with pytest.raises(Exception, match="EMPTY_LIST|empty"):
        tester.test("k", [Row(x=1)])
    assert ap.CAUGHT == []


def test_a_python_exception_in_an_async_handler_is_raised_with_its_rows_rolled_back():
    tester = TwsTester(ap.RaisesInHandler())
    with pytest.raises(ValueError, match="boom in an async handler"):
        tester.test("k", [Row(x=1)])
    assert tester.peekValueState("v", "k") is None


def test_a_task_left_running_when_the_handler_returns_is_reported():
    tester = TwsTester(ap.ForgetsATask())
    with pytest.raises(Exception, match="ASYNC_TASK_NOT_AWAITED|still running"):
        tester.test("k", [Row(x=1)])


def test_the_seed_async_count_and_score_scenarios_run():
    for name in ("async_count_open_close.yaml", "score_gather.yaml", "score_gather_batch_time.yaml",
                 "score_sequential_batch_time.yaml"):
        r = streamsim.run(os.path.join(SEEDS, name))
        assert r["passed"], r["output"]


def _line(text, prefix):
    m = re.search(re.escape(prefix) + "(.*)$", text, re.M)
    return m.group(1) if m else ""


def test_the_shared_member_race_is_caught_by_interleaving_shrunk_with_a_replay_line():
    path = os.path.join(SCENARIOS, "async_race.yaml")
    assert streamsim.run(path)["passed"]  # the sequential order is correct
    r = streamsim.sweep(path, seeds=30)
    assert not r["passed"], r["output"]
    out = r["output"]
    assert "interleaving" in out, out
    shrunk = _line(out, "shrunk to:  ")
    assert shrunk.count('"type"') == 1 and shrunk.count('"type":"switch"') == 1, out
    assert "ValueState 'count'.get()" in out, out  # the switch names where the key waited
    replay = _line(out, "  replay: ").strip()
    assert replay, out
    again = subprocess.run(replay, shell=True, capture_output=True, text=True)  # as printed
    assert again.returncode == 1, again.stdout + again.stderr
    assert "interleaving" in again.stdout + again.stderr


def test_the_race_free_twin_passes_the_same_sweep():
    r = streamsim.sweep(os.path.join(SCENARIOS, "async_race_fixed.yaml"), seeds=30)
    assert r["passed"], r["output"]


def test_an_asyncio_lock_in_self_is_shared_by_the_keys_of_a_task(tmp_path):
    # One event loop per partition task: a key waits for the lock another key holds across its
    # awaits, is woken when it is released, and the interleaving sweep finds nothing.
    path = os.path.join(SCENARIOS, "async_lock_in_self.yaml")
    r = streamsim.sweep(path, seeds=30)
    assert r["passed"], r["output"]
    assert "tws.switch" in r["output"], r["output"]
    # The same sweep with a processor that fails once a key got the lock after waiting for it:
    # the schedules do make keys wait, and the waits end.
    probe = tmp_path / "lock_probe.yaml"
    probe.write_text(open(path).read().replace("class: LockedCountProcessor", "class: LockWaitProbe")
                     .replace("python: processors/async_race.py",
                              "python: " + os.path.join(SCENARIOS, "processors", "async_race.py")))
    r = streamsim.sweep(str(probe), seeds=30)
    assert not r["passed"], r["output"]
    assert "waited for the lock and got it" in r["output"], r["output"]


def test_wait_for_timeouts_under_context_switches_equal_the_sequential_run():
    # A reply that came before its timeout is seen first even when a switch delayed the key;
    # an abandoned call never resumes a finished handler (engine/src/tws/async_runtime.cc).
    r = streamsim.sweep(os.path.join(SCENARIOS, "async_wait_for_timeouts.yaml"), seeds=150, jobs=2)
    assert r["passed"], r["output"]
    assert "tws.switch" in r["output"], r["output"]  # the sweep did switch keys


TRAPS = os.path.join(SCENARIOS, "processors", "async_traps.py")


def _one_batch(tmp_path, cls):
    scenario = tmp_path / f"{cls}.yaml"
    scenario.write_text(f"""
name: {cls}
query:
  source: {{kind: memory, schema: "key string"}}
  operators:
    - groupBy: [key]
      transformWithState: {{python: {TRAPS}, class: {cls}, outputStructType: "key string"}}
  sink: {{kind: memory}}
  outputMode: update
steps:
  - add_rows: [{{key: a}}, {{key: b}}]
  - run: available
  - expect: {{sink: [{{key: a}}, {{key: b}}]}}
""")
    r = streamsim.run(str(scenario))
    assert not r["passed"], r["output"]
    return r["output"]


def test_a_wall_clock_read_in_an_async_handler_is_reported_with_file_and_line(tmp_path):
    out = _one_batch(tmp_path, "ReadsTheClock")
    assert "read the wall clock" in out, out
    assert f"time.time() at {TRAPS}:13 in handleInputRows" in out, out


def test_a_python_exception_in_an_async_handler_names_its_file_and_line(tmp_path):
    out = _one_batch(tmp_path, "Raises")
    assert "KeyError: 'no such user'" in out, out
    assert f"at {TRAPS}:23 in handleInputRows" in out, out
    assert "_async.py" not in out, out  # streamsim's own frames are left out


def test_a_processor_declared_order_dependent_is_left_alone_by_interleaving(tmp_path):
    racy = open(os.path.join(SCENARIOS, "async_race.yaml")).read()
    declared = tmp_path / "declared.yaml"
    declared.write_text(racy.replace("class: RacyCountProcessor", "class: DeclaredOrderDependentCount")
                        .replace("python: processors/async_race.py",
                                 "python: " + os.path.join(SCENARIOS, "processors", "async_race.py")))
    r = streamsim.sweep(str(declared), seeds=30)
    assert r["passed"], r["output"]
    assert "tws.switch" in r["output"], r["output"]  # it was switched, just not compared


def test_the_virtual_clock_is_the_calls_not_a_process_wide_one():
    """A loop reads the virtual time from the clock the engine hands the call it serves
    (python_async.cc: VirtualClock); without one (outside a call streamsim runs) it is an error,
    and the module has no process-wide clock function left."""
    import _streamsim_native
    from streamsim._async import VirtualLoop
    assert not hasattr(_streamsim_native, "virtual_now_ms")
    with pytest.raises(RuntimeError, match="outside a handler call streamsim runs"):
        VirtualLoop().time()
