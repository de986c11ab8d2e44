"""The ``bocage`` command: a thin shell over the library.

Exit codes: 0 all is well, 1 findings (a check that found problems), 2 bad
usage or bad input (one line on stderr names the file, the place and the fix).
"""

from pipeline.cli.root import COMMANDS, cli, main

__all__ = ["COMMANDS", "cli", "main"]
