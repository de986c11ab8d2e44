"""Rules questions on a game folder and a position file (not a scenario case)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from pipeline.errors import DataError
from pipeline.model import load_map
from pipeline.render import RenderStyle, render_map
from pipeline.render.answers import PictureStyle, supply_picture
from pipeline.rules import Engine
from pipeline.rules.errors import RulesError
from pipeline.rules.game import load_game


def _position(game: Path, edit) -> Path:
    doc = json.loads((game / "position.json").read_text())
    edit(doc)
    path = game / "position-edited.json"
    path.write_text(json.dumps(doc))
    return path


def test_game_folder_answers_movement_and_supply(game):
    engine = Engine(load_game(game, game / "position.json"))
    reach = engine.reachable("914/352")
    assert reach.costs, "a leg unit with MA 4 on open ground can move"
    for h, path in reach.paths.items():
        assert path[0] == reach.start and path[-1] == h
        assert engine.check_path("914/352", path).cost == reach.costs[h]
    answers = engine.supply()
    assert answers["2 Rgr"].in_supply and "Rangers" in answers["2 Rgr"].reason  # 000 §12.0


def test_null_cost_is_named_not_guessed(game):
    """000 §5.4: the costs are printed on the map; a profile that leaves one null
    cannot answer a movement question and says which number is missing."""
    rules = json.loads((game / "rules.json").read_text())
    rules["terrain"]["woods"]["move"] = None
    (game / "rules.json").write_text(json.dumps(rules))
    engine = Engine(load_game(game, game / "position.json"))
    with pytest.raises(RulesError, match=r"terrain\.woods\.move"):
        for unit in engine.situation.units:
            if unit.hex is not None and unit.side == "german":
                engine.reachable(unit.id)


def test_position_naming_an_unknown_unit_is_refused(game):
    path = _position(game, lambda d: d["units"].append({"id": "99/99", "hex": "1010"}))
    with pytest.raises(DataError) as err:
        load_game(game, path)
    assert str(err.value).startswith(f"{path}: units[10].id: unknown unit '99/99'")


def test_a_position_s_overruns_made_reach_the_rules_003_s5_5_1(game):
    """A unit's ``overruns`` (made earlier this phase) is what ``overrun.per_phase`` counts
    with the path's own (Cobra 003 §5.5.1, tests/rules/test_cobra.py); none said, none made."""
    def edit(doc):
        doc["units"][1]["overruns"] = 2
    situation = load_game(game, _position(game, edit))
    made = {u.id: u.get("overruns") for u in situation.units}
    assert list(made.values()).count(2) == 1 and made[situation.units[1].id] == 2
    assert all(v is None for k, v in made.items() if k != situation.units[1].id)


@pytest.mark.parametrize(("value", "says"), [(-1, "must be >= 0, got -1"),
                                             ("2", "a whole number")])
def test_a_position_s_overruns_of_the_wrong_kind_are_refused(game, value, says):
    def edit(doc):
        doc["units"][0]["overruns"] = value
    path = _position(game, edit)
    with pytest.raises(DataError) as err:
        load_game(game, path)
    assert str(err.value).startswith(f"{path}: units[0].overruns: ")
    assert says in str(err.value)


def test_position_with_a_hex_off_the_map_is_refused(game):
    def edit(doc):
        doc["units"][1]["hex"] = "3099"
    path = _position(game, edit)
    with pytest.raises(DataError) as err:
        load_game(game, path)
    assert str(err.value).startswith(f"{path}: units[1].hex: hex '3099' is not on the map")


def test_position_with_a_unit_in_an_enemy_occupied_hex_is_refused(game):
    """000 §5.2d: no unit may stand in a hex holding an enemy unit."""
    def edit(doc):
        doc["units"][0]["hex"] = doc["units"][1]["hex"]
    path = _position(game, edit)
    with pytest.raises(DataError, match="holds units of both sides"):
        load_game(game, path)


