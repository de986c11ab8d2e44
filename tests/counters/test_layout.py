"""Counter layout: geometry that scales, and the text each line prints."""

from __future__ import annotations

import pytest

from pipeline.counters.layout import (
    counter_layout,
    identifier,
    marker_value,
    resolve_value_layout,
    value_cells,
)
from pipeline.model.manifest import MarkerSpec, UnitSpec


@pytest.mark.parametrize("side", [60, 75, 150, 187, 188, 300, 600])
def test_layout_is_centred_and_stacked(side):
    lay = counter_layout(side)
    left, top, right, bottom = lay.box
    assert left == side - right  # centred across
    assert (right - left) / (bottom - top) == pytest.approx(1.5, abs=0.05)
    assert lay.size_mark[3] <= top < bottom < lay.values[1] < lay.values[3] <= side
    assert lay.id_left[2] < left and lay.id_right[0] > right
    assert lay.band[1] > 0 and lay.band[3] <= top


def test_bleed_moves_everything_but_the_band_edges():
    plain, bled = counter_layout(188), counter_layout(188, 30)
    assert bled.image_size == 248 and bled.trim == (30, 30, 218, 218)
    assert bled.box == tuple(v + 30 for v in plain.box)
    assert bled.band[0] == 0 and bled.band[2] == 248


def test_value_cells_and_marks():
    art = UnitSpec(id="1", side="german", type="artillery", attack=4, defence=1, movement=3,
                   flags=["artillery_parens"])
    assert value_cells(art, "attack-defence-movement") == ["(4)", "1", "3"]
    assert value_cells(art, "attack-defence-movement", back=True) == ["(?)", "?", "?"]
    mg = UnitSpec(id="2", side="german", type="machine_gun", attack=6, range=8, defence=4,
                  movement=5, flags=["long_range"])
    assert value_cells(mg, "attack-range-defence-movement") == ["6", "8*", "4", "5"]


def test_auto_value_layout_follows_the_columns_the_manifest_fills():
    empty = UnitSpec(id="1", side="a", type="infantry")
    ranged = UnitSpec(id="2", side="a", type="infantry", range=4)
    assert resolve_value_layout("auto", [empty]) == "attack-defence-movement"
    assert resolve_value_layout("auto", [empty, ranged]) == "attack-range-defence-movement"
    assert resolve_value_layout("strength-movement", [ranged]) == "strength-movement"


def test_identifier_and_marker_value():
    assert identifier(UnitSpec(id="CCA/2", side="a", type="armor")) == ("CCA", "2")
    assert identifier(UnitSpec(id="1", side="a", type="armor", formation="352")) == ("1", "352")
    assert marker_value(MarkerSpec(id="a", kind="support_fire", value="+3")) == "+3"
    assert marker_value(MarkerSpec(id="b", kind="game_turn")) == ""
