"""``bocage vassal preview``: the main map at game start, checked pixel by pixel.

Every expected position is computed independently of the preview: from the
module's own XML through :class:`VassalHexGrid` (VASSAL's arithmetic), and
compared with the pixels of the PNG and of the board and counter images that
went into the module.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from lxml import etree
from PIL import Image

import pipeline.vassal
from pipeline.cli.vassal import vassal
from pipeline.errors import DataError, ModuleError
from pipeline.vassal import build_module, preview_module
from pipeline.vassal import preview as preview_mod
from pipeline.vassal.encoding import PieceDefinition
from pipeline.vassal.location import VassalHexGrid, VassalNumbering
from tests.vassal.conftest import make_game, reference
from tests.vassal.test_read_check import MODULEDATA

M = "VASSAL.build.module."
BOARD = M + "map.boardPicker.Board"
HEX_GRID = M + "map.boardPicker.board.HexGrid"
NUMBERING = M + "map.boardPicker.board.mapgrid.HexGridNumbering"
SETUP = M + "map.SetupStack"
SLOT = "VASSAL.build.widget.PieceSlot"


# -- helpers -----------------------------------------------------------------------------


def build_demo(root: Path, **kwargs: Any) -> tuple[Path, Path]:
    """The demo game built as a module; returns (module, board image)."""
    game = make_game(root, **kwargs)
    out = root / "demo.vmod"
    build_module(game, out, boards={"omaha": game / "board.png"}, date_saved=0)
    return out, game / "board.png"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return build_demo(tmp_path_factory.mktemp("demo"))


def build_root(path: Path) -> Any:
    with zipfile.ZipFile(path) as archive:
        return etree.fromstring(archive.read("buildFile.xml"))


def grid_of(board: Any, size: tuple[int, int]) -> VassalHexGrid:
    grid = next(board.iter(HEX_GRID))
    return VassalHexGrid.from_attributes(dict(grid.attrib), dict(grid.find(NUMBERING).attrib),
                                         *size)


def mean(image: Image.Image, box: tuple[int, int, int, int]) -> tuple[float, ...]:
    pixels = np.asarray(image.convert("RGB").crop(box), dtype=float).reshape(-1, 3)
    return tuple(float(v) for v in pixels.mean(axis=0))


def colours(image: Image.Image) -> set[tuple[int, ...]]:
    pixels = np.asarray(image.convert("RGB")).reshape(-1, 3)
    return {tuple(int(v) for v in row) for row in np.unique(pixels, axis=0)}


def window(image: Image.Image, x: float, y: float, r: int = 3) -> tuple[float, ...]:
    cx, cy = round(x), round(y)
    return mean(image, (cx - r, cy - r, cx + r + 1, cy + r + 1))


def luminance(rgb: tuple[float, ...]) -> float:
    return 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]


def close(a: tuple[float, ...], b: tuple[float, ...], tolerance: float = 6.0) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(vassal, list(args))
    return result.exit_code, result.stdout, result.stderr


# -- the demo module ------------------------------------------------------------------------


@pytest.mark.parametrize("scale", [None, 0.5])
def test_each_stack_shows_its_piece_where_vassal_puts_it(demo, scale):
    vmod, board_png = demo
    result = preview_module(vmod, scale=scale)
    s = 1.0 if scale is None else scale
    root = build_root(vmod)
    board = next(root.iter(BOARD))
    with Image.open(board_png) as picture:
        size = picture.size
        plain = picture.convert("RGB")
    grid = grid_of(board, size)
    stacks = list(root.iter(SETUP))
    assert result.stacks == len(stacks) == 9 and result.unresolved == []
    points: list[tuple[float, float, tuple[int, int], tuple[float, ...]]] = []
    with zipfile.ZipFile(vmod) as archive:
        for stack in stacks:
            point = grid.location_point(stack.get("location"))
            assert point is not None
            slots = list(stack.iter(SLOT))
            top = PieceDefinition.decode(slots[-1].text.strip()).traits[-1]
            with Image.open(io.BytesIO(archive.read(f"images/{top.fields[2]}"))) as counter:
                expected = mean(counter, (0, 0, *counter.size))
            # The top piece of a stack of n sits (2, -4) per piece below it from the point.
            x = point[0] + 2 * (len(slots) - 1)
            y = point[1] - 4 * (len(slots) - 1)
            seen = window(result.image, x * s, y * s)
            assert close(seen, expected), (stack.get("location"), seen, expected)
            assert not close(window(plain, *point), expected)  # not the board showing through
            points.append((x, y, counter.size, expected))
    # Where no other stack is near, the piece's edges are where VASSAL's arithmetic says:
    # 2 px inside each edge is the piece, 3 px outside is not.
    checked = 0
    for x, y, (w, h), expected in points:
        if any(0 < abs(x - ox) + abs(y - oy) < 150 for ox, oy, *_ in points):
            continue
        checked += 1
        edges = [(x - w / 2 + 2, y, x - w / 2 - 3, y), (x + w / 2 - 2, y, x + w / 2 + 3, y),
                 (x, y - h / 2 + 2, x, y - h / 2 - 3), (x, y + h / 2 - 2, x, y + h / 2 + 3)]
        for ix, iy, ox, oy in edges:
            assert close(window(result.image, ix * s, iy * s, 0), expected, 12)
            assert not close(window(result.image, ox * s, oy * s, 0), expected, 12)
    assert checked >= 3


def test_default_size_is_the_board_and_scale_scales_it(demo, tmp_path):
    vmod, board_png = demo
    with Image.open(board_png) as picture:
        width, height = picture.size
    assert preview_module(vmod).image.size == (width, height)  # under 2000 px: scale 1
    out = tmp_path / "half.png"
    code, stdout, _ = run("preview", str(vmod), "-o", str(out), "--scale", "0.5")
    assert code == 0 and "scale 0.5" in stdout
    with Image.open(out) as png:
        assert png.format == "PNG" and png.size == (round(width * 0.5), round(height * 0.5))


def test_a_large_board_is_drawn_at_most_2000_px(tmp_path):
    vmod, _ = build_demo(tmp_path, board_size=(3000, 2400))
    result = preview_module(vmod)
    assert result.image.size == (2000, 1600) and result.scale == pytest.approx(2000 / 3000)
    assert result.map_size == (3000, 2400)


def _preview_of(demo: tuple[Path, Path]) -> tuple[Any, Image.Image, Any]:
    """The demo module's preview, its plain board image, and VASSAL's grid of it."""
    vmod, board_png = demo
    with Image.open(board_png) as picture:
        plain = picture.convert("RGB")
    return preview_module(vmod), plain, grid_of(next(build_root(vmod).iter(BOARD)), plain.size)


def test_grid_lines_lie_on_the_computed_hex_edges(demo):
    result, plain, grid = _preview_of(demo)
    for name in ("0305", "0710", "1402"):  # hexes without a stack, off the board's own lines
        cx, cy = grid.location_point(name)
        # Top edge (flat-topped hexes): from cx - dx/3 to cx + dx/3 at cy - dy/2.
        for x in (cx - grid.dx / 6, cx + grid.dx / 6):
            y = cy - grid.dy / 2
            darkest = min(luminance(result.image.getpixel((round(x), round(y) + d)))
                          for d in (-1, 0, 1))
            assert darkest < luminance(plain.getpixel((round(x), round(y)))) - 60
        # Lower-left edge, from (cx - 2dx/3, cy) to (cx - dx/3, cy + dy/2): its middle.
        x, y = cx - grid.dx / 2, cy + grid.dy / 4
        darkest = min(luminance(result.image.getpixel((round(x) + d, round(y))))
                      for d in (-1, 0, 1))
        assert darkest < luminance(plain.getpixel((round(x), round(y)))) - 60
        # Inside the hex, below its centre, the board shows untouched.
        inside = (round(cx), round(cy + grid.dy / 4))
        assert result.image.getpixel(inside) == plain.getpixel(inside)
    info = result.boards[0]["hex_grids"][0]
    assert info["names"] and info["lines"] and (info["dx"], info["dy"]) == (grid.dx, grid.dy)
    # Every hex whose centre is on the board is counted once.
    expected = sum(1 for c in range(-2, 40) for r in range(-2, 40)
                   if 0 <= grid.x0 + c * grid.dx < plain.width
                   and 0 <= grid.y0 + r * grid.dy + (grid.dy / 2 if c % 2 else 0) < plain.height)
    assert info["hexes"] == expected


def test_hex_names_are_written_above_the_centre(demo):
    result, plain, grid = _preview_of(demo)
    cx, cy = grid.location_point("0305")
    label = (round(cx - 12), round(cy - grid.dy * 0.3 - 5), round(cx + 12),
             round(cy - grid.dy * 0.3 + 5))
    assert luminance(mean(result.image, label)) < luminance(mean(plain, label)) - 10


def test_json_summary(demo, tmp_path):
    vmod, _ = demo
    out = tmp_path / "p.png"
    code, stdout, _ = run("preview", str(vmod), "-o", str(out), "--json")
    assert code == 0
    data = json.loads(stdout)
    assert data["out"] == str(out) and data["stacks"] == 9 and data["pieces"] == 9
    assert data["unresolved"] == [] and data["skipped"] == []
    assert [b["name"] for b in data["boards"]] == ["omaha"]
    assert data["boards"][0]["size_from"] == "image"
    grid = data["boards"][0]["hex_grids"][0]
    assert (grid["type"], grid["dx"], grid["dy"], grid["x0"], grid["y0"]) == (
        "HexGrid", 48.0, 55.0, 40, 40)
    with Image.open(out) as png:
        assert list(png.size) == data["size"]


# -- crafted modules: fallbacks, skipped stacks, multi-board layout ---------------------------


def png(size: tuple[int, int], colour: tuple[int, int, int]) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, colour).save(buffer, "PNG")
    return buffer.getvalue()


CRAFTED = """<?xml version="1.0" encoding="UTF-8"?>
<VASSAL.build.GameModule name="t" nextPieceSlotId="10" version="1" VassalVersion="3.6.19">
<VASSAL.build.module.Map mapName="Main" edgeWidth="10" edgeHeight="20">
 <VASSAL.build.module.map.BoardPicker>{setup}
  <VASSAL.build.module.map.boardPicker.Board image="a.png" name="A"/>
  <VASSAL.build.module.map.boardPicker.Board image="b.png" name="B">
   <VASSAL.build.module.map.boardPicker.board.HexGrid dx="48.0" dy="55.0" x0="40" y0="40">
    <VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering stagger="false"/>
   </VASSAL.build.module.map.boardPicker.board.HexGrid>
  </VASSAL.build.module.map.boardPicker.Board>
 </VASSAL.build.module.map.BoardPicker>
 <VASSAL.build.module.map.SetupStack location="0203" name="good" owningBoard="B"
   useGridLocation="true" x="0" y="0">
  <VASSAL.build.widget.PieceSlot entryName="p" gpid="2">+/null/piece;;;p.png;p/null;0;0;2;0</VASSAL.build.widget.PieceSlot>
 </VASSAL.build.module.map.SetupStack>
 <VASSAL.build.module.map.SetupStack location="ZZ" name="bad" owningBoard="B"
   useGridLocation="true" x="200" y="250">
  <VASSAL.build.widget.PieceSlot entryName="q" gpid="3">+/null/piece;;;q.png;q/null;0;0;3;0</VASSAL.build.widget.PieceSlot>
 </VASSAL.build.module.map.SetupStack>
 <VASSAL.build.module.map.SetupStack location="0405" name="two" owningBoard="B"
   useGridLocation="true" x="0" y="0">
  <VASSAL.build.widget.PieceSlot entryName="p" gpid="5">+/null/piece;;;p.png;p/null;0;0;5;0</VASSAL.build.widget.PieceSlot>
  <VASSAL.build.widget.PieceSlot entryName="q" gpid="6">+/null/piece;;;q.png;q/null;0;0;6;0</VASSAL.build.widget.PieceSlot>
 </VASSAL.build.module.map.SetupStack>
 <VASSAL.build.module.map.SetupStack name="elsewhere" owningBoard="Nope" x="5" y="5">
  <VASSAL.build.widget.PieceSlot entryName="p" gpid="4">+/null/piece;;;p.png;p/null;0;0;4;0</VASSAL.build.widget.PieceSlot>
 </VASSAL.build.module.map.SetupStack>
