"""``bocage counters``: the group invoked on its own with CliRunner, outputs by content."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from pipeline.cli.counters import counters
from pipeline.model.manifest import load_markers, load_units

from .conftest import DEMO, UNITS_CSV


def run(*args: object) -> tuple[int, str, str]:
    result = CliRunner().invoke(counters, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def test_render_demo_writes_fronts_backs_and_contact_sheet(tmp_path):
    out = tmp_path / "counters"
    code, stdout, _ = run("render", DEMO / "units.csv", DEMO / "markers.csv", "--out-dir", out,
                          "--json")
    assert code == 0
    doc = json.loads(stdout)
    assert doc["counters"] == 34 and doc["size_px"] == 188
    assert (out / "914-352-front.png").exists() and (out / "914-352-back.png").exists()
    assert (out / "al-naval-7-front.png").exists() and (out / "contact-sheet.png").exists()
    with Image.open(out / "cca-2-front.png") as image:
        assert image.size == (188, 188)


def test_render_size_and_dpi(tmp_path):
    code, stdout, _ = run("render", DEMO / "units.csv", "--size", "16mm", "--dpi", "150",
                          "--out-dir", tmp_path, "--contact", tmp_path / "sheet.png")
    assert code == 0 and "94 px" in stdout
    with Image.open(tmp_path / "9-2-front.png") as image:
        assert image.size == (94, 94)
    assert (tmp_path / "sheet.png").exists()


def test_unknown_unit_type_fails_with_one_line_and_writes_nothing(tmp_path):
    lines = UNITS_CSV.splitlines()
    header, row = lines[0], lines[1]
    rows = [row.replace("914/352", f"{n}/352") for n in range(10)]
    rows.append(row.replace("914/352", "bad").replace(",infantry,", ",armr,"))
    path = tmp_path / "units.csv"
    path.write_text("\n".join([header, *rows]) + "\n")
    out = tmp_path / "out"
    code, _stdout, stderr = run("render", path, "--out-dir", out)
    assert code == 2
    assert stderr.strip() == f"bocage: {path}:12: unknown unit type 'armr' (did you mean 'armor'?)"
    assert not out.exists()
    pdf = tmp_path / "c.pdf"
    code, _, stderr = run("sheet", path, "-o", pdf)
    assert code == 2 and ":12: unknown unit type 'armr'" in stderr and not pdf.exists()


def test_bad_style_and_bad_length_are_one_line(tmp_path):
    style = tmp_path / "style.json"
    style.write_text('{"nationalities": {"US": {"background": "green"}}}')
    code, _, stderr = run("render", DEMO / "units.csv", "--style", style, "--out-dir", tmp_path)
    assert code == 2
    assert stderr.strip() == (f"bocage: {style}: nationalities.US.background:"
                              " expected a colour written '#rrggbb', got 'green'")
    code, _, stderr = run("sheet", DEMO / "units.csv", "--bleed", "3", "-o", tmp_path / "x")
    assert code == 2 and "--bleed: '3' is not a length" in stderr
    code, _, stderr = run("render", tmp_path / "style.json", "--out-dir", tmp_path)
    assert code == 2 and "is not valid" not in stderr


def test_a_file_that_is_no_manifest(tmp_path):
    path = tmp_path / "other.csv"
    path.write_text("colour,shape\nred,round\n")
    code, _, stderr = run("render", path, "--out-dir", tmp_path / "o")
    assert code == 2 and "not a units or markers manifest" in stderr


def test_sheet_writes_a_duplex_pdf(tmp_path):
    pdf = tmp_path / "counters.pdf"
    code, stdout, _ = run("sheet", DEMO / "units.csv", DEMO / "markers.csv", "--paper", "a4",
                          "--duplex", "short", "--bleed", "2mm", "--back-offset", "0.3mm,0",
                          "-o", pdf, "--json")
    assert code == 0
    doc = json.loads(stdout)
    markers = load_markers(DEMO / "markers.csv")
    assert doc["pages"] == 2
    assert doc["counters"] == len(load_units(DEMO / "units.csv")) + sum(
        m.count or 1 for m in markers)
    assert pdf.read_bytes().startswith(b"%PDF")
    if shutil.which("pdfinfo"):
        import subprocess

        info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True,
                              check=True).stdout
        assert "Pages:           2" in info and "595.276 x 841.89" in info


def test_render_overwrites_its_own_earlier_output(tmp_path):
    for _ in range(2):
        code, _, _ = run("render", DEMO / "units.csv", "--out-dir", tmp_path, "-q")
        assert code == 0
    assert not [p for p in Path(tmp_path).iterdir() if p.name.endswith(".tmp")]


def test_a_side_without_colour_is_drawn_in_its_own_and_said_once(tmp_path):
    units = tmp_path / "units.csv"
    units.write_text("id,side,type\n1,soviet,infantry\n2,soviet,armor\n3,finnish,infantry\n"
                     "4,allied,infantry\n")
    markers = tmp_path / "markers.csv"
    markers.write_text("id,kind,side\nsf,support_fire,finnish\n")
    code, _, stderr = run("render", units, markers, "--out-dir", tmp_path / "out")
    assert code == 0
    lines = stderr.splitlines()
    assert lines == [
        (f"bocage: warning: {units}:2: side 'soviet' has no colour in the counter style: drawn"
        " in #c9a7d6; give it one under \"sides\" in style.json (or --style)"),
        (f"bocage: warning: {units}:4: side 'finnish' has no colour in the counter style: drawn"
        " in #e3b47c; give it one under \"sides\" in style.json (or --style)"),
    ]
    corner = {}
    for name in ("1", "3", "4", "sf"):
        with Image.open(tmp_path / "out" / f"{name}-front.png") as image:
            corner[name] = image.convert("RGB").getpixel((2, 2))
    assert corner["1"] == (0xc9, 0xa7, 0xd6) and corner["3"] == (0xe3, 0xb4, 0x7c)
    assert corner["sf"] == corner["3"]  # a side's markers in the side's colour
    assert corner["4"] == (0xa4, 0xb8, 0x6d)  # the style's allied green, no warning


def test_a_style_colouring_every_side_says_nothing(tmp_path):
    units = tmp_path / "units.csv"
    units.write_text("id,side,type\n1,soviet,infantry\n")
    style = tmp_path / "style.json"
    style.write_text(json.dumps({"sides": {"soviet": {"background": "#cc3333"}}}))
    code, _, stderr = run("render", units, "--style", style, "--out-dir", tmp_path / "out")
    assert code == 0 and stderr == ""
    with Image.open(tmp_path / "out" / "1-front.png") as image:
        assert image.convert("RGB").getpixel((2, 2)) == (0xcc, 0x33, 0x33)


@pytest.mark.slow
def test_render_on_two_workers_writes_what_one_writes(tmp_path):
    rows = "".join(f"u{i},{'allied' if i % 2 else 'german'},infantry,{i % 9},{i % 5},4\n"
                   for i in range(150))
    units = tmp_path / "units.csv"
    units.write_text("id,side,type,attack,defence,movement\n" + rows)
    for jobs in ("1", "2"):
        code, _, _ = run("render", units, "--out-dir", tmp_path / jobs, "--jobs", jobs)
        assert code == 0
    one = sorted(p.name for p in (tmp_path / "1").iterdir())
    assert one == sorted(p.name for p in (tmp_path / "2").iterdir()) and len(one) == 301
    for name in one:
        assert (tmp_path / "1" / name).read_bytes() == (tmp_path / "2" / name).read_bytes(), name


def test_an_error_in_a_worker_is_one_line_and_nothing_is_written(tmp_path):
    (tmp_path / "bad.svg").write_text("<svg><polygon")
    (tmp_path / "style.json").write_text(json.dumps({"symbols": {"ski": {"file": "bad.svg"}}}))
    rows = "".join(f"u{i},allied,{'ski' if i == 120 else 'infantry'}\n" for i in range(150))
    (tmp_path / "units.csv").write_text("id,side,type\n" + rows)
    code, _, stderr = run("render", tmp_path / "units.csv", "--out-dir", tmp_path / "out",
                          "--jobs", "2")
    assert code == 2
    assert stderr.strip() == (f"bocage: {tmp_path / 'bad.svg'}: line 1: not a readable SVG"
                              " file (Couldn't find end of Start Tag polygon line 1, line 1,"
                              " column 14)")
    assert not (tmp_path / "out").exists()


def test_sheet_pdf_names_the_game_and_embeds_its_fonts(tmp_path):
    pdf = tmp_path / "sheet.pdf"
    code, _, _ = run("sheet", DEMO / "units.csv", DEMO / "markers.csv", "-o", pdf)
    assert code == 0
    from pypdf import PdfReader

    meta = PdfReader(str(pdf)).metadata
    assert meta.title.startswith("D-Day Omaha Beach: Beach to Bocage") and \
        meta.title.endswith("counter sheets")
    assert meta.author.startswith("bocage, for D-Day Omaha Beach")


def test_render_loads_no_pdf_svg_or_opencv_library(tmp_path):
    # Issue 18: the command's start is serial time; what only PDFs, SVG styles and templates
    # need (reportlab, lxml, and urllib through xml.sax) is loaded when they are drawn.
    import subprocess
    import sys

    probe = ("import json, sys\nfrom pipeline.cli import cli\ntry:\n"
             "    cli(sys.argv[1:], prog_name='bocage')\nexcept SystemExit:\n    pass\n"
             "print(json.dumps(sorted(sys.modules)))\n")
    out = subprocess.run([sys.executable, "-c", probe, "counters", "render",
                          str(DEMO / "units.csv"), str(DEMO / "markers.csv"), "--out-dir",
                          str(tmp_path / "out"), "--quiet"], check=True, capture_output=True,
                         text=True)
    loaded = set(json.loads(out.stdout.strip().splitlines()[-1]))
    assert (tmp_path / "out" / "contact-sheet.png").exists()
    heavy = {"cv2", "reportlab", "lxml", "svglib", "urllib.request", "pipeline.pdf"}
    assert sorted(m for m in loaded if m in heavy or m.split(".")[0] in heavy) == []
