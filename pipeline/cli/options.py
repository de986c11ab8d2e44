"""Flags and output helpers several commands share."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

__all__ = ["HELP", "emit_json", "json_option", "quiet_option"]

F = TypeVar("F", bound=Callable[..., Any])

# Every command also answers -h: set on each group and command, not only the root,
# because click caches a command's help option the first time it runs alone.
HELP: dict[str, Any] = {"help_option_names": ["-h", "--help"]}


def json_option(f: F) -> F:
    """``--json``: print the result as JSON on stdout (stable, for scripts)."""
    return click.option(
        "--json", "as_json", is_flag=True, help="Print the result as JSON (for scripts)."
    )(f)


def quiet_option(f: F) -> F:
    """``--quiet``: print nothing but errors."""
    return click.option("--quiet", "-q", is_flag=True, help="Print nothing but errors.")(f)


def emit_json(data: Any) -> None:
    """Write ``data`` as deterministic, indented JSON to stdout."""
    json.dump(data, sys.stdout, indent=2, sort_keys=True, ensure_ascii=False)
    sys.stdout.write("\n")
