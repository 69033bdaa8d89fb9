"""`import streamsim` in a plain /usr/bin/python3: the built extension module (issue 17 §5)."""
import os
import subprocess
import sys

import pytest

# streamsim-python (the sanitized builds' interpreter) has the module built in, and its hash seed
# fixed: these tests are about a plain python3 loading the extension.
pytestmark = pytest.mark.skipif("_streamsim_native" in sys.builtin_module_names,
                                reason="this interpreter has the module built in")


def _python(code, **env_changes):
    env = dict(os.environ)
    for k, v in env_changes.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=120)


def test_a_plain_python3_imports_the_built_extension_module():
    r = _python("import _streamsim_native, streamsim\n"
                "from streamsim.pyspark import TwsTester\n"
                "print(_streamsim_native.__file__)")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().endswith(".so")
    assert r.stderr == ""


def test_a_python_that_hashes_at_random_is_warned_about():
    r = _python("import streamsim", PYTHONHASHSEED=None)
    assert r.returncode == 0, r.stderr
    assert "RuntimeWarning: streamsim: this Python hashes str at random" in r.stderr
    assert _python("import streamsim", PYTHONHASHSEED="0").stderr == ""
