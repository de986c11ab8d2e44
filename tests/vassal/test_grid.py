"""VASSAL names every hex as printed: checked with an independent model of VASSAL's arithmetic.

``IndependentVassal`` below is written in this test from reference
``vassal-format.md`` §5 alone (it imports nothing from pipeline.vassal or
pipeline.hexgrid), and the expected hex centres come from the map's own
layout numbers with the printed stagger rule, not from bocage's hex maths.
Modules are built for real and their buildFile.xml parsed back.
"""

from __future__ import annotations

import io
import json
import math
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from lxml import etree
from PIL import Image

from pipeline.vassal import build_module, preview_module
from pipeline.vassal.check import check_module
from tests.vassal.conftest import write_board

GRID = "VASSAL.build.module.map.boardPicker.board.HexGrid"
NUMBERING = "VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering"


def jround(v: float) -> int:
    return math.floor(v + 0.5)


def jint(v: float) -> int:
    return int(math.trunc(v))


@dataclass
class IndependentVassal:
    """VASSAL 3.6 HexGrid + HexGridNumbering from reference §5 (no stagger support needed
    beyond the flag, which bocage leaves false; it is honoured anyway)."""

    g: dict[str, str]
    n: dict[str, str]
    width: int
    height: int

    def __post_init__(self) -> None:
        self.dx, self.dy = float(self.g["dx"]), float(self.g["dy"])
        self.x0, self.y0 = int(self.g["x0"]), int(self.g["y0"])
        self.side = self.g["sideways"] == "true"
        self.h_off, self.v_off = int(self.n["hOff"]), int(self.n["vOff"])
        self.hl, self.vl = int(self.n["hLeading"]), int(self.n["vLeading"])
        self.hd, self.vd = self.n["hDescend"] == "true", self.n["vDescend"] == "true"
        self.stagger = self.n["stagger"] == "true"

    def max_rows(self) -> int:
        return math.floor(self.height / self.dx + 0.5)

    def max_cols(self) -> int:
        return math.floor(self.width / self.dy + 0.5)

    def pad(self, value: int, leading: int) -> str:
        text = str(abs(value))
        return ("-" if value < 0 else "") + text.rjust(leading + 1, "0")

    def name(self, x: int, y: int) -> str:
        if self.side:
            x, y = y, x
        col = math.floor((x - self.x0) / self.dx + 0.5)
        nx = jround((x - self.x0) / self.dx)
        row = jround((y - self.y0) / self.dy) if nx % 2 == 0 else jround(
            (y - self.y0 - self.dy / 2) / self.dy)
        raw_col = col
        col_desc = self.vd if self.side else self.hd
        row_desc = self.hd if self.side else self.vd
        if col_desc:
            col = (self.max_rows() if self.side else self.max_cols()) - col
        if row_desc:
            row = (self.max_cols() if self.side else self.max_rows()) - row
        if self.stagger and raw_col % 2:
            row += -1 if row_desc else 1
        c = self.pad(col + self.h_off, self.hl)
        r = self.pad(row + self.v_off, self.vl)
        grid = c + self.n["sep"] + r if self.n["first"] == "H" else r + self.n["sep"] + c
        return self.n["locationFormat"].replace("$gridLocation$", grid)

    def point(self, name: str) -> tuple[int, int]:
        prefix, _, _ = self.n["locationFormat"].partition("$gridLocation$")
        assert name.startswith(prefix)
        body = name[len(prefix):]
        h = f"(-?[0-9]{{{self.hl + 1},}})"
        v = f"(-?[0-9]{{{self.vl + 1},}})"
        sep = re.escape(self.n["sep"])
        if self.n["first"] == "H":
            m = re.fullmatch(h + sep + v, body)
            assert m
            col, row = int(m.group(1)) - self.h_off, int(m.group(2)) - self.v_off
        else:
            m = re.fullmatch(v + sep + h, body)
            assert m
            row, col = int(m.group(1)) - self.v_off, int(m.group(2)) - self.h_off
        if self.stagger and col % 2:
            row += 1 if (self.hd if self.side else self.vd) else -1
        if (self.vd if self.side else self.hd):
            col = (self.max_rows() if self.side else self.max_cols()) - col
        if (self.hd if self.side else self.vd):
            row = (self.max_cols() if self.side else self.max_rows()) - row
        x = jint(col * self.dx) + self.x0
        y = (jint(row * self.dy) if col % 2 == 0 else jint(row * self.dy + self.dy / 2)) + self.y0
        return (y, x) if self.side else (x, y)


