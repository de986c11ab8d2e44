"""The validate package's public surface is deliberate (and every module states its own)."""

from __future__ import annotations

import importlib

import pipeline.validate as validate

MODULES = ["accepted", "diff", "facts", "findings", "inject", "lint", "picture", "rawjson",
           "report", "roles", "screen", "sides", "validation"]


def test_the_package_exports_exactly_its_documented_names():
    # 46 names, none listed twice (an exact-case comparison: Score and score both exist).
    assert len(validate.__all__) == len(set(validate.__all__)) == 46
    for name in validate.__all__:
        assert hasattr(validate, name)


def test_every_module_states_its_public_names():
    for name in MODULES:
        module = importlib.import_module(f"pipeline.validate.{name}")
        assert module.__all__ and all(hasattr(module, n) for n in module.__all__)
        assert module.__doc__
