"""The turn record track aid: every turn, its date/notes, reinforcements on their turn."""

from __future__ import annotations

import re

import pytest

from pipeline.aids import make_aids
from pipeline.aids.page import pages_pdf
from pipeline.aids.track import track_pages, turn_numbers, unit_label
from pipeline.model import load_scenario, load_units

from .conftest import MAPS, ROOT, pdf_text


def _track(tmp_path, game, name="scenario.json"):
    scenario = load_scenario(MAPS / game / name)
    units = load_units(ROOT / "counters" / game / "units.csv")
    path = tmp_path / "track.pdf"
    path.write_bytes(pages_pdf(track_pages(scenario, units), "track"))
    return scenario, units, pdf_text(path)


def _turn_rows(text):
    """Turn number -> the text from its row's start to the next turn's row."""
    starts = [(int(m.group(1)), m.start()) for m in re.finditer(r"^ {0,4}(\d+)\b", text, re.M)]
    return {turn: text[at:(starts[i + 1][1] if i + 1 < len(starts) else len(text))]
            for i, (turn, at) in enumerate(starts)}


@pytest.mark.parametrize("game", ["demo", "omaha"])
def test_every_turn_and_each_reinforcement_on_its_turn(tmp_path, game):
    scenario, units, text = _track(tmp_path, game)
    rows = _turn_rows(text)
    assert list(rows) == turn_numbers(scenario)
    assert set(range(scenario.first_turn, scenario.last_turn + 1)) <= set(rows)
    flat = " ".join(text.split())
    for box in scenario.turns:
        if box.notes:
            assert " ".join(box.notes.split())[:30] in flat
    for extra in scenario.reinforcements:
        label = unit_label(extra.unit, units)
        row = " ".join(rows[extra.turn].split())
        assert label.split()[0] in row, (extra.turn, label)


def test_demo_reinforcement_names_and_entry(tmp_path):
    _, _, text = _track(tmp_path, "demo")
    rows = _turn_rows(text)
    assert "Sch/30 Infantry Regiment (hex 1005)" in rows[1]
    assert "9/3 Infantry Regiment (south edge)" in rows[3]
    assert "last turn: victory is checked (000 §13.0)" in rows[17]


def test_dates_print(tmp_path):
    scenario, _, text = _track(tmp_path, "june44")
    for box in scenario.turns:
        if box.date:
            assert box.date in text


def test_make_aids_writes_a_track_per_scenario(tmp_path):
    names = {p.name for p in make_aids(MAPS / "omaha", tmp_path, map_dpi=12)}
    assert {"track.pdf", "track.png", "track-campaign.pdf", "track-campaign.png"} <= names
    assert "Turn Record Track" in pdf_text(tmp_path / "track-campaign.pdf")