def expected_centres(spec: dict) -> dict[str, tuple[float, float]]:
    """Printed id -> pixel centre, from the map.json grid spec (layout + printed stagger)."""
    grid = spec["grid"]
    lay, num = grid["layout"], grid["numbering"]
    flat = grid["orientation"] == "flat"
    fc, fr = num.get("first_col", 1), num.get("first_row", 1)
    dc, dr = num.get("descending_cols", False), num.get("descending_rows", False)
    parity_word, direction = num["stagger"].split("-")
    shifted_parity = 0 if parity_word == "even" else 1
    if direction in ("up", "left"):
        shifted_parity = 1 - shifted_parity  # "odd-up" is "even-down"
    out = {}
    for c in range(grid["cols"]):
        for r in range(grid["rows"]):
            col = fc - c if dc else fc + c
            row = fr - r if dr else fr + r
            hex_id = f"{num.get('prefix', '')}{col:02d}{row:02d}"
            line, first_line = (col, fc) if flat else (row, fr)
            shifted = line % 2 == shifted_parity
            first_shifted = first_line % 2 == shifted_parity
            half = 0.0 if shifted == first_shifted else (0.5 if shifted else -0.5)
            if flat:
                out[hex_id] = (lay["x0"] + c * lay["dx"], lay["y0"] + (r + half) * lay["dy"])
            else:
                out[hex_id] = (lay["x0"] + (c + half) * lay["dx"], lay["y0"] + r * lay["dy"])
    return out


def built(path: Path) -> tuple[etree._Element, dict]:
    with zipfile.ZipFile(path) as z:
        root = etree.fromstring(z.read("buildFile.xml"))
        game = json.loads(z.read("bocage/game.json"))
    return root, game


VARIANTS = {
    "demo": ({}, {"dx": 48.0, "dy": 55.0, "x0": 40.0, "y0": 40.0}),
    "fractional": ({}, {"dx": 47.63, "dy": 55.01, "x0": 40.6, "y0": 39.3}),
    "odd_down_first_col_0": ({"numbering": {"stagger": "odd-down", "first_col": 0}},
                             {"dx": 48.0, "dy": 55.0, "x0": 40.0, "y0": 40.0}),
    "pointy": ({"orientation": "pointy", "numbering": {"stagger": "even-right"}},
               {"dx": 55.0, "dy": 48.0, "x0": 40.0, "y0": 40.0}),
    "pointy_odd_left": ({"orientation": "pointy", "numbering": {"stagger": "odd-left"}},
                        {"dx": 55.3, "dy": 47.9, "x0": 68.0, "y0": 40.0}),
    "descending": ({"numbering": {"stagger": "even-down", "first_col": 25, "first_row": 22,
                                  "descending_cols": True, "descending_rows": True}},
                   {"dx": 48.0, "dy": 55.0, "x0": 40.0, "y0": 40.0}),
    "prefixed": ({"numbering": {"stagger": "even-down", "prefix": "A"}},
                 {"dx": 48.0, "dy": 55.0, "x0": 40.0, "y0": 40.0}),
}


