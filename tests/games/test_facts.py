"""The facts files (the demo's and each game's) load, cite the rulebook, name hexes that are
on their map, and hold for the map data where the map already says (terrain, names, edges).
Checking facts against a map in general is the validator's job (issue 7); this keeps the
data in this repository consistent with itself."""

from __future__ import annotations

import pytest

from pipeline.model import Facts, MapData, load_facts, load_map
from pipeline.model.facts import CLAIMS

from .conftest import GAMES, ROOT, RULEBOOKS, maps

FOLDERS = [*GAMES, "demo"]


def _both(folder: str) -> tuple[Facts, MapData]:
    path = ROOT / "maps" / folder
    return load_facts(path / "facts.json"), load_map(path / "map.json")


@pytest.mark.parametrize("folder", FOLDERS)
def test_facts_load_and_cite_the_rulebook(folder):
    facts, _ = _both(folder)
    book = RULEBOOKS.get(folder, RULEBOOKS["omaha"])
    assert facts.source and facts.notes
    for fact in facts.facts:
        assert fact.claim in CLAIMS
        assert fact.cite.startswith(book) and "§" in fact.cite, fact.id


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_hex_a_fact_names_is_on_the_map(folder):
    facts, the_map = _both(folder)
    for where, hex_id in facts.places():
        assert the_map.has_hex(hex_id), (where, the_map.why_not_on_map(hex_id))


def _named(the_map: MapData, hex_id: str, name: str) -> bool:
    entry = the_map.hexes.get(hex_id)
    if entry is not None and entry.name == name:
        return True
    return any(loc.name.startswith(name) and hex_id in loc.hexes for loc in the_map.locations)


@pytest.mark.parametrize("folder", FOLDERS)
def test_terrain_and_name_facts_hold_on_the_map(folder):
    facts, the_map = _both(folder)
    for fact in facts.of_claim("hex_terrain"):
        for hex_id in fact.hexes:
            assert fact.terrain in the_map.terrain_of(hex_id), (fact.id, hex_id)
    for fact in facts.of_claim("hex_name"):
        for hex_id in fact.hexes:
            assert fact.name is not None and _named(the_map, hex_id, fact.name), (fact.id, hex_id)


@pytest.mark.parametrize("folder", FOLDERS)
def test_edge_facts_hold_on_the_map(folder):
    facts, the_map = _both(folder)
    for fact in facts.of_claim("map_edge"):
        assert fact.edge in the_map.edges, fact.id
        if fact.role is not None and fact.edge is not None:
            edge = the_map.edges[fact.edge]
            assert fact.role == edge.role or fact.role in edge.note, fact.id
        if fact.hexes and fact.id != "caumont-south":  # June '44's grid is provisional
            for hex_id in fact.hexes:
                grid = the_map.grid_for(hex_id)
                assert grid is not None
                col, row = grid.offset(grid.hex(hex_id))
                on = {"north": row == 0, "south": row == grid.rows - 1,
                      "west": col == 0, "east": col == grid.cols - 1}
                assert on[fact.edge or ""], (fact.id, hex_id)


def test_the_demo_river_runs_between_the_facts_ends():
    facts, the_map = _both("demo")
    [course] = facts.of_claim("river_course")
    touching = {h for side in the_map.hexsides if course.feature in side.features
                for h in (side.hexes or [])}
    assert course.hexes[0] in touching and course.hexes[-1] in touching


def test_game_maps_enter_no_hexside_the_text_does_not_state():
    for game in GAMES:
        assert load_map(maps(game) / "map.json").hexsides == []


def test_the_tactical_aid_states_no_map_fact():
    facts, _ = _both("tactical")
    assert facts.facts == []
