"""The rules scenario suite (tests/rules/scenarios/*.json) through the engine.

Each case is a small position with the answer its rulebook demands, derived
from the rule text (see tests/rules/scenarios/README.md for the case list and
the rule each one tests). A system listed in DONE must pass every case; the
others are expected to fail until their rules land, strictly, so that a case
that starts passing is noticed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.rules import case_from_data, run_case
from pipeline.rules.registry import registry

SCENARIOS = Path(__file__).parent / "scenarios"
# Every registered system with a seed game must pass every case of its file.
DONE = {name for name, spec in registry().items() if spec.reference is not None}


def _cases() -> list:
    params = []
    for path in sorted(SCENARIOS.glob("*.json")):
        for i, data in enumerate(json.loads(path.read_text(encoding="utf-8"))):
            marks = [] if data["system"] in DONE else [
                pytest.mark.xfail(strict=True, reason=f"{data['system']} rules not built yet")]
            params.append(pytest.param(path.name, i, data, id=data["id"], marks=marks))
    return params


@pytest.mark.parametrize(("file", "index", "data"), _cases())
def test_case(file: str, index: int, data: dict) -> None:
    result = run_case(case_from_data(data, f"[{index}]", file))
    assert result.passed, "\n".join([f"{data['id']} ({', '.join(data['rules'])}):",
                                     *result.problems])


def test_suite_has_the_promised_size_and_every_query_kind() -> None:
    cases = [c for p in SCENARIOS.glob("*.json") for c in json.loads(p.read_text())]
    by_system: dict[str, int] = {}
    for c in cases:
        by_system[c["system"]] = by_system.get(c["system"], 0) + 1
    assert len(cases) >= 80
    assert set(by_system) == DONE, "one scenario file per seed system"
    assert all(by_system[s] >= 30 for s in DONE)
    kinds = {c["query"]["kind"] for c in cases}
    assert kinds == {"reachable", "check_path", "supply", "stacking_ok", "placement_ok", "los"}
    assert len({c["id"] for c in cases}) == len(cases)
