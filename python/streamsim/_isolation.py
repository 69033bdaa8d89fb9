"""The pyspark shim is streamsim's inside streamsim's calls only.

streamsim runs a user's PySpark code on its own ``pyspark`` package and delta-spark's ``delta``
(the shim: python/pyspark and python/delta in a checkout, ``streamsim/_shim/`` once
pip-installed). A real PySpark (or delta-spark) may be installed in the same environment, for the
user's other tests: ``import pyspark`` outside streamsim must keep giving it. So the shim is put in front only for the length of a streamsim call
(``streamsim.run``/``sweep``, the ``streamsim_world`` fixture, a ``TwsTester``):

- when no other ``pyspark`` is importable (or the one found is the shim itself, as in a checkout
  with ``PYTHONPATH=python:build/python``), the shim's folder simply joins ``sys.path`` and stays;
- otherwise ``shim()`` swaps the ``pyspark`` modules in ``sys.modules`` for the shim's on entry
  and back on exit. The shim is imported once per process and kept aside between calls, so its
  classes are the same objects in every call.
"""

import contextlib
import importlib
import importlib.util
import os
import sys
import threading
from typing import Dict, Iterator, Optional

_PACKAGE = os.path.dirname(os.path.abspath(__file__))

_lock = threading.RLock()
_depth = 0
_aside: Dict[str, object] = {}  # the other pyspark's (delta's) modules, aside while the shim is in front
_kept: Dict[str, object] = {}     # the shim's modules, aside between calls
_swapping: Optional[bool] = None  # decided on the first call
_PACKAGES = ("pyspark", "delta")   # the shim's top-level packages


def shim_dir() -> str:
    """The folder holding the shim's ``pyspark`` package."""
    installed = os.path.join(_PACKAGE, "_shim")
    if os.path.isfile(os.path.join(installed, "pyspark", "__init__.py")):
        return installed
    return os.path.dirname(_PACKAGE)  # a checkout: python/ holds pyspark/ beside streamsim/


def _is_shim_path(path: Optional[str], package: str = "pyspark") -> bool:
    return bool(path) and os.path.abspath(path).startswith(os.path.join(shim_dir(), package) + os.sep)


def _foreign(package: str) -> bool:
    """Is a ``package`` other than the shim's what ``import package`` gives outside streamsim?"""
    loaded = sys.modules.get(package)
    if loaded is not None:
        return not _is_shim_path(getattr(loaded, "__file__", None), package)
    spec = importlib.util.find_spec(package)
    return spec is not None and not _is_shim_path(spec.origin, package)


def _other_pyspark() -> bool:
    return any(_foreign(p) for p in _PACKAGES)


def _pyspark_modules() -> Dict[str, object]:
    return {n: m for n, m in sys.modules.items()
            if any(n == p or n.startswith(p + ".") for p in _PACKAGES)}


def _enter() -> None:
    global _swapping
    if _swapping is None:
        _swapping = _other_pyspark()
    if not _swapping:
        if shim_dir() not in sys.path:
            sys.path.insert(0, shim_dir())
        return
    _aside.update(_pyspark_modules())
    for name in _aside:
        del sys.modules[name]
    sys.modules.update(_kept)
    _kept.clear()
    sys.path.insert(0, shim_dir())
    importlib.invalidate_caches()


def _exit() -> None:
    if not _swapping:
        return
    _kept.update(_pyspark_modules())
    for name in _kept:
        del sys.modules[name]
    sys.modules.update(_aside)
    _aside.clear()
    try:
        sys.path.remove(shim_dir())
    except ValueError:
        pass
    importlib.invalidate_caches()


@contextlib.contextmanager
def shim() -> Iterator[None]:
    """``import pyspark`` gives streamsim's shim inside the ``with`` block."""
    global _depth
    with _lock:
        if _depth == 0:
            _enter()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                _exit()


def active() -> bool:
    """Does ``import pyspark`` give the shim now?"""
    loaded = sys.modules.get("pyspark")
    if loaded is not None:
        return _is_shim_path(getattr(loaded, "__file__", None))
    spec = importlib.util.find_spec("pyspark")
    return spec is not None and _is_shim_path(spec.origin)


def inside_shim(cls: type) -> type:
    """A class whose public methods (and constructor) each run inside ``shim()``."""
    import functools

    def wrap(f):  # type: ignore[no-untyped-def]
        @functools.wraps(f)
        def call(*args, **kwargs):  # type: ignore[no-untyped-def]
            with shim():
                return f(*args, **kwargs)
        return call

    for name, f in list(vars(cls).items()):
        if name != "__init__" and name.startswith("_"):
            continue
        if isinstance(f, (staticmethod, classmethod)):
            setattr(cls, name, type(f)(wrap(f.__func__)))
        elif isinstance(f, property):
            setattr(cls, name, property(wrap(f.fget) if f.fget else None,
                                        wrap(f.fset) if f.fset else None, None, f.__doc__))
        elif callable(f):
            setattr(cls, name, wrap(f))
    return cls
