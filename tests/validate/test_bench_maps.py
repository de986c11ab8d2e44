"""The foreign bench's maps typed from their truth (bench/validate_bench.py), with mistakes.

Each of the six maps of ``../shared/bench/foreign`` is typed as a careful builder types it
(:func:`bench.validate_bench.typed_map`), then typed again with 30 mistakes of the 12
kinds. Without a reading, lint alone must raise no alarm on the correct map and name every
mistake the map itself shows (the slips, a hex left out); against a reading as good as the
truth, with its own per-feature confidence of presence and of absence (a line typed where
the reading shows no trace of one), every mistake must be named with its reason. The
figures with the digitizer's real readings are in the README (``python
bench/validate_bench.py``). The folder is found as ``bench/foreign.py`` finds it; without
it these tests skip, naming it, and fail when ``CI=true``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bench.validate_bench import foreign_folder, load_setup, truth_of, typed_map
from pipeline.model import map_from_data
from pipeline.validate import ALARMS, inject_errors, score, validate_data, validate_text
from tests.needs import missing

MAPS = ("icons", "stipple", "halftone", "keybox", "dense", "photo")
BY_LINT = {"transposed_id", "missing_hex", "duplicate_entry", "misspelled_name", "not_adjacent"}


def _truth(name: str) -> dict[str, Any]:
    folder = foreign_folder()
    if folder is None:
        missing("the foreign bench folder (../shared/bench/foreign beside the repository, or"
                " $BOCAGE_FOREIGN, with the six maps' truth.json)")
    return truth_of(folder, name)


def _typed(name: str) -> dict[str, Any]:
    return typed_map(_truth(name), load_setup()[name]["grid"], name)


def _perfect_reading(doc: dict[str, Any]) -> Any:
    reading = json.loads(json.dumps(doc))
    for h in reading["hexes"].values():
        h["confidence"] = 0.99
    for side in reading["hexsides"]:
        side["confidence"] = dict.fromkeys(side["features"], 0.99)
    # Sure that each line is not where it was not read (bridges are marks: no such word).
    for name, kind in reading["hexside_features"].items():
        if "bridge" not in name:
            kind["absent"] = 0.91
    return map_from_data(reading)


@pytest.mark.slow
@pytest.mark.parametrize("name", MAPS)
def test_the_correct_map_raises_no_alarm_and_lint_names_the_slips(name):
    doc = _typed(name)
    clean = validate_data(doc, file=f"{name}.json")
    assert [f for f in clean.findings if f.severity in ALARMS] == []
    text, made = inject_errors(doc, 30, seed=0)
    assert len(made) == 30 and len({e.kind for e in made}) >= 11
    got = score(validate_text(text, file="typed.json").findings, made, clean.findings)
    assert not {e.kind for e in got.missed} & BY_LINT, got.missed
    assert got.false_alarms == []


@pytest.mark.slow
@pytest.mark.parametrize("name", MAPS)
def test_against_a_reading_as_good_as_the_truth_every_mistake_is_named(name):
    doc = _typed(name)
    reading = _perfect_reading(doc)
    clean = validate_data(doc, file=f"{name}.json", against=reading)
    assert [f for f in clean.findings if f.severity in ALARMS] == []
    text, made = inject_errors(doc, 30, seed=1)
    got = score(validate_text(text, file="typed.json", against=reading).findings, made,
                clean.findings)
    assert got.missed == []
    assert got.false_alarms == []
