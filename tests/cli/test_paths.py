"""One place resolves every command's paths: pipeline.cli.paths, through the real commands."""

from __future__ import annotations

import importlib
import io
import os
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from pipeline.cli import cli

# The module, not the group of the same name that pipeline.cli exports.
counters_cli = importlib.import_module("pipeline.cli.counters")
counters_sheet = importlib.import_module("pipeline.counters.sheet")

ROOT = Path(__file__).resolve().parents[2]
DEMO_MAP = ROOT / "maps" / "demo" / "map.json"
UNITS = ROOT / "counters" / "demo" / "units.csv"


def run(*args: object) -> tuple[int, bytes, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args], prog_name="bocage")
    return result.exit_code, result.stdout_bytes, result.stderr


@pytest.fixture
def manifest(tmp_path: Path) -> Path:
    path = tmp_path / "units.csv"
    path.write_text("\n".join(UNITS.read_text().splitlines()[:4]) + "\n")
    return path


@pytest.mark.parametrize("spelling", ["same", "symlink", "hardlink", "dotdot"])
def test_an_output_that_is_an_input_is_refused_however_it_is_spelt(tmp_path, manifest, spelling):
    before = manifest.read_bytes()
    out = {"same": manifest, "symlink": tmp_path / "link.pdf", "hardlink": tmp_path / "hard.pdf",
           "dotdot": tmp_path / "sub" / ".." / "units.csv"}[spelling]
    if spelling == "symlink":
        out.symlink_to(manifest.name)
    elif spelling == "hardlink":
        os.link(manifest, out)
    elif spelling == "dotdot":
        (tmp_path / "sub").mkdir()
    code, stdout, stderr = run("counters", "sheet", manifest, "-o", out)
    assert code == 2 and stdout == b""
    assert stderr == (f"bocage: {Path(out)}: --output would replace the input {manifest}"
                      " (MANIFESTS); choose another file name\n")
    assert manifest.read_bytes() == before


def test_two_outputs_that_are_one_file_are_refused(tmp_path):
    (tmp_path / "a.json").symlink_to("b.json")
    code, _, stderr = run("digitize", ROOT / "maps" / "demo" / "scan.jpg", "-l", DEMO_MAP,
                          "-o", tmp_path / "b.json", "--geojson", tmp_path / "a.json")
    assert code == 2 and stderr == (f"bocage: {tmp_path / 'a.json'}: --geojson and --output are"
                                    " the same file; give each its own name\n")


def test_an_input_inside_an_output_folder_under_a_name_it_writes_is_refused(tmp_path, manifest):
    face = tmp_path / "x-front.png"
    shutil.copy(manifest, face)
    code, _, stderr = run("counters", "render", face, "--out-dir", tmp_path)
    assert code == 2 and stderr.startswith(f"bocage: {tmp_path}: --out-dir would replace the input")


def test_a_manifest_inside_the_output_folder_is_kept(tmp_path, manifest):
    code, _, stderr = run("counters", "render", manifest, "--out-dir", tmp_path, "--dpi", "60")
    assert code == 0, stderr
    assert manifest.read_text().startswith("id,")
    assert (tmp_path / "914-352-front.png").is_file()


@pytest.mark.parametrize(("args", "message"), [
    (["-o", "-", "--json"], "-: --json and --output both write to standard output"),
])
def test_standard_output_is_taken_once(manifest, args, message):
    code, _, stderr = run("counters", "sheet", manifest, *args)
    assert code == 2 and stderr.startswith(f"bocage: {message}")


def test_a_stream_to_standard_output_is_the_data_alone(manifest):
    code, stdout, stderr = run("counters", "sheet", manifest, "-o", "-", "--dpi", "60")
    assert code == 0, stderr
    assert stdout.startswith(b"%PDF-") and stdout.rstrip().endswith(b"%%EOF")  # no "wrote ..."


