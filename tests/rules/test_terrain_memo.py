"""What the map keeps for its positions' engines (``Situation.terrain_memo``).

What a step or a supply line costs depends only on the map, the chart and the profile,
so every engine asking about a position on the map shares those tables, and so do the
positions (``Situation.with_position``). A second engine must answer exactly as the
first (which worked them out), and as an engine on a copy of the position that works
them out again, for moves and supply in every seed system. What a unit selector says of a
unit (who exerts a ZOC, the class it moves as) is kept too, for that unit as it is: a unit
whose values change is asked again.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from pipeline.rules import Engine, case_from_data
from pipeline.rules.registry import registry

SYSTEMS = {"fm_omaha": ("leg", "mobile"), "june44": ("infantry", "infantry"),
           "cobra": ("infantry", "mechanized"), "tactical": ("infantry", "vehicle")}


def position(system: str, seed: int) -> dict[str, Any]:
    """A 10 x 10 map of clear, woods and roads with 30 units of two sides, packed close."""
    rng = random.Random(seed)
    classes = SYSTEMS[system]
    sides = ("allied", "german")
    hexes = [f"{c:02d}{r:02d}" for c in range(1, 11) for r in range(1, 11)]
    rng.shuffle(hexes)
    units = [{"id": f"u{i}", "side": sides[i % 2], "hex": h, "class": classes[i % 2],
              "ma": 6, "size": "regiment", "nationality": "US" if i % 2 == 0 else "German"}
             for i, h in enumerate(hexes[:30])]
    terrain = {h: ["woods"] for h in hexes[30:50]}
    woods: Any = 2 if system != "fm_omaha" else {"leg": 2, "mobile": 3}
    return {"system": system, "map": {"cols": 10, "rows": 10, "terrain": terrain},
            "terrain_chart": {"hex": {"clear": 1, "woods": woods}},
            "units": units, "state": {"active_side": "allied", "turn": 5, "phase": "movement"},
            "query": {}, "expect": {}}


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_a_second_engine_answers_as_the_first_and_as_a_fresh_position(system: str) -> None:
    assert system in registry()
    situation = case_from_data(position(system, 4)).situation
    movers = [u.id for u in situation.units if u.side == "allied"][:6]
    first = {u: Engine(situation).reachable(u) for u in movers}
    supply = Engine(situation).supply()
    # Kept for the next engine (the tactical game's moves price every step their own way
    # and it traces no supply: 002_9cac1969b0421155.txt)
    assert bool(situation.terrain_memo) == (system != "tactical")
    for u in movers:
        again = Engine(situation).reachable(u)
        anew = Engine(dataclasses.replace(situation)).reachable(u)  # its own tables
        for other in (again, anew):
            assert other.costs == first[u].costs
            assert other.refused == first[u].refused
            assert other.paths == first[u].paths
    assert any(first[u].costs for u in movers)
    assert Engine(situation).supply() == supply
    assert Engine(dataclasses.replace(situation)).supply() == supply


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_the_facts_of_the_position_are_worked_out_once_and_as_anew(system: str) -> None:
    """Each side's ZOC, the hexes enemy units bar and the stops are the position's
    (``Situation.position_memo``): a second engine gets the same objects, a copy of the
    position works out equal ones."""
    situation = case_from_data(position(system, 5)).situation
    first, second = Engine(situation), Engine(situation)
    fresh = Engine(dataclasses.replace(situation))
    for side in ("allied", "german"):
        zone = first.enemy_zoc(side)
        assert second.enemy_zoc(side) is zone
        assert fresh.enemy_zoc(side) == zone and fresh.enemy_zoc(side) is not zone
        # Every hex in it is next to an exerting unit of the other side (a ZOC extends
        # into the adjacent hexes: 000 §6.0, 001 §6.0, 003 §7.1).
        for h, units in zone.items():
            assert units and all(u.side != side and u.hex is not None
                                 and first.grid.adjacent(u.hex, h) for u in units)
    assert ("enemy_zoc", "allied") in situation.position_memo
    mover = next(u.id for u in situation.units if u.side == "allied")
    first.reachable(mover)
    assert any(k[0] == "enemy_barred" for k in situation.position_memo)
    # The plain steps of a kind of mover are the position's too.
    assert any(len(k) > 1 and k[1] == "kernel_steps" for k in situation.position_memo)


def test_a_unit_whose_values_change_is_asked_again_from_position_to_position() -> None:
    # 000 §6.0 (demo rules.json zoc.not_exerted_by: the no_zoc flag): the same unit id
    # with the flag set, then cleared, exerts no ZOC, then exerts it again, though the
    # map keeps who exerts one for the units it has seen.
    from pathlib import Path

    from pipeline.rules.game import load_game

    demo = Path(__file__).resolve().parents[2] / "maps" / "demo"
    game = load_game(demo, demo / "position.json")
    german = next(u for u in game.units if u.side == "german" and u.hex is not None)

    def zone(unit_data: dict[str, Any]) -> list[Any]:
        unit = dataclasses.replace(german, data={**german.data, **unit_data})
        later = game.with_position(tuple(unit if u.id == german.id else u for u in game.units))
        assert later.terrain_memo is game.terrain_memo
        zoc = Engine(later).enemy_zoc("allied")  # every German unit's, asked at once
        return sorted(h for h, units in zoc.items() if unit in units)

    plain = zone({})
    assert plain, "the German unit exerts a ZOC on the demo position"
    assert zone({"no_zoc": True}) == []
    assert zone({"no_zoc": False}) == plain
