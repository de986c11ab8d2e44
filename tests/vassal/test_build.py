"""Building a module: contents read back by parsing, determinism, failures leave nothing behind."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from pathlib import Path

import pytest
from lxml import etree
from PIL import Image

from pipeline.errors import DataError, ImageError
from pipeline.vassal import build_module, counter_image_names
from pipeline.vassal.encoding import PieceDefinition, decode
from pipeline.vassal.pieces import GpidAllocator
from tests.vassal.conftest import colour, write_board

M = "VASSAL.build.module."


def build(game: Path, out: Path, **kwargs) -> Path:
    kwargs.setdefault("date_saved", 1735000000000)
    return build_module(game, out, boards={"omaha": game / "board.png"}, **kwargs).path


def read(path: Path) -> tuple[etree._Element, zipfile.ZipFile]:
    archive = zipfile.ZipFile(path)
    return etree.fromstring(archive.read("buildFile.xml")), archive


def test_two_builds_are_byte_identical(demo_game, tmp_path, monkeypatch):
    first = build(demo_game, tmp_path / "a.vmod").read_bytes()
    second = build(demo_game, tmp_path / "b.vmod").read_bytes()
    assert first == second
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    third = build_module(demo_game, tmp_path / "c.vmod",
                         boards={"omaha": demo_game / "board.png"}).path
    with zipfile.ZipFile(third) as z:
        assert b"<dateSaved>1700000000000</dateSaved>" in z.read("moduledata")
        assert all(info.date_time == (1980, 1, 1, 0, 0, 0) for info in z.infolist())


def test_module_layout_and_moduledata(demo_game, tmp_path):
    root, archive = read(build(demo_game, tmp_path / "demo.vmod"))
    names = archive.namelist()
    assert names[:2] == ["moduledata", "buildFile.xml"] and names[-1] == "bocage/game.json"
    data = etree.fromstring(archive.read("moduledata"))
    assert data.findtext("VassalVersion") == "3.6.19"
    assert data.findtext("dateSaved") == "1735000000000"
    assert root.tag == "VASSAL.build.GameModule" and root.get("VassalVersion") == "3.6.19"
    children = [c.tag for c in root]
    assert children[0] == M + "BasicCommandEncoder"
    for tag in ("Documentation", "PlayerRoster", "GlobalOptions", "Map", "PrototypesContainer",
                "PieceWindow", "DiceButton", "turn.TurnTracker"):
        assert M + tag in children
    assert root.find(M + "GlobalOptions").get("storeLeadingZeroIntegersAsStrings") == "true"
    assert [e.text for e in root.find(M + "PlayerRoster")] == ["Allied", "German"]
    dice = root.find(M + "DiceButton")
    assert (dice.get("nDice"), dice.get("nSides")) == ("1", "6")  # rules.json: 1d6
    level = root.find(f"{M}turn.TurnTracker/{M}turn.CounterTurnLevel")
    assert (level.get("start"), level.get("loopLimit")) == ("1", "17")
    the_map = root.find(M + "Map")
    for helper in ("PieceMover", "KeyBufferer", "MenuDisplayer", "StackExpander",
                   "ForwardToKeyBuffer", "Scroller", "ForwardToChatter", "MapCenterer"):
        assert the_map.find(M + "map." + helper) is not None
    help_file = root.find(f"{M}Documentation/{M}documentation.HelpFile")
    assert help_file.get("fileName") == "bocage/game.json"
    game = json.loads(archive.read("bocage/game.json"))
    assert game["game"] == "omaha" and len(game["units"]) == 13
    assert game["module"]["boards"]["omaha"]["hex_grid"]["x0"] == "40"


def test_pieces_have_stable_unique_gpids_and_decode(demo_game, tmp_path):
    root, _ = read(build(demo_game, tmp_path / "demo.vmod"))
    slots = list(root.iter("VASSAL.build.widget.PieceSlot"))
    gpids = [int(s.get("gpid")) for s in slots]
    assert len(set(gpids)) == len(gpids) and max(gpids) < int(root.get("nextPieceSlotId"))
    palette = {s.get("entryName"): s for s in root.find(M + "PieceWindow").iter(
        "VASSAL.build.widget.PieceSlot")}
    slot = palette["2 Ranger Battalion"]
    assert int(slot.get("gpid")) == GpidAllocator(["unit:2 Rgr"])["unit:2 Rgr"]
    piece = PieceDefinition.decode(slot.text)
    ids = [t.id for t in piece.traits]
    assert ids[0] == "emb2;" and ids[-2:] == ["prototype;", "piece;"]
    assert piece.traits[-1].fields[2:] == ["2-rgr-front.png", "2 Ranger Battalion"]
    assert decode(piece.traits[-1].state, ";")[3] == slot.get("gpid")
    layer = piece.traits[0].fields
    assert decode(layer[15], ",") == ["2-rgr-front.png", "2-rgr-back.png"]
    assert layer[3] == "Flip" and layer[27] == "57344,0,Flip" and layer[16] == ",+ (reduced)"
    props = {decode(t.type[5:], ",")[0]: t.state for t in piece.traits if t.id == "mark;"}
    assert props == {"UnitId": "2 Rgr", "Nationality": "US", "Type": "ranger",
                     "Size": "battalion", "Attack": "3", "Defence": "3", "Movement": "4",
                     "BackAttack": "1", "BackDefence": "2", "BackMovement": "4", "Steps": "2"}
    assert piece.traits[-2].fields == ["Allied unit"]
    protos = {p.get("name") for p in root.iter(M + "PrototypeDefinition")}
    assert protos == {"Unit", "Marker", "Allied unit", "German unit"}


def test_palette_grouped_by_side_then_formation_or_arrival(demo_game, tmp_path):
    root, _ = read(build(demo_game, tmp_path / "demo.vmod"))
    tabs = root.find(f"{M}PieceWindow/VASSAL.build.widget.TabWidget")
    layout = {tab.get("entryName"): [p.get("entryName") for p in tab] for tab in tabs}
    assert list(layout) == ["Allied", "German", "Markers"]
    assert layout["German"] == ["Formation 352", "Turn 1", "Turn 3", "Other units"]
    assert layout["Allied"] == ["Turn 2", "Turn 3", "Other units"]


def test_images_are_stored_and_read_back(demo_game, tmp_path):
    root, archive = read(build(demo_game, tmp_path / "demo.vmod"))
    front, back = counter_image_names("916/352")
    image = Image.open(io.BytesIO(archive.read(f"images/{front}")))
    # Pieces are 85% of the hex across its flats (VASSAL's dy), whatever size they were drawn.
    dy = float(root.find(f".//{M}Map//VASSAL.build.module.map.boardPicker.board.HexGrid").get("dy"))
    side = round(0.85 * dy)
    assert image.size == (side, side) and image.getpixel((10, 10)) == colour("916/352")
    assert f"images/{back}" in archive.namelist()
    board = Image.open(io.BytesIO(archive.read("images/board-omaha.png")))
    assert board.size == (1240, 1290)
    assert archive.read("images/board-omaha.png") == (demo_game / "board.png").read_bytes()


def _no_leftovers(folder: Path) -> None:
    assert not [p for p in folder.iterdir() if p.name.endswith((".tmp", ".vmod"))]


def test_missing_counter_image_fails_with_one_line_and_no_file(game_factory, tmp_path):
    game = game_factory()
    (game.parent.parent / "counters" / "demo" / "2-rgr-front.png").unlink()
    out_dir = tmp_path / "out"
    with pytest.raises(ImageError) as info:
        build(game, out_dir / "demo.vmod")
    assert "unit '2 Rgr'" in str(info.value) and "2-rgr-front.png" in str(info.value)
    assert "\n" not in str(info.value)
    assert not out_dir.exists() or not list(out_dir.iterdir())


def test_missing_board_image_and_missing_layout(game_factory, tmp_path):
    game = game_factory()
    with pytest.raises(ImageError, match="board image not found"):
        build_module(game, tmp_path / "x.vmod", boards={"omaha": game / "nope.png"})
    data = json.loads((game / "map.json").read_text())
    del data["boards"][0]["grid"]["layout"]
    (game / "map.json").write_text(json.dumps(data))
    with pytest.raises(DataError, match="no pixel layout"):
        build(game, tmp_path / "x.vmod")
    _no_leftovers(tmp_path)


def test_scenario_hex_not_on_the_grid_fails(game_factory, tmp_path):
    game = game_factory()
    text = (game / "scenario.json").read_text().replace('"hex": "2218"', '"hex": "2699"')
    (game / "scenario.json").write_text(text)
    with pytest.raises(DataError) as info:
        build(game, tmp_path / "x.vmod")
    assert "setup[0].hex" in str(info.value) and "2699" in str(info.value)
    _no_leftovers(tmp_path)


def test_failed_rebuild_keeps_the_old_module(demo_game, tmp_path):
    out = build(demo_game, tmp_path / "demo.vmod")
    before = out.read_bytes()
    (demo_game.parent.parent / "counters" / "demo" / "1-front.png").unlink()
    with pytest.raises(ImageError):
        build(demo_game, out)
    assert out.read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_large_board_warns(game_factory, tmp_path):
    game = game_factory()
    write_board(game / "board.png", 8001, 1300)
    report = build_module(game, tmp_path / "big.vmod", boards={"omaha": game / "board.png"},
                          date_saved=0)
    assert any("over 8000 px" in w for w in report.warnings)


def test_units_without_backs_get_no_flip(game_factory, tmp_path):
    game = game_factory(backs=False)
    root, _ = read(build(game, tmp_path / "x.vmod"))
    for slot in root.iter("VASSAL.build.widget.PieceSlot"):
        assert "emb2;" not in slot.text


def test_scenario_choice(game_factory, tmp_path):
    game = game_factory()
    with pytest.raises(DataError, match="no scenario 'nope'"):
        build(game, tmp_path / "x.vmod", scenario="nope")
    path = build(game, tmp_path / "x.vmod", scenario="scenario")
    assert path.exists()


def test_reduced_start_units_begin_on_their_back():
    from pipeline.model import UnitSpec
    from pipeline.vassal.pieces import Faces, unit_piece

    unit = UnitSpec.model_validate({"id": "A/1", "side": "allied", "type": "infantry",
                                    "steps": 2, "flags": ["reduced_start"], "attack": 4,
                                    "back_attack": 2.5})
    piece = unit_piece(unit, Faces("a-1-front.png", "a-1-back.png"), 5)
    assert piece.traits[0].id == "emb2;" and piece.traits[0].state == "2"
    props = {decode(t.type[5:], ",")[0]: t.state for t in piece.traits if t.id == "mark;"}
    assert props["Attack"] == "4" and props["BackAttack"] == "2.5"
    assert "Defence" not in props  # not given: no property rather than an invented value


def test_piece_size_is_the_builders_choice(demo_game, tmp_path):
    """--piece-size 30 makes 30 px pieces; 0 keeps the rendered images byte for byte."""
    front = counter_image_names("916/352")[0]
    _, archive = read(build(demo_game, tmp_path / "a.vmod", piece_size=30))
    assert Image.open(io.BytesIO(archive.read(f"images/{front}"))).size == (30, 30)
    _, archive = read(build(demo_game, tmp_path / "b.vmod", piece_size=0))
    drawn = demo_game.parent.parent / "counters" / "demo" / front
    assert archive.read(f"images/{front}") == drawn.read_bytes()


def test_pieces_scaled_on_two_workers_are_the_pieces_scaled_here(game_factory, tmp_path):
    game = game_factory(layout=None)
    counters = game.parent.parent / "counters" / "demo"
    for path in counters.glob("*.png"):  # faces larger than the pieces, so each is scaled
        with Image.open(path) as small:
            small.resize((120, 120)).save(path)
    one = build(game, tmp_path / "one.vmod", jobs=1).read_bytes()
    two = build(game, tmp_path / "two.vmod", jobs=2).read_bytes()
    assert one == two
    with zipfile.ZipFile(tmp_path / "two.vmod") as archive:
        names = [n for n in archive.namelist() if n.endswith("-front.png")]
        assert len(names) > 32  # enough faces for the work to go to the workers
        sizes = {Image.open(io.BytesIO(archive.read(n))).size for n in names}
    assert sizes == {(47, 47)}  # 85% of the 55 px hex across its flats


def test_a_face_already_at_the_piece_size_is_kept_and_a_shared_face_scaled_once(
        game_factory, tmp_path, monkeypatch):
    import pipeline.vassal.build as module

    game = game_factory()
    counters = game.parent.parent / "counters" / "demo"
    same = Image.new("RGB", (120, 120), (10, 20, 30))
    for path in counters.glob("ger-sf-*.png"):
        same.save(path)  # every German support-fire face alike
    scaled: list[int] = []
    real = module._piece_png

    def counting(job):
        scaled.append(len(job[0]))
        return real(job)

    monkeypatch.setattr(module, "_piece_png", counting)
    build(game, tmp_path / "a.vmod", jobs=1)
    faces = list(counters.glob("*.png"))
    alike = len(list(counters.glob("ger-sf-*.png")))
    assert alike >= 10 and len(scaled) == len(faces) - alike + 1
    # 50 px faces on a 47 px piece are scaled; a face at 47 px is stored as it is.
    kept = counters / counter_image_names("914/352")[0]
    Image.new("RGB", (47, 47), (1, 2, 3)).save(kept)
    _, archive = read(build(game, tmp_path / "b.vmod", jobs=1))
    assert archive.read(f"images/{kept.name}") == kept.read_bytes()


def test_a_face_changed_while_the_module_is_built_is_refused_naming_it(tmp_path):
    # The pool's workers read each face from its file (not sent down the pipes): a file
    # that no longer holds the bytes the build read and checked is refused, not packed.
    from pipeline.vassal.build import _piece_png

    face = tmp_path / "914-352-front.png"
    Image.new("RGB", (50, 50), (10, 20, 30)).save(face)
    digest = hashlib.sha256(face.read_bytes()).digest()
    png, width, height = _piece_png((str(face), digest, 47))
    assert (width, height) == (47, 47) and Image.open(io.BytesIO(png)).size == (47, 47)
    Image.new("RGB", (50, 50), (200, 20, 30)).save(face)
    with pytest.raises(ImageError) as info:
        _piece_png((str(face), digest, 47))
    assert face.name in str(info.value) and "changed while the module was built" in str(
        info.value)


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("piece_size", [None, 0])
def test_a_broken_or_foreign_face_is_refused_naming_its_file(game_factory, tmp_path, jobs,
                                                             piece_size):
    # Faces are decoded whole in the pool that sizes the pieces (or checks them, with
    # piece_size 0): a truncated PNG or a JPEG named .png still stops the build with one
    # line naming the file, on one worker or several, and writes no module.
    game = game_factory()
    counters = game.parent.parent / "counters" / "demo"
    faces = sorted(counters.glob("*-front.png"))
    # Enough faces for the pool (map_in_processes works fewer than 64 here).
    assert len(list(counters.glob("*.png"))) >= 64
    truncated, foreign = faces[3], faces[30]
    truncated.write_bytes(truncated.read_bytes()[:-40])
    Image.new("RGB", (50, 50), (9, 9, 9)).save(foreign, format="JPEG")
    out = tmp_path / "x.vmod"
    with pytest.raises(ImageError) as info:
        build(game, out, jobs=jobs, piece_size=piece_size)
    message = str(info.value)
    assert "\n" not in message and truncated.name in message
    assert not out.exists()
    truncated.write_bytes(faces[4].read_bytes())
    with pytest.raises(ImageError) as info:
        build(game, out, jobs=jobs, piece_size=piece_size)
    assert foreign.name in str(info.value) and "must be PNG, this is JPEG" in str(info.value)
    assert not out.exists()
