"""pipeline/validate/facts.py: every claim kind of facts.json checked against a map."""

from __future__ import annotations

import pytest

from pipeline.model import facts_from_data, load_facts, load_map, map_from_data
from pipeline.validate import check_facts

from .conftest import DEMO, GAME_FOLDERS, ROOT, side_entry

# June '44's grid is provisional: under it Caumont (2911) is not on the south edge, which
# maps/june44/map.json's notes say; the validator reports it, as it should.
KNOWN = {("june44", "caumont-south")}

CITE_10_1 = "000_3d79f68a6e3e33eb.txt §10.1"


def _demo_facts(extra=()):
    data = load_facts(DEMO / "facts.json").model_dump(mode="json", exclude_none=True)
    data["facts"] += list(extra)
    return facts_from_data(data)


@pytest.mark.parametrize("folder", GAME_FOLDERS)
def test_the_facts_of_every_game_folder_hold_for_its_map(folder):
    the_map = load_map(ROOT / "maps" / folder / "map.json")
    found = check_facts(load_facts(ROOT / "maps" / folder / "facts.json"), the_map)
    wrong = [f for f in found if f.severity != "check" and (folder, f.fact) not in KNOWN]
    assert wrong == []
    # What cannot be tested yet (an unsurveyed map without rivers) says so.
    assert all(f.kind == "fact_unverified" for f in found if f.severity == "check")


def test_unsurveyed_rivers_are_unverified_not_wrong():
    found = check_facts(load_facts(ROOT / "maps" / "omaha" / "facts.json"),
                        load_map(ROOT / "maps" / "omaha" / "map.json"))
    assert [(f.kind, f.fact, f.cite) for f in found] == [
        ("fact_unverified", "douve-taute", CITE_10_1)]


def test_one_broken_fact_of_each_kind_is_reported_with_its_citation(demo_data):
    hexside_fact = {"id": "douve-hexside", "claim": "hexside_feature", "feature": "river",
                    "hexsides": [["1005", "1105"]], "hexes": ["0805"], "cite": CITE_10_1}
    facts = _demo_facts([hexside_fact])
    assert check_facts(facts, map_from_data(demo_data)) == []
    demo_data["hexes"]["2318"]["terrain"] = ["clear"]                     # hex_terrain
    demo_data["hexes"]["1718"]["name"] = "Trevieres"                       # hex_name
    demo_data["locations"] = [p for p in demo_data["locations"] if p["name"] != "Treviers"]
    side_entry(demo_data, "1005", "1105")["features"] = ["road"]           # hexside_feature
    side_entry(demo_data, "1205", "1206")["features"] = ["ditch"]          # river_course
    del demo_data["edges"]["south"]                                        # map_edge
    found = check_facts(facts, map_from_data(demo_data))
    got = {(f.fact, f.kind, f.where, f.cite) for f in found}
    assert got == {
        ("omaha-beach-terrain", "fact_hex_terrain", "2318",
         "000_3d79f68a6e3e33eb.txt §11.0, §11.2.1"),
        ("treviers", "fact_hex_name", "1718", "000_3d79f68a6e3e33eb.txt §11.1.4, §13.0"),
        ("douve-hexside", "fact_hexside_feature", "1005/1105", CITE_10_1),
        ("douve-taute", "fact_river_course", "2108", CITE_10_1),
        ("south-edge-german-entry", "fact_map_edge", "", "000_3d79f68a6e3e33eb.txt §11.1.2"),
    }
    assert all(f.severity == "error" and f.source == "facts" for f in found)
    course = next(f for f in found if f.kind == "fact_river_course")
    assert "broken into 2 pieces" in course.message and "douve-taute" in course.message


def test_a_river_that_misses_a_named_hex(demo_data):
    demo_data["hexsides"] = [s for s in demo_data["hexsides"]
                             if not ("river" in s["features"] and "0805" in s.get("hexes", []))]
    found = check_facts(_demo_facts(), map_from_data(demo_data))
    assert [(f.fact, f.where) for f in found] == [("douve-taute", "0805")]


def test_a_fact_naming_a_hex_off_the_map(demo_data):
    fact = {"id": "far", "claim": "hex_terrain", "hexes": ["3030"], "terrain": "woods",
            "cite": CITE_10_1}
    [found] = check_facts(_demo_facts([fact]), map_from_data(demo_data))
    assert found.kind == "fact_off_map" and found.cite == CITE_10_1


def test_map_edge_hexes_must_lie_on_the_edge(demo_data):
    fact = {"id": "edge", "claim": "map_edge", "edge": "north", "hexes": ["0101", "0505"],
            "cite": CITE_10_1}
    [found] = check_facts(_demo_facts([fact]), map_from_data(demo_data))
    assert (found.where, found.kind) == ("0505", "fact_map_edge")
