"""pipeline/validate/rawjson.py and screen.py: every slip of a typed file in one run."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pipeline.cli.validate import validate
from pipeline.errors import DataError
from pipeline.model import load_map
from pipeline.validate import read_raw, validate_text


def _with_slips(demo_data) -> str:
    """The demo map typed with one of each slip the strict reader stops at."""
    demo_data["hexes"]["0101"] = {"terrain": ["wods"]}                        # unknown name
    demo_data["hexes"]["2623"] = {"terrain": ["woods"]}                       # off the grid
    demo_data["hexsides"].append({"hexes": ["0303", "0606"], "features": ["road"]})
    demo_data["hexsides"].append({"hex": "1010", "direction": "N", "features": ["road"]})
    demo_data["hexes"]["1212"] = {"terrain": ["woods"], "confidence": "NAN"}
    text = json.dumps(demo_data, indent=1)
    # Two keys typed twice (a dict cannot hold them: written into the text), a NaN.
    text = text.replace('"hexes": {', '"hexes": {\n  "1718": {"terrain": ["clear"]},\n'
                        '  "0808": {"terrain": ["woods"]},\n  "0808": {"terrain": ["marsh"]},', 1)
    return text.replace('"NAN"', "NaN")


def test_every_slip_is_a_located_finding_of_one_run(demo_data):
    text = _with_slips(demo_data)
    result = validate_text(text, file="typed.json")
    slips = {(f.kind, f.where) for f in result.findings if f.source == "screen"}
    assert slips == {
        ("duplicate_key", "1718"), ("duplicate_key", "0808"), ("unknown_name", "0101"),
        ("off_grid", "2623"), ("not_adjacent", "0303/0606"), ("bad_hexside", "1010/N"),
        ("not_a_number", "")}
    assert result.has_errors and not result.loads
    # Its lines in the file, and what each entry says (0808 is in the demo too: 3 times).
    dup = {f.where: f.message for f in result.findings if f.kind == "duplicate_key"}
    lines = [str(n) for n, line in enumerate(text.splitlines(), 1) if '"0808":' in line]
    assert f"typed 3 times, on lines {lines[0]}, {lines[1]} and {lines[2]} " in dup["0808"]
    assert "(woods; then marsh; then " in dup["0808"]
    assert "not neighbours" in next(f.message for f in result.findings if f.where == "0303/0606")
    assert "inside the map" in next(f.message for f in result.findings if f.where == "1010/N")
    # The rest of the map is still checked: lint ran on what loaded.
    assert any(f.source == "lint" for f in result.findings)


def test_a_number_too_large_is_a_slip_and_a_grid_it_breaks_stops_the_run(demo_data):
    demo_data["hexes"]["1212"] = {"terrain": ["woods"], "confidence": "BIG"}
    text = json.dumps(demo_data, indent=1).replace('"BIG"', "1e400")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "1e400" in row)
    found = [f for f in validate_text(text, file="typed.json").findings
             if f.kind == "not_a_number"]
    assert [f.message.split(":")[0] for f in found] == [
        f"the number 1e400 is too large, on line {line}"]
    # Without a grid nothing can be checked: one error naming the number and the place.
    text = json.dumps(demo_data).replace('"cols": 25', '"cols": NaN', 1)
    with pytest.raises(DataError, match=r"invalid JSON \(NaN is not valid JSON, on line 1:"
                       r".*without it, boards\[0\]\.grid\.cols: expected a whole number"):
        validate_text(text, file="typed.json")


def test_the_strict_reader_still_refuses_the_file(tmp_path, demo_data):
    path = tmp_path / "typed.json"
    path.write_text(_with_slips(demo_data))
    with pytest.raises(DataError):
        load_map(path)


def test_cli_lists_every_slip_exits_1_and_says_the_file_does_not_load(tmp_path, demo_data):
    path = tmp_path / "typed.json"
    path.write_text(_with_slips(demo_data))
    out = CliRunner().invoke(validate, [str(path)])
    assert out.exit_code == 1, out.output
    for kind in ("duplicate_key", "unknown_name", "off_grid", "not_adjacent", "bad_hexside",
                 "not_a_number"):
        assert kind in out.output
    assert "does not load for the other bocage commands until the 7 slips" in out.output
    data = json.loads(CliRunner().invoke(validate, [str(path), "--json"]).output)
    assert data["loads"] is False and data["counts"]["kind"]["duplicate_key"] == 2


def test_a_transposed_id_is_named_as_one(demo_data):
    # 1718's entry typed under 1781? Off the grid. 0312's typed under 0321 (both listed?):
    # a key typed twice and its transposition left out of a map that lists every hex.
    demo_data["hexes"] = {h: {"terrain": ["clear"]} for h in _ids(demo_data)}
    text = json.dumps(demo_data)
    text = text.replace('"0312": {"terrain": ["clear"]}', '"0321": {"terrain": ["woods"]}', 1)
    found = [f for f in validate_text(text, file="typed.json").findings
             if f.kind in ("transposed_id", "duplicate_key", "missing_hex")]
    assert [(f.kind, f.hexes) for f in found] == [("transposed_id", ("0321", "0312"))]
    assert "meant for 0312" in found[0].message


def _ids(demo_data):
    from pipeline.model import map_from_data

    return list(map_from_data(demo_data).hex_ids())


def test_text_that_is_not_json_is_bad_input_with_its_line():
    with pytest.raises(DataError, match="line 2 column 1"):
        read_raw('{"kind": "map"\n"title": "x"}', "typed.json")
