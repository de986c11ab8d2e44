"""Reading modules safely (crafted hostile modules) and checking them (samples, built, broken)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from pipeline.errors import ModuleError
from pipeline.vassal import build_module
from pipeline.vassal import source as read_mod
from pipeline.vassal.check import check_module
from pipeline.vassal.describe import describe_module
from pipeline.vassal.source import open_module as read_module
from tests.vassal.conftest import SAMPLE_FILES, reference

MODULEDATA = (b'<?xml version="1.0" encoding="UTF-8"?><data version="1"><version>1</version>'
              b"<VassalVersion>3.6.19</VassalVersion><dateSaved>0</dateSaved><name>t</name></data>")
MINIMAL = """<?xml version="1.0" encoding="UTF-8"?>
<VASSAL.build.GameModule name="t" nextPieceSlotId="10" version="1" VassalVersion="3.6.19">
<VASSAL.build.module.BasicCommandEncoder/>
<VASSAL.build.module.Map mapName="Main">
 <VASSAL.build.module.map.BoardPicker>
  <VASSAL.build.module.map.boardPicker.Board image="b.png" name="B">
   <VASSAL.build.module.map.boardPicker.board.HexGrid dx="48.0" dy="55.0" x0="40" y0="40">
    <VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering stagger="false"/>
   </VASSAL.build.module.map.boardPicker.board.HexGrid>
  </VASSAL.build.module.map.boardPicker.Board>
 </VASSAL.build.module.map.BoardPicker>
 <VASSAL.build.module.map.PieceMover/><VASSAL.build.module.map.KeyBufferer/>
 <VASSAL.build.module.map.MenuDisplayer/><VASSAL.build.module.map.StackExpander/>
 <VASSAL.build.module.map.SetupStack location="0203" name="s" owningBoard="B"
   useGridLocation="true" x="88" y="122">
  <VASSAL.build.widget.PieceSlot entryName="p" gpid="2">+/null/piece;;;p.png;p/null;0;0;2;0</VASSAL.build.widget.PieceSlot>
 </VASSAL.build.module.map.SetupStack>
