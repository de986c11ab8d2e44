"""Map data: the demo honours every hex fact of 000; bad maps get one located line."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from typing import Any

import pytest

from pipeline.hexgrid import Layout
from pipeline.model import MapData, load_map, map_from_data

from .conftest import DEMO_MAP, ROOT, RULEBOOK, edited, error_of, sample

FILE = "maps/demo/map.json"


def load_edit(edit) -> MapData:
    return map_from_data(edited(DEMO_MAP, edit), FILE)


def fails(edit) -> str:
    return error_of(lambda: load_edit(edit))


@pytest.fixture(scope="module")
def demo() -> MapData:
    return load_map(DEMO_MAP)


# -- the demo map: facts of 000_3d79f68a6e3e33eb.txt ------------------------------------


def test_demo_is_labelled_illustrative_and_cites_the_rulebook(demo):
    assert demo.illustrative is True
    assert demo.source.startswith(RULEBOOK)
    assert "invented" in demo.notes


def test_demo_grid_is_25_by_22_flat_even_columns_down(demo):
    grid = demo.grids()["omaha"]
    assert (grid.cols, grid.rows, grid.orientation.value) == (25, 22, "flat")
    assert demo.has_hex("0101") and demo.has_hex("2522") and not demo.has_hex("2523")
    # SCENARIOS.md §1: 0405 (even column) touches 0404 0406 0305 0306 0505 0506.
    assert sorted(grid.ids(grid.neighbours(grid.hex("0405")))) == [
        "0305", "0306", "0404", "0406", "0505", "0506"]


def test_demo_omaha_beach_hexes_000_s11_0(demo):
    beach = ["2318", "2319", "2219", "2120", "2121", "2122"]
    assert all(demo.terrain_of(h) == ["beach"] for h in beach)
    assert sorted(h for h, e in demo.hexes.items() if "beach" in e.terrain) == sorted(beach)
    grid = demo.grids()["omaha"]
    for h in beach:  # every Omaha beach hex is on the coast
        around = grid.ids(grid.neighbours(grid.hex(h)))
        assert any(demo.terrain_of(n) == ["all_sea"] for n in around)


def test_demo_cities_and_victory_hexes_000_s13_0(demo):
    cities = {h: e.name for h, e in demo.hexes.items() if "city" in e.terrain}
    assert cities == {"1718": "Treviers", "1811": "Isigny", "1911": "Isigny",
                      "0421": "Caumont", "0608": "St Lo", "0609": "St Lo", "0709": "St Lo"}
    victory = sorted(h for h, e in demo.hexes.items() if "victory_location" in e.features)
    assert victory == ["0421", "1718", "1811", "1911"]


def test_demo_pointe_du_hoc_000_s11_2_3(demo):
    assert demo.hexes["2417"].name == "Pointe du Hoc"
    [place] = [p for p in demo.locations if p.name == "Pointe du Hoc"]
    assert place.hexes == ["2417"] and "§11.2.3" in place.cite


def test_demo_douve_taute_river_runs_from_2108_to_0805_000_s10_1(demo):
    grid = demo.grids()["omaha"].__class__(
        demo.grids()["omaha"].orientation, demo.grids()["omaha"].numbering, 25, 22,
        layout=Layout(dx=30.0, dy=34.64, x0=20.0, y0=20.0))
    sides = [s.hexes for s in demo.hexsides if "river" in s.features]
    assert sides and all(s is not None for s in sides)
    touched = {h for s in sides if s is not None for h in s}
    assert {"2108", "0805"} <= touched
    # The hexsides form one unbroken line: every corner is shared by at most two
    # river hexsides, and exactly two corners (the ends) by one.
    corners: Counter[tuple[float, float]] = Counter()
    for s in sides:
        assert s is not None
        a, b = grid.hex(s[0]), grid.hex(s[1])
        for x, y in grid.hexside_endpoints(grid.hexside(a, b)):
            corners[(round(x, 3), round(y, 3))] += 1
    assert sorted(Counter(corners.values()).items()) == [(1, 2), (2, len(sides) - 1)]


def test_demo_boundary_and_entry_hexes_are_recorded(demo):
    places = {p.name: p for p in demo.locations}
    assert places["Scenario boundary"].hexes == [
        "0705", "0604", "0504", "0404", "0304", "0204", "0104"]
    assert places["Sch/30 entry hex"].hexes == ["1005"]
    assert demo.edges["south"].side == "german" and "§11.1.2" in demo.edges["south"].cite


def test_demo_sea_lies_beyond_the_beaches_and_every_map_edge_form_is_used(demo):
    sea = [h for h, e in demo.hexes.items() if e.terrain == ["all_sea"]]
    assert min(int(h[:2]) for h in sea) >= 22  # the east edge, high columns
    assert any(s.hex == "0121" and s.direction == "SW" for s in demo.hexsides)
    assert demo.used_terrain() == set(demo.terrain_types)


def test_make_demo_regenerates_the_committed_map_byte_for_byte(tmp_path):
    script = ROOT / "maps" / "demo" / "make_demo.py"
    out = tmp_path / "map.json"
    # Another hash seed: set iteration order must not leak into the output.
    done = subprocess.run([sys.executable, str(script), str(out)], capture_output=True,
                          text=True, check=False, env={"PYTHONHASHSEED": "123", "PATH": ""})
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == DEMO_MAP.read_bytes()


def test_terrain_of_unlisted_hexes_is_the_default(demo):
    assert "0101" not in demo.hexes and demo.terrain_of("0101") == ["clear"]


# -- errors: one located line ------------------------------------------------------------


def test_unknown_terrain_is_named_with_the_closest_name():
    def edit(doc: dict[str, Any]) -> None:
        doc["hexes"]["0421"]["terrain"] = ["clear", "wods"]
    assert fails(edit) == ("maps/demo/map.json: hexes.0421.terrain[1]: unknown terrain 'wods'"
                           " (did you mean 'woods'?)")


def test_unknown_terrain_without_a_close_name_lists_the_vocabulary():
    def edit(doc: dict[str, Any]) -> None:
        doc["hexes"]["0421"]["terrain"] = ["lava"]
    assert fails(edit) == (
        "maps/demo/map.json: hexes.0421.terrain[0]: unknown terrain 'lava' (this map knows:"
        " all_sea, beach, city, clear, fortification, marsh, rough, village, woods)")


def test_hex_off_the_grid_names_the_range():
    def edit(doc: dict[str, Any]) -> None:
        doc["hexes"]["9999"] = {"terrain": ["clear"]}
    assert fails(edit) == ("maps/demo/map.json: hexes.9999: hex '9999' is not on the grid"
                           " (25 columns x 22 rows, 0101 to 2522)")


def test_malformed_hex_id_shows_the_form():
    def edit(doc: dict[str, Any]) -> None:
        doc["hexes"]["421"] = {"terrain": ["clear"]}
    assert fails(edit) == ("maps/demo/map.json: hexes.421: '421' is not a hex id of this map"
                           " (ids look like '0101'; 25 columns x 22 rows, 0101 to 2522)")


def test_string_where_a_number_belongs():
    def edit(doc: dict[str, Any]) -> None:
        doc["boards"][0]["grid"]["cols"] = "twenty-five"
    assert fails(edit) == ("maps/demo/map.json: boards[0].grid.cols: expected a whole number,"
                           " got 'twenty-five'")


def test_fractions_outside_0_to_1():
    def edit(doc: dict[str, Any]) -> None:
        doc["hexes"]["0421"]["fractions"] = {"city": 1.2}
    assert fails(edit) == "maps/demo/map.json: hexes.0421.fractions.city: must be <= 1, got 1.2"


def test_fraction_of_unknown_terrain():
    def edit(doc: dict[str, Any]) -> None:
        doc["hexes"]["0421"]["fractions"] = {"cty": 0.5}
    assert fails(edit) == ("maps/demo/map.json: hexes.0421.fractions.cty: unknown terrain 'cty'"
                           " (did you mean 'city'?)")


def test_probability_of_unknown_terrain():
    def edit(doc: dict[str, Any]) -> None:
        doc["hexes"]["0421"]["probabilities"] = {"city": 0.9, "wods": 0.1}
    assert fails(edit) == ("maps/demo/map.json: hexes.0421.probabilities.wods: unknown"
                           " terrain 'wods' (did you mean 'woods'?)")


def test_hexside_between_hexes_that_do_not_touch():
    def edit(doc: dict[str, Any]) -> None:
        doc["hexsides"][3] = {"hexes": ["0101", "0303"], "features": ["road"]}
    assert fails(edit) == ("maps/demo/map.json: hexsides[3].hexes: hexes '0101' and '0303' are"
                           " not adjacent, so they share no hexside")


def test_hexside_hex_off_the_grid():
    def edit(doc: dict[str, Any]) -> None:
        doc["hexsides"][0]["hexes"][1] = "2623"
    assert fails(edit) == ("maps/demo/map.json: hexsides[0].hexes[1]: hex '2623' is not on the"
                           " grid (25 columns x 22 rows, 0101 to 2522)")


def test_unknown_hexside_feature():
    def edit(doc: dict[str, Any]) -> None:
        doc["hexsides"][0]["features"] = ["raod"]
    assert fails(edit) == ("maps/demo/map.json: hexsides[0].features[0]: unknown hexside"
                           " feature 'raod' (did you mean 'road'?)")


def test_unknown_hex_feature():
    def edit(doc: dict[str, Any]) -> None:
        doc["hexes"]["0421"]["features"] = ["victory"]
    assert fails(edit) == ("maps/demo/map.json: hexes.0421.features[0]: unknown hex feature"
                           " 'victory' (did you mean 'victory_location'?)")


def test_map_edge_hexside_must_be_on_the_edge_and_use_a_direction_name():
    def inside(doc: dict[str, Any]) -> None:
        doc["hexsides"].append({"hex": "0405", "direction": "N", "features": ["road"]})
    assert fails(inside).endswith(
        ': hexside 0405/N is inside the map, not on its edge: write it as'
        ' {"hexes": ["0405", "0404"]}')

    def bad_direction(doc: dict[str, Any]) -> None:
        doc["hexsides"].append({"hex": "0101", "direction": "NNW", "features": ["road"]})
    assert fails(bad_direction).endswith(
        ".direction: unknown direction 'NNW' (did you mean 'NW'?) (one of N, NE, SE, S, SW, NW)")


def test_hexside_needs_exactly_one_form():
    def both(doc: dict[str, Any]) -> None:
        doc["hexsides"][0]["hex"] = "0121"
    assert fails(both) == ('maps/demo/map.json: hexsides[0]: give either "hexes": [a, b] or'
                           ' "hex" + "direction", not both')

    def half(doc: dict[str, Any]) -> None:
        doc["hexsides"][0] = {"hex": "0101", "features": ["road"]}
    assert fails(half) == ("maps/demo/map.json: hexsides[0]: missing required key 'direction'"
                           " (a map-edge hexside needs both)")


def test_a_digitized_hexside_may_say_only_how_sure_a_line_is_not_there():
    def edit(doc: dict[str, Any]) -> None:
        doc["hexside_features"]["road"]["absent"] = 0.93
        doc["hexsides"].append({"hexes": ["0505", "0506"], "features": [],
                                "absent": {"road": 0.42, "river": 0.5}})
        doc["hexsides"][0]["absent"] = {"river": 0.15}
    doc = load_edit(edit)
    assert doc.hexside_features["road"].absent == 0.93
    assert doc.hexsides[-1].features == [] and doc.hexsides[-1].absent == {"road": 0.42,
                                                                           "river": 0.5}
    assert doc.hexsides[0].absent == {"river": 0.15}
    assert doc.used_hexside_features() == set(load_map(DEMO_MAP).used_hexside_features())


def test_a_hexside_entry_without_features_or_absent_readings_is_refused():
    def edit(doc: dict[str, Any]) -> None:
        doc["hexsides"][0]["features"] = []
    assert fails(edit) == ("maps/demo/map.json: hexsides[0].features: a hexside entry lists at"
                           " least one feature")


def test_absent_readings_name_known_lines_not_listed_on_the_hexside():
    def unknown(doc: dict[str, Any]) -> None:
        doc["hexsides"][0]["absent"] = {"raod": 0.9}
    assert fails(unknown) == ("maps/demo/map.json: hexsides[0].absent.raod: unknown hexside"
                              " feature 'raod' (did you mean 'road'?)")

    def listed(doc: dict[str, Any]) -> None:
        doc["hexsides"][0]["absent"] = {"road": 0.9}
    assert fails(listed) == ("maps/demo/map.json: hexsides[0].absent.road: 'road' is listed on"
                             " this hexside: a reading of its absence here contradicts it")


def test_duplicate_hexsides_load_the_validator_lints_them():
    doc = load_edit(lambda d: d["hexsides"].append(dict(d["hexsides"][0])))
    assert doc.hexsides[-1].key() == doc.hexsides[0].key()


def test_default_terrain_must_be_in_the_vocabulary():
    def edit(doc: dict[str, Any]) -> None:
        doc["default_terrain"] = "clearr"
    assert fails(edit) == ("maps/demo/map.json: default_terrain: unknown terrain 'clearr'"
                           " (did you mean 'clear'?)")


def test_unknown_top_level_key_gets_a_suggestion():
    def edit(doc: dict[str, Any]) -> None:
        doc["hexsids"] = []
    assert fails(edit) == "maps/demo/map.json: unknown key 'hexsids' (did you mean 'hexsides'?)"


def test_stagger_must_suit_the_orientation():
    def edit(doc: dict[str, Any]) -> None:
        doc["boards"][0]["grid"]["numbering"]["stagger"] = "even-right"
    assert fails(edit) == (
        "maps/demo/map.json: boards[0].grid.numbering.stagger: stagger 'even-right' does not"
        " suit a flat-top grid (use one of even-down, odd-down, even-up, odd-up)")


def test_grid_too_big_for_its_digits_is_located_at_the_grid():
    def edit(doc: dict[str, Any]) -> None:
        doc["boards"][0]["grid"]["cols"] = 120
    assert fails(edit) == ("maps/demo/map.json: boards[0].grid: column 120, row 22 does not fit"
                           " 2+2 digits; widen the numbering or add a separator")


def test_excluded_hexes_are_not_on_the_map():
    def edit(doc: dict[str, Any]) -> None:
        doc["boards"][0]["grid"]["exclude"] = ["0101", "0421"]
    assert fails(edit) == "maps/demo/map.json: hexes.0421: hex '0421' is excluded from the grid"
    doc = load_edit(lambda d: d["boards"][0]["grid"].update(exclude=["0101"]))
    assert not doc.has_hex("0101") and doc.has_hex("0102")
    assert error_of(lambda: load_edit(
        lambda d: d["boards"][0]["grid"].update(exclude=["2699"]))).endswith(
        "boards[0].grid.exclude[0]: hex '2699' is not on the grid (25 columns x 22 rows,"
        " 0101 to 2522)")


def test_ids_must_be_written_the_way_the_map_writes_them():
    def edit(doc: dict[str, Any]) -> None:
        numbering = doc["boards"][0]["grid"]["numbering"]
        numbering["separator"] = "."
        doc["hexes"] = {"4.21": {"terrain": ["city"]}}
        doc["hexsides"] = []
        doc["locations"] = []
    # Refused by hexgrid's parser or by the model's own spelling check, whichever comes
    # first: either way one spelling per hex, so ids can be dict keys.
    assert fails(edit).startswith("maps/demo/map.json: hexes.4.21: ")
    doc = load_edit(lambda d: (edit(d), d.update(hexes={"04.21": {"terrain": ["city"]}})))
    assert doc.terrain_of("04.21") == ["city"]


def test_layout_values_are_checked():
    def edit(doc: dict[str, Any]) -> None:
        doc["boards"][0]["grid"]["layout"] = {"dx": 0, "dy": 40, "x0": 1, "y0": 1}
    assert fails(edit) == "maps/demo/map.json: boards[0].grid.layout.dx: must be > 0, got 0"
    doc = load_edit(lambda d: d["boards"][0]["grid"].update(
        layout={"dx": 48.0, "dy": 55.0, "x0": 40.0, "y0": 40.0}))
    grid = doc.grids()["omaha"]
    assert grid.center(grid.hex("0101")) == pytest.approx((40.0, 40.0))


def test_layout_keeps_a_fitted_shear():
    """A scan's fitted grid may be sheared: ``affine`` holds the whole matrix and wins over
    dx, dy and rotation, so every hex centre comes back where the fit put it."""
    matrix = [48.2, 0.6, -0.3, 55.1]
    doc = load_edit(lambda d: d["boards"][0]["grid"].update(layout={
        "dx": 48.0, "dy": 55.0, "x0": 40.0, "y0": 40.0, "affine": matrix}))
    grid = doc.grids()["omaha"]
    fitted = Layout(dx=48.0, dy=55.0, x0=40.0, y0=40.0, affine=tuple(matrix))
    upright = Layout(dx=48.0, dy=55.0, x0=40.0, y0=40.0)
    for hex_id in ("0101", "0502", "2318"):
        h = grid.hex(hex_id)
        assert grid.center(h) == pytest.approx(fitted.center(h, grid.orientation))
    far = grid.hex("2318")
    assert grid.center(far) != pytest.approx(upright.center(far, grid.orientation), abs=1.0)


def test_layout_with_a_singular_matrix_is_one_located_line():
    def edit(doc: dict[str, Any]) -> None:
        doc["boards"][0]["grid"]["layout"] = {"dx": 48, "dy": 55, "x0": 1, "y0": 1,
                                              "affine": [1, 2, 2, 4]}
    assert fails(edit) == ("maps/demo/map.json: boards[0].grid.layout: grid layout matrix"
                           " is singular")

    def short(doc: dict[str, Any]) -> None:
        doc["boards"][0]["grid"]["layout"] = {"dx": 48, "dy": 55, "x0": 1, "y0": 1,
                                              "affine": [1, 2, 3]}
    assert fails(short).startswith("maps/demo/map.json: boards[0].grid.layout.affine")


# -- boards: Cobra's A and B (003) ------------------------------------------------------


def two_boards(**changes: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "kind": "map", "game": "cobra", "title": "two boards", "illustrative": True,
        "source": "invented", "terrain_types": {"clear": {}, "bocage": {}},
        "hexside_features": {"major_river": {"kind": "along"}},
        "boards": [
            {"name": "A", "grid": {"orientation": "flat", "cols": 51, "rows": 34,
                                   "numbering": {"stagger": "even-down", "prefix": "A"}}},
            {"name": "B", "grid": {"orientation": "flat", "cols": 30, "rows": 34,
                                   "numbering": {"stagger": "even-down", "prefix": "B"}}},
        ],
        "hexes": {"A2519": {"terrain": ["bocage", "clear"]}, "B1207": {"terrain": ["clear"]}},
        "hexsides": [{"hexes": ["A2519", "A2520"], "features": ["major_river"]}],
    }
    doc.update(changes)
    return doc


def test_two_boards_with_prefixes_find_their_hexes():
    doc = map_from_data(two_boards(), "cobra.json")
    assert list(doc.grids()) == ["A", "B"]
    board = doc.board_for("B1207")
    assert board is not None and board.name == "B"
    grid = doc.grid_for("A2519")
    assert grid is not None and grid.numbering.prefix == "A"
    assert doc.board_for("2519") is None and doc.board_for("C0101") is None
    assert doc.terrain_of("A2519") == ["bocage", "clear"]


def test_two_boards_need_distinct_prefixes():
    doc = two_boards()
    doc["boards"][1]["grid"]["numbering"]["prefix"] = ""
    assert error_of(lambda: map_from_data(doc, "cobra.json")) == (
        "cobra.json: boards[1].grid.numbering.prefix: with more than one board every board"
        " needs its own id prefix (like 'A' in A2519)")
    doc["boards"][1]["grid"]["numbering"]["prefix"] = "A"
    assert error_of(lambda: map_from_data(doc, "cobra.json")) == (
        "cobra.json: boards[1].grid.numbering.prefix: prefix 'A' is already used by boards[0]")


def test_hex_not_on_any_board_names_each_boards_range():
    doc = two_boards(hexes={"C0101": {"terrain": ["clear"]}})
    assert error_of(lambda: map_from_data(doc, "cobra.json")) == (
        "cobra.json: hexes.C0101: hex 'C0101' is not on any board (board A: 51 columns x 34"
        " rows, A0101 to A5134; board B: 30 columns x 34 rows, B0101 to B3034)")
    doc = two_boards(hexes={"B3101": {"terrain": ["clear"]}})
    assert error_of(lambda: map_from_data(doc, "cobra.json")) == (
        "cobra.json: hexes.B3101: board B: hex 'B3101' is not on the grid (30 columns x 34 rows,"
        " B0101 to B3034)")


def test_hexsides_across_unplaced_boards_are_refused():
    doc = two_boards(hexsides=[{"hexes": ["A5101", "B0101"], "features": ["major_river"]}])
    assert error_of(lambda: map_from_data(doc, "cobra.json")) == (
        "cobra.json: hexsides[0].hexes: hexes 'A5101' and 'B0101' are on different boards,"
        " and the boards are not placed (give each board after the first a placement)")


def placed(**spot: Any) -> dict[str, Any]:
    doc = two_boards()
    doc["boards"][1]["placement"] = spot
    return doc


def test_placed_boards_join_on_one_lattice():
    """B placed just east of A's 51 columns: B's first column follows A5101 across the seam."""
    doc = map_from_data(placed(hex="B0101", at="A5201"), "cobra.json")
    joined = doc.joined_grid()
    assert joined is not None and len(joined.hexes()) == 51 * 34 + 30 * 34
    a5101 = joined.hex("A5101")
    assert {joined.id(n) for n in joined.neighbours(a5101)} >= {"B0101"}
    assert joined.id(joined.hex("B3034")) == "B3034"
    seam = two_boards(hexsides=[{"hexes": ["A5101", "B0101"], "features": ["major_river"]}])
    seam["boards"][1]["placement"] = {"hex": "B0101", "at": "A5201"}
    assert len(map_from_data(seam, "cobra.json").hexsides) == 1
    assert map_from_data(two_boards(), "cobra.json").joined_grid() is None


def test_board_placement_errors_are_located():
    assert error_of(lambda: map_from_data(placed(hex="B9999", at="A5201"), "m.json")) == (
        "m.json: boards[1].placement.hex: hex 'B9999' is not on board 'B'"
        " (30 columns x 34 rows, B0101 to B3034)")
    assert error_of(lambda: map_from_data(placed(hex="B0101", at="A5001"), "m.json")) == (
        "m.json: boards: the boards overlap: B0101 falls on A5001")
    doc = placed(hex="B0101", at="A5201")
    doc["boards"][0]["placement"] = {"hex": "A0101", "at": "A0101"}
    assert error_of(lambda: map_from_data(doc, "m.json")) == (
        "m.json: boards[0].placement: the first board is where the others are placed:"
        " it takes no placement")
    far = two_boards(hexsides=[{"hexes": ["A0101", "B0101"], "features": ["major_river"]}])
    far["boards"][1]["placement"] = {"hex": "B0101", "at": "A5201"}
    assert error_of(lambda: map_from_data(far, "m.json")) == (
        "m.json: hexsides[0].hexes: hexes 'A0101' and 'B0101' are not adjacent across the"
        " seam, so they share no hexside")


def test_pointy_grids_load_with_their_own_staggers_and_directions():
    doc = two_boards(boards=[{"name": "T", "grid": {
        "orientation": "pointy", "cols": 10, "rows": 8, "numbering": {"stagger": "odd-right"}}}],
        hexes={"0504": {"terrain": ["clear"]}},
        hexsides=[{"hex": "0101", "direction": "W", "features": ["major_river"]}])
    loaded = map_from_data(doc, "t.json")
    assert loaded.grids()["T"].direction_names == ("NE", "E", "SE", "SW", "W", "NW")


def test_models_built_without_validation_still_build_their_grids():
    doc = load_map(DEMO_MAP)
    copy = MapData.model_construct(**dict(doc))
    assert copy.has_hex("2417") and list(copy.grids()) == ["omaha"]


def test_sample_helper_gives_independent_copies():
    a, b = sample(DEMO_MAP), sample(DEMO_MAP)
    a["hexes"].clear()
    assert b["hexes"]


def test_provenance_and_feature_confidence_are_read():
    def edit(doc: dict[str, Any]) -> None:
        doc["hexes"]["0421"]["provenance"] = "corrected"
        doc["hexsides"][0]["confidence"] = {f: 0.75 for f in doc["hexsides"][0]["features"]}
        doc["hexsides"][0]["provenance"] = "read"
    data = load_edit(edit)
    assert data.hexes["0421"].provenance == "corrected"
    assert set(data.hexsides[0].confidence or {}) == set(data.hexsides[0].features)
    assert data.hexsides[0].provenance == "read"


def test_unknown_provenance_is_refused():
    def edit(doc: dict[str, Any]) -> None:
        doc["hexes"]["0421"]["provenance"] = "guessed"
    assert fails(edit).startswith("maps/demo/map.json: hexes.0421.provenance: ")


def test_confidence_for_a_feature_the_hexside_does_not_list():
    def edit(doc: dict[str, Any]) -> None:
        doc["hexsides"][0]["features"] = ["road"]
        doc["hexsides"][0]["confidence"] = {"river": 0.9}
    assert fails(edit) == ("maps/demo/map.json: hexsides[0].confidence.river: confidence for"
                           " 'river', which this hexside does not list (its features: road)")
