"""pipeline/validate/diff.py: hand-entered vs digitized, hex by hex and hexside by hexside."""

from __future__ import annotations

import copy

import pytest

from pipeline.errors import BocageError
from pipeline.model import map_from_data
from pipeline.validate import diff_maps
from pipeline.validate.sides import feature_sides, sides_of

from .conftest import side_entry


def test_a_map_agrees_with_itself(demo_map):
    result = diff_maps(demo_map, demo_map)
    assert result.findings == [] and result.hexes_agreeing == result.hexes == 550
    assert all(a.agreement == 1.0 for a in result.terrain.values())
    assert result.features["river"].hand == result.features["river"].both == 27


def test_disagreements_carry_the_digitizers_confidence_most_certain_first(demo_data, demo_map):
    demo_data["hexes"]["0101"] = {"terrain": ["woods"], "confidence": 0.4}
    demo_data["hexes"]["0102"] = {"terrain": ["marsh"], "confidence": 0.95}
    demo_data["hexes"]["0103"] = {"terrain": ["rough"], "confidence": 0.9}
    demo_data["hexes"]["0104"] = {"terrain": ["rough"], "confidence": 0.75}
    digitized = map_from_data(demo_data)
    result = diff_maps(demo_map, digitized)
    # The calibrated bands: from 0.9 an error, from 0.7 a warning, below a check.
    assert [(f.where, f.confidence, f.severity) for f in result.findings] == [
        ("0102", 0.95, "error"), ("0103", 0.9, "error"), ("0104", 0.75, "warning"),
        ("0101", 0.4, "check")]
    assert "typed clear, read marsh at confidence 0.95" in result.findings[0].message
    assert result.terrain["marsh"].digitized == 16 and result.terrain["marsh"].both == 15
    assert result.hexes_agreeing == 546


def test_the_typed_main_terrain_is_compared_with_the_readings_main_terrain(demo_data, demo_map):
    # The reading lists every terrain present; the typist types the main one.
    demo_data["hexes"]["0101"] = {"terrain": ["clear", "woods", "rough"], "confidence": 0.99,
                                  "fractions": {"clear": 0.8, "woods": 0.12, "rough": 0.08}}
    assert diff_maps(demo_map, map_from_data(demo_data)).findings == []


def test_a_typed_terrain_the_reading_shares_the_hex_with_is_a_soft_note(demo_data, demo_map):
    # Typed woods, read 55% clear / 45% woods: both are in the hex.
    typed = map_from_data({**demo_data, "hexes": {**demo_data["hexes"],
                                                  "0101": {"terrain": ["woods"]}}})
    demo_data["hexes"]["0101"] = {"terrain": ["clear", "woods"], "confidence": 0.95,
                                  "fractions": {"clear": 0.55, "woods": 0.45}}
    found = diff_maps(typed, map_from_data(demo_data)).findings
    assert [(f.kind, f.severity) for f in found] == [("terrain_mixed", "check")]
    assert "55% clear / 45% woods" in found[0].message
    # The same reading with 10% woods is a disagreement, as sure as the reading.
    demo_data["hexes"]["0101"]["fractions"] = {"clear": 0.9, "woods": 0.1}
    found = diff_maps(typed, map_from_data(demo_data)).findings
    assert [(f.kind, f.severity) for f in found] == [("terrain_differs", "error")]


def test_a_typed_terrain_the_classifier_gives_almost_no_chance_is_an_alarm(demo_data, demo_map):
    # The foreign bench's halftone map, learner seed 0: 2114 is 75% woods / 25% hills in
    # the truth, read 74% woods / 26% hills at 0.97, and the classifier gives hills a 2%
    # chance of being the main terrain. Hills typed there is a slip, not a printer's choice.
    typed = map_from_data({**demo_data, "hexes": {**demo_data["hexes"],
                                                  "0101": {"terrain": ["woods"]}}})
    demo_data["hexes"]["0101"] = {"terrain": ["clear", "woods"], "confidence": 0.97,
                                  "fractions": {"clear": 0.74, "woods": 0.26},
                                  "probabilities": {"clear": 0.97, "woods": 0.017}}
    found = diff_maps(typed, map_from_data(demo_data)).findings
    assert [(f.kind, f.severity) for f in found] == [("terrain_differs", "error")]
    assert found[0].message.endswith(": the reading gives woods a 2% chance of being the"
                                     " hex's main terrain")
    # Unsure which terrain it is (0.6), the classifier still rules woods out where the
    # shares see little of it (a tenth): a warning.
    demo_data["hexes"]["0101"] |= {"confidence": 0.6,
                                   "fractions": {"clear": 0.9, "woods": 0.1},
                                   "probabilities": {"clear": 0.6, "rough": 0.4}}
    found = diff_maps(typed, map_from_data(demo_data)).findings
    assert [(f.kind, f.severity) for f in found] == [("terrain_differs", "warning")]
    assert "gives woods under a 1% chance" in found[0].message
    # Where the shares see a quarter of it, an unsure classifier does not overrule them.
    demo_data["hexes"]["0101"]["fractions"] = {"clear": 0.74, "woods": 0.26}
    found = diff_maps(typed, map_from_data(demo_data)).findings
    assert [(f.kind, f.severity) for f in found] == [("terrain_mixed", "check")]
    demo_data["hexes"]["0101"]["fractions"] = {"clear": 0.9, "woods": 0.1}
    # Woods given a chance (here 0.07, the least that counts): both are in the hex, a look
    # as before; given 6% (the foreign icons map, learner seed 0: forest typed on a clear
    # hex read 44% clear / 32% woods / 16% forest), it is ruled out.
    demo_data["hexes"]["0101"]["probabilities"] = {"clear": 0.6, "woods": 0.07, "rough": 0.33}
    found = diff_maps(typed, map_from_data(demo_data)).findings
    assert [(f.kind, f.severity) for f in found] == [("terrain_mixed", "check")]
    demo_data["hexes"]["0101"]["probabilities"] = {"clear": 0.6, "woods": 0.06, "rough": 0.34}
    found = diff_maps(typed, map_from_data(demo_data)).findings
    assert [(f.kind, f.severity) for f in found] == [("terrain_differs", "warning")]
    assert "gives woods a 6% chance" in found[0].message
    demo_data["hexes"]["0101"]["probabilities"] = {"clear": 0.6, "woods": 0.07, "rough": 0.33}
    # Where the shares see most of the hex as the typed terrain, a classifier sure of
    # another is the reading in two minds, not a verdict (foreign photo 1506: hills read
    # 98% by area, clear by the classifier at 0.91, hills given 6%).
    sure_other = {"terrain": ["clear", "woods"], "confidence": 0.91,
                  "fractions": {"woods": 0.98, "clear": 0.02},
                  "probabilities": {"clear": 0.91, "woods": 0.06, "rough": 0.03}}
    found = diff_maps(typed, map_from_data({**demo_data, "hexes": {
        **demo_data["hexes"], "0101": sure_other}})).findings
    assert [(f.kind, f.severity) for f in found] == [("terrain_mixed", "check")]
    # A reading without its probabilities (an older file) is read by its shares alone.
    del demo_data["hexes"]["0101"]["probabilities"]
    found = diff_maps(typed, map_from_data(demo_data)).findings
    assert [(f.kind, f.severity) for f in found] == [("terrain_mixed", "check")]
    # Nor do the odds count in a hex typed with a symbol: its ink is read as terrain (own
    # icons sheet: clear town hexes read as marsh, clear given 1%).
    demo_data["hexes"]["0101"]["probabilities"] = {"clear": 0.6, "rough": 0.4}
    marked = map_from_data({**demo_data, "hexes": {**demo_data["hexes"], "0101": {
        "terrain": ["woods"], "features": ["victory_location"]}}})
    found = diff_maps(marked, map_from_data(demo_data)).findings
    assert ("terrain_mixed", "check") in [(f.kind, f.severity) for f in found]


