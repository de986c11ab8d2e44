"""pipeline/validate/lint.py and screen.py: consistency of one map, no scan needed."""

from __future__ import annotations

import json
import re

import pytest

from pipeline.errors import BocageError, DataError
from pipeline.model import map_from_data
from pipeline.model.mapdata import LINT_KINDS
from pipeline.validate import lint_map, roles_for, screen_document, switched_off
from pipeline.validate.sides import corners_of_side, neighbour_ids

from .conftest import ROOT, side_entry

# The demo's standing findings (its coast is unmarked but at Omaha, see the report).
DEMO_KINDS = {"river_dead_end": 2, "road_dead_end": 3, "sea_without_coast": 1,
              "lone_rare_terrain": 1}


def _lint(data):
    the_map, found = screen_document(data, "typed.json")
    return found + lint_map(the_map)


def _new(data, demo_map):
    """Findings of ``data`` that the true demo map does not have."""
    standing = {(f.kind, f.where) for f in lint_map(demo_map)}
    return [f for f in _lint(data) if (f.kind, f.where) not in standing]


def test_the_demo_has_only_its_standing_findings_all_checks(demo_map):
    # A river rising inland, roads that stop in a field, sea against the bluffs: unusual,
    # not wrong by any rule or by the map's declarations, so worth a look only.
    found = lint_map(demo_map)
    counts = {k: sum(f.kind == k for f in found) for k in DEMO_KINDS}
    assert counts == DEMO_KINDS and {f.severity for f in found} == {"check"}
    # The sea against the bluffs is one look for the whole shore, not 38.
    shore = next(f for f in found if f.kind == "sea_without_coast")
    assert "along 38 hexsides with no coast" in shore.message


def test_unknown_names_are_all_reported_with_a_suggestion(demo_data):
    demo_data["hexes"]["0101"] = {"terrain": ["wods"]}
    demo_data["hexes"]["1718"]["features"] = ["victory_locaton"]
    side_entry(demo_data, "0804", "0805")["features"] = ["rivr"]
    found = [f for f in _lint(demo_data) if f.kind == "unknown_name"]
    assert {(f.where, f.severity) for f in found} == {
        ("0101", "error"), ("1718", "error"), ("0804/0805", "error")}
    assert "did you mean 'woods'" in next(f.message for f in found if f.where == "0101")


def test_hexes_off_the_grid_are_reported_not_fatal(demo_data):
    demo_data["hexes"]["2623"] = {"terrain": ["woods"]}
    demo_data["hexsides"].append({"hexes": ["2522", "2623"], "features": ["road"]})
    demo_data["locations"][2]["hexes"].append("9999")
    found = [f for f in _lint(demo_data) if f.kind == "off_grid"]
    assert [f.where for f in found] == ["2623", "2522/2623", "9999"]
    assert "not on the grid" in found[0].message


def test_a_map_that_does_not_load_at_all_is_bad_input(demo_data):
    del demo_data["boards"]
    with pytest.raises(DataError, match="boards"):
        screen_document(demo_data, "typed.json")


def test_a_hexside_given_twice_with_different_features_is_an_error(demo_data, demo_map):
    demo_data["hexsides"].append({"hexes": ["0805", "0804"], "features": ["road"]})
    demo_data["hexsides"].append({"hexes": ["0303", "0304"], "features": ["road"]})
    found = {(f.where, f.severity) for f in _new(demo_data, demo_map)
             if f.kind == "duplicate_hexside"}
    assert found == {("0804/0805", "error"), ("0303/0304", "warning")}


def test_a_bridge_needs_a_road_and_a_river_000_8_2_2(demo_data, demo_map):
    side_entry(demo_data, "1806", "1807")["features"] = ["road", "river", "bridge"]  # fine
    side_entry(demo_data, "0804", "0805")["features"] = ["river", "bridge"]
    [found] = [f for f in _new(demo_data, demo_map) if f.kind == "bridge_without_road_river"]
    assert found.where == "0804/0805" and "without a road" in found.message
    assert found.cite == "000_3d79f68a6e3e33eb.txt §8.2.2"


