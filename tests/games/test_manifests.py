"""Unit and marker manifests of the seed games: every unit the rulebooks name, in the formations
and arrival turns they give; every value either given with its citation in `notes` or empty
(the counters print "?"); 000's support fire markers exactly as listed (§11.1.4, §11.2.6,
§11.2.7)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from pipeline.model import load_markers, load_scenario, load_units
from tests.needs import missing

from .conftest import CODES, counters, maps, rulebook


def cites(game: str, notes: str) -> bool:
    """A citation of the game's rulebook: ``003 §5.9.11`` or the file name, with a section
    (the player aid's paragraphs and Cobra's Variant Sheet have no numbers)."""
    return re.search(rf"{CODES[game]}(_[0-9a-f]+\.txt)? .*(§|Variant Sheet)", notes) is not None


VALUES = ("attack", "defence", "range", "movement", "strength",
          "back_attack", "back_defence", "back_range", "back_movement", "back_strength", "steps")
# What a note must talk about when it gives a value.
WORDS = {"attack": ("attack",), "defence": ("defence",), "range": ("range",),
         "movement": ("movement", "MPA"), "strength": ("strength",), "steps": ("step",),
         "back_attack": ("reverse", "back"), "back_defence": ("reverse", "back"),
         "back_range": ("reverse", "back"), "back_movement": ("reverse", "back"),
         "back_strength": ("reverse", "back")}


def test_every_value_is_cited_in_the_notes_or_left_empty(game):
    manifest = load_units(counters(game) / "units.csv")
    assert len(manifest) > 0
    for unit in manifest:
        assert cites(game, unit.notes), f"{unit.id}: notes cite no section"
        given = [name for name in VALUES if getattr(unit, name) is not None]
        for name in given:
            assert any(w in unit.notes for w in WORDS[name]), f"{unit.id}.{name} is not explained"


def test_markers_cite_their_sections(game):
    for marker in load_markers(counters(game) / "markers.csv"):
        assert cites(game, marker.notes), marker.id


# -- 000: every unit of §11.1.1, §11.1.2, §11.2.1, §11.2.3, §11.2.4 and §14.2 -----------------

# id: (side, formation, arrival turn), as 000_3d79f68a6e3e33eb.txt lists them
OMAHA = {
    "352/352": ("german", "352", None), "914/352": ("german", "352", None),
    "915/352": ("german", "352", None), "916/352": ("german", "352", None),
    "1": ("german", None, None),
    "Sch/30": ("german", "30", 1),
    **{u: ("german", u.split("/")[1], 3) for u in
       ("3/3", "9/3", "5/3", "8/3", "894/265", "895/265", "896/265")},
    **{u: ("german", "275", 4) for u in ("983/275", "984/275", "985/275", "709/275")},
    **{u: ("german", "353", 7) for u in ("353/353", "941/353", "942/353", "943/353")},
    "2 Rgr": ("allied", None, None),
    **{f"landing-{i}": ("allied", None, 1) for i in range(1, 7)},
    **{u: ("allied", "2", 2) for u in ("9/2", "23/2", "38/2", "CCA/2", "CCB/2", "CCR/2")},
    **{u: ("allied", "30", 3) for u in ("117/30", "119/30", "120/30")},
    **{u: ("allied", "83", 7) for u in ("331/83", "330/83", "329/83")},
    **{u: ("allied", "3", 10) for u in ("CCA/3", "CCB/3", "CCR/3")},
    **{u: ("allied", "35", 16) for u in ("134/35", "137/35", "320/35")},
    **{u: ("allied", "28", 24) for u in ("112/28", "110/28", "109/28")},
}


def test_omaha_has_every_unit_in_its_formation_and_turn():
    manifest = load_units(counters("omaha") / "units.csv")
    got = {u.id: (u.side, u.formation, u.arrival_turn) for u in manifest}
    assert got == OMAHA
    assert manifest.get("2 Rgr").setup_hex == "2417"  # type: ignore[union-attr]
    assert all(getattr(u, v) is None for u in manifest for v in VALUES if u.id != "2 Rgr")


def test_omaha_units_match_the_rulebook_lists():
    """Cross-check the hand table against the text itself when it is available."""
    path = rulebook("000_3d79f68a6e3e33eb.txt")
    if path is None:
        missing("the rulebook 000_3d79f68a6e3e33eb.txt (shared/seeds beside the repository,"
                " or $BOCAGE_SEEDS)")
    text = path.read_text(encoding="utf-8")
    found: dict[str, int] = {}
    listed = r"(?:GT|Turn) (\d+): ([^\n]*(?:Regiments?|Battalion)[^\n]*)"
    for turn, body in re.findall(listed, text):
        for unit_id in re.findall(r"(?:CC[ABR]|Sch|\d+)/\d+", body):
            found[unit_id] = int(turn)
    expected = {u: t for u, (_, _, t) in OMAHA.items() if "/" in u and t is not None}
    assert found == expected


def test_omaha_support_fire_markers_exactly_as_listed():
    markers = load_markers(counters("omaha") / "markers.csv")
    by_side = {side: Counter() for side in ("german", "allied")}
    for m in markers:
        if m.kind == "support_fire" and m.value is not None:
            by_side[m.side or ""][m.value] += m.count or 0
    assert by_side["german"] == {"+1": 1, "+2": 2, "+3": 2, "+4": 2, "+5": 2, "+6": 3, "+8": 2,
                                 "+9": 1}
    assert by_side["allied"] == {"+2": 3, "+3": 3, "+4": 2, "+5": 1, "+6": 6, "+7": 3, "+8": 4,
                                 "+9": 2, "+10": 1}
    assert sum(by_side["german"].values()) == 15 and sum(by_side["allied"].values()) == 25
    naval = markers.get("al_naval_7")
    assert naval is not None and (naval.kind, naval.value, naval.count) == (
        "naval_support_fire", "+7", 4)
    beachhead = markers.get("beachhead")
    assert beachhead is not None and beachhead.kind == "beachhead" and beachhead.count is None


def test_june44_first_infantry_division_is_5_4_4_reduced_3_2_4():
    unit = load_units(counters("june44") / "units.csv").get("1 ID")
    assert unit is not None
    assert (unit.attack, unit.defence, unit.movement) == (5, 4, 4)
    assert (unit.back_attack, unit.back_defence, unit.back_movement) == (3, 2, 4)
    assert unit.steps == 2 and unit.nationality == "US"


def test_cobra_values_the_text_gives():
    manifest = load_units(counters("cobra") / "units.csv")
    delays = [u for u in manifest if u.type == "delay"]
    assert len(delays) == 6  # 003 §15.1: "The six German delay units"
    assert all((u.strength, u.movement, u.steps) == (1, 6, 1) for u in delays)
    fjt, flak30 = manifest.get("FJT"), manifest.get("30 Flak")
    assert fjt is not None and (fjt.strength, fjt.movement) == (2, 9)        # §5.9.11 "(2-9)"
    assert flak30 is not None and (flak30.strength, flak30.movement) == (5, 12)  # "(5-12)"
    flak = [u for u in manifest if "flak" in u.flags]
    assert len(flak) == 8 and all(u.movement == 12 for u in flak)           # §5.3.1, §21.0 item 2


def test_cobra_markers_the_text_counts():
    markers = load_markers(counters("cobra") / "markers.csv")
    counts = {m.id: m.count for m in markers}
    assert counts["truck"] == 3 and counts["aab"] == 2   # §5.8.1, §5.10


@pytest.mark.parametrize(("game", "scenario"), [("omaha", "scenario.json"),
                                                ("omaha", "scenario_campaign.json"),
                                                ("june44", "scenario.json"),
                                                ("cobra", "scenario.json")])
def test_scenario_arrivals_agree_with_the_manifest(game, scenario):
    manifest = load_units(counters(game) / "units.csv")
    doc = load_scenario(maps(game) / scenario)
    for entry in doc.reinforcements:
        unit = manifest.get(entry.unit)
        assert unit is not None
        if unit.arrival_turn is not None:
            assert entry.turn == unit.arrival_turn, entry.unit
    for placed in doc.setup:
        unit = manifest.get(placed.unit)
        assert unit is not None
        if unit.setup_hex is not None:
            assert placed.hex == unit.setup_hex, placed.unit