def test_hexside_features_are_compared_one_by_one(demo_data, demo_map):
    side_entry(demo_data, "0804", "0805")["features"] = ["road"]  # a river typed as a road
    result = diff_maps(demo_map, map_from_data(demo_data))
    assert [(f.kind, f.where, f.message.split(": ")[1]) for f in result.findings] == [
        ("hexside_differs", "0804/0805", ("river typed, not read (the reading gives no"
         " confidence for this line)")),
        ("hexside_differs", "0804/0805", ("road read, not typed (the reading gives no"
         " confidence for this line)"))]
    # Without the reading's own confidence a line is only worth a look: the hexes' terrain
    # confidence says nothing about how sure the line reading was.
    assert {f.severity for f in result.findings} == {"check"}
    assert result.findings[0].hexes == ("0804", "0805")
    assert result.features["river"].both == 26 and result.features["road"].digitized == 71


def test_hexside_severity_is_the_readings_per_feature_confidence(demo_data, demo_map):
    demo_data["hexside_features"]["road"]["note"] = "printed roads"  # no rule cited
    typed = map_from_data(demo_data)
    # A road read on 1906/2006, going on from the typed road through 1906.
    demo_data["hexsides"].append({"hexes": ["1906", "2006"], "features": ["road"],
                                  "confidence": {"road": 0.95}})
    demo_data["hexsides"].append({"hexes": ["1905", "2005"], "features": ["road"],
                                  "confidence": {"road": 0.3}})
    found = {f.where: f for f in diff_maps(typed, map_from_data(demo_data)).findings}
    # A feature no rule cites decides less: at most a warning, however sure the reading.
    assert (found["1906/2006"].severity, found["1906/2006"].confidence) == ("warning", 0.95)
    assert "read at confidence 0.95" in found["1906/2006"].message
    assert found["1905/2005"].severity == "check"


def test_a_feature_a_rule_cites_is_an_error_when_the_reading_is_sure(demo_data, demo_map):
    # The demo's road note cites 000_3d79f68a6e3e33eb.txt §5.4.1 (road movement): a road
    # read at 0.95 that was not typed is an error, citing the rule.
    demo_data["hexsides"].append({"hexes": ["1906", "2006"], "features": ["road"],
                                  "confidence": {"road": 0.95}})
    found = [f for f in diff_maps(demo_map, map_from_data(demo_data)).findings
             if f.where == "1906/2006"]
    assert [(f.severity, f.cite) for f in found] == [("error", "000_3d79f68a6e3e33eb.txt §5.4.1")]


def test_a_stretch_read_with_nothing_of_its_kind_beside_it_is_a_check(demo_data, demo_map):
    # A road read at 0.99 on 0101/0102, with no road on any other side of either hex in
    # the reading: a mark misread (a town's dots, a name) more likely than a road left out.
    demo_data["hexsides"].append({"hexes": ["0101", "0102"], "features": ["road"],
                                  "confidence": {"road": 0.99}})
    found = {f.where: f for f in diff_maps(demo_map, map_from_data(demo_data)).findings}
    assert found["0101/0102"].severity == "check"
    assert "read on this hexside alone, with no road beside it" in found["0101/0102"].message
    # A river (along its hexsides) goes on at the corners: 0705/0805 meets the typed
    # river 0804/0805 at a corner, so a river read there is a line left out, named as sure.
    demo_data["hexsides"].append({"hexes": ["0705", "0805"], "features": ["river"],
                                  "confidence": {"river": 0.99}})
    found = {f.where: f for f in diff_maps(demo_map, map_from_data(demo_data)).findings}
    assert found["0705/0805"].severity == "error"