def _scenario_ids(game: Path, prefix: str, renumber: dict[str, str] | None = None) -> None:
    """Rewrite the scenario's and manifest's hex ids for variants numbered unlike the demo."""
    def fix(hex_id: str) -> str:
        return prefix + (renumber or {}).get(hex_id, hex_id)

    path = game / "scenario.json"
    path.write_text(re.sub(r'"hex": "(\d{4})"', lambda m: f'"hex": "{fix(m.group(1))}"',
                           path.read_text()))
    data = json.loads((game / "map.json").read_text())
    data["hexes"], data["hexsides"], data["locations"] = {}, [], []  # demo terrain ids
    (game / "map.json").write_text(json.dumps(data))
    units = game.parent.parent / "counters" / "demo" / "units.csv"
    units.write_text(re.sub(r",(\d{4}),,", lambda m: f",{fix(m.group(1))},,", units.read_text()))


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_vassal_names_every_hex_as_printed(variant, game_factory, tmp_path):
    grid_update, layout = VARIANTS[variant]
    game = game_factory(layout=layout, grid=grid_update, board_size=(1500, 1450))
    prefix = grid_update.get("numbering", {}).get("prefix", "")
    if variant == "descending":
        # Same hexes, counted from the other corner: 0101 -> 2522.
        flip = {f"{c:02d}{r:02d}": f"{26 - c:02d}{23 - r:02d}"
                for c in range(1, 26) for r in range(1, 23)}
        _scenario_ids(game, "", flip)
    elif variant == "odd_down_first_col_0":
        flip = {f"{c:02d}{r:02d}": f"{c - 1:02d}{r:02d}"
                for c in range(1, 26) for r in range(1, 23)}
        _scenario_ids(game, "", flip)
    elif grid_update:
        _scenario_ids(game, prefix)
    out = build_module(game, tmp_path / "out.vmod", boards={"omaha": game / "board.png"},
                       date_saved=0).path
    root, _ = built(out)
    spec = json.loads((game / "map.json").read_text())["boards"][0]
    grid_el = root.find(f".//{GRID}")
    assert re.fullmatch(r"-?\d+", grid_el.get("x0")) and re.fullmatch(r"-?\d+", grid_el.get("y0"))
    model = IndependentVassal(dict(grid_el.attrib), dict(grid_el.find(NUMBERING).attrib),
                              1500, 1450)
    centres = expected_centres(spec)
    assert len(centres) == 25 * 22
    for hex_id, (cx, cy) in centres.items():
        assert model.name(round(cx), round(cy)) == hex_id
        px, py = model.point(hex_id)
        assert abs(px - cx) <= 1 and abs(py - cy) <= 1, (hex_id, (px, py), (cx, cy))
    stacks = root.findall(".//VASSAL.build.module.map.SetupStack")
    assert len(stacks) == 9
    for stack in stacks:
        cx, cy = centres[stack.get("location")]
        assert stack.get("useGridLocation") == "true" and stack.get("owningBoard") == "omaha"
        assert abs(int(stack.get("x")) - cx) <= 1 and abs(int(stack.get("y")) - cy) <= 1
        assert model.point(stack.get("location")) == (int(stack.get("x")), int(stack.get("y")))


def test_rotated_board_is_resampled_and_still_names_every_hex(game_factory, tmp_path):
    layout = {"dx": 48.0, "dy": 55.0, "x0": 90.0, "y0": 60.0, "rotation": 4.0}
    game = game_factory(layout=layout, board_size=(1400, 1450))
    report = build_module(game, tmp_path / "rot.vmod", boards={"omaha": game / "board.png"},
                          date_saved=0)
    assert any("resampled" in note for note in report.notes)
    root, _ = built(report.path)
    with zipfile.ZipFile(report.path) as z:
        size = Image.open(io.BytesIO(z.read("images/board-omaha.png"))).size
    grid_el = root.find(f".//{GRID}")
    assert (float(grid_el.get("dx")), float(grid_el.get("dy"))) == pytest.approx((48.0, 55.0))
    model = IndependentVassal(dict(grid_el.attrib), dict(grid_el.find(NUMBERING).attrib), *size)
    # Where did the rotated grid's hexes go? Map each centre through the same rotation.
    t = math.radians(4.0)
    cos, sin = math.cos(t), math.sin(t)
    xs = [0, 1400, 0, 1400]
    ys = [0, 0, 1450, 1450]
    # Inverse rotation of the image corners (relative to the grid origin) gives the new bounds.
    us = [cos * (x - 90) + sin * (y - 60) for x, y in zip(xs, ys, strict=True)]
    vs = [-sin * (x - 90) + cos * (y - 60) for x, y in zip(xs, ys, strict=True)]
    ox, oy = -min(us), -min(vs)
    flat = expected_centres({"grid": {**json.loads((game / "map.json").read_text())["boards"][0]
                                       ["grid"], "layout": {"dx": 48.0, "dy": 55.0, "x0": ox,
                                                            "y0": oy}}})
    for hex_id, (cx, cy) in flat.items():
        assert model.name(round(cx), round(cy)) == hex_id
        px, py = model.point(hex_id)
        assert abs(px - cx) <= 1 and abs(py - cy) <= 1