</VASSAL.build.module.Map>
</VASSAL.build.GameModule>
"""
P_COLOUR, Q_COLOUR = (200, 30, 30), (30, 30, 200)


def crafted(path: Path, setup: str = "") -> Path:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("moduledata", MODULEDATA)
        z.writestr("buildFile.xml", CRAFTED.format(setup=setup).encode())
        z.writestr("images/a.png", png((300, 400), (250, 250, 250)))
        z.writestr("images/b.png", png((500, 350), (230, 230, 200)))
        z.writestr("images/p.png", png((40, 40), P_COLOUR))
        z.writestr("images/q.png", png((40, 40), Q_COLOUR))
    return path


def test_boards_laid_out_as_the_default_setup_says(tmp_path):
    """<setup>: A at column 0, B at column 1; B's stacks move by A's width and the edge."""
    vmod = crafted(tmp_path / "m.vmod", "<setup>MainBoardPicker\tA\t0\t0\tB\t1\t0</setup>")
    result = preview_module(vmod)
    assert [(b["name"], b["x"], b["y"]) for b in result.boards] == [("A", 10, 20), ("B", 310, 20)]
    assert result.map_size == (10 + 300 + 500 + 10, 20 + 400 + 20)
    grid = VassalHexGrid(dx=48.0, dy=55.0, x0=40, y0=40, numbering=VassalNumbering(stagger=False))
    x, y = grid.location_point("0203")
    assert close(window(result.image, 310 + x, 20 + y), P_COLOUR)
    # A bad location name: VASSAL falls back to x/y, and so does the preview.
    assert [(u["stack"], u["location"], u["drawn_at"]) for u in result.unresolved] == [
        ("bad", "ZZ", [200, 250])]
    assert close(window(result.image, 310 + 200, 20 + 250), Q_COLOUR)
    # A stack on a board the map does not have is not placed at all.
    assert [s["stack"] for s in result.skipped] == ["elsewhere"]
    assert result.stacks == 3 and result.pieces == 4


def test_a_stack_is_drawn_collapsed_like_vassal(tmp_path):
    """StackMetrics defaults: each piece 2 px right of and 4 px above the one below it."""
    result = preview_module(crafted(tmp_path / "m.vmod"), board="B")
    grid = VassalHexGrid(dx=48.0, dy=55.0, x0=40, y0=40, numbering=VassalNumbering(stagger=False))
    x, y = grid.location_point("0405")
    x, y = x + 10, y + 20  # the edge buffer
    # p (40 px, bottom) spans [x-20, x+20) x [y-20, y+20); q on top is shifted by (2, -4).
    assert result.image.getpixel((x, y + 18)) == P_COLOUR  # p shows below q
    assert result.image.getpixel((x - 19, y)) == P_COLOUR  # and left of it
    assert result.image.getpixel((x, y + 14)) == Q_COLOUR
    assert result.image.getpixel((x + 21, y - 23)) == Q_COLOUR
    assert result.image.getpixel((x + 21, y + 18)) not in (P_COLOUR, Q_COLOUR)


def test_one_board_with_board_option(tmp_path):
    vmod = crafted(tmp_path / "m.vmod")
    result = preview_module(vmod, board="B")
    assert result.image.size == (500 + 20, 350 + 40)
    assert [b["name"] for b in result.boards] == ["B"]
    # Without a default setup VASSAL asks; the preview draws every board in a row.
    both = preview_module(vmod)
    assert [b["x"] for b in both.boards] == [10, 310]
    assert any("asks the player" in note for note in both.notes)


def test_missing_images_are_labelled_boxes(tmp_path):
    vmod = tmp_path / "m.vmod"
    with zipfile.ZipFile(vmod, "w") as z:
        z.writestr("moduledata", MODULEDATA)
        z.writestr("buildFile.xml", CRAFTED.format(setup="").encode())
        z.writestr("images/b.png", png((500, 350), (230, 230, 200)))
    result = preview_module(vmod, board="B")
    assert any("labelled boxes" in note for note in result.notes)
    grid = VassalHexGrid(dx=48.0, dy=55.0, x0=40, y0=40, numbering=VassalNumbering(stagger=False))
    x, y = grid.location_point("0203")
    # A white box with a black outline, 50 px (VASSAL's stand-in size) around the point.
    assert result.image.getpixel((10 + x - 20, 20 + y + 20)) == (255, 255, 255)
    assert result.image.getpixel((10 + x - 25, 20 + y)) == (0, 0, 0)


# -- the real sample modules ------------------------------------------------------------------


def sample(name: str) -> Path:
    return reference("vassal-samples", name)


@pytest.mark.parametrize("name, location, point", [
    ("tld-mod.buildFile", "0101", (36, 64)),  # reference §5.3
    ("vivelemperor.buildFile.xml", "0101", (107, 173)),
])
def test_sample_hex_grids_are_drawn_where_vassal_puts_them(name, location, point):
    path = sample(name)
    result = preview_module(path)
    root = etree.parse(str(path)).getroot()
    the_map = next(root.iter(M + "Map"))
    assert result.map_name == the_map.get("mapName")
    assert max(result.image.size) == 2000  # the estimated board is larger: scaled down
    board = next(the_map.iter(BOARD))
    grid = grid_of(board, (0, 0))
    assert grid.location_point(location) == point
    s = result.scale
    cx, cy = point
    blank = luminance(preview_mod.NO_IMAGE_FILL)
    for x in (cx - grid.dx / 6, cx + grid.dx / 6):  # the top edge of the hex
        darkest = min(luminance(result.image.getpixel((round(x * s), round((cy - grid.dy / 2) * s)
                                                       + d))) for d in (-1, 0, 1))
        assert darkest < blank - 60
    assert result.image.getpixel((round(cx * s), round((cy + grid.dy / 4) * s))) == (
        preview_mod.NO_IMAGE_FILL)
    assert result.boards[0]["size_from"] == "estimate" and result.stacks == 0


def test_sample_zones_with_their_own_grid_cut_the_hex_grid_out():
    """tld-mod: the zone 'Cherbourg Alarm Units' (870,0)-(1204,216) has no hex lines."""
    result = preview_module(sample("tld-mod.buildFile"))
    s = result.scale
    inner = result.image.crop((round(880 * s), round(10 * s), round(1194 * s), round(206 * s)))
    assert colours(inner) == {preview_mod.NO_IMAGE_FILL}
    outer = result.image.crop((round(880 * s), round(300 * s), round(1194 * s), round(500 * s)))
    assert len(colours(outer)) > 1  # the grid is drawn just below the zone


def test_sample_stacks_in_zones_and_regions_resolve():
    """almoravid: 85 stacks named by region, found through zones' RegionGrids like VASSAL."""
    path = sample("almoravid.buildFile.xml")
    result = preview_module(path)
    the_map = next(etree.parse(str(path)).getroot().iter(M + "Map"))
    stacks = list(the_map.iter(SETUP))
    assert sum(s.get("useGridLocation") == "true" for s in stacks) == 85
    assert result.stacks == len(stacks) and result.unresolved == [] and result.skipped == []
    s = result.scale
    # Jaca is a region of zone Aragón at (5209, 199): a stand-in box is drawn there.
    assert result.image.getpixel((round(5209 * s), round(199 * s))) == (255, 255, 255)
    assert any("bare build file" in note for note in result.notes)


