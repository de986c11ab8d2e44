"""The order of battle aid: per side, each unit's counter, name, set-up hex or arrival."""

from __future__ import annotations

import pytest

from pipeline.aids import make_aids
from pipeline.aids.oob import oob_entries, oob_pages
from pipeline.aids.page import Picture, pages_pdf
from pipeline.model import load_scenario, load_units

from .conftest import MAPS, ROOT, pdf_text


@pytest.mark.parametrize("game", ["demo", "omaha", "june44"])
def test_each_unit_of_the_scenario_is_listed(tmp_path, game):
    scenario = load_scenario(MAPS / game / "scenario.json")
    units = load_units(ROOT / "counters" / game / "units.csv")
    pages = oob_pages(scenario, units)
    path = tmp_path / "oob.pdf"
    path.write_bytes(pages_pdf(pages, "oob"))
    text = pdf_text(path)
    entries = oob_entries(scenario, units)
    assert {e.unit_id for e in entries} == {unit for _, unit in scenario.units()}
    for entry in entries:
        assert entry.unit_id in text
        assert entry.name in text
        assert entry.where in text
    for placed in scenario.setup:
        assert f"set up in {placed.hex}" in text
    for extra in scenario.reinforcements:
        assert f"arrives GT {extra.turn}" in text
    for side in {e.side for e in entries}:
        assert side.capitalize() in text
    pictures = [item for page in pages for item in page.items if isinstance(item, Picture)]
    assert len(pictures) == sum(e.spec is not None for e in entries)


def test_sides_are_grouped_and_demo_lines_read_right(tmp_path):
    scenario = load_scenario(MAPS / "demo" / "scenario.json")
    units = load_units(ROOT / "counters" / "demo" / "units.csv")
    entries = oob_entries(scenario, units)
    sides = [e.side for e in entries]
    assert sides == sorted(sides, key=sides.index)  # each side in one block
    by_id = {e.unit_id: e.where for e in entries}
    assert by_id["2 Rgr"] == "set up in 2417"
    assert by_id["Sch/30"] == "arrives GT 1, hex 1005"
    assert by_id["9/3"] == "arrives GT 3, south edge"


def test_make_aids_writes_the_oob_only_with_a_manifest(tmp_path):
    names = {p.name for p in make_aids(MAPS / "demo", tmp_path / "a", map_dpi=12)}
    assert {"oob.pdf", "oob.png"} <= names
    game = tmp_path / "g"
    game.mkdir()
    (game / "scenario.json").write_bytes((MAPS / "demo" / "scenario.json").read_bytes())
    (game / "rules.json").write_bytes((MAPS / "demo" / "rules.json").read_bytes())
    names = {p.name for p in make_aids(game, tmp_path / "b")}
    assert "track.pdf" in names and "oob.pdf" not in names
