# How a processor file is loaded for a run (python/streamsim/_driver.py, Loaded): every load is a
# fresh module executed afresh (what the process_isolation oracle relies on), while the file's
# compiled code is kept per (path, bytes) and reused (issue 38: a sweep loads the same file for
# every run).
from streamsim import _driver

PROCESSOR = b"""
from pyspark.sql.streaming import StatefulProcessor

seen = []  # module-level state: a fresh module per load starts it empty


class Counter(StatefulProcessor):
    VERSION = %d

    def init(self, handle):
        pass

    def handleInputRows(self, key, rows, timerValues):
        seen.append(key)
        yield from []
"""


def write(path, version):
    path.write_bytes(PROCESSOR % version)
    return str(path)


def test_each_load_is_a_fresh_module_with_the_compiled_code_reused(tmp_path):
    path = write(tmp_path / "counter.py", 1)
    a = _driver.load(path, "Counter")
    a.module.seen.append("from the first run")
    b = _driver.load(path, "Counter")
    try:
        assert a.module is not b.module and a.cls is not b.cls
        assert b.module.seen == []  # executed afresh, not shared with the first load
        # The same code object: compiled once for the two loads.
        assert a.cls.handleInputRows.__code__ is b.cls.handleInputRows.__code__
    finally:
        a.unload()
        b.unload()


def test_a_changed_file_is_compiled_again(tmp_path):
    path = write(tmp_path / "counter.py", 1)
    a = _driver.load(path, "Counter")
    write(tmp_path / "counter.py", 2)
    b = _driver.load(path, "Counter")
    try:
        assert (a.cls.VERSION, b.cls.VERSION) == (1, 2)
        assert a.cls.handleInputRows.__code__ is not b.cls.handleInputRows.__code__
    finally:
        a.unload()
        b.unload()


def test_only_the_newest_files_stay_compiled(tmp_path):
    for i in range(_driver._COMPILED_KEPT + 8):
        loaded = _driver.load(write(tmp_path / f"counter_{i}.py", i), "Counter")
        loaded.unload()
    assert len(_driver._compiled) <= _driver._COMPILED_KEPT
    assert (str(tmp_path / f"counter_{_driver._COMPILED_KEPT + 7}.py"), PROCESSOR % (_driver._COMPILED_KEPT + 7)) in _driver._compiled
