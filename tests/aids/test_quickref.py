"""The quick reference aid: the rules the validator applies, from the game's profile."""

from __future__ import annotations

import pytest

from pipeline.aids import make_aids
from pipeline.aids.page import pages_pdf
from pipeline.aids.quickref import TOPICS, quickref_lines, quickref_pages
from pipeline.model import load_rules, rules_from_data
from pipeline.rules.registry import registry

from .conftest import MAPS, pdf_text

SEEDS = {name: spec for name, spec in registry().items() if spec.game is not None}


@pytest.mark.parametrize("system", sorted(SEEDS))
def test_every_line_cites_the_games_own_rulebook(tmp_path, system):
    spec = SEEDS[system]
    profile = load_rules(MAPS / str(spec.game) / "rules.json")
    lines = quickref_lines(profile)
    assert {x.topic for x in lines} <= set(TOPICS)
    cited = [x for x in lines if x.rule is not None]
    assert cited and all(x.rule.startswith(f"{spec.code} ") for x in cited)
    path = tmp_path / "quickref.pdf"
    path.write_bytes(pages_pdf(quickref_pages(profile), "quickref"))
    flat = " ".join(pdf_text(path).split())
    for line in lines[:12]:
        assert line.text[:40] in flat
    # Each procedure the system declares is on the sheet with its section.
    for hook, section in spec.overrides.items():
        assert any(x.key == f"{system}.{hook}" and x.rule == f"{spec.code} §{section}"
                   for x in lines), hook


def test_fm_omaha_lines_come_from_the_profile_and_the_procedures():
    lines = {x.key: x for x in quickref_lines(load_rules(MAPS / "omaha" / "rules.json"))}
    assert lines["zoc.exerted_by"].rule == "000 §6.0"
    assert "no_zoc" in lines["zoc.exerted_by"].text
    assert lines["zoc.by_class.mobile.enter.free_for[0]"].rule == "000 §6.1 Exception"
    assert lines["supply.sources[0].in_hex"].rule == "000 §12.0 Exception"
    assert lines["zoc.ezoc_to_ezoc_barred"].rule == "000 §6.1 Exception"
    assert lines["stacking.hex_limits[0].once_left"].rule == "000 §11.2.1"
    assert lines["placement.not_in_ezoc"].rule == "000 §11.2.4"
    assert lines["supply.not_traced[1]"].rule == "000 §12.0 Exception"
    assert "terrain" not in lines  # the costs are the Terrain Effects Chart's


def test_a_new_games_sheet_never_mentions_rangers_or_another_rulebook():
    """The issue's game of one's own (blue and red sides, "system": "fm_omaha", supply on
    the west and east edges, ZOC stopping leg and mobile units alike): its sheet says what
    its own profile says, citing its own rulebook, and nothing of Rangers, beaches or
    "000 §12.0"."""
    profile = rules_from_data({
        "kind": "rules", "system": "fm_omaha", "game": "blue-red", "source": "BLUE.md",
        "cite_as": "BLUE", "sides": ["blue", "red"], "unit_classes": ["leg", "mobile"],
        "dice": "1d6", "terrain": {"clear": {"move": 1, "note": "BLUE.md §2"},
                                   "woods": {"move": 2, "note": "BLUE.md §2"}},
        "zoc": {"enter": {"stop": True, "cite": "BLUE.md §4"}},
        "stacking": {"limit": 1, "cite": "BLUE.md §5"},
        "supply": {"sources": [
            {"side": s, "kind": "edge", "edges": [e], "name": f"the {e} edge",
             "cite": "BLUE.md §6"} for s, e in (("blue", "west"), ("red", "east"))],
            "cite": "BLUE.md §6"}}, "rules.json")
    lines = quickref_lines(profile)
    words = " ".join(f"{x.rule} {x.text}" for x in lines).casefold()
    for absent in ("ranger", "beach", "000", "12.0"):
        assert absent not in words, absent
    assert all(x.rule is None or x.rule.startswith("BLUE §") for x in lines)
    assert any("the west edge" in x.text for x in lines)
    assert any(x.key == "zoc.enter" and "must stop" in x.text for x in lines)


def test_the_tactical_sheet_cites_the_aids_headings(tmp_path):
    """002 has no section numbers: lines cite a paragraph's heading and opening words,
    and the sheet is made with the other aids."""
    lines = quickref_lines(load_rules(MAPS / "tactical" / "rules.json"))
    assert {x.topic for x in lines} >= {"Movement", "Stacking", "Line of sight"}
    rules = {x.rule for x in lines if x.rule}
    assert "002 §Stacking: The stacking limit at all times is 4 units per hex" in rules
    assert any(r.startswith("002 §LOS: ") for r in rules)
    names = {p.name for p in make_aids(MAPS / "tactical", tmp_path, map_dpi=12)}
    assert {"quickref.pdf", "quickref.png"} <= names
    text = " ".join(pdf_text(tmp_path / "quickref.pdf").split())
    assert "Line of sight" in text and "hilltop" in text and "elevation" in text