def test_a_saved_game_s_hex_both_sides_hold_is_answered_hex_by_hex(game):
    """000_3d79f68a6e3e33eb.txt §5.2d: no unit may stand in an enemy hex. A saved game
    (mixed="report") keeps such a hex: its stacking and its units' moves are refused
    citing the profile's enemy_hexes, and their supply is answered (§12.0: a line runs
    from the unit itself, so the enemy in its own hex does not stop it)."""
    def edit(doc):
        placed = {u["id"]: u for u in doc["units"]}
        placed["9/2"].update(hex="2218")  # 9/2 (allied, traces supply) joins 916/352
        placed["9/2"].pop("off_map")
    path = _position(game, edit)
    situation = load_game(game, path, "report")
    (h, units), = situation.mixed_hexes.items()
    engine = Engine(situation)
    assert engine.name(h) == "2218" and [u.id for u in units] == ["916/352", "9/2"]
    answers = engine.supply()
    assert (answers["9/2"].in_supply, answers["9/2"].rule, answers["9/2"].reason) == (
        True, "000 §12.0", "next to a beach landing hex (2219)")
    assert [engine.name(x) for x in answers["9/2"].path] == ["2218", "2219"]
    assert (answers["916/352"].in_supply, answers["916/352"].rule) == (True, "000 §9.0")
    for uid in ("9/2", "916/352"):
        with pytest.raises(DataError, match=f"unit '{uid}': hex 2218 holds units of both"):
            engine.reachable(uid)
    stacked = engine.stacking(h)
    assert (stacked.legal, stacked.rule, stacked.at) == (False, "000 §5.2d", "2218")
    assert all(isinstance(a.in_supply, bool) for a in answers.values())


def _two_boards(game: Path) -> Path:
    """The demo folder turned into a map of two 4 x 3 boards, B placed east of A."""
    doc = json.loads((game / "map.json").read_text())
    doc["boards"] = [
        {"name": "A", "grid": {"orientation": "flat", "cols": 4, "rows": 3,
                               "numbering": {"stagger": "even-down", "prefix": "A"}}},
        {"name": "B", "grid": {"orientation": "flat", "cols": 4, "rows": 3,
                               "numbering": {"stagger": "even-down", "prefix": "B"}},
         "placement": {"hex": "B0101", "at": "A0501"}},
    ]
    doc.update(hexes={"B0302": {"terrain": ["beach"]}}, hexsides=[], locations=[], edges={})
    (game / "map.json").write_text(json.dumps(doc))
    position = {"kind": "position", "game": "omaha", "illustrative": True, "turn": 2,
                "phase": "movement", "active_side": "allied",
                "units": [{"id": "9/2", "hex": "A0102"}, {"id": "914/352", "hex": "A0103"}],
                "markers": [{"type": "beachhead", "hex": "B0302"}]}
    path = game / "position-two-boards.json"
    path.write_text(json.dumps(position))
    return path


def test_placed_boards_are_one_map_for_movement_and_supply(game):
    """map.json boards[1].placement joins B east of A: a move and a supply line cross
    the seam (000 §5.4 clear 1 MP a hex; 000 §12.0 a path to the beachhead marker)."""
    engine = Engine(load_game(game, _two_boards(game)))
    assert "board" not in engine.situation.state
    reach = engine.reachable("914/352")             # German leg unit, MA 4, all clear
    costs = {engine.name(h): c for h, c in reach.costs.items()}
    assert costs["A0403"] == 3 and costs["B0102"] == 4 and costs["B0103"] == 4
    assert "B0203" not in costs                     # five hexes away
    *_, last_on_a, end = [engine.name(h) for h in reach.paths[engine.grid.hex("B0103")]]
    assert end == "B0103" and last_on_a.startswith("A04")   # across the seam
    answer = engine.supply()["9/2"]
    assert answer.in_supply and engine.name(answer.path[-1]) == "B0302"
    assert {engine.name(h) for h in answer.path} & {"A0401", "A0402", "A0403"}


def test_placed_boards_are_drawn_as_one_map(game):
    """--picture on joined boards draws both (the map's own ids on each) with the supply
    line crossing the seam to the ringed source in B0302."""
    engine = Engine(load_game(game, _two_boards(game)))
    data = load_map(game / "map.json")
    style = RenderStyle(hex_size=40.0, ids=True, supersample=1)
    one, both = render_map(data, style, "A"), render_map(data, style)
    assert both.image.shape[1] > 1.6 * one.image.shape[1]   # eight columns, not four
    picture = np.asarray(supply_picture(data, engine.situation, engine.supply(),
                                        PictureStyle(hex_size=40.0)))
    corners = both.grid.corners(both.grid.hex("B0302"))
    (x0, y0), (x1, y1) = corners[0], corners[1]
    r, g, b = picture[round((y0 + y1) / 2), round((x0 + x1) / 2)].astype(int)
    assert g > r + 60 and g > b + 40, (r, g, b)   # the source's green ring