def test_binary_data_is_not_written_to_a_terminal(manifest, monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdout", Terminal())
    from pipeline.cli.paths import resolve_paths

    command = counters_cli.counters.commands["sheet"]
    ctx = command.make_context("sheet", [str(manifest), "-o", "-"])
    with pytest.raises(Exception) as info:
        resolve_paths(command, ctx)
    assert str(info.value) == ("-: --output writes binary data and standard output is a terminal;"
                               " redirect it to a file or a pipe")


@pytest.mark.parametrize(("make", "message"), [
    (lambda p: p.mkdir(), "is a folder; MANIFESTS takes a file"),
    (os.mkfifo, "is a pipe; MANIFESTS takes a regular file"),
    (lambda p: None, "no such file"),
])
def test_inputs_that_are_not_regular_files_are_one_line(tmp_path, make, message):
    path = tmp_path / "units.csv"
    make(path)
    code, _, stderr = run("counters", "render", path, "--out-dir", tmp_path / "out")
    assert code == 2 and stderr == f"bocage: {path}: {message}\n"
    assert not (tmp_path / "out").exists()


def test_check_reports_each_bad_path_and_goes_on(tmp_path):
    code, stdout, stderr = run("check", tmp_path / "missing.json", DEMO_MAP)
    assert code == 2
    assert stderr == f"bocage: {tmp_path / 'missing.json'}: no such file or folder\n"
    assert b"ok  map" in stdout


@pytest.mark.parametrize(("args", "line"), [
    (["counters", "render", str(UNITS)],
     "bocage: counters render: Missing option '--out-dir' (see 'bocage counters render --help')"),
    (["counters", "sheet", str(UNITS), "-o", "x.pdf", "--paper", "legal"],
     ("bocage: counters sheet: --paper: 'legal' is not one of 'letter', 'a4' (see 'bocage"
     " counters sheet --help')")),
    (["vassal", "frobnicate"], ("bocage: vassal: No such command 'frobnicate' (see 'bocage"
     " vassal --help')")),
])
def test_usage_errors_are_one_line(args, line):
    code, _, stderr = run(*args)
    assert code == 2 and stderr == line + "\n"


def test_ctrl_c_is_one_line_and_exit_130(tmp_path, manifest, monkeypatch):
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    # The command imports the sheets when it runs: they are interrupted where they live.
    monkeypatch.setattr(counters_sheet, "write_sheet_pdf", interrupted)
    code, stdout, stderr = run("counters", "sheet", manifest, "-o", tmp_path / "s.pdf")
    assert (code, stdout, stderr) == (130, b"", "bocage: interrupted\n")
    assert list(tmp_path.iterdir()) == [manifest]


def test_a_board_image_given_as_output_of_its_own_module_is_refused(tmp_path):
    board = tmp_path / "board.png"
    Image.new("RGB", (40, 40)).save(board)
    before = board.read_bytes()
    code, _, stderr = run("vassal", "build", ROOT / "maps" / "demo", "--board", board,
                          "-o", board)
    assert code == 2
    assert stderr == (f"bocage: {board}: --output would replace the input {board} (--board);"
                      " choose another file name\n")
    assert board.read_bytes() == before


@pytest.mark.parametrize(("out", "where"), [(".", "the current folder"),
                                            ("..", "above the current folder")])
def test_a_folder_output_is_never_the_current_folder_or_above_it(tmp_path, monkeypatch, out,
                                                                 where):
    # It is swapped whole: the shell would be left in the old folder, emptied.
    here = tmp_path / "work"
    here.mkdir()
    monkeypatch.chdir(here)
    code, _, stderr = run("aids", ROOT / "maps" / "demo", "--out-dir", out)
    assert code == 2
    assert stderr == (f"bocage: {out}: --out-dir is {where}, and a folder output is replaced whole;"
                      " give --out-dir a folder of its own inside it\n")
    assert list(here.iterdir()) == [] and [p.name for p in tmp_path.iterdir()] == ["work"]
