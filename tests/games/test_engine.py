"""The rules engine on each seed game's folder and position (`load_game` + `Engine`).

Supply is asked for every game; movement where the rulebook gives the numbers a move needs.
Where it does not (no unit MA, no terrain cost), the engine must refuse with an error naming
the missing number: nothing here invents a cost."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from pipeline.errors import DataError
from pipeline.model import load_position, load_units, map_from_data, rules_from_data
from pipeline.rules import Engine
from pipeline.rules.errors import RulesError
from pipeline.rules.game import load_game, situation_from_game
from pipeline.rules.situation import Unit

from .conftest import counters, load, maps


def _answers(engine: Engine) -> dict[str, tuple[bool, str | None]]:
    return {uid: (a.in_supply, a.rule) for uid, a in engine.supply().items()}


# -- 000 Omaha ---------------------------------------------------------------------------------

def test_omaha_supply_000_12_0():
    engine = Engine(load_game(maps("omaha"), maps("omaha") / "position.json"))
    answers = engine.supply()
    assert _answers(engine) == {
        # A unit on a beach landing hex is in supply by §12.0's first Exception.
        "9/2": (True, "000 §12.0 Exception"), "23/2": (True, "000 §12.0"),
        "38/2": (True, "000 §12.0"), "CCA/2": (True, "000 §12.0 Exception"),
        "2 Rgr": (True, "000 §12.0 Exception"),
        "117/30": (False, "000 §12.0"),
        **{g: (True, "000 §9.0") for g in ("916/352", "914/352", "915/352", "352/352", "1")},
        "119/30": (True, None),
    }
    assert answers["9/2"].reason == "on a beach landing hex (2318)"
    assert [engine.name(h) for h in answers["23/2"].path] == ["2217", "2318"]
    path = [engine.name(h) for h in answers["38/2"].path]
    assert path[0] == "2015" and path[-1] == "2318"
    assert answers["2 Rgr"].reason == "Rangers need not trace supply"


def test_omaha_movement_names_the_missing_movement_allowance():
    engine = Engine(load_game(maps("omaha"), maps("omaha") / "position.json"))
    with pytest.raises(RulesError, match=r"no movement allowance.*fill in 'movement'"):
        engine.reachable("38/2")


# -- 001 June '44 ------------------------------------------------------------------------------

def test_june44_supply_answers_while_the_terrain_chart_is_unknown():
    """001 §6.0, §7.2: a supply line asks only whether terrain is prohibited, which the
    chart says (the Caen Canal) even while the TEC costs are null: supply answers."""
    engine = Engine(load_game(maps("june44"), maps("june44") / "position.json"))
    answers = engine.supply()
    assert answers["2 AD"].in_supply is False and answers["2 AD"].rule == "001 §7.2"
    assert answers["1 ID"].in_supply is True


def test_june44_movement_names_the_missing_cost():
    engine = Engine(load_game(maps("june44"), maps("june44") / "position.json"))
    with pytest.raises(RulesError, match=r"fill in terrain\.clear\.move"):
        engine.reachable("1 ID")  # MA 4 is given (001 §2.4.2); the clear cost is not


@pytest.mark.parametrize("placeholder", [1, 3])
def test_june44_supply_answers_do_not_depend_on_the_missing_number(placeholder):
    """The position's supply answers with a placeholder clear cost, in memory only: the
    answers are the same whatever the number, as long as clear is not prohibited."""
    data = load(maps("june44") / "rules.json")
    data["terrain"]["clear"]["move"] = placeholder
    rules = rules_from_data(data, "rules.json (placeholder clear cost)")
    situation = situation_from_game(
        map_from_data(load(maps("june44") / "map.json")), rules,
        load_position(maps("june44") / "position.json"),
        load_units(counters("june44") / "units.csv"))
    engine = Engine(situation)
    assert _answers(engine) == {
        "1 ID": (True, "001 §7.2"), "29 ID": (True, "001 §7.2"), "2 AD": (False, "001 §7.2"),
        "21 Pz": (True, "001 §7.2"), "91": (True, "001 §7.2"), "3 Cdn ID": (True, "001 §7.2"),
        "51 ID": (True, None),
    }
    answers = engine.supply()
    assert "south map edge" in answers["21 Pz"].reason
    assert "friendly-controlled beach hex" in answers["3 Cdn ID"].reason


# -- 003 Cobra (two boards; the position is on Map A) -----------------------------------------

def _board_a() -> Engine:
    return Engine(load_game(maps("cobra"), maps("cobra") / "position.json"))


def test_cobra_position_on_one_board_is_answered_on_that_board():
    """The boards' placement is printed on the maps, not in the text (map.json notes): a
    position whose units all stand on Map A is answered on Map A alone, and says so."""
    engine = _board_a()
    assert engine.situation.state["board"] == "A"
    assert engine.grid.has_id("A2519") and not engine.grid.has_id("B3518")
    assert engine.situation.map.has(engine.grid.hex("A0101"), "clear")


def test_cobra_position_spanning_boards_is_refused(tmp_path):
    doc = load(maps("cobra") / "position.json")
    doc["units"][0]["hex"] = "B3518"
    path = tmp_path / "position.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(DataError) as err:
        load_game(maps("cobra"), path)
    assert str(err.value).startswith(f"{path}: units: the position spans boards A, B")


def test_cobra_without_a_position_asks_for_one():
    with pytest.raises(RulesError, match=r"2 boards \(A, B\).*give a position"):
        load_game(maps("cobra"))


def test_cobra_supply_on_map_a_003_10_3():
    engine = _board_a()
    assert _answers(engine) == {
        "27 Armd": (True, "003 §10.3.1"), "102 Cav": (False, "003 §10.3.1"),
        "2 FF": (False, "003 §10.3.1"), "delay-1": (True, "003 §10.3.1"),
        "delay-2": (False, "003 §10.3.1"), "22/21": (False, "003 §10.3.1"),
        "LXXXIV": (False, "003 §10.3.1"),
    }
    answers = engine.supply()
    assert answers["27 Armd"].reason == "4 hexes counted to Allied supply source (A2501)"
    assert answers["delay-1"].reason == "6 hexes counted to German supply source (A5120)"
    assert "longer than 12 hexes" in answers["102 Cav"].reason


def test_cobra_delay_unit_disengages_in_overcast_weather():
    """003 §15.1 MPA 6, §5.4.2 overcast: 4 MP; §5.2.1 clear 1 MP; §5.6.1 disengaging +2;
    §5.6.2 never EZOC to EZOC. Every hex is the map's unsurveyed default (clear)."""
    engine = _board_a()
    reach = engine.reachable("delay-2")
    costs = {engine.name(h): c for h, c in reach.costs.items()}
    assert costs["A3014"] == 3                      # out of 2 FF's ZOC: 1 + 2
    assert costs["A3015"] == 4
    assert max(costs.values()) == 4
    assert "A2913" not in costs and "A3113" not in costs   # EZOC to EZOC
    hexes = [engine.grid.hex(h) for h in ("A3013", "A3014")]
    check = engine.check_path("delay-2", hexes)
    assert check.verdict.legal and check.cost == 3


