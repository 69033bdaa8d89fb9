# User code is isolated (issue 40 item 7): a processor calling os._exit in a handler, recursing
# until the C stack overflows, or looping forever ends `streamsim run` and `streamsim sweep` with
# exit 1 and a message naming the processor file (os._exit at import: exit 2, the file does not
# load) — never exit 0 with nothing checked, a bare crash or a hang. The CLI runs as a process of its own here: a crash
# report ends that process.
import os
import subprocess

import pytest

import _streamsim_native

from conftest import SOURCE_DIR

RUNAWAY = os.path.join(SOURCE_DIR, "tests", "python", "scenarios", "processors", "runaway.py")
COMMANDS = [["run"], ["sweep", "--seeds", "2", "--no-progress"]]


def scenario(tmp_path, cls, options=""):
    path = tmp_path / f"{cls}.yaml"
    path.write_text(f"""
name: {cls}
query:
  source: {{kind: memory, schema: "key string"}}
  operators:
    - groupBy: [key]
      transformWithState: {{python: {RUNAWAY}, class: {cls}, outputStructType: "key string"{options}}}
  sink: {{kind: memory}}
  outputMode: update
steps:
  - add_rows: [{{key: a}}]
  - run: available
sweep: {{crash_points: all, max_crashes: 1}}
""")
    return str(path)


def cli(args, env=None):
    done = subprocess.run([_streamsim_native.cli_path(), *args], capture_output=True, text=True,
                          timeout=300, env=env)
    return done.returncode, done.stdout + done.stderr


@pytest.mark.parametrize("command", COMMANDS)
def test_os_exit_in_a_handler_fails_the_run_naming_the_file(tmp_path, command):
    code, out = cli(command + [scenario(tmp_path, "ExitsInHandler")])
    assert code == 1, out
    assert f"os._exit(0) called: a processor must not end the process" in out, out
    assert f"at {RUNAWAY}:19 in handleInputRows" in out, out


@pytest.mark.parametrize("command", COMMANDS)
def test_os_exit_at_import_fails_the_run_naming_the_file(tmp_path, command):
    # A file that does not import is bad input (exit 2), as one raising at import is.
    env = dict(os.environ, STREAMSIM_TEST_EXIT_AT_IMPORT="1")
    code, out = cli(command + [scenario(tmp_path, "ExitsInHandler")], env=env)
    assert code == 2, out
    assert "os._exit(0) called" in out and f"{RUNAWAY}:11 in <module>" in out, out


@pytest.mark.parametrize("command", COMMANDS)
def test_a_c_stack_overflow_ends_the_run_with_exit_1_naming_the_file(tmp_path, command):
    code, out = cli(command + [scenario(tmp_path, "RecursesTooDeep")])
    assert code == 1, out
    assert f"the Python processor {RUNAWAY}:RecursesTooDeep crashed the process (SIGSEGV" in out, out
    assert "in handleInputRows" in out, out


@pytest.mark.parametrize("command", COMMANDS)
def test_an_endless_loop_is_interrupted_at_its_call_limit(tmp_path, command):
    code, out = cli(command + [scenario(tmp_path, "LoopsForever", ", callLimit: 1s")])
    assert code == 1, out
    assert f"handleInputRows of {RUNAWAY}:LoopsForever ran longer than its call limit of 1 s" in out, out


def test_call_limit_false_alarm_on_a_loaded_machine(tmp_path):
    # Regression: the limit was wall-clock time, so on a loaded machine (a sweep beside two
    # compilers: seed 26 of the seed-001 pandas counter's sweep) a correct pandas call waiting for
    # a CPU ran past 60 s and was interrupted. The limit is the call's CPU time now: a call 1.5 s
    # long in wall-clock time that hardly runs passes a limit of 1 s.
    code, out = cli(["run", scenario(tmp_path, "SleepsPastItsLimit", ", callLimit: 1s")])
    assert code == 0, out


def test_a_call_blocked_without_running_is_interrupted_at_its_wall_clock_backstop(tmp_path):
    code, out = cli(["run", scenario(tmp_path, "WaitsForever", ", callLimit: 1s")])
    assert code == 1, out
    assert f"handleInputRows of {RUNAWAY}:WaitsForever ran longer than its call limit of 1 s" in out, out
    assert "a call blocked without running: 10x it in wall-clock time" in out, out


def test_a_loop_that_swallows_the_interruption_ends_the_process_naming_the_file(tmp_path):
    code, out = cli(["run", scenario(tmp_path, "LoopsSwallowingEverything", ", callLimit: 1s")])
    assert code == 1, out
    assert f"the Python processor {RUNAWAY}:LoopsSwallowingEverything did not return" in out, out


def test_a_call_limit_that_is_not_a_positive_duration_is_bad_input(tmp_path):
    code, out = cli(["run", scenario(tmp_path, "LoopsForever", ", callLimit: 0s")])
    assert code == 2, out
    assert "callLimit must be a positive duration" in out, out
