"""Run rules scenario files (``SCENARIOS.md``): each case's question, compared.

A case passes when every part of the expected answer holds. A case whose
question the engine cannot answer counts as failed, never skipped. Rules are
compared at the rulebook's granularity (``"6.1"`` matches ``"000 §6.1"`` and
``"000 §6.1 Exception"``, a heading matches ``"002 §Blocks: ..."``:
:func:`~pipeline.rules.verdict.same_rule`); the free-text reasons
are shown, not compared. ``not_reachable`` hexes must not be reachable; the
engine's own explanation is reported beside them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.errors import BocageError, DataError
from pipeline.hexgrid import Hex
from pipeline.model.documents import read_json
from pipeline.rules.cases import Case, case_from_data
from pipeline.rules.engine import Engine
from pipeline.rules.verdict import Verdict, same_rule

__all__ = ["CaseResult", "load_cases", "run_case", "run_cases"]


@dataclass(frozen=True)
class CaseResult:
    """One case's outcome."""

    id: str
    system: str
    kind: str
    passed: bool
    expected: dict[str, Any]
    actual: dict[str, Any]
    problems: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The documented ``--json`` shape of one case."""
        return {"id": self.id, "system": self.system, "kind": self.kind, "passed": self.passed,
                "expected": self.expected, "actual": self.actual,
                "problems": list(self.problems)}


def load_cases(path: str | Path) -> list[Case]:
    """Read a scenario file (a JSON list of cases) with located errors.

    The file is read by the data files' one JSON reader
    (:func:`pipeline.model.documents.read_json`): NaN, keys given twice and deep
    nesting are refused there.
    """
    data = read_json(path)
    if not isinstance(data, list):
        raise DataError(path, "", "a scenario file is a JSON list of cases")
    return [case_from_data(c, f"[{i}]", str(path)) for i, c in enumerate(data)]


def run_cases(cases: list[Case]) -> list[CaseResult]:
    """Run every case."""
    return [run_case(c) for c in cases]


def run_case(case: Case) -> CaseResult:
    """Ask the case's question and compare the answer with the expected one."""
    kind = str(case.query.get("kind", ""))
    handler = _HANDLERS.get(kind)
    if handler is None:
        return CaseResult(case.id, case.system, kind, False, case.expect, {},
                          (f"unknown query kind {kind!r}",))
    try:
        actual, problems = handler(Engine(case.situation), case)
    except (BocageError, NotImplementedError) as exc:
        message = str(exc) or f"{type(exc).__name__}: not implemented"
        return CaseResult(case.id, case.system, kind, False, case.expect, {"error": message},
                          (f"the engine cannot answer: {message}",))
    return CaseResult(case.id, case.system, kind, not problems, case.expect, actual,
                      tuple(problems))


# -- one handler per query kind --------------------------------------------------------

Outcome = tuple[dict[str, Any], list[str]]


def _hex(engine: Engine, text: str) -> Hex:
    if not isinstance(text, str) or not engine.grid.has_id(text):
        raise DataError(None, "query", f"hex {text!r} is not on the map")
    return engine.grid.hex(text)


def _movers(case: Case) -> list[str]:
    q = case.query
    return list(q["moving_units"]) if "moving_units" in q else [q["unit"]]


def _reachable(engine: Engine, case: Case) -> Outcome:
    reach = engine.reachable(_movers(case))
    name = engine.name
    actual_costs = {name(h): c for h, c in sorted(reach.costs.items())}
    expect = case.expect
    problems: list[str] = []
    for hex_id, cost in expect.get("reachable", {}).items():
        got = actual_costs.get(hex_id)
        if got is None:
            why = reach.refused.get(_hex(engine, hex_id))
            problems.append(f"{hex_id} should be reachable at {cost}, but is not"
                            + (f" ({why.rule}: {why.reason})" if why else ""))
        elif not _same_cost(got, cost):
            problems.append(f"{hex_id} should cost {cost}, the engine says {got}")
    not_reachable: dict[str, Any] = {}
    for hex_id in expect.get("not_reachable", {}):
        h = _hex(engine, hex_id)
        if hex_id in actual_costs:
            problems.append(f"{hex_id} should not be reachable, the engine says "
                            f"{actual_costs[hex_id]}")
        why = reach.refused.get(h)
        not_reachable[hex_id] = why.to_dict() if why else {"reason": "never entered"}
    if expect.get("complete"):
        extra = sorted(set(actual_costs) - set(expect.get("reachable", {})))
        if extra:
            problems.append(f"reachable set should be complete, the engine also reaches "
                            f"{', '.join(extra)}")
    return {"reachable": actual_costs, "not_reachable": not_reachable}, problems