def test_a_bridge_read_where_the_rule_bridges_the_crossing_is_a_check(demo_data, demo_map):
    # The demo types no bridges: 000_3d79f68a6e3e33eb.txt §8.2.2 puts one wherever a road
    # crosses a river, so a printed bridge read on 1806/1807 (road and river) agrees with
    # the rule: worth a look only; a bridge read where no road crosses is not.
    side = side_entry(demo_data, "1806", "1807")
    side["features"], side["confidence"] = ["road", "river", "bridge"], {"bridge": 0.95}
    side_entry(demo_data, "1707", "1806")["features"] = ["river", "bridge"]
    found = {f.where: f for f in diff_maps(demo_map, map_from_data(demo_data)).findings}
    assert found["1806/1807"].severity == "check"
    assert "its rule puts one on every road over a river" in found["1806/1807"].message
    assert "bridge read, not typed" in found["1707/1806"].message
    assert "rule" not in found["1707/1806"].message
    # A map that types its bridges one by one has none by rule: the bridges are missing.
    typed = map_from_data({**demo_data, "hexsides": [
        {"hexes": s["hexes"], "features": [f for f in s["features"] if f != "bridge"]}
        if s.get("hexes") in (["1806", "1807"], ["1707", "1806"]) else s
        for s in demo_data["hexsides"]] + [{"hexes": ["0101", "0102"], "features": ["bridge"]}]})
    found = {f.where: f for f in diff_maps(typed, map_from_data(demo_data)).findings}
    assert (found["1806/1807"].severity, found["1806/1807"].confidence) == ("error", 0.95)
    # So has a map whose bridge note cites no rule (a key describing the print).
    demo_data["hexside_features"]["bridge"]["note"] = "drawn where a road crosses a river"
    typed = map_from_data({**demo_data, "hexsides": [
        {"hexes": s["hexes"], "features": [f for f in s["features"] if f != "bridge"]}
        if s.get("hexes") in (["1806", "1807"], ["1707", "1806"]) else s
        for s in demo_data["hexsides"]]})
    found = {f.where: f for f in diff_maps(typed, map_from_data(demo_data)).findings}
    assert found["1806/1807"].severity == "warning"  # no rule cites it: at most a warning


def test_a_road_read_off_the_map_is_a_check_where_the_map_types_no_outline(demo_data, demo_map):
    # The demo types one road on its outline (0121/SW, where the road leaves the map): a
    # map that types its outline has it compared like any hexside.
    # A road read on 0121/NW goes on from the typed road through 0121.
    demo_data["hexsides"].append({"hex": "0121", "direction": "NW", "features": ["road"],
                                  "confidence": {"road": 0.99}})
    found = {f.where: f for f in diff_maps(demo_map, map_from_data(demo_data)).findings}
    assert (found["0121/NW"].severity, found["0121/NW"].confidence) == ("error", 0.99)
    # Typed without its outline road, the map types no feature on its outline (no rule of
    # movement reads an off-map crossing): a road read there is a look only.
    typed = map_from_data({**demo_data, "hexsides": [
        s for s in demo_data["hexsides"] if "hex" not in s]})
    found = {f.where: f for f in diff_maps(typed, map_from_data(demo_data)).findings}
    assert {w: f.severity for w, f in found.items()} == {"0121/NW": "check", "0121/SW": "check"}
    assert "types no feature on its outline hexsides" in found["0121/NW"].message


def test_a_road_read_into_a_built_up_hex_is_a_check(demo_data, demo_map):
    # 1718 is typed city and read so, and a typed road goes through it: a city's
    # print is blocks and streets in dark ink, which a road reader follows too, so a road
    # read from it into 1817 is a look only (one read between clear hexes, going on from
    # a typed road, is an alarm: test_a_feature_a_rule_cites_is_an_error_when_the_reading_is_sure).
    assert demo_map.terrain_of("1718") == ["city"]
    assert any("road" in feature_sides(demo_map).get(k, ()) for k in sides_of(demo_map, "1718"))
    demo_data["hexsides"].append({"hexes": ["1718", "1817"], "features": ["road"],
                                  "confidence": {"road": 0.99}})
    found = {f.where: f for f in diff_maps(demo_map, map_from_data(demo_data)).findings}
    assert found["1718/1817"].severity == "check"
    assert "1718 is built-up" in found["1718/1817"].message


def test_a_road_read_into_a_built_up_hex_where_the_typed_road_stops_is_an_alarm(demo_data,
                                                                                 demo_map):
    # The typed road through 1718 left out on one of its hexsides: the typed road now
    # stops in the city where the reading carries it on. Two witnesses: an alarm.
    road = next(s for s in demo_data["hexsides"] if "1718" in s.get("hexes", [])
                and "road" in s["features"])
    typed = map_from_data({**demo_data, "hexsides": [
        s for s in demo_data["hexsides"] if s is not road]})
    for side in demo_data["hexsides"]:
        side["confidence"] = dict.fromkeys(side["features"], 0.99)
    found = {f.where: f for f in diff_maps(typed, map_from_data(demo_data)).findings}
    where = "/".join(sorted(road["hexes"]))
    assert found[where].severity == "error"
    assert "built-up" not in found[where].message


