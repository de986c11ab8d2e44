"""Unit and marker manifests: CSV rows with their line numbers in every error."""

from __future__ import annotations

import pytest

from pipeline.errors import ManifestError
from pipeline.model import (
    UNIT_FLAGS,
    UNIT_TYPES,
    UnitSpec,
    load_markers,
    load_units,
    markers_from_text,
    units_from_text,
)

from .conftest import DEMO_MARKERS, DEMO_UNITS, csv_with, error_of

HEADER = "id,side,type,attack,defence,movement,flags,size"


def units(*rows: str, header: str = HEADER) -> str:
    return "\n".join([header, *rows]) + "\n"


def unit_error(text: str) -> str:
    return error_of(lambda: units_from_text(text, "units.csv"))


# -- the demo manifests (000 §11) --------------------------------------------------------


def test_demo_units_are_the_units_000_names():
    demo = load_units(DEMO_UNITS)
    assert demo.ids() == ["352/352", "914/352", "915/352", "916/352", "1", "Sch/30", "9/3",
                          "2 Rgr", "9/2", "23/2", "38/2", "CCA/2", "117/30"]
    rangers = demo.get("2 Rgr")
    assert rangers is not None
    assert (rangers.type, rangers.size, rangers.setup_hex, rangers.steps) == (
        "ranger", "battalion", "2417", 2)
    assert rangers.has("ranger")
    assert demo.line_of("2 Rgr") == 9


def _n(value: float | None) -> str:
    assert value is not None
    return f"{value:g}"


def test_demo_values_the_text_does_not_give_are_labelled_illustrative_value_by_value():
    # 000 §2.3 names the values a counter prints; the text gives none of them for these units.
    for unit in load_units(DEMO_UNITS):
        assert unit.notes.startswith("000 §11")
        said = unit.notes.split("illustrative values (demo only, not the published counter's,"
                                " which the text does not give): ")
        assert len(said) == 2, unit.id
        assert said[1].startswith(f"attack {_n(unit.attack)}, defence {_n(unit.defence)},"
                                  f" movement {_n(unit.movement)}"), unit.id
        if unit.steps == 1:
            assert (unit.back_attack, unit.back_defence, unit.back_movement) == (None,) * 3
            assert "one step (no reduced side" in said[1]
        else:
            assert unit.steps == 2
            assert (f"back (reduced) {_n(unit.back_attack)}-{_n(unit.back_defence)}-"
                    f"{_n(unit.back_movement)}") in said[1], unit.id
        assert (unit.range, unit.strength, unit.back_range, unit.back_strength) == (None,) * 4


def test_demo_arrivals_follow_000_s11_1_2_and_s11_2_4():
    demo = load_units(DEMO_UNITS)
    arrivals = {u.id: u.arrival_turn for u in demo if u.arrival_turn is not None}
    assert arrivals == {"Sch/30": 1, "9/3": 3, "9/2": 2, "23/2": 2, "38/2": 2, "CCA/2": 2,
                        "117/30": 3}


def test_demo_support_fire_markers_000_s11_1_4_and_s11_2_6_and_s11_2_7():
    demo = load_markers(DEMO_MARKERS)
    german = {m.value: m.count for m in demo if m.side == "german" and m.id != "ger_minen"}
    assert german == {"+1": 1, "+2": 2, "+3": 2, "+4": 2, "+5": 2, "+6": 3, "+8": 2, "+9": 1}
    assert sum(c or 0 for c in german.values()) == 15
    # The two "Achtung! Minen" markers: their value is not in the text; the demo's is labelled.
    minen = demo.get("ger_minen")
    assert minen is not None and (minen.label, minen.count, minen.value) == (
        "Achtung! Minen", 2, "+3")
    assert "+3 is an illustrative value (demo only, not the published marker's)" in minen.notes
    allied = {m.value: m.count for m in demo if m.kind == "support_fire" and m.side == "allied"}
    assert allied == {"+2": 3, "+3": 3, "+4": 2, "+5": 1, "+6": 6, "+7": 3, "+8": 4, "+9": 2,
                      "+10": 1}
    assert sum(c or 0 for c in allied.values()) == 25
    naval = demo.get("al_naval_7")
    assert naval is not None and (naval.kind, naval.value, naval.count, naval.icon) == (
        "naval_support_fire", "+7", 4, "turret")
    beachhead = demo.get("beachhead")
    assert beachhead is not None and beachhead.count is None
    assert "not in the text" in beachhead.notes


# -- unit errors -------------------------------------------------------------------------


def test_unknown_unit_type_names_the_line_and_the_closest_type():
    text = csv_with(DEMO_UNITS, 12, "CCA/2,CCA/2,allied,US,armr,regiment,2,mobile"
                    + "," * 15)
    assert error_of(lambda: units_from_text(text, "units.csv")) == (
        "units.csv:12: unknown unit type 'armr' (did you mean 'armor'?)")


def test_text_in_a_number_column():
    text = units("a,allied,infantry,1,2,3,,", "b,allied,infantry,2,2,3,,",
                 "c,german,infantry,x,2,3,,")
    assert unit_error(text) == "units.csv:4: attack: 'x' is not a number"