def _check_path(engine: Engine, case: Case) -> Outcome:
    q = case.query
    path = [_hex(engine, h) for h in q["path"]]
    rolls = {_hex(engine, h): int(v) for h, v in q.get("die_rolls", {}).items()}
    result = engine.check_path(_movers(case), path, rolls, bool(q.get("overrun", False)))
    actual = {"legal": result.verdict.legal, "cost": result.cost,
              "rule": result.verdict.rule, "fails_at": result.verdict.at,
              "reason": result.verdict.reason}
    expect, problems = case.expect, []
    if bool(expect.get("legal")) != result.verdict.legal:
        problems.append(f"legal should be {expect.get('legal')}: {result.verdict.reason}")
    elif result.verdict.legal and "cost" in expect and not _same_cost(result.cost, expect["cost"]):
        problems.append(f"cost should be {expect['cost']}, the engine says {result.cost}")
    elif not result.verdict.legal:
        if "fails_at" in expect and expect["fails_at"] != result.verdict.at:
            problems.append(f"should fail at {expect['fails_at']}, fails at {result.verdict.at}")
        problems += _rule_problems(expect, result.verdict)
    return actual, problems


def _supply(engine: Engine, case: Case) -> Outcome:
    ids = list(case.query["units"])
    answers = engine.supply(ids)
    actual = {"units": {i: answers[i].to_dict(engine.name) for i in ids}}
    problems = []
    for unit_id, want in case.expect.get("units", {}).items():
        got = answers.get(unit_id)
        if got is None:
            problems.append(f"{unit_id}: no answer")
            continue
        if bool(want.get("in_supply")) != got.in_supply:
            problems.append(f"{unit_id}: in_supply should be {want.get('in_supply')}"
                            f" ({got.reason})")
        elif "rule" in want and not got.in_supply and not _same_rule(want["rule"], got.rule):
            problems.append(f"{unit_id}: rule should be {want['rule']}, the engine says "
                            f"{got.rule}")
    return actual, problems


def _verdict_kind(ask: Callable[[Engine, Case], Verdict], key: str
                  ) -> Callable[[Engine, Case], Outcome]:
    def handler(engine: Engine, case: Case) -> Outcome:
        verdict = ask(engine, case)
        actual = {key: verdict.legal, "rule": verdict.rule, "reason": verdict.reason}
        problems = []
        if bool(case.expect.get(key)) != verdict.legal:
            problems.append(f"{key} should be {case.expect.get(key)}: {verdict.reason}")
        elif not verdict.legal:
            problems += _rule_problems(case.expect, verdict)
        return actual, problems
    return handler


def _rule_problems(expect: dict[str, Any], verdict: Verdict) -> list[str]:
    if "rule" in expect and not _same_rule(expect["rule"], verdict.rule):
        return [f"rule should be {expect['rule']}, the engine says {verdict.rule}"]
    return []


def _same_rule(expected: str, actual: str | None) -> bool:
    return same_rule(expected, actual)


def _same_cost(a: Any, b: Any) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return bool(a == b)
    return a is not None and b is not None and math.isclose(float(a), float(b))


_HANDLERS: dict[str, Callable[[Engine, Case], Outcome]] = {
    "reachable": _reachable,
    "check_path": _check_path,
    "supply": _supply,
    "stacking_ok": _verdict_kind(lambda e, c: e.stacking(_hex(e, c.query["hex"])), "ok"),
    "placement_ok": _verdict_kind(
        lambda e, c: e.placement(c.query["unit"], _hex(e, c.query["hex"])), "ok"),
    "los": _verdict_kind(
        lambda e, c: e.los(_hex(e, c.query["from"]), _hex(e, c.query["to"])), "clear"),
}