def test_a_line_of_the_same_ink_stopping_in_a_built_up_hex_makes_a_road_read_an_alarm(
        demo_data, demo_map):
    # bocage's own keybox sheet: a railroad in the road's ink, typed up to a city's edge
    # and left out on its last hexside into it, where the reading, missing the ticks,
    # reads a road. The typed railroad stops where the reading carries a line of its ink
    # on into the city: an alarm, as for a road the typed map breaks off (a road read
    # into a city is a look only where no typed line of its ink stops there).
    demo_data["hexside_features"]["railroad"] = {"kind": "across", "color": "#8a1e15"}
    typed_sides = feature_sides(demo_map)
    bare = [k for k in sides_of(demo_map, "1718") if not typed_sides.get(k)]
    into = next(k for k in bare if all(demo_map.has_hex(h) for h in k))
    edge = next(h for h in into if h != "1718")
    beyond = next(k for k in sides_of(demo_map, edge) if k != into
                  and not any(typed_sides.get(j) for j in sides_of(demo_map, edge)))
    typed = map_from_data({**demo_data, "hexsides": [
        *demo_data["hexsides"], {"hexes": list(beyond), "features": ["railroad"]}]})
    demo_data["hexsides"] = [*({**s, "confidence": dict.fromkeys(s["features"], 0.99)}
                               for s in demo_data["hexsides"]),
                             {"hexes": list(into), "features": ["road"],
                              "confidence": {"road": 0.99}}]
    where = "/".join(into)
    found = {f.where: f for f in diff_maps(typed, map_from_data(demo_data)).findings}
    assert found[where].severity in ("warning", "error")
    assert "built-up" not in found[where].message
    # In another ink the railroad says nothing of the road: a look, as a road in a city is.
    demo_data["hexside_features"]["railroad"]["color"] = "#2040c0"
    typed = map_from_data({**typed.model_dump(mode="json", exclude_none=True),
                           "hexside_features": demo_data["hexside_features"]})
    found = {f.where: f for f in diff_maps(typed, map_from_data(demo_data)).findings}
    assert found[where].severity == "check"
    assert "1718 is built-up" in found[where].message


def test_a_bridge_read_where_a_line_of_its_ink_was_typed_is_still_an_alarm(demo_data,
                                                                          demo_map):
    # A railroad in the bridge's ink typed over the river at 1806/1807, where the reading
    # has a road and a bridge: the road may be the railroad with its ticks missed, but a
    # bridge is a mark, not a line that could be a railroad: the bridge left out is named.
    demo_data["hexside_features"]["railroad"] = {"kind": "across", "color": "#333333"}
    demo_data["hexside_features"]["bridge"]["color"] = "#333333"
    demo_data["hexside_features"]["road"]["color"] = "#333333"
    side = side_entry(demo_data, "1806", "1807")
    typed = map_from_data({**demo_data, "hexsides": [
        {**s, "features": ["railroad", "river"]} if s is side else s
        for s in demo_data["hexsides"]] + [{"hexes": ["0101", "0102"], "features": ["bridge"]}]})
    side["features"] = ["road", "river", "bridge"]
    side["confidence"] = {"road": 0.99, "bridge": 0.95, "river": 0.99}
    found = [f for f in diff_maps(typed, map_from_data(demo_data)).findings
             if f.where == "1806/1807"]
    by_line = {f.message.split(" ")[1]: f for f in found}
    assert by_line["road"].severity == "check"
    assert (by_line["bridge"].severity, by_line["bridge"].confidence) == ("error", 0.95)


def test_a_line_read_as_another_of_the_same_ink_is_a_check(demo_data, demo_map):
    # A railroad in the road's own ink: typed as a railroad on 1906/2006 (going on from
    # the road through 1906), read as a road at 0.99. The reading may have missed the
    # ticks as well as the typist typed the wrong line: a look. In another ink, an alarm.
    demo_data["hexside_features"]["railroad"] = {"kind": "across", "color": "#8a1e15"}
    typed = map_from_data({**demo_data, "hexsides": [
        *demo_data["hexsides"], {"hexes": ["1906", "2006"], "features": ["railroad"]}]})
    demo_data["hexsides"].append({"hexes": ["1906", "2006"], "features": ["road"],
                                  "confidence": {"road": 0.99}})
    found = [f for f in diff_maps(typed, map_from_data(demo_data)).findings
             if f.where == "1906/2006" and "road read" in f.message]
    assert [f.severity for f in found] == ["check"]
    assert "railroad is typed here and printed in the same ink" in found[0].message
    demo_data["hexside_features"]["railroad"]["color"] = "#2040c0"
    found = [f for f in diff_maps(typed, map_from_data(demo_data)).findings
             if f.where == "1906/2006" and "road read" in f.message]
    assert [f.severity for f in found] == ["error"]


def test_a_stretch_read_under_the_name_of_a_line_of_its_ink_is_not_alone(demo_data):
    # A road left out on 0220/0321 (bocage's own photo sheet, where a railroad's ticks are
    # under a pixel): the reading reads that stretch as the railroad printed in the road's
    # ink, with the road beside it on 0121/0220. The same stroke under another name is no
    # stretch alone: an alarm, not a check.
    demo_data["hexside_features"]["railroad"] = {
        **demo_data["hexside_features"]["road"], "note": "printed in the road's ink"}
    reading = copy.deepcopy(demo_data)
    demo_data["hexsides"].remove(side_entry(demo_data, "0220", "0321"))
    side_entry(reading, "0220", "0321").update(features=["railroad"],
                                                confidence={"railroad": 0.99})
    found = {f.where: f for f in diff_maps(map_from_data(demo_data),
                                           map_from_data(reading)).findings}
    assert found["0220/0321"].severity in ("warning", "error")
    assert "railroad read, not typed" in found["0220/0321"].message
    assert "alone" not in found["0220/0321"].message