def test_a_road_of_one_hexside_is_a_warning_a_dead_end_a_check(demo_data, demo_map):
    demo_data["hexsides"].append({"hexes": ["1003", "1004"], "features": ["road"]})
    found = [(f.kind, f.where, f.severity) for f in _new(demo_data, demo_map)
             if f.kind.startswith("road")]
    assert found == [("road_gap", "1003/1004", "warning")]


def test_a_road_hexside_left_out_is_a_gap_between_two_facing_ends(demo_data, demo_map):
    side_entry(demo_data, "1806", "1906")["features"] = ["trail"]  # keep the entry
    demo_data["hexsides"] = [s for s in demo_data["hexsides"]
                             if sorted(s.get("hexes", [])) != ["1806", "1906"]]
    found = [(f.kind, f.where, f.severity) for f in _new(demo_data, demo_map)
             if f.kind.startswith("road")]
    assert found == [("road_gap", "1806/1906", "warning")]


def test_a_river_hexside_left_out_is_a_break_a_river_source_a_check(demo_data, demo_map):
    demo_data["hexsides"] = [s for s in demo_data["hexsides"]
                             if sorted(s.get("hexes", [])) != ["1005", "1105"]]
    found = [f for f in _new(demo_data, demo_map) if f.kind.startswith("river")]
    assert [(f.kind, f.severity) for f in found] == [("river_break", "warning")]
    assert {"1005", "1105"} <= set(found[0].hexes) and "1 hexside away" in found[0].message
    # The demo's own river rises inland at 0804/0805: a check, one finding for its end.
    standing = [f for f in lint_map(demo_map) if f.kind == "river_dead_end"]
    assert [(f.where, f.severity) for f in standing] == [("0804/0805", "check"),
                                                          ("2107/2108", "check")]


def test_a_river_typed_on_the_next_side_of_its_hex_is_a_break(demo_data, demo_map):
    side = side_entry(demo_data, "1005", "1105")
    side["hexes"] = ["1005", "1006"]  # the hex's next side, not on the river
    found = [f for f in _new(demo_data, demo_map) if f.kind == "river_break"]
    assert len(found) == 1 and found[0].severity == "warning"


def test_a_road_crossing_a_river_without_the_bridge_the_map_types(demo_data, demo_map):
    # A map that types a bridge on its crossings declares them: one left out is a slip.
    side_entry(demo_data, "1806", "1807")["features"] = ["road", "river", "bridge"]
    demo_data["hexsides"].append({"hexes": ["1004", "1005"], "features": ["road", "river"]})
    found = [f for f in _lint(demo_data) if f.kind == "road_river_without_bridge"]
    assert [(f.where, f.severity) for f in found] == [("1004/1005", "error")]
    # Cited: the bridge's note cites the rule.
    assert found[0].cite == "000_3d79f68a6e3e33eb.txt §8.2.2"
    # The demo types no bridge: 000 §8.2.2 bridges every crossing by itself.
    assert not [f for f in lint_map(demo_map) if f.kind == "road_river_without_bridge"]


def test_a_map_that_declares_a_bridge_and_types_none_has_left_it_out(demo_data):
    # bocage's own halftone sheet has one bridge; typed without it, the map still declares
    # the bridge, and no rule its note cites bridges the crossing: a warning there.
    demo_data["hexside_features"]["bridge"]["note"] = "drawn where a road crosses a river"
    demo_data["hexsides"].append({"hexes": ["1004", "1005"], "features": ["road", "river"]})
    found = [f for f in _lint(demo_data) if f.kind == "road_river_without_bridge"]
    # Each crossing: the one added and the demo's own at 1806/1807.
    assert [(f.where, f.severity, f.cite) for f in found] == [("1004/1005", "warning", ""),
                                                              ("1806/1807", "warning", "")]
    assert "declares bridge hexsides and types none" in found[0].message
    assert "cite it in the bridge's note" in found[0].message
    # A map that declares no bridge at all says nothing of them (Cobra, June '44).
    del demo_data["hexside_features"]["bridge"]
    assert not [f for f in _lint(demo_data) if f.kind == "road_river_without_bridge"]


