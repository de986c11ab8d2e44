"""The printed sheet around the hex field: key, title block, tables, turn track, frame.

Real map sheets hold more than hexes: a terrain key whose swatches are hexes
at map scale, a boxed title, a terrain-effects table, a turn record track (a
grid of square boxes), and often a dark frame. Some are printed edge to edge:
the frame cuts through the outermost hexes and there is no paper margin to
sample. :func:`plan_sheet` places these parts and the grid on the paper;
:func:`paint_sheet` draws them (the map itself is drawn by
:func:`pipeline.render.render_map` in between).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import shapely

from pipeline.counters.typeset import font
from pipeline.hexgrid import Hex, HexGrid, Layout, Orientation
from pipeline.render.canvas import Canvas
from pipeline.render.icons import draw_symbol
from pipeline.render.labels import Label, draw_label
from pipeline.render.looks import Palette, paint_swatch

__all__ = ["Box", "Sheet", "SheetPlan", "paint_frame", "paint_sheet", "plan_sheet"]

RGB = tuple[int, int, int]
Point = tuple[float, float]
Box = tuple[float, float, float, float]  # x, y, width, height in output pixels
KeyLine = Callable[[str, str, RGB, Point, Point], None]

SQRT3_2 = math.sqrt(3) / 2
INK: RGB = (26, 26, 26)


@dataclass(frozen=True)
class Sheet:
    """What the sheet prints besides the hex field. Sizes are in hex sizes unless said.

    Parameters
    ----------
    title
        Text of a boxed title block beside the field (``None``: none).
    key
        A terrain key beside the field: one swatch hex per terrain at map
        scale, painted as the map paints it, with its name, then the hexside
        features as short lines and the hex features' symbols.
    effects
        A ruled terrain-effects table under the key (its values are dashes).
    track
        Boxes of a turn record track below the field (0: none).
    frame
        Width of a dark frame around the field, in pixels (0: none).
    edge_to_edge
        Print the field edge to edge: its edge cuts the outer hexes ``cut``
        hex sizes beyond their centres, the lattice's partial hexes fill the
        rest, and there is no margin.
    cut
        Where an edge-to-edge field's edge lies, beyond the outermost centres.
    frame_color
        Colour of the frame as ``#rrggbb``.

    Examples
    --------
    >>> Sheet(key=True, track=20).track
    20
    """

    title: str | None = None
    key: bool = False
    effects: bool = False
    track: int = 0
    frame: float = 0.0
    edge_to_edge: bool = False
    cut: float = 0.4
    frame_color: str = "#1c1c1c"

    def __post_init__(self) -> None:
        if self.track < 0 or self.frame < 0:
            raise ValueError("track and frame must not be negative")
        if not 0.05 <= self.cut <= 0.45:
            raise ValueError(f"cut must lie inside the outer hexes (0.05 to 0.45), got {self.cut}")

    @property
    def has_panel(self) -> bool:
        """Whether anything is printed beside the field."""
        return self.title is not None or self.key or self.effects


@dataclass(frozen=True)
class SheetPlan:
    """Where everything goes on the paper.

    Attributes
    ----------
    layout
        The grid's pixel layout.
    width, height
        Image size.
    field
        ``(x0, y0, x1, y1)``: the printed hex field (inside any frame).
    outer
        ``(x0, y0, x1, y1)``: the field with its frame.
    panels
        Box of each part beside or below the field (``title``, ``key``,
        ``effects``, ``track``).
    swatches
        Centre of each terrain's key swatch.
    """

    layout: Layout
    width: int
    height: int
    field: tuple[float, float, float, float]
    outer: tuple[float, float, float, float]
    panels: dict[str, Box]
    swatches: dict[str, Point]


def plan_sheet(grid: HexGrid, hex_size: float, margin: float, sheet: Sheet,
               terrains: Sequence[str], extras: int) -> SheetPlan:
    """Lay out a sheet: the field (cut or with a margin), panels beside it, track below.

    Positions are in output pixels with pixel centres at integers, so the image
    spans ``-0.5`` to ``width - 0.5``; an edge-to-edge field's frame covers whole
    pixels up to the image's edges.

    Parameters
    ----------
    grid
        The board (its layout is ignored).
    hex_size, margin
        The style's hex size and paper margin (no margin when edge to edge).
    sheet
        What to print.
    terrains
        The terrain names, in key order.
    extras
        Rows the key needs below the swatches (hexside and hex features).

    Examples
    --------
    >>> from pipeline.hexgrid import Numbering
    >>> g = HexGrid(Orientation.FLAT, Numbering(stagger="even-down"), cols=4, rows=3)
    >>> plan = plan_sheet(g, 40.0, 20.0, Sheet(edge_to_edge=True, frame=8.0), ["clear"], 0)
    >>> plan.outer[:2], plan.field[:2], plan.outer[2] == plan.width - 0.5
    ((-0.5, -0.5), (7.5, 7.5), True)
    """
    s = hex_size
    dx, dy = (s * SQRT3_2, s) if grid.orientation is Orientation.FLAT else (s, s * SQRT3_2)
    probe = Layout(dx=dx, dy=dy)
    hexes = grid.hexes()
    if sheet.edge_to_edge:
        pts = np.array([probe.center(h, grid.orientation) for h in hexes])
        lo, hi = pts.min(axis=0) - sheet.cut * s, pts.max(axis=0) + sheet.cut * s
        m, pad = 0.0, 0.0
    else:
        pts = np.array([c for h in hexes for c in probe.corners(h, grid.orientation)])
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        m, pad = margin, (0.25 * s if sheet.frame else 0.0)
    # Edge coordinates first (0 is the image's left edge); whole pixels for the frame.
    f = float(round(sheet.frame))
    span = [float(hi[i] - lo[i]) for i in range(2)]
    size = [float(math.ceil(v + 2 * pad + 2 * f)) for v in span]
    field = (m + f, m + f, m + size[0] - f, m + size[1] - f)
    outer = (m, m, m + size[0], m + size[1])
    # The hexes sit centred in the field.
    x0 = field[0] + (size[0] - 2 * f - span[0]) / 2 - float(lo[0])
    y0 = field[1] + (size[1] - 2 * f - span[1]) / 2 - float(lo[1])
    panels: dict[str, Box] = {}
    swatches: dict[str, Point] = {}
    gap, width = 0.6 * s, 7.0 * s
    x, y = outer[2] + gap, outer[1]
    if sheet.title is not None:
        panels["title"] = (x, y, width, 2.2 * s)
        y += 2.2 * s + gap
    if sheet.key:
        rows, extra_rows = math.ceil(len(terrains) / 2), math.ceil(extras / 2)
        panels["key"] = (x, y, width, 0.8 * s + rows * 1.25 * s + extra_rows * 0.6 * s)
        for i, name in enumerate(terrains):
            swatches[name] = (x + 0.7 * s + (i % 2) * 3.6 * s, y + 1.2 * s + (i // 2) * 1.25 * s)
        y += panels["key"][3] + gap
    if sheet.effects:
        panels["effects"] = (x, y, width, (len(terrains) + 1) * 0.42 * s)
        y += panels["effects"][3] + gap
    right, bottom = outer[2], outer[3]
    if sheet.has_panel:
        right, bottom = x + width + 0.5 * s, max(bottom, y - gap + 0.5 * s)
    if sheet.track:
        box, between = 1.15 * s, 0.15 * s
        per_row = max(1, math.floor((outer[2] - outer[0] + between) / (box + between)))
        rows = math.ceil(sheet.track / per_row)
        panels["track"] = (outer[0] + 0.1 * s, outer[3] + gap,
                           per_row * (box + between) - between, 0.6 * s + rows * (box + between))
        bottom = max(bottom, panels["track"][1] + panels["track"][3] + 0.5 * s)
    w, h = math.ceil(right + m), math.ceil(bottom + m)
    half = 0.5  # edge coordinates -> pixel-centre coordinates
    return SheetPlan(
        Layout(dx=dx, dy=dy, x0=x0 - half, y0=y0 - half), w, h,
        _shift(field, half), _shift(outer, half),
        {k: (b[0] - half, b[1] - half, b[2], b[3]) for k, b in panels.items()},
        {k: (p[0] - half, p[1] - half) for k, p in swatches.items()})


def _shift(box: tuple[float, float, float, float], by: float
           ) -> tuple[float, float, float, float]:
    return box[0] - by, box[1] - by, box[2] - by, box[3] - by


def paint_frame(canvas: Canvas, plan: SheetPlan, sheet: Sheet, paper: RGB, colour: RGB
                ) -> None:
    """Clear whatever the field spilled beyond its frame, then draw the frame.

    >>> from pipeline.hexgrid import Numbering
    >>> g = HexGrid(Orientation.FLAT, Numbering(stagger="even-down"), cols=3, rows=2)
    >>> sheet = Sheet(edge_to_edge=True, frame=6.0)
    >>> plan = plan_sheet(g, 40.0, 20.0, sheet, ["clear"], 0)
    >>> c = Canvas(plan.width, plan.height, 1, (255, 255, 255), unit=40.0)
    >>> paint_frame(c, plan, sheet, (255, 255, 255), (20, 20, 20))
    >>> img = c.finish()
    >>> int(img[0, 0, 0]), int(img[5, 20, 0]), int(img[6, 20, 0])
    (20, 20, 255)
    """
    x0, y0, x1, y1 = plan.outer
    w, h = canvas.size
    big = 4.0 * canvas.unit
    if sheet.edge_to_edge:
        for rect in ((-big, -big, w + big, y0), (-big, y1, w + big, h + big),
                     (-big, y0, x0, y1), (x1, y0, w + big, y1)):
            _rect(canvas, rect, paper)
    if sheet.frame:
        f0 = plan.field
        for rect in ((x0, y0, x1, f0[1]), (x0, f0[3], x1, y1), (x0, f0[1], f0[0], f0[3]),
                     (f0[2], f0[1], x1, f0[3])):
            _rect(canvas, rect, colour)


def paint_sheet(canvas: Canvas, plan: SheetPlan, sheet: Sheet, grid: HexGrid,
                palette: Palette, features: Mapping[str, tuple[str, RGB]],
                symbols: Mapping[str, str], key_line: KeyLine,
                rng: np.random.Generator) -> tuple[list[Label], dict[str, Box]]:
    """Draw the panels; return their labels and each key swatch's box.

    ``features`` maps each hexside feature to its kind and colour, ``symbols``
    each drawn hex feature to its symbol; ``key_line(name, kind, colour, a,
    b)`` draws a hexside feature's sample from ``a`` to ``b`` as the map draws it.

    Examples
    --------
    >>> from pipeline.hexgrid import Numbering
    >>> g = HexGrid(Orientation.FLAT, Numbering(stagger="even-down"), cols=3, rows=2)
    >>> sheet = Sheet(title="Map", key=True, track=4)
    >>> plan = plan_sheet(g, 40.0, 20.0, sheet, ["clear"], 0)
    >>> placed = HexGrid(g.orientation, g.numbering, 3, 2, layout=plan.layout)
    >>> c = Canvas(plan.width, plan.height, 1, (255, 255, 255), unit=40.0)
    >>> p = Palette({"clear": (250, 240, 200)}, {}, {}, "clear", False, False, 0.25, 0.2)
    >>> labels, key = paint_sheet(c, plan, sheet, placed, p, {}, {}, lambda *a: None,
    ...                           np.random.default_rng(0))
    >>> sorted(key), [lab.text for lab in labels if lab.kind == "track"]
    (['clear'], ['TURN RECORD TRACK', '1', '2', '3', '4', 'Reinf.'])
    """
    labels: list[Label] = []
    s = canvas.unit
    if "title" in plan.panels and sheet.title is not None:
        labels += _title(canvas, plan.panels["title"], sheet.title)
    swatch_boxes: dict[str, Box] = {}
    if "key" in plan.panels:
        x, y, _w, _ = plan.panels["key"]
        labels.append(draw_label(canvas, "TERRAIN KEY", (x, y + 0.25 * s), 0.3 * s, INK,
                                 kind="key", face="bold"))
        offsets = [(cx - c[0], cy - c[1]) for c in [grid.center(Hex(0, 0))]
                   for cx, cy in grid.corners(Hex(0, 0))]
        for name, (cx, cy) in plan.swatches.items():
            corners = [(cx + ox, cy + oy) for ox, oy in offsets]
            paint_swatch(canvas, corners, (cx, cy), name, palette, rng)
            canvas.line([*corners, corners[0]], INK, canvas.px(0.03))
            xs, ys = [c[0] for c in corners], [c[1] for c in corners]
            swatch_boxes[name] = (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
            labels.append(draw_label(canvas, name.replace("_", " ").capitalize(),
                                     (cx + 0.75 * s, cy), 0.28 * s, INK, kind="key"))
        row_y = y + 1.2 * s + math.ceil(len(plan.swatches) / 2) * 1.25 * s - 0.3 * s
        items = [(n, "line") for n in features] + [(n, "symbol") for n in symbols]
        for i, (name, what) in enumerate(items):
            ix = x + 0.2 * s + (i % 2) * 3.6 * s
            iy = row_y + (i // 2) * 0.6 * s
            if what == "line":
                kind, colour = features[name]
                key_line(name, kind, colour, (ix, iy), (ix + 1.0 * s, iy))
            else:
                draw_symbol(canvas, symbols[name], (ix + 0.5 * s, iy))
            labels.append(draw_label(canvas, name.replace("_", " ").capitalize(),
                                     (ix + 1.25 * s, iy), 0.26 * s, INK, kind="key"))
    if "effects" in plan.panels:
        labels += _effects(canvas, plan.panels["effects"], list(plan.swatches) or
                           list(palette.colours))
    if "track" in plan.panels:
        labels += _track(canvas, plan.panels["track"], sheet.track)
    return labels, swatch_boxes


def _rect(canvas: Canvas, rect: tuple[float, float, float, float], colour: RGB) -> None:
    x0, y0, x1, y1 = rect
    if x1 > x0 and y1 > y0:
        # Pillow fills both edge pixels of a polygon: pull the far edges in by half a
        # drawing pixel, so a rectangle on pixel boundaries covers exactly its pixels.
        far = 0.5 / canvas.k
        canvas.fill_geometry(shapely.box(x0, y0, x1 - far, y1 - far), colour)


def _outline(canvas: Canvas, box: Box, width: float) -> None:
    x, y, w, h = box
    canvas.line([(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)], INK, canvas.px(width))


def _title(canvas: Canvas, box: Box, title: str) -> list[Label]:
    s = canvas.unit
    x, y, w, h = box
    _outline(canvas, box, 0.06)
    _outline(canvas, (x + 0.12 * s, y + 0.12 * s, w - 0.24 * s, h - 0.24 * s), 0.025)
    text = title.upper()
    width_at_one = font("bold", 100).getlength(text) / 100
    size = min(0.42 * s, 0.86 * (w - 0.24 * s) / max(width_at_one, 1e-6))
    return [
        draw_label(canvas, text, (x + w / 2, y + 0.75 * s), size, (150, 30, 30),
                   kind="title", anchor="mm", face="bold"),
        draw_label(canvas, "Game map  -  illustrative", (x + w / 2, y + 1.35 * s), 0.25 * s,
                   INK, kind="title", anchor="mm", italic=True),
    ]


def _effects(canvas: Canvas, box: Box, terrains: Sequence[str]) -> list[Label]:
    s = canvas.unit
    x, y, w, h = box
    row = 0.42 * s
    labels = []
    _outline(canvas, box, 0.02)
    for i in range(1, len(terrains) + 1):
        canvas.line([(x, y + i * row), (x + w, y + i * row)], INK, canvas.px(0.012))
    for frac in (0.45, 0.72):
        canvas.line([(x + frac * w, y), (x + frac * w, y + h)], INK, canvas.px(0.012))
    for j, head in enumerate(("Terrain", "Move", "Combat")):
        labels.append(draw_label(canvas, head, (x + (0.05, 0.48, 0.75)[j] * w, y + row / 2),
                                 0.22 * s, INK, kind="table", face="bold"))
    for i, name in enumerate(terrains, start=1):
        cy = y + (i + 0.5) * row
        labels.append(draw_label(canvas, name.replace("_", " ").capitalize(),
                                 (x + 0.05 * w, cy), 0.22 * s, INK, kind="table"))
        for frac in (0.55, 0.82):
            canvas.line([(x + frac * w, cy), (x + (frac + 0.06) * w, cy)], INK, canvas.px(0.015))
    return labels


def _track(canvas: Canvas, box: Box, count: int) -> list[Label]:
    s = canvas.unit
    x, y, w, _ = box
    size, gap = 1.15 * s, 0.15 * s
    per_row = max(1, round((w + gap) / (size + gap)))
    labels = [draw_label(canvas, "TURN RECORD TRACK", (x, y + 0.25 * s), 0.3 * s, INK,
                         kind="track", face="bold")]
    for i in range(count):
        bx = x + (i % per_row) * (size + gap)
        by = y + 0.6 * s + (i // per_row) * (size + gap)
        _outline(canvas, (bx, by, size, size), 0.035)
        labels.append(draw_label(canvas, str(i + 1), (bx + 0.1 * s, by + 0.22 * s), 0.28 * s,
                                 INK, kind="track", face="bold"))
        if i % 6 == 3:
            labels.append(draw_label(canvas, "Reinf.", (bx + size / 2, by + 0.8 * s), 0.2 * s,
                                     (150, 30, 30), kind="track", anchor="mm", italic=True))
    return labels

