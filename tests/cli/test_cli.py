"""The bocage command: help, exit codes, honest placeholders, check by content."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from pipeline.cli import cli

ROOT = Path(__file__).resolve().parents[2]
DEMO_MAP = ROOT / "maps" / "demo" / "map.json"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), prog_name="bocage")
    return result.exit_code, result.stdout, result.stderr


def test_help_lists_the_demo_then_check_and_one_command_per_stage():
    code, out, _ = run("--help")
    assert code == 0
    # Command names start at a two-space indent; wrapped help lines start deeper.
    section = out.split("Commands:")[1].splitlines()
    listed = [line.split()[0] for line in section if line[:2] == "  " and line[2:3] != " "]
    assert listed == ["demo", "check", "digitize", "studio", "validate", "counters", "aids",
                      "vassal",
                      "rules"]


def test_version():
    code, out, _ = run("--version")
    assert code == 0 and out.startswith("bocage, version ")


def test_check_accepts_the_bundled_sample():
    code, out, err = run("check", str(ROOT / "maps" / "demo"), str(ROOT / "counters" / "demo"))
    assert code == 0, err
    kinds = {line.split()[1] for line in out.splitlines() if line.startswith("ok")}
    assert {"map", "rules", "scenario", "position", "units", "markers"} <= kinds


def test_check_json_output_is_data():
    code, out, _ = run("check", str(DEMO_MAP), "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["ok"] is True
    [entry] = doc["files"]
    assert entry["kind"] == "map" and entry["path"].endswith("map.json")


def _broken_map(tmp_path: Path, edit) -> Path:
    doc = json.loads(DEMO_MAP.read_text())
    edit(doc)
    path = tmp_path / "map.json"
    path.write_text(json.dumps(doc))
    return path


def _one_error_line(code: int, err: str) -> str:
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def test_check_rejects_unknown_terrain_with_one_located_line(tmp_path):
    def edit(doc):
        doc["hexes"]["0421"]["terrain"] = ["clear", "wods"]
    path = _broken_map(tmp_path, edit)
    code, _, err = run("check", str(path))
    line = _one_error_line(code, err)
    assert line == (f"bocage: {path}: hexes.0421.terrain[1]: unknown terrain 'wods'"
                    " (did you mean 'woods'?)")


def test_check_rejects_hex_off_the_grid(tmp_path):
    def edit(doc):
        doc["hexes"]["2699"] = {"terrain": ["clear"]}
    path = _broken_map(tmp_path, edit)
    code, _, err = run("check", str(path))
    line = _one_error_line(code, err)
    assert line.startswith(f"bocage: {path}: hexes.2699: ")
    assert "not on the grid" in line


def test_check_rejects_string_where_number_belongs(tmp_path):
    def edit(doc):
        doc["boards"][0]["grid"]["cols"] = "twenty-five"
    path = _broken_map(tmp_path, edit)
    code, _, err = run("check", str(path))
    line = _one_error_line(code, err)
    assert line.startswith(f"bocage: {path}: boards[0].grid.cols: ")
    assert "'twenty-five'" in line


def test_check_reports_every_bad_value_of_a_file_at_once(tmp_path):
    def edit(doc):
        doc["title"] = 7
        doc["terrain_types"]["woods"]["color"] = 5
        doc["hexes"]["0120"]["terrain"] = "woods"
    path = _broken_map(tmp_path, edit)
    code, out, err = run("check", str(path))
    assert code == 2 and out == ""
    assert sorted(err.splitlines()) == sorted([
        f"bocage: {path}: title: expected a string, got 7",
        f"bocage: {path}: terrain_types.woods.color: expected a string, got 5",
        f"bocage: {path}: hexes.0120.terrain: expected a list, got 'woods'"])
    code, out, _ = run("check", str(path), "--json")
    assert code == 2 and len(json.loads(out)["files"][0]["errors"]) == 3


def test_check_rejects_truncated_json(tmp_path):
    path = tmp_path / "map.json"
    text = DEMO_MAP.read_text()
    path.write_text(text[: len(text) // 2])
    code, _, err = run("check", str(path))
    line = _one_error_line(code, err)
    assert line.startswith(f"bocage: {path}: line ")
    assert "invalid JSON" in line


def test_check_reports_every_bad_file_and_still_checks_good_ones(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2")
    good = tmp_path / "map.json"
    shutil.copy(DEMO_MAP, good)
    code, out, err = run("check", str(bad), str(good))
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and str(bad) in err
    assert str(good) in out


def test_check_missing_file_is_one_line(tmp_path):
    missing = tmp_path / "nope.json"
    code, _, err = run("check", str(missing))
    line = _one_error_line(code, err)
    assert str(missing) in line