def test_a_line_left_out_is_judged_by_how_sure_the_reading_is_of_the_line(demo_data):
    # A road left out on 0220/0321, where the reading sees a stroke of the road's ink at
    # 0.99 but names it road at 0.00 (its tie share at the map's split between roads and
    # railroads: bocage's own photo sheet): a line is there whatever it is called, an error.
    # Typed as the railroad instead, it stays a look (the reading may have taken the one
    # for the other).
    demo_data["hexside_features"]["railroad"] = {
        **demo_data["hexside_features"]["road"], "note": "printed in the road's ink"}
    reading = copy.deepcopy(demo_data)
    side_entry(reading, "0220", "0321").update(confidence={"road": 0.0}, drawn={"road": 0.99})
    demo_data["hexsides"].remove(side_entry(demo_data, "0220", "0321"))
    found = {f.where: f for f in diff_maps(map_from_data(demo_data),
                                           map_from_data(reading)).findings}
    assert (found["0220/0321"].severity, found["0220/0321"].confidence) == ("error", 0.99)
    assert ("a line of its ink read at confidence 0.99; that it is the road, not the"
            " railroad, at 0.00") in found["0220/0321"].message
    demo_data["hexsides"].append({"hexes": ["0220", "0321"], "features": ["railroad"]})
    read = [f for f in diff_maps(map_from_data(demo_data), map_from_data(reading)).findings
            if f.where == "0220/0321" and "road read, not typed" in f.message]
    assert [(f.severity, f.confidence) for f in read] == [("check", 0.0)]


def test_a_stretch_typed_alone_and_not_read_is_an_alarm(demo_data, demo_map):
    # A road typed on 0101/0102 alone (no road on any other side of either hex, typed or
    # read), and not read: typed on the wrong hexside, more likely than printed so. A
    # road typed going on from another typed road, on to another, is only a check when
    # not read (the reading gives no confidence for a line it did not find); the last
    # stretch, into a clear hex where the road ends and the reading reads none, is an
    # alarm: typed one hexside too far (lint's road_dead_end, 003 has no rule of it).
    typed = map_from_data({**demo_data, "hexsides": [
        *demo_data["hexsides"], {"hexes": ["0101", "0102"], "features": ["road"]},
        {"hexes": ["1906", "2006"], "features": ["road"]},
        {"hexes": ["2006", "2106"], "features": ["road"]}]})
    found = {f.where: f for f in diff_maps(typed, demo_map).findings}
    assert found["0101/0102"].severity == "warning"
    assert "typed on this hexside alone" in found["0101/0102"].message
    assert found["1906/2006"].severity == "check"
    assert found["2006/2106"].severity == "warning"
    assert "the typed road ends at 2106" in found["2006/2106"].message
    # Where the hex at its end is a village, the road ends where roads do: a check.
    typed = map_from_data({**demo_data, "hexes": {**demo_data["hexes"],
                                                  "2106": {"terrain": ["village"]}},
                           "hexsides": typed.model_dump(mode="json")["hexsides"]})
    found = {f.where: f for f in diff_maps(typed, demo_map).findings}
    assert found["2006/2106"].severity == "check"
    # Where the reading reads a line of the road's ink on the stretch (a railroad, its
    # ticks blurred: own photo sheet), it reads the road, taken for another: a check.
    plain = {**demo_data["hexes"]}
    typed = map_from_data({**demo_data, "hexes": plain,
                           "hexsides": typed.model_dump(mode="json")["hexsides"]})
    demo_data["hexside_features"]["railroad"] = {"kind": "across", "color": "#8a1e15"}
    demo_data["hexsides"].append({"hexes": ["2006", "2106"], "features": ["railroad"],
                                  "confidence": {"railroad": 0.9}})
    found = {f.where: f for f in diff_maps(typed, map_from_data(demo_data)).findings
             if f.kind == "hexside_differs" and "road typed" in f.message}
    assert found["2006/2106"].severity == "check"


def _read_with_absence(demo_data, doubts=None):
    """The demo read back with the reader's confidence that lines are not where it read
    none: 0.91 where a hexside showed no trace of a road, ``doubts`` where it did."""
    data = {**demo_data, "hexside_features": {
        n: {**f, "absent": 0.91} if n in ("road", "river") else f
        for n, f in demo_data["hexside_features"].items()}}
    data["hexsides"] = [*demo_data["hexsides"], *(
        {"hexes": list(k), "features": [], "absent": v} for k, v in (doubts or {}).items())]
    return map_from_data(data)


# The typed road 1906/2006 below goes on to 2106, so that 2006 is no dead end: an end the
# reading reads no road into is an alarm of its own (test_a_stretch_typed_alone_...).
_GOES_ON = {"hexes": ["2006", "2106"], "features": ["road"]}


def test_a_line_typed_where_the_reading_is_sure_there_is_none_is_an_alarm(demo_data, demo_map):
    # A road typed on 1906/2006, going on from the typed (and read) road through 1906,
    # where the reading shows no trace of one: a road typed beside a road.
    typed = map_from_data({**demo_data, "hexsides": [
        *demo_data["hexsides"], {"hexes": ["1906", "2006"], "features": ["road"]}, _GOES_ON]})
    found = {f.where: f for f in diff_maps(typed, _read_with_absence(demo_data)).findings}
    assert (found["1906/2006"].severity, found["1906/2006"].confidence) == ("error", 0.91)
    assert "road typed, not read (read as absent at confidence 0.91)" in \
        found["1906/2006"].message
    assert found["1906/2006"].cite == "000_3d79f68a6e3e33eb.txt §5.4.1"
    # Without it, the same typed road is worth a look only: the reading gave no word.
    found = {f.where: f for f in diff_maps(typed, demo_map).findings}
    assert found["1906/2006"].severity == "check"
    # No rule cites the feature: a warning at most.
    demo_data["hexside_features"]["road"]["note"] = "printed roads"
    typed = map_from_data({**demo_data, "hexsides": [
        *demo_data["hexsides"], {"hexes": ["1906", "2006"], "features": ["road"]}, _GOES_ON]})
    found = {f.where: f for f in diff_maps(typed, _read_with_absence(demo_data)).findings}
    assert found["1906/2006"].severity == "warning"