def test_cobra_movement_without_an_mpa_names_it():
    with pytest.raises(RulesError, match="fill in 'movement'"):
        _board_a().reachable("22/21")


# -- 002 tactical ------------------------------------------------------------------------------

def test_tactical_supply_is_not_traced():
    """002 states no supply rules; the profile's ``supply.traced: false`` answers every unit."""
    engine = Engine(load_game(maps("tactical"), maps("tactical") / "position.json"))
    answers = engine.supply()
    assert set(answers) == {"Allied MG"}
    assert answers["Allied MG"].in_supply and "not traced" in answers["Allied MG"].reason


def test_tactical_movement_names_the_missing_movement_allowance():
    engine = Engine(load_game(maps("tactical"), maps("tactical") / "position.json"))
    with pytest.raises(RulesError, match="fill in 'movement'"):
        engine.reachable("Allied MG")


def test_positions_are_small(game):
    position = load_position(maps(game) / "position.json")
    assert position.illustrative and 1 <= len(position.units) <= 12
    assert json.loads(Path(maps(game) / "position.json").read_text())["kind"] == "position"


# -- every game: a movement query once a builder supplies the printed numbers ------------------

PLACEHOLDER_MP = 1     # what a builder would type from the printed TEC; here, in memory only
PLACEHOLDER_MA = 3     # a printed MA the text does not give
MOVERS = {"omaha": "38/2", "june44": "1 ID", "cobra": "22/21", "tactical": "Allied MG"}


def _filled(node):
    """Every ``null`` movement number of a rules profile replaced by the placeholder."""
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key in ("move", "rate") and value is None:
                out[key] = PLACEHOLDER_MP
            elif key in ("move", "rate") and isinstance(value, dict):
                out[key] = {k: PLACEHOLDER_MP if v is None else v for k, v in value.items()}
            else:
                out[key] = _filled(value)
        return out
    return node


def _with_placeholders(game: str) -> Engine:
    rules = rules_from_data(_filled(load(maps(game) / "rules.json")), "rules.json (placeholders)")
    manifest = load_units(counters(game) / "units.csv")
    rows = [r.model_copy(update={"movement": PLACEHOLDER_MA}) if r.movement is None else r
            for r in manifest.rows]
    manifest = dataclasses.replace(manifest, rows=tuple(rows))
    situation = situation_from_game(map_from_data(load(maps(game) / "map.json")), rules,
                                    load_position(maps(game) / "position.json"), manifest)
    return Engine(situation)


