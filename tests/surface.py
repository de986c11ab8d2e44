"""The one check behind every package's public-surface test."""

from __future__ import annotations

import importlib


def assert_surface(module: str, expected: set[str]) -> None:
    """``module.__all__`` is exactly ``expected``, and every name in it exists."""
    mod = importlib.import_module(module)
    assert set(mod.__all__) == expected
    for name in mod.__all__:
        assert hasattr(mod, name), f"{module}.{name} is in __all__ but missing"