def test_a_line_typed_where_the_reading_saw_a_trace_of_it_is_a_check(demo_data, demo_map):
    typed = map_from_data({**demo_data, "hexsides": [
        *demo_data["hexsides"], {"hexes": ["1906", "2006"], "features": ["road"]}, _GOES_ON]})
    read = _read_with_absence(demo_data, {("1906", "2006"): {"road": 0.33}})
    found = {f.where: f for f in diff_maps(typed, read).findings}
    assert (found["1906/2006"].severity, found["1906/2006"].confidence) == ("check", 0.33)
    # Where the ground would hide a road, the reading says nothing either way.
    read = _read_with_absence(demo_data, {("1906", "2006"): {"road": 0.5}})
    found = {f.where: f for f in diff_maps(typed, read).findings}
    assert found["1906/2006"].severity == "check"
    # Where the stretch ends the road, in a clear hex the reading reads no road into, the
    # trace is not enough to doubt it: typed one hexside too far.
    typed = map_from_data({**demo_data, "hexsides": [
        *demo_data["hexsides"], {"hexes": ["1906", "2006"], "features": ["road"]}]})
    read = _read_with_absence(demo_data, {("1906", "2006"): {"road": 0.33}})
    found = {f.where: f for f in diff_maps(typed, read).findings}
    assert found["1906/2006"].severity == "warning"
    assert "ends at 2006" in found["1906/2006"].message


def test_a_line_the_reading_misses_beside_it_as_well_is_a_check(demo_data, demo_map):
    # A trail typed on 0102/0103 and 0103/0104 (going on from each other) that the reading
    # reads on neither, though it shows no trace of one: a faint line the reader may not see
    # here at all, not two stretches typed too many.
    demo_data["hexside_features"]["trail"]["note"] = "printed trails"
    typed = map_from_data({**demo_data, "hexsides": [
        *demo_data["hexsides"], {"hexes": ["0102", "0103"], "features": ["trail"]},
        {"hexes": ["0103", "0104"], "features": ["trail"]}]})
    read = map_from_data({**demo_data, "hexside_features": {
        **demo_data["hexside_features"],
        "trail": {**demo_data["hexside_features"]["trail"], "absent": 0.91}}})
    found = {f.where: f for f in diff_maps(typed, read).findings}
    for where in ("0102/0103", "0103/0104"):
        assert found[where].severity == "check"
        assert "does not read the trail typed beside it either" in found[where].message


def test_names_and_hex_features_are_compared(demo_data, demo_map):
    demo_data["hexes"]["1718"]["name"] = "Trevieres"
    demo_data["hexes"]["1718"]["features"] = []
    kinds = {f.kind for f in diff_maps(demo_map, map_from_data(demo_data)).findings}
    assert kinds == {"name_differs", "hex_feature_differs"}


def test_maps_of_different_grids_are_bad_input(demo_data, demo_map):
    demo_data["boards"][0]["grid"]["rows"] = 23
    with pytest.raises(BocageError, match="do not share a grid"):
        diff_maps(demo_map, map_from_data(demo_data))


def test_a_line_reading_that_disagrees_with_most_of_the_map_is_one_note(demo_data, demo_map):
    # A reading that sees a road on a hundred hexsides more than the 71 typed (say, a white
    # casing read as road) and gives no confidence for it: one note, not 100 findings.
    for col in range(1, 26):
        for row in (1, 3, 5, 7):
            demo_data["hexsides"].append({"hexes": [f"{col:02d}{row:02d}",
                                                    f"{col:02d}{row + 1:02d}"],
                                          "features": ["road"]})
    result = diff_maps(demo_map, map_from_data(demo_data))
    notes = [f for f in result.findings if f.kind == "reading_unreliable"]
    assert [n.message.split(":")[0] for n in notes] == ["road"]
    assert not [f for f in result.findings if f.kind == "hexside_differs"]
    # With the reading's own confidence, each disagreement is listed at its confidence.
    for side in demo_data["hexsides"][-100:]:
        side["confidence"] = {"road": 0.8}
    result = diff_maps(demo_map, map_from_data(demo_data))
    typed_roads = {tuple(sorted(s["hexes"])) for s in demo_data["hexsides"][:-100]
                   if "road" in s["features"] and "hexes" in s}
    new = {tuple(sorted(s["hexes"])) for s in demo_data["hexsides"][-100:]} - typed_roads
    assert sum(f.kind == "hexside_differs" for f in result.findings) == len(new) > 90
    assert not [f for f in result.findings if f.kind == "reading_unreliable"]


def test_a_region_read_otherwise_is_one_finding_a_swapped_pair_two(demo_data, demo_map):
    # Glare over a corner: eight neighbouring hexes read surely as woods.
    region = ["0101", "0102", "0103", "0201", "0202", "0203", "0301", "0302"]
    for h in region:
        demo_data["hexes"][h] = {"terrain": ["woods"], "confidence": 0.95}
    for h in ("1010", "1011"):  # and two neighbours typed under each other's ids
        demo_data["hexes"][h] = {"terrain": ["marsh"], "confidence": 0.95}
    found = diff_maps(demo_map, map_from_data(demo_data)).findings
    [patch] = [f for f in found if f.kind == "terrain_region_differs"]
    assert sorted(patch.hexes) == region and patch.severity == "warning"
    assert "8 neighbouring hexes" in patch.message
    assert sorted(f.where for f in found if f.kind == "terrain_differs") == ["1010", "1011"]


