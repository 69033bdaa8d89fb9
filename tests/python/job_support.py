"""What the PySpark job tests share: a job file of tests/python/jobs/ loaded as a fresh module
(its module-level getOrCreate() binds the current World), and a DataFrame's rows as tuples. The
`world` fixture is in conftest.py."""

import importlib.util
import itertools
import os

JOBS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "jobs")
_loaded = itertools.count()


def load_job(name):
    """tests/python/jobs/<name>.py as a fresh module."""
    spec = importlib.util.spec_from_file_location(f"job_{name}_{next(_loaded)}", os.path.join(JOBS, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rows_of(df):
    return [tuple(r) for r in df.collect()]