# -- errors: one line naming the file, exit 2, no output -------------------------------------


def test_errors_are_one_line_and_leave_no_file(demo, tmp_path):
    vmod, board_png = demo
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    out = out_dir / "p.png"
    missing = tmp_path / "missing.vmod"
    for args, path, words in [
        ([str(missing)], missing, "no such file"),
        ([str(board_png)], board_png, "not a VASSAL module"),
        ([str(vmod), "--board", "omahaa"], vmod, "did you mean 'omaha'"),
    ]:
        code, stdout, stderr = run("preview", *args, "-o", str(out))
        assert code == 2 and stdout == ""
        assert stderr.count("\n") == 1 and stderr.startswith(f"bocage: {path}: ")
        assert words in stderr
        assert list(out_dir.iterdir()) == []
    out.write_bytes(b"old")
    assert run("preview", str(missing), "-o", str(out))[0] == 2
    assert out.read_bytes() == b"old"  # a failed run leaves the old file as it was


def test_a_zip_that_is_not_a_module_and_a_bad_scale(tmp_path):
    other = tmp_path / "x.zip"
    with zipfile.ZipFile(other, "w") as z:
        z.writestr("readme.txt", "hello")
    with pytest.raises(ModuleError, match="not a VASSAL module"):
        preview_module(other)
    with pytest.raises(DataError, match="--scale"):
        preview_module(crafted(tmp_path / "m.vmod"), scale=0)
    with pytest.raises(DataError, match="over 16000 px"):
        preview_module(crafted(tmp_path / "n.vmod"), scale=100)


def test_public_surface():
    assert {"Preview", "preview_module"} <= set(pipeline.vassal.__all__)
    assert preview_mod.__doc__ and set(preview_mod.__all__) == {
        "DEFAULT_SIDE", "MAX_OUTPUT_SIDE", "Preview", "preview_module", "preview_read"}
