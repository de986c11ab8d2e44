"""Runs corpus cases through the real ``bocage`` command, one after another, in one process.

Started by the corpus tests as ``python -m tests.corpus.worker MEMORY_MB``: it caps its
own address space, then reads one JSON request a line on stdin (``args``, ``cwd``,
``env``, ``timeout``) and answers one JSON line (``code``, ``stdout``, ``stderr``,
``seconds``) on what was stdout when it started. Each case's standard output and
error are captured at the file-descriptor level, so anything a C library prints is
seen too; a case running over its time gets an alarm. Starting Python and importing
bocage once, instead of once a case, keeps the corpus to seconds.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import sys
import tempfile
import time
from typing import Any


class _Timeout(BaseException):
    """Raised by the alarm: a case that runs too long (not an Exception a command catches)."""


def _alarm(signum: int, frame: Any) -> None:
    raise _Timeout()


def _run(cli: Any, request: dict[str, Any]) -> dict[str, Any]:
    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    os.environ.update(request.get("env", {}))
    os.chdir(request["cwd"])
    outputs = [tempfile.TemporaryFile(), tempfile.TemporaryFile()]
    saved_fds = [os.dup(1), os.dup(2)]
    sys.stdout.flush()
    sys.stderr.flush()
    for fd, capture in zip((1, 2), outputs, strict=True):
        os.dup2(capture.fileno(), fd)
    code: Any = 0
    start = time.monotonic()
    signal.alarm(int(request.get("timeout", 60)))
    try:
        cli.main(request["args"], prog_name="bocage")
    except SystemExit as exc:
        code = exc.code if exc.code is not None else 0
    except _Timeout:
        code = "timeout"
    except BaseException as exc:
        import traceback

        traceback.print_exc()
        code = f"raised {type(exc).__name__}"
    finally:
        signal.alarm(0)
        seconds = time.monotonic() - start
        sys.stdout.flush()
        sys.stderr.flush()
        for fd, saved in zip((1, 2), saved_fds, strict=True):
            os.dup2(saved, fd)
            os.close(saved)
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
    texts = []
    for capture in outputs:
        capture.seek(0)
        texts.append(capture.read().decode("utf-8", "replace"))
        capture.close()
    return {"code": code, "stdout": texts[0], "stderr": texts[1], "seconds": seconds}


def main() -> None:
    memory_mb = int(sys.argv[1])
    resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))
    signal.signal(signal.SIGALRM, _alarm)
    replies = os.fdopen(os.dup(1), "w", buffering=1)
    sys.stdin = open(os.devnull)  # commands read nothing from the pipe of requests
    requests = os.fdopen(os.dup(0), "r")
    os.dup2(sys.stdin.fileno(), 0)
    from pipeline.cli import cli

    replies.write(json.dumps({"ready": True}) + "\n")
    for line in requests:
        replies.write(json.dumps(_run(cli, json.loads(line))) + "\n")


if __name__ == "__main__":
    main()