def test_neighbours_typed_each_as_the_other_is_read_are_one_swap(demo_data, demo_map):
    # 0109 (clear) and 0110 (woods) typed under each other's ids; the reading is unsure of
    # both (a check each alone), but reads each as the other is typed: a swap, one warning.
    typed = map_from_data({**demo_data, "hexes": {**demo_data["hexes"],
                                                  "0109": {"terrain": ["woods"]},
                                                  "0110": {"terrain": ["clear"]}}})
    demo_data["hexes"]["0109"] = {"terrain": ["clear"], "confidence": 0.5,
                                  "fractions": {"clear": 0.6, "woods": 0.2, "rough": 0.2}}
    demo_data["hexes"]["0110"] = {"terrain": ["woods"], "confidence": 0.5,
                                  "fractions": {"woods": 0.6, "clear": 0.4}}
    found = diff_maps(typed, map_from_data(demo_data)).findings
    assert [(f.kind, f.severity, f.hexes) for f in found] == [
        ("terrain_swapped", "warning", ("0109", "0110"))]
    assert "typed woods and clear, read clear and woods" in found[0].message
    # One of the two read as typed: no swap, the other a look as before.
    demo_data["hexes"]["0110"] = {"terrain": ["clear"], "confidence": 0.5,
                                  "fractions": {"clear": 0.6, "woods": 0.4}}
    found = diff_maps(typed, map_from_data(demo_data)).findings
    assert [(f.kind, f.severity) for f in found] == [("terrain_mixed", "check")]



def test_open_water_typed_where_the_reading_sees_only_land_is_an_alarm(demo_data, demo_map):
    # The foreign bench's icons map, learner seed 1: woods typed as sea on 2605, read as
    # forest at 0.29 among forest, mountain, hills and clear. Unsure which land it sees,
    # the reading is sure it is land: water typed there is a slip, not a doubt.
    typed = map_from_data({**demo_data, "hexes": {**demo_data["hexes"],
                                                  "0101": {"terrain": ["all_sea"]}}})
    demo_data["hexes"]["0101"] = {"terrain": ["woods", "rough", "clear"], "confidence": 0.29,
                                  "fractions": {"woods": 0.57, "rough": 0.24, "clear": 0.19}}
    found = diff_maps(typed, map_from_data(demo_data)).findings
    assert [(f.kind, f.severity) for f in found] == [("terrain_differs", "warning")]
    assert found[0].message.endswith("at confidence 0.29: open water where the reading"
                                     " sees none")
    # Land typed where the reading sees only water, as unsure: the same contradiction.
    typed = map_from_data({**demo_data, "hexes": {**demo_data["hexes"],
                                                  "0101": {"terrain": ["clear"]}}})
    demo_data["hexes"]["0101"] = {"terrain": ["all_sea"], "confidence": 0.4,
                                  "fractions": {"all_sea": 1.0}}
    found = diff_maps(typed, map_from_data(demo_data)).findings
    assert [(f.kind, f.severity) for f in found] == [("terrain_differs", "warning")]
    assert "land where the reading sees none" in found[0].message
    # A reading that sees some water in the hex (a coast) leaves it a look.
    demo_data["hexes"]["0101"]["fractions"] = {"all_sea": 0.9, "clear": 0.1}
    found = diff_maps(typed, map_from_data(demo_data)).findings
    assert [(f.kind, f.severity) for f in found] == [("terrain_mixed", "check")]


def test_which_terrain_is_water_is_the_maps_role_not_a_guess(demo_data, demo_map):
    # A map that says its harbour is sea (--role sea=all_sea,harbour) has water there too.
    from pipeline.validate import roles_for

    demo_data["terrain_types"]["harbour"] = {}
    typed = map_from_data({**demo_data, "hexes": {**demo_data["hexes"],
                                                  "0101": {"terrain": ["harbour"]}}})
    demo_data["hexes"]["0101"] = {"terrain": ["clear"], "confidence": 0.3,
                                  "fractions": {"clear": 0.8, "woods": 0.2}}
    reading = map_from_data(demo_data)
    guessed = diff_maps(typed, reading).findings
    assert [(f.kind, f.severity) for f in guessed] == [("terrain_differs", "check")]
    declared = diff_maps(typed, reading, roles=roles_for(typed, {"sea": ["all_sea", "harbour"]}))
    assert [(f.kind, f.severity) for f in declared.findings] == [("terrain_differs", "warning")]
    # A reading that reads no water at all says nothing of water's absence.
    del demo_data["terrain_types"]["all_sea"]
    demo_data["hexes"] = {h: e for h, e in demo_data["hexes"].items()
                          if e["terrain"][0] != "all_sea"}
    typed = map_from_data({**demo_data, "terrain_types": {**demo_data["terrain_types"],
                                                          "all_sea": {}},
                           "hexes": {**demo_data["hexes"], "0101": {"terrain": ["all_sea"]}}})
    found = diff_maps(typed, map_from_data(demo_data)).findings
    assert [(f.kind, f.severity) for f in found] == [("terrain_differs", "check")]


