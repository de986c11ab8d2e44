"""Counter styles: the shipped default, laying a game's style over it, clear errors."""

from __future__ import annotations

import json

import pytest

from pipeline.counters.style import default_style, load_style, rgb
from pipeline.errors import DataError
from pipeline.model.manifest import MarkerSpec, UnitSpec


def _hue(colour: str) -> str:
    r, g, b = rgb(colour)
    if max(r, g, b) - min(r, g, b) < 20:
        return "grey"
    return {0: "red", 1: "green", 2: "blue"}[[r, g, b].index(max(r, g, b))]


def test_default_colours_follow_june44_2_4_4():
    """001_2c092b02feae28f3.txt §2.4.4: Commonwealth earth/tan, Germany grey, U.S.A. green."""
    style = default_style()
    nat = style.nationalities
    assert _hue(nat["German"].background) == "grey"
    assert _hue(nat["US"].background) == "green"
    r, g, b = rgb(nat["Commonwealth"].background)
    assert r > g > b  # tan: warm, red over green over blue
    assert nat["British"] == nat["Canadian"] == nat["Commonwealth"]


def test_palette_lookup_nationality_then_side_then_default():
    style = default_style()
    us = UnitSpec(id="1", side="allied", nationality="us", type="infantry")
    brit = UnitSpec(id="2", side="allied", nationality="British", type="infantry")
    allied = UnitSpec(id="3", side="allied", type="infantry")
    other = UnitSpec(id="4", side="soviet", type="infantry")
    assert style.palette_for(us) == style.nationalities["US"]
    assert style.palette_for(brit) == style.nationalities["British"]
    assert style.palette_for(allied) == style.sides["allied"]
    assert style.palette_for(other) == style.default
    assert style.palette_for(MarkerSpec(id="m", kind="game_turn")) == style.markers
    assert style.palette_for(MarkerSpec(id="m", kind="delay", side="german")) == \
        style.sides["german"]


def test_a_game_style_is_laid_over_the_default(tmp_path):
    path = tmp_path / "style.json"
    path.write_text(json.dumps({"nationalities": {"Polish": {"background": "#b08060"}},
                                "values": "strength-movement"}))
    style = load_style(path)
    assert style.nationalities["Polish"].background == "#b08060"
    assert style.nationalities["US"] == default_style().nationalities["US"]
    assert style.values == "strength-movement"
    assert load_style(None) is default_style()


@pytest.mark.parametrize(("doc", "message"), [
    ({"sides": {"allied": {"background": "#12345"}}},
     "sides.allied.background: expected a colour written '#rrggbb', got '#12345'"),
    ({"sides": {"allied": {"backgroud": "#123456"}}}, ("sides.allied: missing required key"
                                                       " 'background'")),
    ({"values": "attack-defense-movement"}, "values"),
    ({"colour": 1}, "colour"),
    ([1, 2], "expected a JSON object"),
])
def test_bad_styles_are_one_located_line(tmp_path, doc, message):
    path = tmp_path / "style.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(DataError) as caught:
        load_style(path)
    text = str(caught.value)
    assert text.startswith(f"{path}: ") and message in text and "\n" not in text


def test_missing_and_broken_style_files(tmp_path):
    with pytest.raises(DataError, match="no such file"):
        load_style(tmp_path / "nope.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with pytest.raises(DataError, match="invalid JSON"):
        load_style(broken)
