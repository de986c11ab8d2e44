"""What a test needs from outside the repository, and what happens when it is not there.

Every test that needs a program (poppler, Chromium, make), a Python package that is not a
dependency (pywargame, Playwright) or a folder beside the checkout (``shared/reference``,
the rulebooks, the foreign bench) asks here. When it is missing the test is skipped with a
reason that names it, and under CI (``CI`` set, as ``.ci/run`` sets it), which has
everything, the test fails instead: a CI run never skips a test silently.
"""

from __future__ import annotations

import importlib
import os
import shutil
from types import ModuleType
from typing import NoReturn

import pytest

__all__ = ["in_ci", "missing", "module", "program"]


def in_ci() -> bool:
    """Whether this run is CI's (``CI`` set to anything but empty, 0 or false)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def missing(what: str) -> NoReturn:
    """Stop the test for want of ``what``: a failure under CI, otherwise a skip naming it."""
    if in_ci():
        pytest.fail(f"{what} is missing, and CI must run every test", pytrace=False)
    pytest.skip(f"{what} is missing")


def program(name: str, package: str) -> str:
    """The path of the program ``name`` (from the Debian package ``package``), or
    :func:`missing`."""
    found = shutil.which(name)
    if found is None:
        missing(f"{name} (apt-get install {package})")
    return found


def module(name: str, install: str) -> ModuleType:
    """The Python module ``name`` (installed by ``install``), or :func:`missing`."""
    try:
        return importlib.import_module(name)
    except ImportError:
        missing(f"the Python module {name} ({install})")
