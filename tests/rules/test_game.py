"""Rules questions on a game folder and a position file (not a scenario case)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.errors import DataError
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
