# The runner's embedded interpreter is the Python it was built against, whatever `python3` comes
# first on PATH (issue 40 item 8). Without a program name CPython looks `python3` up on PATH for
# its prefix: a pyenv shim there made libpython 3.11.2 run another 3.11's stdlib, without Debian's
# packages, and every pandas scenario failed with "No module named 'pandas'".
import os
import stat
import subprocess
import sys

import _streamsim_native

from conftest import SOURCE_DIR

PANDAS_SCENARIO = os.path.join(SOURCE_DIR, "scenarios", "seeds", "python", "counter_a3_b2_pandas.yaml")


def test_a_fake_python3_first_on_path_changes_nothing(tmp_path):
    # A prefix of another "Python": bin/python3 (not even an interpreter) beside a stdlib (the real
    # one, linked) and no dist-packages.
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    stdlib = os.path.dirname(os.__file__)
    (tmp_path / "bin").mkdir()
    (tmp_path / "lib").mkdir()
    os.symlink(stdlib, tmp_path / "lib" / version)
    fake = tmp_path / "bin" / "python3"
    fake.write_text("#!/bin/sh\necho 'not the interpreter streamsim was built against' >&2\nexit 3\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    env = dict(os.environ, PATH=f"{tmp_path / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("PYTHONHOME", None)
    done = subprocess.run([_streamsim_native.cli_path(), "run", PANDAS_SCENARIO], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "No module named" not in done.stdout + done.stderr
