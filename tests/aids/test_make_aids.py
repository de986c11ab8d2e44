"""make_aids and ``bocage aids`` for the four seed games and the demo."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from PIL import Image

from pipeline.aids import AID_STEMS, make_aids
from pipeline.cli.aids import aids

from .conftest import MAPS, pdf_pages, pdf_text


@pytest.mark.slow
@pytest.mark.parametrize("game", ["demo", "omaha", "june44", "cobra", "tactical"])
def test_aids_for_every_game(tmp_path, game):
    written = make_aids(MAPS / game, tmp_path / "aids", "letter", map_dpi=24)
    names = {p.name for p in written}
    assert {"tec.pdf", "tec.png", "map.pdf"} <= names
    assert ("crt.pdf" in names) == (MAPS / game / "crt.json").is_file()
    for path in written:
        assert path.is_file() and path.stat().st_size > 0
        if path.suffix == ".png":
            with Image.open(path) as im:
                assert im.width > 20 and im.height > 20
    assert "Terrain Effects Chart" in pdf_text(tmp_path / "aids" / "tec.pdf")
    assert not list((tmp_path / "aids").glob(".*.tmp"))


def test_cli_writes_the_aids_and_lists_them(tmp_path):
    out = tmp_path / "build" / "omaha" / "aids"
    result = CliRunner().invoke(aids, [str(MAPS / "omaha"), "--paper", "a4", "--out-dir", str(out),
                                       "--map-dpi", "24", "--json"])
    assert result.exit_code == 0, result.output
    files = json.loads(result.output)["files"]
    assert str(out / "crt.pdf") in files
    pages = pdf_pages(out / "crt.pdf")
    assert "Die roll 6" in pages[0]
    assert (out / "map-omaha.png").is_file()


@pytest.mark.parametrize("args, message", [
    (["nowhere"], "nowhere: no such folder"),
    (["EMPTY"], "empty: not a game folder for play aids (no crt.json, rules.json or map.json)"),
])
def test_cli_bad_input_is_one_line_and_exit_2(tmp_path, args, message):
    (tmp_path / "empty").mkdir()
    args = [str(tmp_path / "empty") if a == "EMPTY" else str(tmp_path / a) for a in args]
    result = CliRunner().invoke(aids, [*args, "--out-dir", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert message in result.output
    assert result.output.count("\n") == 1


def test_cli_bad_paper_is_a_usage_error(tmp_path):
    result = CliRunner().invoke(aids, [str(MAPS / "demo"), "--paper", "a3", "--out-dir",
                                       str(tmp_path)])
    assert result.exit_code == 2


def test_bad_data_is_one_located_line(tmp_path):
    game = tmp_path / "g"
    game.mkdir()
    (game / "crt.json").write_text('{"kind": "crt"}')
    result = CliRunner().invoke(aids, [str(game), "--out-dir", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "crt.json" in result.output and result.output.count("\n") == 1


def test_aids_set_text_in_regular_and_headings_in_bold_every_font_embedded(tmp_path):
    from pypdf import PdfReader

    from tests.counters.pdftools import fonts

    written = make_aids(MAPS / "omaha", tmp_path / "aids", "letter", map_dpi=24)
    for path in (p for p in written if p.suffix == ".pdf"):
        found = fonts(path)
        assert found and all(f["emb"] == "yes" for f in found), (path.name, found)
        assert not any("Helvetica" in f["name"] for f in found), path.name
        meta = PdfReader(str(path)).metadata
        assert meta.author == ("bocage, for D-Day Omaha Beach: Beach to Bocage (Beach to"
                               " Bocage / Landing and Linkup map)"), path.name
        assert "play aid" in meta.subject, path.name
    names = {f["name"].split("+")[-1] for f in fonts(tmp_path / "aids" / "tec.pdf")}
    assert {"DejaVuSansCondensed", "DejaVuSans-Bold"} <= names  # body text and headings


@pytest.mark.slow
def test_the_help_names_every_aid_it_writes(tmp_path):
    """Every file make_aids writes, for every game, is named in ``bocage aids --help``."""
    text = CliRunner().invoke(aids, ["--help"], terminal_width=100).output
    for game in ("demo", "omaha", "june44", "cobra", "tactical"):
        for path in make_aids(MAPS / game, tmp_path / game, map_dpi=12):
            name = path.name
            if name.startswith(("track-", "oob-")):
                name = name.split("-")[0] + "-NAME.*"
            elif name.startswith("map-"):
                name = "map-BOARD.png"
            assert name in text, (game, path.name)
    for stem in AID_STEMS:
        assert f"{stem}.pdf" in text


def test_the_cli_lists_the_aids_under_the_folder_as_given(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(aids, [str(MAPS / "demo"), "--out-dir", "aids", "--map-dpi", "20"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "aids/tec.pdf"  # not the folder's real path
