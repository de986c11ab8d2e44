"""A package's names imported from their modules when first asked for (PEP 562).

A package re-exports the public names of its modules; importing them all up front makes
every command pay for every module (the map's classes, numpy and shapely for a command
that only reads counter manifests). A package lists which module gives which names and
hands the lookup to :func:`exports`; type checkers read the same names from imports
under ``if TYPE_CHECKING:``, which a test holds equal to the table.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping, Sequence

__all__ = ["exports"]


def exports(package: str, sources: Mapping[str, Sequence[str]]
            ) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, whose modules give these names.

    ``sources`` maps each module to the names it gives the package. A name is imported
    from its module the first time it is asked for, and kept in the package.

    Examples
    --------
    >>> getattr_, dir_ = exports("json", {"json.decoder": ["JSONDecodeError"]})
    >>> getattr_("JSONDecodeError").__name__, "JSONDecodeError" in dir_()
    ('JSONDecodeError', True)
    """
    module_of = {name: module for module, names in sources.items() for name in names}

    def get(name: str) -> object:
        module = module_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)  # asked once
        return value

    def names() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(module_of))

    return get, names