def test_whole_numbers_where_whole_numbers_belong():
    text = units("a,allied,infantry,,,,,", header="id,side,type,steps,attack,movement,flags,size")
    assert units_from_text(text).get("a") is not None
    bad = units("a,allied,infantry,1.5,,,,", header="id,side,type,steps,attack,movement,flags,size")
    assert unit_error(bad) == "units.csv:2: steps: '1.5' is not a whole number"


def test_numbers_keep_their_kind_and_must_not_be_negative():
    one = units_from_text(units("a,allied,infantry,4,2.5,0,,")).get("a")
    assert one is not None
    assert (one.attack, one.defence, one.movement) == (4, 2.5, 0)
    assert isinstance(one.attack, int)
    assert unit_error(units("a,allied,infantry,-1,2,3,,")) == (
        "units.csv:2: attack: expected a number >= 0, got -1")
    assert unit_error(units("a,allied,infantry,٣,2,3,,")) == (
        "units.csv:2: attack: '٣' is not a number")


def test_duplicate_unit_id_names_both_lines():
    assert unit_error(units("a,allied,infantry,,,,,", "b,allied,infantry,,,,,",
                            "a,german,infantry,,,,,")) == (
        "units.csv:4: duplicate unit id 'a' (first on line 2)")


def test_missing_required_column():
    assert unit_error("id,type\na,infantry\n") == (
        "units.csv:1: missing required column 'side' (the header must name at least id, side,"
        " type)")


def test_unknown_column_with_suggestion_even_for_a_change_of_case():
    assert unit_error("id,side,type,atack\n") == (
        "units.csv:1: unknown column 'atack' (did you mean 'attack'?)")
    assert unit_error("ID,side,type\n") == "units.csv:1: unknown column 'ID' (did you mean 'id'?)"


def test_header_problems():
    assert unit_error("id,side,type,\n") == (
        "units.csv:1: column 4 of the header has no name (a stray comma?)")
    assert unit_error("id,side,type,side\n") == (
        "units.csv:1: column 'side' appears twice in the header")
    assert unit_error("") == ("units.csv:1: no header row: the first line must name the columns"
                              " (id, name, side, nationality, type, size, formation, class,"
                              " attack, defence, range, movement, strength, back_attack,"
                              " back_defence, back_range, back_movement, back_strength, steps,"
                              " flags, setup_hex, arrival_turn, count, image, notes)")


def test_rows_with_the_wrong_number_of_fields():
    assert unit_error(units("a,allied,infantry,1,2,3,,,extra")) == (
        "units.csv:2: row has 9 fields but the header has 8 (a missing or extra comma?)")


def test_unknown_flag_size_and_side():
    assert unit_error(units("a,allied,infantry,,,,mobil,")) == (
        "units.csv:2: unknown flag 'mobil' (did you mean 'mobile'?)")
    assert unit_error(units("a,allied,infantry,,,,ranger;ranger,")) == (
        "units.csv:2: flag 'ranger' is given twice")
    assert unit_error(units("a,allied,infantry,,,,,regimnt")) == (
        "units.csv:2: unknown unit size 'regimnt' (did you mean 'regiment'?)")
    assert unit_error(units("a,Allied,infantry,,,,,")) == (
        "units.csv:2: side: expected a lower-case name (letters a-z, digits, '_'; starting with"
        " a letter), got 'Allied'")
    assert unit_error(units(",allied,infantry,,,,,")) == (
        "units.csv:2: id: required, but the cell is empty")
    assert unit_error(units("a,,infantry,,,,,")) == (
        "units.csv:2: side: required, but the cell is empty")


def test_forgiving_where_it_costs_nothing():
    text = "\ufeff" + units('"x, the first", allied , infantry ,4,,, ranger ; hq ,', "",
                            "  ,  ,,,,,,")
    manifest = units_from_text(text)
    [unit] = list(manifest)
    assert (unit.id, unit.side, unit.flags, unit.attack) == ("x, the first", "allied",
                                                            ["ranger", "hq"], 4)


def test_line_numbers_count_physical_lines_of_quoted_fields():
    text = units('a,allied,infantry,,,,,', '"b\nsecond line",allied,infantry,,,,,',
                 "c,allied,armr,,,,,")
    assert unit_error(text) == "units.csv:5: unknown unit type 'armr' (did you mean 'armor'?)"


def test_broken_quoting_is_one_line():
    assert unit_error(units('a,allied,infantry,,,,,', '"b,allied,infantry,,,,,')).startswith(
        "units.csv:3: bad CSV (")


def test_class_column_is_read_into_unit_class():
    manifest = units_from_text("id,side,type,class\na,allied,infantry,leg\n")
    unit = manifest.get("a")
    assert unit is not None and unit.unit_class == "leg"
    assert UnitSpec(id="b", side="allied", type="armor", unit_class="mobile").unit_class == "mobile"


def test_tables_are_documented():
    assert UNIT_TYPES["armor"] == "tank / panzer"
    assert "000 §6.0" in UNIT_FLAGS["no_zoc"]