</VASSAL.build.module.Map>
<VASSAL.build.module.PieceWindow><VASSAL.build.widget.PieceSlot entryName="q" gpid="3">+/null/piece;;;p.png;q/null;0;0;3;0</VASSAL.build.widget.PieceSlot></VASSAL.build.module.PieceWindow>
</VASSAL.build.GameModule>
"""


def make_vmod(path: Path, build: str = MINIMAL, extra: dict[str, bytes] | None = None,
              images: tuple[str, ...] = ("b.png", "p.png")) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("moduledata", MODULEDATA)
        z.writestr("buildFile.xml", build.encode())
        for name in images:
            z.writestr(f"images/{name}", b"\x89PNG\r\n\x1a\n")
        for name, data in (extra or {}).items():
            z.writestr(name, data)
    return path


def messages(path: Path, severity: str = "error") -> list[str]:
    return [f.message for f in check_module(path).findings if f.severity == severity]


# -- safe reading ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["../evil.txt", "/etc/evil", "images/../../evil", "C:/evil"])
def test_entries_escaping_the_folder_are_refused(tmp_path, name):
    path = make_vmod(tmp_path / "m.vmod", extra={name: b"x"})
    with pytest.raises(ModuleError, match=r"absolute path or '..'"):
        read_module(path)


def test_billion_laughs_is_refused(tmp_path):
    bomb = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
            '<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
            '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>'
            '<VASSAL.build.GameModule name="&lol3;"/>')
    with pytest.raises(ModuleError, match=r"DTD|entity|well-formed"):
        read_module(make_vmod(tmp_path / "m.vmod", bomb))


def test_external_entities_are_not_read(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET")
    xxe = (f'<?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file://{secret}">]>'
           '<VASSAL.build.GameModule name="&x;"/>')
    bare = tmp_path / "buildFile.xml"
    bare.write_text(xxe)
    with pytest.raises(ModuleError) as info:
        read_module(bare)
    assert "TOP SECRET" not in str(info.value)


def test_decompressed_size_is_bounded(tmp_path, monkeypatch):
    path = make_vmod(tmp_path / "m.vmod", extra={"sounds/big.wav": b"\0" * 200_000})
    monkeypatch.setattr(read_mod, "MAX_TOTAL", 100_000)
    with pytest.raises(ModuleError, match="more than 100000 bytes"):
        read_module(path)


def test_lying_sizes_are_caught_while_reading(tmp_path, monkeypatch):
    path = make_vmod(tmp_path / "m.vmod", extra={"sounds/big.wav": b"\0" * 200_000})
    monkeypatch.setattr(read_mod, "MAX_TOTAL", 100_000)
    monkeypatch.setattr(read_mod, "_check_archive", lambda archive, path: None)
    with pytest.raises(ModuleError, match="more than 100000 bytes"):
        read_module(path)


def test_oversized_build_file_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(read_mod, "MAX_XML", 100)
    with pytest.raises(ModuleError, match="decompresses to more than 100 bytes"):
        read_module(make_vmod(tmp_path / "m.vmod"))


def test_not_a_module(tmp_path):
    path = tmp_path / "x.vmod"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("readme.txt", b"hi")
    with pytest.raises(ModuleError, match=r"no buildFile.xml"):
        read_module(path)


# -- check ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", SAMPLE_FILES)
def test_real_samples_pass(name):
    report = check_module(reference("vassal-samples", name))
    assert report.ok, [str(f) for f in report.findings]
    warnings = [f.message for f in report.findings if f.severity == "warning"]
    if name == "vivelemperor.buildFile.xml":
        # A true finding: one slot names a prototype the module lacks.
        assert warnings == [("uses prototype 'French I Cav Unit', which the module does not"
                            " define (did you mean 'French I Cav Corps Unit'?)")]
    else:
        assert warnings == []


def test_built_module_has_no_findings(demo_game, tmp_path):
    path = build_module(demo_game, tmp_path / "demo.vmod",
                        boards={"omaha": demo_game / "board.png"}, date_saved=0).path
    report = check_module(path)
    assert report.findings == [] and report.counts["setup_stacks"] == 9


def test_minimal_module_passes(tmp_path):
    assert check_module(make_vmod(tmp_path / "m.vmod")).findings == []


@pytest.mark.parametrize(("old", "new", "expected"), [
    ("BasicCommandEncoder/>", "BasicCommandEncodr/>", "VASSAL has no class"),
    ('x0="40"', 'x0="40.5"', 'x0="40.5" is not an integer'),
    ('gpid="3"', 'gpid="2"', "gpid 2 is also used"),
    ('nextPieceSlotId="10"', 'nextPieceSlotId="3"', "not below nextPieceSlotId 3"),
    ('location="0203"', 'location="9Z03"', "location '9Z03' is not a name"),
    ("piece;;;p.png;q/null;0;0;3;0", "mark;A\tpiece;;;p.png;q/null;0;0;3;0",
     "2 trait types but 1 states"),
    ('image="b.png"', 'image="missing.png"', "referenced but not in the archive"),
    ('owningBoard="B"', 'owningBoard="C"', "owningBoard 'C' is not a board"),
])
def test_broken_modules_are_caught(tmp_path, old, new, expected):
    assert old in MINIMAL
    path = make_vmod(tmp_path / "m.vmod", MINIMAL.replace(old, new, 1))
    errors = messages(path)
    assert any(expected in e for e in errors), errors
    assert not check_module(path).ok


def test_moduledata_too_new_and_missing_version(tmp_path):
    path = tmp_path / "m.vmod"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("moduledata", MODULEDATA.replace(b"3.6.19", b"3.7.2"))
        z.writestr("buildFile.xml", MINIMAL.encode())
        z.writestr("images/b.png", b"")
        z.writestr("images/p.png", b"")
    assert any("refuses this module as too new" in m for m in messages(path, "warning"))


def test_cdata_piece_is_empty_to_vassal(tmp_path):
    broken = MINIMAL.replace(">+/null/piece;;;p.png;q/null;0;0;3;0<",
                             "><![CDATA[+/null/piece;;;p.png;q/null;0;0;3;0]]><")
    assert any("CDATA" in m for m in messages(make_vmod(tmp_path / "m.vmod",
                                                                         broken)))


def test_describe_lists_maps_grids_pieces_and_stacks(demo_game, tmp_path):
    path = build_module(demo_game, tmp_path / "demo.vmod",
                        boards={"omaha": demo_game / "board.png"}, date_saved=0).path
    info = describe_module(path)
    board = info["maps"][0]["boards"][0]
    assert (board["width"], board["height"]) == (1240, 1290)
    assert board["grid"]["x0"] == "40" and board["numbering"]["stagger"] == "false"
    stacks = {s["location"]: s["pieces"] for s in info["maps"][0]["setup_stacks"]}
    assert stacks["2417"] == ["2 Ranger Battalion"]
    ranger = next(p for p in info["pieces"] if p["entryName"] == "2 Ranger Battalion")
    assert ranger["traits"][0]["images"] == ["2-rgr-front.png", "2-rgr-back.png"]
    assert {"UnitId": "2 Rgr"} in [t.get("properties") for t in ranger["traits"]]
    assert info["moduledata"]["VassalVersion"] == "3.6.19"
