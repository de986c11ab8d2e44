"""``bocage demo``: every stage on the bundled sample, from a folder that is not the checkout.

The demo runs once for the module, as a user starts it: the root help's "Start with:"
command, typed in an empty folder. Its outputs are read back by content; the commands it
printed are run again by hand; a second run into the same folder (--paper a4 --json) shows
the folder replaced as a set with the user's other files kept.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import zipfile
from pathlib import Path

import pyogrio
import pytest
from click.testing import CliRunner
from PIL import Image
from pypdf import PdfReader

from pipeline.bundle import bundled_files
from pipeline.cli import cli
from pipeline.cli.demo import DEFAULT_FOLDER, OUTPUTS, SAMPLE, demo, stages

pytestmark = pytest.mark.slow

BOCAGE = [sys.executable, "-m", "pipeline.cli"]


def _help_line(label: str) -> list[str]:
    """The command after ``label`` in ``bocage --help``, as arguments."""
    text = CliRunner().invoke(cli, ["--help"]).output
    line = next(x for x in text.splitlines() if x.strip().startswith(label))
    words = shlex.split(line.split(label, 1)[1])
    assert words[0] == "bocage"
    return words[1:]


def _run(args: list[str], cwd: Path, env: dict[str, str] | None = None
         ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*BOCAGE, *args], cwd=cwd, capture_output=True, text=True,
                          env=env, check=False)


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    where = tmp_path_factory.mktemp("elsewhere")
    args = _help_line("Start with:")
    assert args == ["demo"]
    return where, _run(args, where)


def test_the_help_starts_a_user_with_the_demo_and_it_runs_from_any_folder(ran):
    where, done = ran
    assert done.returncode == 0, done.stderr
    folder = where / DEFAULT_FOLDER
    assert sorted(p.name for p in folder.iterdir()) == sorted(OUTPUTS)
    assert not [p for p in where.iterdir() if p.name != DEFAULT_FOLDER]  # no leftovers
    then = _help_line("Then:")
    checked = _run(then, where)
    assert checked.returncode == 0, checked.stderr
    assert f"ok  map       {DEFAULT_FOLDER}/{SAMPLE}/maps/demo/map.json" in checked.stdout


def test_the_sample_is_copied_whole(ran):
    where, _ = ran
    sample = where / DEFAULT_FOLDER / SAMPLE
    for name, entry in bundled_files().items():
        assert (sample / name).read_bytes() == entry.read_bytes(), name


def test_each_stage_prints_the_command_it_runs_and_its_output(ran):
    _, done = ran
    lines = done.stdout.splitlines()
    expected = [f"$ {step.line()}" for stage in stages() for step in stage.steps]
    printed = [line for line in lines if line.startswith("$ bocage")]
    assert printed == expected
    headings = [line for line in lines if line.startswith("== ")]
    assert headings[:len(stages())] == [f"== {n}. {s.title} ==" for n, s in
                                        enumerate(stages(), 1)]
    assert headings[-1] == f"== done: the outputs are in {DEFAULT_FOLDER}/ =="
    # The steps' own words, with the names as the user gave them (no temporary folder).
    assert ("wrote digitized.json, digitized.gpkg, digitized.jpg, digitized.jgw, overlay.png"
            in lines)
    assert "aids/track.pdf" in lines
    assert "ok: demo.vmod (47 piece definitions, 9 set-up stacks)" in lines
    assert not [line for line in lines if ".bocage-tmp" in line or str(Path.cwd()) in line]


def test_the_outputs_hold_what_each_stage_makes(ran):
    where, _ = ran
    folder = where / DEFAULT_FOLDER
    digitized = json.loads((folder / "digitized.json").read_text(encoding="utf-8"))
    assert digitized["kind"] == "map" and len(digitized["hexes"]) == 550
    layers = dict(pyogrio.list_layers(folder / "digitized.gpkg"))
    assert layers == {"hexes": "Polygon", "hexsides": "LineString"}
    assert "<html" in (folder / "validation.html").read_text(encoding="utf-8")[:200].lower()
    with Image.open(folder / "counters" / "contact-sheet.png") as sheet:
        assert sheet.width > 1000
    assert len(list((folder / "counters").glob("*-front.png"))) == 34
    assert (folder / "counters.pdf").read_bytes().startswith(b"%PDF")
    assert {p.name for p in (folder / "aids").iterdir()} >= {
        "tec.pdf", "track.pdf", "track.png", "oob.pdf", "quickref.pdf", "map.pdf"}
    with zipfile.ZipFile(folder / "demo.vmod") as module:
        assert "buildFile.xml" in module.namelist()
        assert any(n.endswith("track.png") for n in module.namelist())  # the charts went in
    for picture in ("overlay.png", "module-preview.png", "moves.png", "supply.png"):
        with Image.open(folder / picture) as image:
            assert image.format == "PNG" and min(image.size) > 100, picture


def test_a_printed_command_runs_again_by_hand_in_the_folder(ran):
    where, done = ran
    line = next(x for x in done.stdout.splitlines() if x.startswith("$ bocage rules moves"))
    again = _run(shlex.split(line[2:])[1:], where / DEFAULT_FOLDER)
    assert again.returncode == 0, again.stderr
    assert "914/352 from 2021: 18 hexes" in again.stdout


def test_a_second_run_replaces_the_outputs_and_keeps_the_users_files(ran):
    where, _ = ran
    folder = where / DEFAULT_FOLDER
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    old = (folder / "digitized.json").stat().st_ino
    done = _run(["demo", "--paper", "a4", "--json"], where)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["folder"] == DEFAULT_FOLDER
    assert [s["command"] for s in report["steps"]] == [
        step.line() for stage in stages("a4") for step in stage.steps]
    assert all(s["exit"] in (0, 1) for s in report["steps"])
    assert (folder / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert (folder / "digitized.json").stat().st_ino != old  # a new file, swapped in
    for pdf in (folder / "aids" / "tec.pdf", folder / "counters.pdf"):  # A4 pages now
        for page in PdfReader(pdf).pages:  # 210 x 297 mm in points, however it is rounded
            box = [float(x) for x in page.mediabox]
            assert box == pytest.approx([0, 0, 595.276, 841.89], abs=0.01), pdf


def test_a_failed_step_leaves_the_folder_as_it_was(tmp_path):
    folder = tmp_path / "demo"
    folder.mkdir()
    (folder / "digitized.json").write_text("old", encoding="utf-8")
    env = {**os.environ, "BOCAGE_MAX_PIXELS": "1000"}  # the scan is refused at step 2
    done = _run(["demo", "demo"], tmp_path, env)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        "bocage: demo: step 2 failed: '" + stages()[1].steps[0].line()
        + "' exited 2; the folder is left as it was")
    assert [p.name for p in folder.iterdir()] == ["digitized.json"]
    assert (folder / "digitized.json").read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["demo"]  # no temporary folder left


@pytest.mark.parametrize("setup, message", [
    (lambda d: d.write_text("x"), "is a file; give a folder"),
    (lambda d: (d / "mine").mkdir(parents=True), "holds a folder 'mine' that is not an output"),
])
def test_a_folder_it_cannot_use_is_one_line_and_exit_2(tmp_path, monkeypatch, setup, message):
    monkeypatch.chdir(tmp_path)
    setup(tmp_path / "out")
    result = CliRunner().invoke(cli, ["demo", "out"])
    assert result.exit_code == 2
    assert message in result.output and result.output.count("\n") == 1


def test_the_current_folder_is_refused_as_the_demo_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(demo, ["."])
    assert result.exit_code == 2
    assert result.output == ("bocage: .: DIR is the current folder, and a folder output is"
                             " replaced whole; give DIR a folder of its own inside it\n")