def test_movement_runs_on_each_games_data_once_the_printed_numbers_are_supplied(game):
    """The engine answers "where can this unit go?" on each seed folder's own map, rules
    profile, manifest and position as soon as the numbers printed only on the map's chart and
    the counters are filled in (placeholders, in memory: the folders keep them null). Every
    answer is a legal, self-consistent move: within the MA (or the one-hex allowance of 001
    §10.0, 002, 003 §5.2.7), each path accepted by check-move at the same cost, and every
    refusal citing a rule of the game."""
    engine = _with_placeholders(game)
    unit = MOVERS[game]
    mover = engine.situation.unit(unit)
    reach = engine.reachable(unit)
    code = engine.system.code
    for h, cost in reach.costs.items():
        assert cost == "one_hex" or cost <= mover.ma
        check = engine.check_path(unit, reach.paths[h])
        assert check.verdict.legal and check.cost == cost, (engine.name(h), check.verdict)
    for h, verdict in reach.refused.items():
        assert h not in reach.costs and verdict.at == engine.name(h)
        assert verdict.rule is None or verdict.rule.startswith(code)
    if game == "tactical":
        # 002 describes no map: the folder's board is one placeholder hex, so there is
        # nowhere to go; the question is still answered, not refused.
        assert reach.costs == {} and engine.grid.hexes() == [mover.hex]
    else:
        assert reach.costs, f"{unit} can move somewhere"
        ring = set(engine.grid.neighbours(mover.hex))
        assert ring & set(reach.costs), "some neighbour of the start hex is reachable"


def test_omaha_leg_unit_stops_on_entering_an_ezoc_000_6_1():
    """000 §6.1 on the seed position: no path of the leg regiment 38/2 passes through a hex
    in a German ZOC; such a hex can only be the last of a path."""
    engine = _with_placeholders("omaha")
    reach = engine.reachable("38/2")
    assert engine.situation.unit("38/2").unit_class == "leg"
    ezoc = engine.enemy_zoc("allied")
    stopped = [h for h in reach.costs if h in ezoc]
    assert stopped, "the position puts German ZOC within reach"
    for h, path in reach.paths.items():
        assert not any(x in ezoc for x in path[1:-1]), engine.name(h)


# Who exerts no ZOC, in each rulebook's own words, read off a manifest row.
_NO_ZOC_BY_THE_TEXT = {
    # 000 §6.0: "All units not marked with a black hexagon ... exert a zone of control".
    "omaha": lambda spec: spec.has("no_zoc"),
    # 001 §6.0: "Fortifications and all units (except artillery) exert a ZOC"; artillery is
    # the artillery type, or a unit whose attack strength is in parentheses (§2.4.2).
    "june44": lambda spec: spec.type == "artillery" or spec.has("artillery_parens"),
    # 003 §7.1: "All units—with the exception of HQ, battalions and Flak units—exert ZOC".
    "cobra": lambda spec: spec.has("hq") or spec.type == "headquarters"
    or spec.size in ("battalion", "corps") or spec.has("flak"),
}


@pytest.mark.parametrize("game", sorted(_NO_ZOC_BY_THE_TEXT))
def test_the_profiles_zoc_lists_name_the_units_the_rules_exempt(game):
    """000 §6.0, 001 §6.0, 003 §7.1: who exerts no ZOC is a table in rules.json (the
    ``zoc.not_exerted_by`` selectors and their roles); for every unit of the game's
    manifest it agrees with the rulebook's own words."""
    manifest = load_units(counters(game) / "units.csv")
    situation = situation_from_game(map_from_data(load(maps(game) / "map.json")),
                                    rules_from_data(load(maps(game) / "rules.json"), "r"),
                                    load_position(maps(game) / "position.json"), manifest)
    exempt = []
    for spec in manifest.rows:
        data = {**{f: True for f in spec.flags}, "type": spec.type, "size": spec.size,
                "nationality": spec.nationality}
        unit = Unit(spec.id, spec.side, None, spec.unit_class or "", 4.0, 2,
                    {k: v for k, v in data.items() if v is not None})
        alone = dataclasses.replace(situation, units=(unit,), state={"turn": 5})
        engine = Engine(alone)
        listed = engine.system.exerts_zoc(engine, unit)
        assert listed is not _NO_ZOC_BY_THE_TEXT[game](spec), spec.id
        exempt += [] if listed else [spec.id]
    assert game != "cobra" or {"LXXXIV", "932 Flak"} <= set(exempt)
