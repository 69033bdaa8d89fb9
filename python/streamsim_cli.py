"""The ``streamsim`` command of a pip install: runs the CLI the package carries
(streamsim/_bin/streamsim, python/setup.py), with the arguments given. A module of its own, beside
the package, so that the command does not import ``streamsim`` (whose import warns about a random
str hash seed, which the CLI fixes for its own interpreter)."""

import os
import sys


def main() -> None:
    cli = os.path.join(os.path.dirname(os.path.abspath(__file__)), "streamsim", "_bin", "streamsim")
    if not os.access(cli, os.X_OK):
        sys.exit(f"streamsim: {cli} is missing: this streamsim package was not installed with pip "
                 "(in a checkout, run build/tools/streamsim)")
    os.execv(cli, [cli] + sys.argv[1:])
