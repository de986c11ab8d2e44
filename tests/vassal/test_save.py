"""Saved games written by the real VASSAL 3.7.26, read back piece by piece.

The expected files were written by VASSAL itself (its own pieces, names,
``Map.locationName`` and Layer levels just before saving), so every
comparison here is against the engine, not against bocage's own arithmetic.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pipeline.cli import cli
from pipeline.errors import ModuleError
from pipeline.model import load_position
from pipeline.vassal.encoding import encode
from pipeline.vassal.save import (
    deobfuscate,
    find_module,
    position_from_save,
    read_save,
    save_commands,
)
from tests.vassal.conftest import reference

SAVES = [("demo-opening", "demo"), ("demo-crowded", "demo"), ("omaha-turn", "omaha")]


def expected(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(reference("vassal-saves", f"{name}.expected.json")
                                      .read_text(encoding="utf-8"))
    return data


def saved(name: str, module: str) -> Any:
    return read_save(reference("vassal-saves", f"{name}.vsav"),
                     reference("vassal-saves", f"{module}.vmod"))


@pytest.mark.parametrize(("name", "module"), SAVES)
def test_every_piece_is_read_as_vassal_held_it(name, module):
    game, want = saved(name, module), expected(name)
    assert len(game.pieces) == want["count"] == len(want["pieces"])
    for piece, exp in zip(game.pieces, want["pieces"], strict=True):
        assert (piece.id, piece.gpid, piece.name, piece.basic_name) == (
            exp["id"], exp["gpid"], exp["name"], exp["basicName"])
        assert (piece.map, piece.board, piece.location, piece.x, piece.y) == (
            exp["map"], exp["board"], exp["location"], exp["x"], exp["y"]), piece.name
        assert (piece.stack, piece.stack_index, piece.stack_size) == (
            exp["stack"], exp["stackIndex"], exp["stackSize"]), piece.name
        assert (piece.step, piece.face, piece.moved) == (exp["step"], exp["face"], exp["moved"])
        assert [(la.name, la.level, la.levels, la.active) for la in piece.layers] == [
            (la["name"], la["level"], la["levels"], la["active"]) for la in exp["layers"]]
        assert piece.reason is None
    assert game.players == (("VassalPlay", want["mySide"]),)  # written twice, read once
    assert game.module_name == want["module"] and game.vassal_version == want["vassal"]


def test_the_crowded_save_has_its_stacks_of_three_and_two():
    game = saved("demo-crowded", "demo")
    stacks: dict[str, list[str]] = {}
    for piece in game.pieces:
        stacks.setdefault(piece.location, []).append(piece.properties.get("UnitId", "-"))
    assert stacks["2020"] == ["914/352", "915/352", "352/352"]  # bottom to top
    assert stacks["2317"] == ["2 Rgr", "916/352"]
    assert stacks["2120"] == ["9/2"]  # added from the palette
    assert "1" not in {p.properties.get("UnitId") for p in game.pieces}  # deleted


def position_of(name: str, module: str) -> Any:
    position, left_out = position_from_save(saved(name, module))
    assert left_out == []
    return position


def test_positions_hold_units_steps_and_markers():
    opening = position_of("demo-opening", "demo")
    assert {u.id: u.hex for u in opening.units} == {
        "914/352": "2021", "916/352": "2218", "1": "1212", "915/352": "1717",
        "352/352": "1916", "2 Rgr": "2416"}
    # 2 Rgr has two steps and ends on its front; 915/352 has one step (its back is no loss).
    assert {u.id: u.steps for u in opening.units} == {
        "914/352": None, "916/352": None, "1": None, "915/352": None, "352/352": None,
        "2 Rgr": 2}
    assert sorted((m.type, m.hex) for m in opening.markers) == [
        ("beachhead", "2121"), ("beachhead", "2219"), ("beachhead", "2318")]
    assert opening.game == "omaha" and opening.active_side == "allied" and opening.turn == 1
    reduced = position_of("omaha-turn", "omaha")
    assert [(u.id, u.hex, u.steps) for u in reduced.units] == [("2 Rgr", "2416", 1)]


def test_pieces_that_are_not_on_a_hex_are_listed_with_the_reason(tmp_path):
    """A piece moved off the boards, and one on a map the module lacks, stay in the
    answer with their reasons; the unit is off map in the position."""
    source = reference("vassal-saves", "demo-opening.vsav")
    with zipfile.ZipFile(source) as archive:
        entries = {n: archive.read(n) for n in archive.namelist()}
    text = deobfuscate(entries["savedGame"], "s")
    text = text.replace("Main Map;1217;965;", "Main Map;99999;965;")  # 2 Rgr off the board
    text = text.replace("Main Map;634;741;", "Side Map;634;741;")  # 1 on another map
    entries["savedGame"] = text.encode()  # a plain stream is read as it is
    path = tmp_path / "moved.vsav"
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    game = read_save(path, reference("vassal-saves", "demo.vmod"))
    reasons = {p.properties.get("UnitId"): p.reason for p in game.unplaced()}
    assert reasons == {"2 Rgr": "it lies on no board of its map",
                       "1": "map 'Side Map' is not in the module"}
    assert {p.location for p in game.unplaced()} == {"offboard", None}
    position, left_out = position_from_save(game)
    assert {p.properties["UnitId"] for p, _ in left_out} == {"2 Rgr", "1"}
    assert {u.id: (u.hex, u.off_map) for u in position.units if u.id in ("2 Rgr", "1")} == {
        "2 Rgr": (None, True), "1": (None, True)}


def test_the_module_is_found_beside_the_save():
    assert find_module(reference("vassal-saves", "omaha-turn.vsav")).name == "omaha.vmod"
    assert find_module(reference("vassal-saves", "demo-crowded.vsav")).name == "demo.vmod"


def test_read_save_command_writes_a_position_the_loader_accepts(tmp_path):
    out = tmp_path / "position.json"
    save = reference("vassal-saves", "demo-crowded.vsav")
    result = CliRunner().invoke(cli, ["vassal", "read-save", str(save), "-o", str(out)])
    assert result.exit_code == 0, result.output
    position = load_position(out)
    assert [u.id for u in position.units if u.hex == "2020"] == ["914/352", "915/352", "352/352"]
    assert "9 pieces: 6 units, 3 markers" in result.stdout
    data = json.loads(CliRunner().invoke(cli, ["vassal", "read-save", str(save),
                                               "--json"]).stdout)
    assert [p["location"] for p in data["pieces"] if p["stack_size"] == 3] == ["2020"] * 3
    assert data["left_out"] == [] and data["position"]["kind"] == "position"


def test_rules_answer_on_a_save():
    save = reference("vassal-saves", "demo-opening.vsav")
    runner = CliRunner()
    result = runner.invoke(cli, ["rules", "supply", "maps/demo", "--vsav", str(save), "--json"])
    assert result.exit_code == 0, result.output
    answers = json.loads(result.stdout)
    assert set(answers) == {"914/352", "916/352", "1", "915/352", "352/352", "2 Rgr"}
    stacking = runner.invoke(cli, ["rules", "stacking", "maps/demo", "--vsav", str(save),
                                   "--json"])
    assert set(json.loads(stacking.stdout)) == {"2021", "2218", "1212", "1717", "1916", "2416"}
    moves = runner.invoke(cli, ["rules", "moves", "maps/demo", "--vsav", str(save), "-u",
                                "2 Rgr", "--json"])
    assert moves.exit_code == 0 and json.loads(moves.stdout)["start"] == "2416"


def test_rules_answer_the_crowded_save_hex_by_hex():
    """The script stacked 2 Rgr with 916/352 at 2317. No unit may stand in an enemy hex
    (000 §5.2d), but a save records where the players left the pieces: that hex's
    stacking is reported with its units, a move of one of them is refused in one line
    (no rule says how a unit leaves an enemy-occupied hex), and supply answers every
    unit."""
    save = reference("vassal-saves", "demo-crowded.vsav")
    runner = CliRunner()
    stacking = runner.invoke(cli, ["rules", "stacking", "maps/demo", "--vsav", str(save),
                                   "--json"])
    assert stacking.exit_code == 1, stacking.output
    hexes = json.loads(stacking.stdout)
    assert set(hexes) == {"2020", "2120", "2317"}  # every hex a unit stands in
    assert hexes["2317"] == {"legal": False, "rule": "000 §5.2d", "at": "2317",
                             "reason": "hex 2317 holds units of both sides: 2 Rgr (allied),"
                                       " 916/352 (german)"}
    assert hexes["2120"]["legal"] is True
    # The stack of three (914/352, 915/352, 352/352 at 2020): one unit a hex (000 §5.3).
    assert hexes["2020"] == {"legal": False, "rule": "000 §5.3", "at": "2020",
                             "reason": "3 units, more than 1"}
    warnings = stacking.stderr.splitlines()
    assert len(warnings) == 1 and warnings[0].startswith(f"bocage: warning: {save}: hex 2317")

    # Issue 19: supply answers every unit, the two in 2317 included. 2 Rgr needs no
    # line (000_3d79f68a6e3e33eb.txt §12.0 Exception), German units are always in supply
    # (§9.0); had either to trace, its line would start in 2317 (§12.0 "from itself").
    supply = runner.invoke(cli, ["rules", "supply", "maps/demo", "--vsav", str(save), "--json"])
    assert supply.exit_code == 0, supply.output
    answers = json.loads(supply.stdout)
    assert set(answers) == {"914/352", "915/352", "352/352", "2 Rgr", "916/352", "9/2"}
    assert {i: (a["in_supply"], a["rule"]) for i, a in answers.items()} == {
        "914/352": (True, "000 §9.0"), "915/352": (True, "000 §9.0"),
        "352/352": (True, "000 §9.0"), "916/352": (True, "000 §9.0"),
        "2 Rgr": (True, "000 §12.0 Exception"), "9/2": (True, "000 §12.0")}
    assert answers["2 Rgr"]["reason"] == "Rangers need not trace supply"
    assert answers["916/352"]["reason"] == "German units are always in supply"
    assert answers["9/2"]["path"] == ["2120", "2121"]
    text = runner.invoke(cli, ["rules", "supply", "maps/demo", "--vsav", str(save)])
    states = {line.split("  ")[0].strip(): line for line in text.stdout.splitlines()}
    assert len(states) == 6 and all(" in supply " in line for line in states.values())
    assert "NOT ANSWERED" not in text.stdout and "OUT OF SUPPLY" not in text.stdout

    moves = runner.invoke(cli, ["rules", "moves", "maps/demo", "--vsav", str(save), "-u", "9/2",
                                "--json"])
    assert moves.exit_code == 0, moves.output
    reach = json.loads(moves.stdout)
    assert reach["start"] == "2120" and "2317" not in reach["reachable"]
    stuck = runner.invoke(cli, ["rules", "moves", "maps/demo", "--vsav", str(save), "-u",
                                "2 Rgr"])
    assert stuck.exit_code == 2 and stuck.stdout == ""
    warning, last = stuck.stderr.splitlines()  # the hex's warning, then the one refusal
    assert warning.startswith(f"bocage: warning: {save}: hex 2317")
    assert last.startswith(f"bocage: {save}: query: unit '2 Rgr': hex 2317 holds units of both")
    assert last.endswith("so its move is not answered (000 §5.2d)")


# -- hostile or broken saves: one line, exit 2 -------------------------------------------------


def rebuilt(tmp_path: Path, change: dict[str, bytes | None], name: str = "x.vsav") -> Path:
    source = reference("vassal-saves", "omaha-turn.vsav")
    with zipfile.ZipFile(source) as archive:
        entries: dict[str, bytes | None] = {n: archive.read(n) for n in archive.namelist()}
    entries.update(change)
    path = tmp_path / name
    with zipfile.ZipFile(path, "w") as archive:
        for entry, data in entries.items():
            if data is not None:
                archive.writestr(entry, data)
    return path


BOMB = (b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa">'
        b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><data><name>&b;</name></data>')


def hostile(tmp_path: Path) -> list[tuple[Path, str]]:
    whole = reference("vassal-saves", "omaha-turn.vsav").read_bytes()
    cut_zip = tmp_path / "cut.vsav"
    cut_zip.write_bytes(whole[: len(whole) // 2])
    with zipfile.ZipFile(reference("vassal-saves", "omaha-turn.vsav")) as archive:
        stream = archive.read("savedGame")
    assert (len(stream) - len("!VCSK")) % 2 == 0
    deep = "x"
    for _ in range(70):  # each level a command with one sub-command, as VASSAL nests them
        deep = encode(["c", deep], "\x1b")
    deep = encode(["begin_save", deep, "end_save"], "\x1b")
    return [
        (rebuilt(tmp_path, {"../../evil.txt": b"x"}, "a.vsav"), "absolute path or '..'"),
        (rebuilt(tmp_path, {"savedata": BOMB}, "b.vsav"), "DTD"),
        (rebuilt(tmp_path, {"moduledata": BOMB}, "c.vsav"), "DTD"),
        (rebuilt(tmp_path, {"savedGame": stream[:-7]}, "d.vsav"), "truncated"),
        # Whole hex pairs, but the last commands gone.
        (rebuilt(tmp_path, {"savedGame": stream[:len(stream) - 40]}, "e.vsav"),
         "does not end with end_save"),
        (rebuilt(tmp_path, {"savedGame": b"!VCSK1bzz"}, "f.vsav"), "not hex digits"),
        (rebuilt(tmp_path, {"savedGame": None}, "g.vsav"), "no savedGame entry"),
        (rebuilt(tmp_path, {"savedGame": b"\xff\xfe begin_save"}, "h.vsav"), "not UTF-8"),
        (rebuilt(tmp_path, {"savedGame": deep.encode()}, "i.vsav"), "nested more than"),
        (cut_zip, "not a ZIP"),
    ]


def test_hostile_or_broken_saves_are_refused_with_one_line(tmp_path):
    module = reference("vassal-saves", "omaha.vmod")
    for path, words in hostile(tmp_path):
        with pytest.raises(ModuleError, match=words):
            read_save(path, module)
        out = tmp_path / "pos.json"
        result = CliRunner().invoke(cli, ["vassal", "read-save", str(path), "--module",
                                          str(module), "-o", str(out)])
        assert result.exit_code == 2, (path.name, result.output)
        assert result.stderr.count("\n") == 1 and result.stderr.startswith(f"bocage: {path}")
        assert not out.exists()


def test_streams_nest_and_must_be_whole():
    assert save_commands("begin_save\x1b\x1bplay\\\x1bmore\x1bend_save", "s") == [
        "begin_save", "", "play", "more", "end_save"]
    with pytest.raises(ModuleError, match="begin_save"):
        save_commands("+/1/piece;;;a;b/null", "s")
    assert deobfuscate(b"!VCSK2a" + bytes(f"{ord('h') ^ 0x2a:02x}", "ascii"), "s") == "h"