def test_sea_next_to_inland_terrain_without_coast(demo_data, demo_map):
    demo_data["hexes"]["1010"] = {"terrain": ["all_sea"]}
    found = [f for f in _new(demo_data, demo_map) if f.kind == "sea_without_coast"]
    # The demo declares no coast hexsides: a lake's whole shore is one look, its hexes
    # all named, apart from the sea's own shore (another body of water).
    assert [(f.severity, f.where) for f in found] == [("check", "0910/1010")]
    assert len(found[0].hexes) == 7 and "1010" in found[0].hexes
    assert "sea meets clear along 6 hexsides with no coast (0910/1010 ... 1010/1111)" in (
        found[0].message)
    # A beach is a coast: Omaha's hexes next to the sea raise nothing.
    assert not any("2219" in f.hexes for f in lint_map(demo_map) if f.kind == "sea_without_coast")
    # A map with a coast hexside feature declares its coasts: sea against land is a warning.
    demo_data["hexside_features"]["coastline"] = {"kind": "along"}
    found = [f for f in _lint(demo_data) if f.kind == "sea_without_coast" and "1010" in f.hexes]
    assert len(found) == 6 and {f.severity for f in found} == {"warning"}


def test_a_shore_of_one_hexside_keeps_the_hexsides_own_finding(demo_data, demo_map):
    # A lake in the corner with beaches all round but on one side: that side's finding,
    # drawn on it, as on a map that declares its coasts.
    demo_data["hexes"]["0101"] = {"terrain": ["all_sea"]}
    around = neighbour_ids(map_from_data(demo_data), "0101")
    for hex_id in around[1:]:
        demo_data["hexes"][hex_id] = {"terrain": ["beach"]}
    found = [f for f in _new(demo_data, demo_map) if f.kind == "sea_without_coast"]
    side = "/".join(sorted(("0101", around[0])))
    assert [(f.where, f.hexes, f.severity) for f in found] == [
        (side, ("0101", around[0]), "check")]
    assert found[0].message == (f"{side}: sea (0101) next to clear ({around[0]}) with no"
                                " coast: is 0101 sea, or is a beach or coast missing?")


def test_a_lint_kind_is_switched_off_per_map_with_its_reason(demo_data):
    demo_data["lint_off"] = {"sea_without_coast": "the bluffs at Omaha are printed as terrain"}
    the_map = map_from_data(demo_data)
    assert not [f for f in lint_map(the_map) if f.kind == "sea_without_coast"]
    assert switched_off(the_map) == {"sea_without_coast":
                                     "the bluffs at Omaha are printed as terrain"}
    from pipeline.validate import text_report, validate_data
    result = validate_data(demo_data, file="map.json")
    assert result.to_dict()["lint_off"] == switched_off(the_map)
    assert ("lint sea_without_coast switched off by the map: the bluffs at Omaha are printed"
            " as terrain") in text_report(result)


def test_an_unknown_lint_kind_is_a_located_error(demo_data):
    demo_data["lint_off"] = {"sea_without_cost": "typo"}
    with pytest.raises(DataError, match=r"lint_off\.sea_without_cost: unknown lint kind"
                                        r" 'sea_without_cost' \(did you mean"):
        map_from_data(demo_data, "map.json")


def test_every_lint_kind_can_be_switched_off():
    source = (ROOT / "pipeline" / "validate" / "lint.py").read_text()
    made = set(re.findall(r'"(?:error|warning|check)"(?: if \w+ else "\w+")?, "(\w+)"', source))
    made |= set(re.findall(r'"(?:error|warning|check)" if [^,]+, "(\w+)"', source))
    assert made == set(LINT_KINDS)


def test_roles_are_configurable(demo_map):
    relaxed = roles_for(demo_map, {"coast": ["beach", "clear", "woods", "rough"]})
    assert not [f for f in lint_map(demo_map, relaxed) if f.kind == "sea_without_coast"]
    with pytest.raises(BocageError, match="unknown role 'ocean'"):
        roles_for(demo_map, {"ocean": ["all_sea"]})


