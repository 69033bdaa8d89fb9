"""Workload 1 (count per key over JSON-lines files) with a Python count processor.

    build/python/streamsim-python python/bench/python_count_bench.py [--events N] [--keys K]

Prints events/s of the engine running python/bench/count_processor.py (the sync CountProcessor
and the async AsyncCountProcessor), of the engine running the C++ count processor, and the limit measured in the same run over the same input: a bare Python
loop counting the same rows (already parsed) into a dict; a loop that also parses the bytes
(json.loads) is shown beside it; and the processor's own handleInputRows over the same rows with
its state in a dict (no engine, no adapter). Target (issue 38): the engine run >= 60% of that
last one, the processor's own code being the ceiling (issue 17's >= 30% of the bare dict loop is
retired). A benchmark measures; nothing here is a test.
"""

import argparse
import json
import os
import time

import _streamsim_native

HERE = os.path.dirname(os.path.abspath(__file__))


def best_of(n, fn):
    best = None
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        seconds = time.perf_counter() - t0
        best = seconds if best is None else min(best, seconds)
    return best


def row_count_limit(rows):
    """The same rows, already parsed (as the processor gets them), counted into a dict."""
    def count():
        counts = {}
        for key, _value in rows:
            counts[key] = counts.get(key, 0) + 1
    return len(rows) / best_of(3, count)


class _DictValueState:
    """A ValueState on a dict entry: the processor's own code without the engine."""

    def __init__(self, store):
        self.store = store
        self.key = None

    def get(self):
        return self.store.get(self.key)

    def update(self, value):
        self.store[self.key] = value


class _DictHandle:
    def __init__(self):
        self.states = []

    def getValueState(self, name, schema, ttlDurationMs=None):
        state = _DictValueState({})
        self.states.append(state)
        return state


def processor_only(path, class_name, batches):
    """The processor's handleInputRows over the same rows grouped by key per batch (Rows built
    beforehand, state in a dict): what its own Python code costs, without engine or adapter."""
    import importlib.util
    from pyspark.sql.streaming import TimerValues
    from pyspark.sql.types import _create_row
    spec = importlib.util.spec_from_file_location("bench_count_processor", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    names = ["key", "value"]
    grouped = []
    for batch in batches:
        keys = {}
        for key, value in batch:
            keys.setdefault(key, []).append(_create_row(names, (key, value)))
        grouped.append(list(keys.items()))
    events = sum(len(b) for b in batches)

    def run():
        processor = getattr(module, class_name)()
        handle = _DictHandle()
        processor.init(handle)
        states = handle.states
        tv = TimerValues(0, 0)
        for batch in grouped:
            for key, rows in batch:
                for s in states:
                    s.key = key
                for _ in processor.handleInputRows((key,), iter(rows), tv):
                    pass
    return events / best_of(3, run)


def engine_run(path, class_name, a):
    """The best of three engine runs (as the limits below take the best of three)."""
    runs = [_streamsim_native.bench_count(path, class_name, a.events, a.keys, a.files) for _ in range(3)]
    return max(runs, key=lambda r: r["events_per_second"])


def dict_loop_limit(contents):
    best = None
    for _ in range(3):
        t0 = time.perf_counter()
        counts = {}
        for blob in contents:
            for line in blob.splitlines():
                key = json.loads(line)["key"]
                counts[key] = counts.get(key, 0) + 1
        seconds = time.perf_counter() - t0
        best = seconds if best is None else min(best, seconds)
    return sum(counts.values()) / best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=200_000)
    ap.add_argument("--keys", type=int, default=1_000)
    ap.add_argument("--files", type=int, default=20)
    a = ap.parse_args()
    processor = os.path.join(HERE, "count_processor.py")
    py = engine_run(processor, "CountProcessor", a)
    aio = engine_run(processor, "AsyncCountProcessor", a)
    cpp = engine_run("", "", a)
    parse_limit = dict_loop_limit(py["contents"])
    rows = [(r["key"], r["value"]) for blob in py["contents"]
            for r in map(json.loads, blob.splitlines())]
    limit = row_count_limit(rows)
    batches = [[(r["key"], r["value"]) for r in map(json.loads, blob.splitlines())]
               for blob in py["contents"]]
    own = processor_only(processor, "CountProcessor", batches)
    ratio = py["events_per_second"] / limit
    print(f"workload 1, {a.events} events, {a.keys} keys, {a.files} batches")
    print(f"  Python count processor on the engine : {py['events_per_second']:>12,.0f} events/s")
    print(f"  Python async count processor         : {aio['events_per_second']:>12,.0f} events/s"
          f"  (the sync one: {py['events_per_second'] / aio['events_per_second']:.2f}x as fast)")
    print(f"  C++ count processor on the engine    : {cpp['events_per_second']:>12,.0f} events/s")
    print(f"  limit: bare Python loop, rows -> dict: {limit:>12,.0f} events/s")
    print(f"  (Python json.loads + dict loop       : {parse_limit:>12,.0f} events/s)")
    print(f"  (the processor's own code, dict state: {own:>12,.0f} events/s; "
          f"limit ratio {own / limit:.0%}, engine run / this {py['events_per_second'] / own:.0%})")
    print(f"  Python processor / limit             : {ratio:>12.0%}  (the old target, >= 30%, retired)")
    own_ratio = py["events_per_second"] / own
    print(f"  Python processor / its own code      : {own_ratio:>12.0%}  (target >= 60%, issue 38: "
          f"{'met' if own_ratio >= 0.6 else 'NOT met'})")


if __name__ == "__main__":
    main()