def test_two_boards_get_their_prefixes_in_the_location_format(tmp_path, game_factory):
    game = game_factory(grid={"numbering": {"stagger": "even-down", "prefix": "A"}})
    data = json.loads((game / "map.json").read_text())
    second = json.loads(json.dumps(data["boards"][0]))
    second["name"] = "east"
    second["grid"]["numbering"]["prefix"] = "B"
    data["boards"].append(second)
    data["hexes"], data["hexsides"], data["locations"] = {}, [], []
    (game / "map.json").write_text(json.dumps(data))
    _scenario_ids(game, "A")
    text = (game / "scenario.json").read_text().replace('"A2417"', '"B0305"')
    (game / "scenario.json").write_text(text)
    write_board(game / "east.png", 1240, 1290)
    out = build_module(game, tmp_path / "two.vmod",
                       boards={"omaha": game / "board.png", "east": game / "east.png"},
                       date_saved=0).path
    root, _ = built(out)
    formats = [n.get("locationFormat") for n in root.iter(NUMBERING)]
    assert formats == ["A$gridLocation$", "B$gridLocation$"]
    stack = next(s for s in root.iter("VASSAL.build.module.map.SetupStack")
                 if s.get("location") == "B0305")
    assert stack.get("owningBoard") == "east"
    grid_el = list(root.iter(GRID))[1]
    model = IndependentVassal(dict(grid_el.attrib), dict(grid_el.find(NUMBERING).attrib),
                              1240, 1290)
    assert model.name(int(stack.get("x")), int(stack.get("y"))) == "B0305"


def test_placed_boards_get_a_default_layout(tmp_path, game_factory):
    """map.json boards[1].placement puts B east of A (B0101 where A's numbering would put
    2601): the module's BoardPicker says so (VASSAL's encoded default setup), so VASSAL
    opens the map with A then B without asking, and the preview lays them out alike."""
    game = game_factory(grid={"numbering": {"stagger": "even-down", "prefix": "A"}})
    data = json.loads((game / "map.json").read_text())
    second = json.loads(json.dumps(data["boards"][0]))
    second.update(name="east", placement={"hex": "B0101", "at": "A2601"})
    second["grid"]["numbering"]["prefix"] = "B"
    data["boards"].append(second)
    data["hexes"], data["hexsides"], data["locations"] = {}, [], []
    (game / "map.json").write_text(json.dumps(data))
    _scenario_ids(game, "A")
    write_board(game / "east.png", 1240, 1290)
    report = build_module(game, tmp_path / "two.vmod",
                          boards={"omaha": game / "board.png", "east": game / "east.png"},
                          date_saved=0)
    root, _ = built(report.path)
    the_map = next(root.iter("VASSAL.build.module.Map"))
    setup = the_map.find("VASSAL.build.module.map.BoardPicker/setup")
    assert setup.text.split("\t") == ["Main MapBoardPicker", "omaha", "0", "0", "east", "1", "0"]
    assert the_map.get("allowMultiple") == "true"
    assert any("east in column 2, row 1" in n for n in report.notes)
    shown = preview_module(report.path, scale=0.25)
    boards = {b["name"]: b for b in shown.boards}
    assert boards["east"]["x"] == boards["omaha"]["x"] + 1240 and boards["east"]["y"] == 0
    assert not [f for f in check_module(report.path).findings if f.severity == "error"]