def test_roles_follow_each_maps_vocabulary():
    from pipeline.model import load_map

    from .conftest import ROOT
    cobra = roles_for(load_map(ROOT / "maps" / "cobra" / "map.json"))
    assert cobra.sea == {"all_sea"} and cobra.coast_sides == {"all_sea"}
    assert cobra.towns == {"caen_city", "cherbourg_city", "town"}
    assert cobra.rivers == {"dives_river", "major_river", "minor_river"}
    june = roles_for(load_map(ROOT / "maps" / "june44" / "map.json"))
    assert june.sea == {"ocean"} and june.coast_sides == {"ocean"} and june.coast == {"beach"}


def test_a_named_town_on_terrain_that_is_not_a_town(demo_data, demo_map):
    demo_data["hexes"]["1718"]["terrain"] = ["clear"]  # Treviers, a city location
    demo_data["hexes"]["0101"] = {"terrain": ["clear"], "name": "Isigny"}
    demo_data["hexes"]["0110"] = {"terrain": ["woods"], "name": "Le Hameau"}
    found = {(f.where, f.severity) for f in _new(demo_data, demo_map)
             if f.kind == "town_terrain"}
    assert found == {("1718", "warning"), ("0101", "warning"), ("0110", "check")}


def test_a_lone_hex_of_rare_terrain_is_a_check(demo_data, demo_map):
    demo_data["hexes"]["0110"] = {"terrain": ["marsh"]}
    found = [(f.where, f.severity) for f in _new(demo_data, demo_map)
             if f.kind == "lone_rare_terrain"]
    assert found == [("0110", "check")]


def test_a_hex_left_out_of_a_map_that_lists_every_hex(demo_map):
    data = demo_map.model_dump(mode="json", exclude_none=True)
    data["hexes"] = {h: {"terrain": demo_map.terrain_of(h)} for h in demo_map.hex_ids()}
    del data["hexes"]["1213"]
    found = [f for f in lint_map(map_from_data(data)) if f.kind == "missing_hex"]
    assert [(f.where, f.severity) for f in found] == [("1213", "warning")]


def _two_boards(demo_data, placed: bool, hexsides):
    """The demo's vocabulary on two 4 x 4 boards, B east of A when ``placed``."""
    grid = {"orientation": "flat", "cols": 4, "rows": 4}
    second = {"name": "B", "grid": {**grid, "numbering": {"stagger": "even-down",
                                                          "prefix": "B"}}}
    if placed:
        second["placement"] = {"hex": "B0101", "at": "A0501"}
    demo_data["boards"] = [{"name": "A", "grid": {**grid, "numbering": {
        "stagger": "even-down", "prefix": "A"}}}, second]
    demo_data.update(hexes={}, locations=[], edges={}, hexsides=[
        {"hexes": list(pair), "features": ["river"]} for pair in hexsides])
    return map_from_data(demo_data, "two.json")


def test_a_river_across_the_seam_of_placed_boards_runs_on():
    """Placed boards are one map to the lint: the two hexsides of A0402 facing board B
    (B0102 and B0103 across the seam) meet at a corner, so a river along both has no
    dead end there; its far ends, inland, are named with each board's ids."""
    data = json.loads((ROOT / "maps" / "demo" / "map.json").read_text())
    river = [("A0402", "B0102"), ("A0402", "B0103")]
    the_map = _two_boards(data, True, river)
    a, b = (set(corners_of_side(the_map, k)) for k in river)
    assert a & b
    ends = [f for f in lint_map(the_map) if f.kind == "river_dead_end"]
    assert len(ends) == 2 and {f.where for f in ends} == {"A0402/B0102", "A0402/B0103"}
    assert all("B01" in f.message and "A0" in f.message for f in ends)


def test_unplaced_boards_keep_their_rivers_apart():
    """The same local hexes on two unplaced boards are not one river's corners: each
    board's short river is one finding for its two ends (not the same end twice), named
    with its own board's ids."""
    data = json.loads((ROOT / "maps" / "demo" / "map.json").read_text())
    apart = [("A0202", "A0203"), ("B0202", "B0203")]
    found = [f for f in lint_map(_two_boards(data, False, apart)) if f.kind == "river_dead_end"]
    assert sorted(f.where for f in found) == ["A0202/A0203", "B0202/B0203"]
    assert all("both ends" in f.message for f in found)
    assert all(f.message.split("(")[1].count("B0") == 2 for f in found if f.where[0] == "B")