def test_a_region_is_read_as_one_terrain_however_sure_and_a_slip_beside_it_stays_apart(
        demo_data, demo_map):
    # The foreign bench's photo, learner seed 3: a shadow over a corner reads ten clear
    # hexes as hills, some surely, some not; the city beside it, typed as marsh, is read
    # as city at 0.97. The region is one finding; the slip is read otherwise, and its own.
    typed = map_from_data({**demo_data, "hexes": {**demo_data["hexes"],
                                                  "0103": {"terrain": ["marsh"]}}})
    reading = {"0101": 0.95, "0102": 0.95, "0201": 0.95, "0202": 0.95}
    for h, conf in reading.items():
        demo_data["hexes"][h] = {"terrain": ["woods"], "confidence": conf,
                                 "fractions": {"woods": 1.0}}
    demo_data["hexes"]["0103"] = {"terrain": ["clear"], "confidence": 0.97,
                                  "fractions": {"clear": 1.0}}
    found = diff_maps(typed, map_from_data(demo_data)).findings
    [patch] = [f for f in found if f.kind == "terrain_region_differs"]
    assert sorted(patch.hexes) == sorted(reading)
    assert [(f.where, f.severity) for f in found if f.kind == "terrain_differs"] == [
        ("0103", "error")]
    # Read less surely, the same region all the same; its confidence is its least sure
    # alarm's (0202, at 0.35, is a look alone; 0201 sees no clear at 0.55, an alarm).
    reading = {"0101": 0.95, "0102": 0.6, "0201": 0.55, "0202": 0.35}
    for h, conf in reading.items():
        demo_data["hexes"][h]["confidence"] = conf
    found = diff_maps(typed, map_from_data(demo_data)).findings
    [patch] = [f for f in found if f.kind == "terrain_region_differs"]
    assert sorted(patch.hexes) == sorted(reading) and patch.confidence == 0.55
    assert [f.where for f in found if f.kind == "terrain_differs"] == ["0103"]


def test_a_slip_on_a_hex_the_reading_took_as_an_example_stays_out_of_a_region(
        demo_data, demo_map):
    # bocage's own photo sheet: glare reads thirty clear hexes as city, with odds; a city
    # beside it, taken as an example by its printed colour (no odds), is typed as hills.
    # The classifier that went wrong over the region did not read the example: its slip
    # is its own error, not one more hex of the region.
    typed = map_from_data({**demo_data, "hexes": {**demo_data["hexes"],
                                                  "0103": {"terrain": ["rough"]}}})
    region = ["0101", "0102", "0201", "0202"]
    for h in region:
        demo_data["hexes"][h] = {"terrain": ["city"], "confidence": 0.95,
                                 "fractions": {"city": 1.0},
                                 "probabilities": {"city": 0.95, "clear": 0.05}}
    demo_data["hexes"]["0103"] = {"terrain": ["city"], "confidence": 1.0,
                                  "fractions": {"city": 1.0}}
    found = diff_maps(typed, map_from_data(demo_data)).findings
    [patch] = [f for f in found if f.kind == "terrain_region_differs"]
    assert sorted(patch.hexes) == region
    assert [(f.where, f.severity) for f in found if f.kind == "terrain_differs"] == [
        ("0103", "error")]
    # Read with odds like its neighbours, the hex is one more of the region.
    demo_data["hexes"]["0103"]["probabilities"] = {"city": 1.0}
    found = diff_maps(typed, map_from_data(demo_data)).findings
    [patch] = [f for f in found if f.kind == "terrain_region_differs"]
    assert sorted(patch.hexes) == sorted([*region, "0103"])
    # A reading without odds anywhere (an older map.json) keeps every hex in the region.
    for h in [*region, "0103"]:
        demo_data["hexes"][h].pop("probabilities", None)
    found = diff_maps(typed, map_from_data(demo_data)).findings
    [patch] = [f for f in found if f.kind == "terrain_region_differs"]
    assert sorted(patch.hexes) == sorted([*region, "0103"])


def test_a_typed_terrain_a_reading_with_an_opinion_sees_none_of_is_an_alarm(demo_data,
                                                                             demo_map):
    # Halftone, learner seed 0: a reading of its main terrain at 0.4 or more (an opinion,
    # pipeline.validate.bands.OPINION) that sees none of the typed terrain in the hex.
    typed = map_from_data({**demo_data, "hexes": {**demo_data["hexes"],
                                                  "0101": {"terrain": ["rough"]}}})
    demo_data["hexes"]["0101"] = {"terrain": ["clear", "woods"], "confidence": 0.6,
                                  "fractions": {"clear": 0.7, "woods": 0.3}}
    found = diff_maps(typed, map_from_data(demo_data)).findings
    assert [(f.kind, f.severity) for f in found] == [("terrain_differs", "warning")]
    assert found[0].message.endswith("at confidence 0.60, and no rough in the hex")
    # Dense, learner seed 0: a city typed as clear, read 100% city at 0.45 (the classifier
    # torn four ways): an opinion still, and the typed terrain in none of the hex.
    demo_data["hexes"]["0101"]["confidence"] = 0.45
    found = diff_maps(typed, map_from_data(demo_data)).findings
    assert [(f.kind, f.severity) for f in found] == [("terrain_differs", "warning")]
    # Below 0.4 the reading's main terrain is more often wrong than right, and its shares
    # may leave the hex's terrain out (icons: woods read as forest at 0.29, no woods in it).
    demo_data["hexes"]["0101"]["confidence"] = 0.35
    found = diff_maps(typed, map_from_data(demo_data)).findings
    assert [(f.kind, f.severity) for f in found] == [("terrain_differs", "check")]
    # Seen in a little of the hex, the typed terrain leaves the reading's doubt a look.
    demo_data["hexes"]["0101"].update(confidence=0.6,
                                      fractions={"clear": 0.7, "woods": 0.27, "rough": 0.03})
    found = diff_maps(typed, map_from_data(demo_data)).findings
    assert [(f.kind, f.severity) for f in found] == [("terrain_differs", "check")]
    # A terrain the reading cannot read at all: its absence from the shares says nothing.
    demo_data["hexes"]["0101"]["fractions"] = {"clear": 0.7, "woods": 0.3}
    typed = map_from_data({**demo_data, "terrain_types": {**demo_data["terrain_types"],
                                                          "orchard": {}},
                           "hexes": {**demo_data["hexes"], "0101": {"terrain": ["orchard"]}}})
    found = diff_maps(typed, map_from_data(demo_data)).findings
    assert [(f.kind, f.severity) for f in found] == [("terrain_differs", "check")]