# -- markers -----------------------------------------------------------------------------


@pytest.mark.parametrize(("row", "expected"), [
    ("m,support_fir,german,+3,1", "markers.csv:2: kind: expected one of 'support_fire',"),
    ("m,support_fire,german,three,1", ("markers.csv:2: value: expected a number such as '+3' or"
                                      " '-1', got 'three'")),
    ("m,support_fire,german,+3,0", "markers.csv:2: count: must be >= 1, got 0"),
    ("m,support_fire,german,+3,x", "markers.csv:2: count: 'x' is not a whole number"),
])
def test_marker_errors(row, expected):
    text = "id,kind,side,value,count\n" + row + "\n"
    assert error_of(lambda: markers_from_text(text, "markers.csv")).startswith(expected)


def test_duplicate_marker_id_and_missing_kind_column():
    assert error_of(lambda: markers_from_text("id,kind\na,other\na,other\n", "m.csv")) == (
        "m.csv:3: duplicate marker id 'a' (first on line 2)")
    assert error_of(lambda: markers_from_text("id,value\n", "m.csv")) == (
        "m.csv:1: missing required column 'kind' (the header must name at least id, kind)")


def test_errors_are_manifest_errors_with_row_and_column():
    with pytest.raises(ManifestError) as info:
        units_from_text(units("a,allied,infantry,x,,,,"), "u.csv")
    assert (info.value.file, info.value.row, info.value.column) == ("u.csv", 2, "attack")


# -- bounds and what no counter or module can hold -----------------------------------------


@pytest.mark.parametrize(("cell", "code"), [("9\x002", "U+0000"), ("bell\x07", "U+0007"),
                                            ("\ud800", "U+D800"), ("\ufffe", "U+FFFE")])
def test_control_characters_are_refused_with_row_and_column(cell, code):
    with pytest.raises(ManifestError) as info:
        units_from_text(units("a,allied,infantry,,,,,", "b,allied,infantry,,,,,regiment"
                              ).replace("b,allied", f"{cell},allied"), "u.csv")
    assert (info.value.row, info.value.column) == (3, "id")
    assert str(info.value) == f"u.csv:3: id: the cell holds the control character {code}; remove it"


def test_tabs_and_line_ends_in_quoted_cells_are_kept():
    text = 'id,side,type,notes\na,allied,infantry,"first\tline\nsecond"\n'
    assert units_from_text(text, "u.csv").get("a").notes == "first\tline\nsecond"


def test_a_control_character_in_the_header_names_the_column_number():
    assert error_of(lambda: units_from_text("id,si\x00de,type\n", "u.csv")) == (
        "u.csv:1: column 2: the cell holds the control character U+0000; remove it")


def test_rows_beyond_the_limit_are_refused_where_they_start(tmp_path):
    from pipeline.model.manifest import MAX_ROWS

    path = tmp_path / "units.csv"
    with path.open("w") as fh:
        fh.write("id,side,type\n")
        for n in range(MAX_ROWS + 50):
            fh.write(f"u{n},allied,infantry\n")
    assert error_of(lambda: load_units(path)) == (
        f"{path}:{MAX_ROWS + 2}: more than 10,000 rows; a manifest holds at most 10,000 units or"
        " markers")


def test_a_file_over_the_byte_limit_is_not_read(tmp_path):
    from pipeline.model.manifest import MAX_MANIFEST_BYTES

    path = tmp_path / "units.csv"
    with path.open("wb") as fh:
        fh.write(b"id,side,type\n")
        fh.truncate(MAX_MANIFEST_BYTES + 1)  # sparse: no need to write the bytes
    assert error_of(lambda: load_units(path)).startswith(f"{path}: is over 16 MiB")


def test_a_marker_count_is_bounded():
    text = "id,kind,count\nm,other,1000\nn,other,1000000000\n"
    assert error_of(lambda: markers_from_text(text, "m.csv")).startswith(
        "m.csv:3: count: must be <= 1000, got 1000000000")


def test_bytes_that_are_not_utf8_name_their_line(tmp_path):
    path = tmp_path / "units.csv"
    path.write_bytes(b"id,side,type\na,allied,infantry\nb,allied,inf\xe9ntry\n")
    assert error_of(lambda: load_units(path)) == (
        f"{path}:3: type: not UTF-8 text (byte 0xe9); save the file as UTF-8")


def test_a_file_is_read_row_by_row_not_whole(tmp_path):
    import tracemalloc

    path = tmp_path / "units.csv"
    with path.open("w") as fh:
        fh.write("id,side,type,notes\n")
        fh.write("a,allied,armr," + "x" * 1000 + "\n")  # the error is on line 2 ...
        for n in range(12_000):  # ... of a 12 MB file
            fh.write(f"u{n},allied,infantry," + "x" * 1000 + "\n")
    tracemalloc.start()
    try:
        assert error_of(lambda: load_units(path)).startswith(f"{path}:2: unknown unit type")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2_000_000  # far less than the file: it stopped at the bad row
