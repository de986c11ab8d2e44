"""pipeline/validate/inject.py: the 12 kinds of typing mistake, named with their reason."""

from __future__ import annotations

import json

import pytest

from pipeline.errors import DataError
from pipeline.model import load_map, map_from_data
from pipeline.validate import KINDS, REASONS, inject_errors, score, validate_data, validate_text


def _listed(demo_data):
    """The demo with every hex listed and a bridge typed on its crossing, as a builder
    who types every hex and every bridge writes it."""
    the_map = map_from_data(demo_data)
    demo_data["hexes"] = {h: {**demo_data["hexes"].get(h, {}), "terrain": the_map.terrain_of(h)}
                          for h in the_map.hex_ids()}
    for side in demo_data["hexsides"]:
        if sorted(side.get("hexes", [])) == ["1806", "1807"]:
            side["features"] = ["road", "river", "bridge"]
    return demo_data


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_kind_is_made_and_the_text_mistakes_are_all_named(seed, demo_data):
    true = _listed(demo_data)
    text, made = inject_errors(true, 24, seed=seed)
    # The demo has one bridge: its kind is made once at most (not when a mistake next to
    # it came first), the others take its turn.
    assert len(made) == 24 and set(KINDS) - {e.kind for e in made} <= {"missing_bridge"}
    assert sum(e.kind == "missing_bridge" for e in made) <= 1
    clean = validate_data(true, file="true.json")
    result = validate_text(text, file="typed.json")  # lint only: no reading to diff with
    got = score(result.findings, made, baseline=clean.findings)
    # Without a reading, lint alone names every mistake that leaves a trace in the map
    # itself: the slips and the hex left out. (The demo's one bridge left out leaves a
    # map that types none: 000_3d79f68a6e3e33eb.txt §8.2.2 then bridges the crossing.)
    by_lint = {"transposed_id", "missing_hex", "duplicate_entry", "misspelled_name",
               "not_adjacent"}
    assert not {e.kind for e in got.missed} & by_lint, got.missed
    assert got.false_alarms == []
    with pytest.raises(DataError):  # the typed file does not load for other commands
        map_from_data(json.loads(text))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_against_a_true_reading_every_mistake_is_named_with_its_reason(seed, demo_data):
    true = _listed(demo_data)
    text, made = inject_errors(true, 24, seed=seed)
    # A reference drawn from the truth, with the reading's confidence on every line.
    reading = json.loads(json.dumps(true))
    for h in reading["hexes"].values():
        h["confidence"] = 0.99
    for side in reading["hexsides"]:
        side["confidence"] = dict.fromkeys(side["features"], 0.99)
    # And its confidence that a line is not where it read none (bridges are marks).
    for name, kind in reading["hexside_features"].items():
        if name != "bridge":
            kind["absent"] = 0.92
    against = map_from_data(reading)
    clean = validate_data(true, file="true.json", against=against)
    result = validate_text(text, file="typed.json", against=against)
    got = score(result.findings, made, baseline=clean.findings)
    # The demo's one bridge left out leaves a map that types none, whose bridge note
    # cites 000_3d79f68a6e3e33eb.txt §8.2.2 (a bridge wherever a road crosses a river):
    # the bridge read there agrees with the rule, so it is a check (named, not an alarm).
    assert {e.kind for e in got.missed} <= {"missing_bridge"}
    assert got.seen == got.missed
    assert got.false_alarms == []


def test_a_look_on_the_true_map_made_an_alarm_by_a_mistake_names_it():
    from pipeline.validate import Finding, Injected

    made = [Injected("missing_road", ("0101", "0102"), "0101/0102: road left out")]
    look = Finding("check", "hexside_differs", "0101/0102", "road read, not typed (a look)",
                   hexes=("0101", "0102"))
    alarm = Finding("warning", "hexside_differs", "0101/0102", "road read, not typed",
                    hexes=("0101", "0102"))
    # The same finding as serious on the true map is the map's own: it names nothing.
    assert score([alarm], made, baseline=[alarm]).missed == made
    # A look there that the mistake made an alarm is the mistake's.
    assert score([alarm], made, baseline=[look]).missed == []


def test_a_torn_readings_soft_note_on_a_slip_is_seen_not_named():
    from pipeline.validate import Finding, Injected

    # The foreign halftone map: clear typed on a hex read 60% city / 34% clear. The soft
    # note (issue 15: a typed terrain the reading shares the hex with) names the slip
    # as a check: seen, and still a miss for the alarms.
    made = [Injected("wrong_terrain", ("0314",), "0314: city typed as clear")]
    note = Finding("check", "terrain_mixed", "0314", "typed clear, read city (60% city /"
                   " 34% clear): both are in the hex", hexes=("0314",))
    got = score([note], made)
    assert got.missed == made and got.seen == made


def test_injection_is_seeded_and_leaves_the_original_alone(demo_data):
    before = repr(demo_data)
    first = inject_errors(demo_data, 10, seed=7)
    assert inject_errors(demo_data, 10, seed=7) == first
    assert inject_errors(demo_data, 10, seed=8) != first
    assert repr(demo_data) == before


def test_every_kind_has_its_reasons():
    assert set(REASONS) == set(KINDS) and all(REASONS.values())


def test_the_omaha_map_takes_30_mistakes():
    from .conftest import ROOT

    data = load_map(ROOT / "maps" / "omaha" / "map.json").model_dump(mode="json",
                                                                     exclude_none=True)
    _, made = inject_errors(data, 30, seed=0)
    assert len(made) == 30
