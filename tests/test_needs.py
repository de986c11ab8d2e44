"""A test missing what it needs skips naming it, and fails under CI."""

from __future__ import annotations

import pytest

from tests.needs import in_ci, missing, module, program


@pytest.mark.parametrize(("value", "ci"), [("true", True), ("1", True), ("yes", True),
                                           ("", False), ("0", False), ("false", False)])
def test_ci_is_any_value_but_empty_zero_or_false(monkeypatch, value, ci):
    monkeypatch.setenv("CI", value)
    assert in_ci() is ci


def test_missing_skips_naming_it_outside_ci(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="the rulebook 000 is missing"):
        missing("the rulebook 000")


def test_missing_fails_under_ci(monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="the rulebook 000 is missing, and CI"):
        missing("the rulebook 000")


def test_a_missing_program_and_module_are_named_with_what_installs_them(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"no-such-tool \(apt-get install nothing\)"):
        program("no-such-tool", "nothing")
    with pytest.raises(pytest.skip.Exception, match=r"no_such_module \(pip install it\)"):
        module("no_such_module", "pip install it")
    assert module("json", "it ships with Python").dumps([]) == "[]"
