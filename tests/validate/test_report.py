"""pipeline/validate/report.py and pipeline/cli/validate.py: HTML, text, JSON, exit codes."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from pipeline.cli.validate import validate
from pipeline.validate import html_report, validate_data

from .conftest import DEMO


def _typed(tmp_path, demo_data):
    demo_data["hexes"]["1010"] = {"terrain": ["marsh"]}
    demo_data["hexes"]["0101"] = {"terrain": ["wods"]}
    path = tmp_path / "typed.json"
    path.write_text(json.dumps(demo_data))
    return path


def test_the_page_is_self_contained_and_links_findings_to_hexes(demo_data, demo_map):
    demo_data["hexes"]["1010"] = {"terrain": ["marsh"]}
    page = html_report(validate_data(demo_data, file="typed.json", against=demo_map))
    assert not re.search(r'(src|href)="(?!data:)', page)
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in page
    assert page.count("data:image/png;base64,") == 1
    assert re.search(r'<polygon class="mark sev-error" data-hex="1010"', page)
    assert re.search(r'<li class="finding sev-error"[^>]*data-kind="terrain_differs"'
                     r'[^>]*data-hexes="1010"', page)
    assert 'data-filter="severity" value="error"' in page
    assert 'data-filter="kind" value="terrain_differs"' in page
    assert page == html_report(validate_data(demo_data, file="typed.json", against=demo_map))


def test_a_hexside_finding_is_drawn_on_its_side_and_the_list_goes_by_place(demo_data,
                                                                            demo_map):
    from .conftest import side_entry

    side_entry(demo_data, "0804", "0805")["features"] = ["road"]  # a river typed as a road
    demo_data["hexes"]["1010"] = {"terrain": ["marsh"]}
    page = html_report(validate_data(demo_data, file="typed.json", against=demo_map))
    line = re.search(r'<line class="mark sev-\w+" data-side="0804/0805" x1="([\d.]+)"'
                     r' y1="([\d.]+)" x2="([\d.]+)" y2="([\d.]+)"', page)
    assert line is not None
    x1, y1, x2, y2 = map(float, line.groups())
    # A hexside of the picture: as long as a hex's edge (the default pitch is 28 px).
    assert 15 < ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5 < 22
    assert re.search(r'data-hexes="0804 0805" data-side="0804/0805"', page)
    places = re.findall(r'<li class="place">([^<]+)</li>', page)
    assert places == sorted(places) and "0804" in places and "1010" in places


def test_cli_exit_codes_text_json_and_report(tmp_path, demo_data):
    typed = _typed(tmp_path, demo_data)
    runner = CliRunner()
    clean = runner.invoke(validate, [str(DEMO / "map.json"), "--facts", str(DEMO / "facts.json")])
    assert clean.exit_code == 0, clean.output
    assert "0 error, 0 warning, 7 check" in clean.output  # the demo is right: checks only
    report = tmp_path / "out" / "report.html"
    report.parent.mkdir()
    bad = runner.invoke(validate, [str(typed), "--against", str(DEMO / "map.json"),
                                   "--report", str(report)])
    assert bad.exit_code == 1, bad.output
    assert "terrain_differs" in bad.output and "unknown_name" in bad.output
    assert report.read_text().startswith("<!DOCTYPE html>")
    assert [p.name for p in report.parent.iterdir()] == ["report.html"]  # no temp file left
    as_json = runner.invoke(validate, [str(typed), "--against", str(DEMO / "map.json"),
                                       "--json"])
    data = json.loads(as_json.output)
    assert as_json.exit_code == 1 and data["ok"] is False
    assert data["counts"]["kind"]["unknown_name"] == 1
    assert data["diff"]["terrain"]["marsh"]["digitized"] == 15
    assert {"severity", "kind", "where", "message", "hexes", "source"} <= set(data["findings"][0])


def test_cli_bad_input_is_one_line_and_exit_2(tmp_path, demo_data):
    runner = CliRunner()
    missing = runner.invoke(validate, [str(tmp_path / "nope.json")])
    assert missing.exit_code == 2 and missing.output.count("\n") == 1
    assert "nope.json: no such file" in missing.output
    demo_data["boards"][0]["grid"]["rows"] = 23
    other = tmp_path / "other.json"
    other.write_text(json.dumps(demo_data))
    grid = runner.invoke(validate, [str(DEMO / "map.json"), "--against", str(other)])
    assert grid.exit_code == 2 and "do not share a grid" in grid.output
    role = runner.invoke(validate, [str(DEMO / "map.json"), "--role", "ocean=all_sea"])
    assert role.exit_code == 2 and "unknown role 'ocean'" in role.output


def _demo_scan(tmp_path):
    """The demo map rendered and scanned (seed 3): the scan, and the hex centres on it."""
    import cv2

    from pipeline.model import load_map
    from pipeline.render import ScanOptions, render_map, simulate_scan

    scan = tmp_path / "scan.png"
    rendered = render_map(load_map(DEMO / "map.json"))
    captured = simulate_scan(rendered.image, ScanOptions(seed=3))
    cv2.imwrite(str(scan), captured.image[:, :, ::-1])
    return scan, rendered, captured


@pytest.mark.slow
def test_scan_is_digitized_on_the_hand_maps_grid_and_diffed(tmp_path):
    """--scan: render the demo map, simulate a scan, validate the hand map against it."""
    scan, _, _ = _demo_scan(tmp_path)
    got = CliRunner().invoke(validate, [str(DEMO / "map.json"), "--scan", str(scan),
                                        "--legend", str(DEMO / "map.json"), "--json"])
    doc = json.loads(got.stdout)
    terrain = [f for f in doc["findings"] if f["kind"] == "terrain_differs"]
    assert terrain == [], terrain
    assert doc["diff"]["hexes"] == doc["diff"]["hexes_agreeing"] == 550
    assert doc["diff"]["features"]["river"]["agreement"] == 1.0
    missing = CliRunner().invoke(validate, [str(DEMO / "map.json"), "--scan", str(scan)])
    assert missing.exit_code == 2 and "--scan needs --legend" in missing.output


@pytest.mark.slow
def test_a_road_typed_beside_a_road_the_scan_does_not_show_is_named(tmp_path):
    """--scan reads how sure the reader is that a line is absent: a road typed too many
    (1906/2006, going on from the road through 1906) is an alarm, not a look."""
    scan, _, _ = _demo_scan(tmp_path)
    typed = json.loads((DEMO / "map.json").read_text(encoding="utf-8"))
    typed["hexsides"].append({"hexes": ["1906", "2006"], "features": ["road"]})
    path = tmp_path / "typed.json"
    path.write_text(json.dumps(typed), encoding="utf-8")
    got = CliRunner().invoke(validate, [str(path), "--scan", str(scan),
                                        "--legend", str(DEMO / "map.json"), "--json"])
    found = [f for f in json.loads(got.stdout)["findings"] if f["where"] == "1906/2006"]
    assert [(f["kind"], f["severity"]) for f in found] == [("hexside_differs", "error")]
    assert "road typed, not read (read as absent at confidence" in found[0]["message"]


@pytest.mark.slow
def test_the_report_of_a_scan_shows_the_scan_its_grid_and_a_crop_per_finding(tmp_path,
                                                                             demo_data):
    import base64
    import io

    import numpy as np
    from PIL import Image

    scan, rendered, captured = _demo_scan(tmp_path)
    demo_data["hexes"]["1010"] = {"terrain": ["marsh"]}  # one typing mistake
    typed = tmp_path / "typed.json"
    typed.write_text(json.dumps(demo_data))
    page = tmp_path / "report.html"
    got = CliRunner().invoke(validate, [str(typed), "--scan", str(scan), "--legend",
                                        str(DEMO / "map.json"), "--report", str(page)])
    assert got.exit_code == 1, got.output
    html_text = page.read_text()
    shown = re.search(r'<img alt="map" width="(\d+)"\s+height="(\d+)"\s+src="data:image/jpeg;'
                      r'base64,([^"]+)"', html_text)
    assert shown is not None
    picture = Image.open(io.BytesIO(base64.b64decode(shown.group(3))))
    with Image.open(scan) as whole:
        scan_w = whole.width
    k = picture.width / scan_w
    assert picture.width == int(shown.group(1)) <= 1600
    # The mistake's hex is outlined where the scan shows it.
    marks = re.search(r'<polygon class="mark sev-error" data-hex="1010" points="([^"]+)"',
                      html_text)
    assert marks is not None
    pts = np.array([[float(v) for v in p.split(",")] for p in marks.group(1).split()])
    x, y = rendered.grid.center(rendered.grid.hex("1010"))
    sx, sy = captured.to_scan(np.array([x]), np.array([y]))
    assert np.hypot(pts[:, 0].mean() - sx[0] * k, pts[:, 1].mean() - sy[0] * k) < 3
    # Beside the finding, a crop of the scan (a real picture, not the typed data).
    item = re.search(r'<li class="finding sev-error"[^>]*data-hexes="1010"[^>]*>(.*?)</li>',
                     html_text, re.S)
    assert item is not None
    crop = re.search(r'<img class="crop" alt="the scan at 1010" src="data:image/jpeg;base64,'
                     r'([^"]+)"', item.group(1))
    assert crop is not None
    piece = Image.open(io.BytesIO(base64.b64decode(crop.group(1))))
    assert max(piece.size) <= 132 and np.asarray(piece).std() > 5


@pytest.mark.slow
def test_scan_takes_digitizes_options_anchors_samples_and_the_size(tmp_path):
    """--scan reads exactly as bocage digitize does, with its options: two anchors on the
    scan's corners, sample hexes, the map's columns and rows."""
    import numpy as np

    scan, rendered, captured = _demo_scan(tmp_path)
    grid = rendered.grid
    anchors = []
    for hex_id in ("0101", "2522"):
        x, y = grid.center(grid.hex(hex_id))
        sx, sy = captured.to_scan(np.array([x]), np.array([y]))
        anchors += ["--anchor", f"{hex_id}={float(sx[0]):.1f},{float(sy[0]):.1f}"]
    got = CliRunner().invoke(validate, [
        str(DEMO / "map.json"), "--scan", str(scan), "--legend", str(DEMO / "map.json"),
        *anchors, "--sample", "woods=0606", "--cols", "25", "--rows", "22", "--json"])
    assert got.exit_code == 0, got.output
    doc = json.loads(got.stdout)
    assert doc["diff"]["hexes"] == 550
    assert doc["diff"]["hexes_agreeing"] >= 545, doc["counts"]
    # The options are digitize's own: a bad anchor is one line and exit 2, and they
    # mean nothing without a scan.
    bad = CliRunner().invoke(validate, [str(DEMO / "map.json"), "--scan", str(scan),
                                        "--legend", str(DEMO / "map.json"), "--anchor", "0101"])
    assert bad.exit_code == 2 and "is not HEX=X,Y" in bad.output
    alone = CliRunner().invoke(validate, [str(DEMO / "map.json"), "--cols", "25", "--rows", "22"])
    assert alone.exit_code == 2 and "give --scan SCAN too" in alone.output


def test_the_typed_maps_grid_keeps_its_layout(demo_data):
    from pipeline.validate import typed_grid

    demo_data["boards"][0]["grid"]["layout"] = {"dx": 40.0, "dy": 46.2, "x0": 30.0, "y0": 28.0}
    demo_data["hexes"]["0101"] = {"terrain": ["wods"]}  # a slip does not lose the grid
    grid = typed_grid(demo_data, "typed.json")
    assert grid is not None and grid.layout is not None and grid.layout.x0 == 30.0
    assert (grid.cols, grid.rows) == (25, 22)
    assert typed_grid({"boards": []}, "typed.json") is None


def test_role_option_changes_what_lint_finds():
    got = CliRunner().invoke(validate, [str(DEMO / "map.json"), "--json",
                                        "--role", "coast=beach,clear,woods,rough"])
    assert "sea_without_coast" not in json.loads(got.output)["counts"]["kind"]


def test_the_report_names_its_inputs_relative_to_itself(tmp_path, demo_data):
    (tmp_path / "data").mkdir()
    typed = _typed(tmp_path / "data", demo_data)
    report = tmp_path / "out" / "validation.html"
    result = CliRunner().invoke(validate, [str(typed.resolve()), "--facts",
                                           str((DEMO / "facts.json").resolve()),
                                           "--report", str(report.resolve()), "--quiet"])
    assert result.exit_code == 1, result.output
    page = report.read_text()
    recorded = json.loads(re.search(r'data-inputs="([^"]*)"', page).group(1)
                          .replace("&quot;", '"'))
    assert recorded["map"] == "../data/typed.json"
    assert (report.parent / recorded["facts"]).resolve() == (DEMO / "facts.json").resolve()
    assert str(tmp_path) not in page  # no machine path in a page meant to be shared
    assert "<title>bocage validate: ../data/typed.json</title>" in page


def test_findings_marked_as_checked_are_hidden_next_run(tmp_path, demo_data):
    typed = _typed(tmp_path, demo_data)
    runner = CliRunner()
    first = json.loads(runner.invoke(validate, [str(typed), "--json"]).output)
    shown = [(f["kind"], f["where"]) for f in first["findings"]]
    keep = next(f for f in first["findings"] if f["source"] == "lint")
    slip = next(f for f in first["findings"] if f["source"] == "screen")
    sidecar = tmp_path / "typed.checked.json"  # beside the map: read without an option
    sidecar.write_text(json.dumps({"checked": [
        {"kind": keep["kind"], "where": keep["where"]},
        {"kind": slip["kind"], "where": slip["where"]}]}))
    again = runner.invoke(validate, [str(typed)])
    assert "1 finding marked as checked, hidden" in again.output
    # A slip of the file itself is never hidden: the file does not load until it is fixed.
    assert slip["message"] in again.output and keep["message"] not in again.output
    second = json.loads(runner.invoke(validate, [str(typed), "--json"]).output)
    assert len(second["findings"]) == len(shown) - 1
    assert second["checked"] == [{"kind": keep["kind"], "where": keep["where"]}]
    sidecar.write_text('{"checked": [{"kind": 3}]}')
    bad = runner.invoke(validate, [str(typed)])
    assert bad.exit_code == 2 and "typed.checked.json: checked[0]" in bad.output
