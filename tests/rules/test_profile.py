"""The numbers and lists a table can say come from the game's rules profile (rules.json).

No system holds a published number: a scenario case without a profile of its own is
answered with the one its system registers (the seed folder's rules.json), and a
builder who edits a profile (a variant, an erratum) changes the engine's answers.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from pipeline.model import load_rules, rules_from_data
from pipeline.rules import Engine, case_from_data, run_case
from pipeline.rules.cases import Case
from pipeline.rules.errors import RulesError
from pipeline.rules.registry import registry

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = Path(__file__).parent / "scenarios"
FOLDERS = {name: spec.game for name, spec in registry().items() if spec.game is not None}


def _cases(system: str) -> list[Case]:
    data = json.loads((SCENARIOS / f"{system}.json").read_text(encoding="utf-8"))
    return [case_from_data(d, f"[{i}]", f"{system}.json") for i, d in enumerate(data)]


def _with_profile(case: Case, edit: Any = None) -> Case:
    data = json.loads((ROOT / "maps" / FOLDERS[case.system] / "rules.json").read_text())
    if edit is not None:
        edit(data)
    profile = rules_from_data(data, "rules.json")
    return dataclasses.replace(case, situation=dataclasses.replace(case.situation,
                                                                   profile=profile))


@pytest.mark.parametrize("system", sorted(FOLDERS))
def test_a_case_without_a_profile_is_answered_with_the_seed_folders(system):
    """The seed profiles hold the published numbers: every scenario case of the system,
    derived from the rulebook, is answered with maps/<game>/rules.json and passes."""
    cases = _cases(system)
    assert {c.situation.profile.file for c in cases} == {
        str(ROOT / "maps" / FOLDERS[system] / "rules.json")}
    failed = [c.id for c in cases if not run_case(_with_profile(c)).passed]
    assert failed == []


def _case(system: str, case_id: str) -> Case:
    return next(c for c in _cases(system) if c.id == case_id)


def _edit(path: str, value: Any):
    def edit(doc: dict) -> None:
        node = doc
        *parents, last = path.split(".")
        for part in parents:
            node = node[part]
        node[last] = value
    return edit


def test_stacking_limit_from_the_profile_000_5_3():
    """000 §5.3 one unit a hex: with a profile allowing two, two units stack."""
    over = next(c for c in _cases("fm_omaha")
                if c.query["kind"] == "stacking_ok" and c.expect.get("ok") is False
                and c.expect.get("rule") == "5.3")
    h = over.situation.map.grid.hex(over.query["hex"])
    units = len(over.situation.units_in(h))
    assert not Engine(_with_profile(over).situation).stacking(h).legal
    assert Engine(_with_profile(over, _edit("stacking.limit", units)).situation).stacking(h).legal


def test_supply_length_from_the_profile_003_10_3_1():
    """003 §10.3.1 at most 12 hexes: a profile of 3 cuts a line the published rule allows."""
    case = next(c for c in _cases("cobra")
                if c.query["kind"] == "supply" and all(
                    v is True or (isinstance(v, dict) and v.get("in_supply"))
                    for v in c.expect.get("units", {}).values()) and c.expect.get("units"))
    published = Engine(_with_profile(case).situation).supply()
    shorter = Engine(_with_profile(case, _edit("supply.length.max", 0)).situation).supply()
    traced = [uid for uid, a in published.items() if a.in_supply and len(a.path) > 1]
    assert traced, "the case traces at least one line"
    for uid in traced:
        assert not shorter[uid].in_supply
        assert shorter[uid].rule == "003 §10.3.1" and "longer than 0" in shorter[uid].reason


def test_disengagement_cost_from_the_profile_003_5_6_1():
    """003 §5.6.1: leaving an EZOC costs the terrain + 2 MP. In cob-11 a unit of MPA 2
    cannot pay 1 + 2; with a profile whose leave cost is 0 it disengages for 1 MP."""
    case = _case("cobra", "cob-11-in-ezoc-no-one-hex-cannot-disengage")
    engine = Engine(_with_profile(case).situation)
    assert engine.reachable("A").costs == {}
    engine = Engine(_with_profile(case, _edit("zoc.leave.extra_mp", 0)).situation)
    costs = {engine.name(h): c for h, c in engine.reachable("A").costs.items()}
    assert costs == {"0103": 1, "0203": 1, "0303": 1}


def test_a_null_number_is_named_not_guessed():
    """A profile may leave a number null with a note; a question that needs it names it."""
    case = next(c for c in _cases("tactical") if c.query["kind"] == "stacking_ok")
    edited = _with_profile(case, _edit("stacking.limit", None))
    h = case.situation.map.grid.hex(case.query["hex"])
    with pytest.raises(RulesError, match=r"rules\.json: stacking\.limit: .* not given \(null\);"
                       r" fill in stacking\.limit"):
        Engine(edited.situation).stacking(h)


def test_supply_not_traced_answers_every_unit():
    """002 states no supply rules; its profile says ``traced: false`` and every unit is
    in supply with that reason."""
    profile = load_rules(ROOT / "maps" / "tactical" / "rules.json")
    case = next(c for c in _cases("tactical"))
    situation = dataclasses.replace(case.situation, profile=profile)
    answers = Engine(situation).supply()
    assert set(answers) == {u.id for u in situation.units}
    assert all(a.in_supply and "not traced" in a.reason for a in answers.values())


def test_profile_fractions_round_like_the_rulebook_003_2_6():
    """003 §5.4.2 overcast: the MPA reduced by a third, rounded up (§2.6). The profile
    holds 2/3 as a float; 9 MP must give 6, not 7."""
    doc = json.loads((ROOT / "maps" / "cobra" / "rules.json").read_text())
    overcast = [m for m in doc["movement"]["ma_modifiers"] if m.get("weather") == ["overcast"]]
    assert overcast[0]["factor"] == pytest.approx(2 / 3)
    case = next(c for c in _cases("cobra") if c.query["kind"] == "reachable")
    unit = case.situation.unit(case.query["unit"])
    german = dataclasses.replace(unit, side="german", ma=9.0)
    situation = dataclasses.replace(
        case.situation, units=(german,), profile=rules_from_data(copy.deepcopy(doc), "r"),
        state={**case.situation.state, "weather": "overcast"})
    engine = Engine(situation)
    assert engine.system.allowance(engine, engine.query(german.id)) == 6


def test_where_a_zoc_reaches_comes_from_the_profile_003_7_6():
    """003 §7.6: a ZOC does not cross a major river or all-sea hexside, nor enter Caen,
    Cherbourg or a fortress (cob-26, cob-27 move through such hexes freely). A profile
    that drops those lists lets the ZOC reach there, and the same moves stop."""
    for case_id in ("cob-26-zoc-not-across-major-river-or-all-sea",
                    "cob-27-zoc-not-into-caen-cherbourg-fortress"):
        case = _case("cobra", case_id)
        unit, path = case.query["unit"], case.query["path"]

        def legal(edit: Any = None, case: Any = case, path: Any = path,
                  unit: Any = unit) -> bool:
            engine = Engine(_with_profile(case, edit).situation)
            hexes = [engine.grid.hex(h) for h in path]
            return engine.check_path(unit, hexes).verdict.legal

        assert legal()
        emptied = _edit("zoc.reach.blocked_by_hexsides", []) if "river" in case_id else _edit(
            "zoc.reach.not_into_terrain", [])
        assert not legal(emptied), case_id
