"""Rules answers drawn on the map: where a unit can go, and who is in supply.

A list of forty hexes with MP costs is hard to read; the same answer over the
map is read at a glance. The map is drawn from its data (:func:`render_map`),
the answer on top with Pillow:

* **moves**: reachable hexes tinted from light (cheap) to dark (the whole MA)
  with their cost, the cheapest paths as a tree of thin lines from the start,
  the start hex ringed, hexes refused next to the reach crossed in red; the
  picture is cropped to the answer, so a move on a big map stays legible;
* **supply**: every unit a disc, green in supply and red out, with the line it
  traced to its source, and the sources ringed.

Units are drawn as small discs with their id (blue Allied, grey German, or the
first and second side of the game). This lives in ``render``, not ``rules``: the
rules validator draws nothing, and only this module of ``render`` reads its answers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from pipeline.counters.typeset import font
from pipeline.hexgrid import Hex, HexGrid
from pipeline.model import MapData
from pipeline.render.draw import RenderStyle, render_map
from pipeline.rules.movement import Reach
from pipeline.rules.situation import Situation
from pipeline.rules.systems.base import SupplyAnswer

__all__ = ["PictureStyle", "moves_picture", "supply_picture"]

RGB = tuple[int, int, int]
_REACH_LIGHT, _REACH_DARK = (255, 236, 150), (214, 110, 20)
_IN_SUPPLY, _OUT_OF_SUPPLY, _REFUSED = (20, 140, 60), (200, 30, 30), (200, 30, 30)
_SIDE_COLOURS: tuple[RGB, ...] = ((40, 80, 190), (90, 90, 90), (140, 60, 160))


@dataclass(frozen=True)
class PictureStyle:
    """Size of the drawing: hex width across the flats in pixels."""

    hex_size: float = 44.0


class _Canvas:
    """The map drawn from its data, and Pillow drawing in its pixel coordinates."""

    def __init__(self, data: MapData, board: str | None, style: PictureStyle) -> None:
        rendered = render_map(data, RenderStyle(hex_size=style.hex_size, ids=True,
                                                supersample=1), board)
        self.grid: HexGrid = rendered.grid
        self.s = style.hex_size
        self.base = Image.fromarray(rendered.image).convert("RGBA")
        self.layer = Image.new("RGBA", self.base.size, (0, 0, 0, 0))
        self.draw = ImageDraw.Draw(self.layer)

    def tint(self, h: Hex, colour: RGB, alpha: int) -> None:
        self.draw.polygon(self.grid.corners(h), fill=(*colour, alpha))

    def ring(self, h: Hex, colour: RGB, width: float) -> None:
        corners = self.grid.corners(h)
        self.draw.line([*corners, corners[0]], fill=(*colour, 255),
                       width=max(1, round(width * self.s)), joint="curve")

    def cross(self, h: Hex, colour: RGB) -> None:
        x, y = self.grid.center(h)
        r, w = 0.18 * self.s, max(1, round(0.05 * self.s))
        self.draw.line([(x - r, y - r), (x + r, y + r)], fill=(*colour, 230), width=w)
        self.draw.line([(x - r, y + r), (x + r, y - r)], fill=(*colour, 230), width=w)

    def line(self, hexes: list[Hex], colour: RGB, width: float, alpha: int = 255) -> None:
        if len(hexes) > 1:
            self.draw.line([self.grid.center(h) for h in hexes], fill=(*colour, alpha),
                           width=max(1, round(width * self.s)), joint="curve")

    def text(self, h: Hex, text: str, colour: RGB, dy: float = 0.12, size: float = 0.26) -> None:
        x, y = self.grid.center(h)
        self.draw.text((x, y + dy * self.s), text, fill=(*colour, 255),
                       font=font("bold", round(size * self.s)), anchor="mm",
                       stroke_width=max(1, round(0.03 * self.s)), stroke_fill=(255, 255, 255, 255))

    def unit(self, h: Hex, label: str, colour: RGB, edge: RGB | None = None) -> None:
        x, y = self.grid.center(h)
        r = 0.2 * self.s
        self.draw.ellipse([(x - r, y - r - 0.1 * self.s), (x + r, y + r - 0.1 * self.s)],
                          fill=(*colour, 255), outline=(*(edge or (255, 255, 255)), 255),
                          width=max(1, round(0.05 * self.s)))
        self.draw.text((x, y + 0.27 * self.s), label, fill=(20, 20, 20, 255),
                       font=font("condensed", round(0.2 * self.s)), anchor="mm",
                       stroke_width=max(1, round(0.025 * self.s)), stroke_fill=(255, 255, 255, 255))

    def finish(self, caption: str, around: list[Hex] | None = None) -> Image.Image:
        """The drawing, cropped to ``around`` (padded by a hex and a half) when given, with
        ``caption`` wrapped in a band below it (what the colours mean)."""
        drawn = Image.alpha_composite(self.base, self.layer).convert("RGB")
        if around:
            corners = [c for h in around for c in self.grid.corners(h)]
            pad = 1.5 * self.s
            box = (max(0, round(min(x for x, _ in corners) - pad)),
                   max(0, round(min(y for _, y in corners) - pad)),
                   min(drawn.width, round(max(x for x, _ in corners) + pad)),
                   min(drawn.height, round(max(y for _, y in corners) + pad)))
            drawn = drawn.crop(box)
        size = max(12, round(0.3 * self.s))
        face = font("condensed", size)
        lines = _wrap(caption, face, drawn.width - round(0.6 * self.s))
        band = round(size * (1.3 * len(lines) + 0.9))
        out = Image.new("RGB", (drawn.width, drawn.height + band), (255, 255, 255))
        out.paste(drawn, (0, 0))
        ImageDraw.Draw(out).multiline_text(
            (round(0.3 * self.s), drawn.height + round(0.45 * size)), "\n".join(lines),
            fill=(20, 20, 20), font=face, spacing=round(0.3 * size))
        return out


def _wrap(text: str, face: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """Greedy word wrap to ``width`` pixels."""
    lines: list[str] = []
    for word in text.split():
        if lines and face.getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines or [""]


def _side_colours(situation: Situation) -> dict[str, RGB]:
    sides = list(dict.fromkeys(
        [s for s in ("allied", "german") if any(u.side == s for u in situation.units)]
        + [u.side for u in situation.units]))
    return {side: _SIDE_COLOURS[min(i, len(_SIDE_COLOURS) - 1)] for i, side in enumerate(sides)}


def _stack_label(situation: Situation, h: Hex) -> str:
    ids = [u.id for u in situation.units_in(h)]
    return ids[0] if len(ids) == 1 else f"{ids[0]} +{len(ids) - 1}"


def moves_picture(data: MapData, situation: Situation, reach: Reach, mover: str,
                  style: PictureStyle | None = None, crop: bool = True) -> Image.Image:
    """The reachable hexes of ``mover`` (a unit id, or ids) over the map (see the module
    docstring); ``crop=False`` keeps the whole map."""
    canvas = _Canvas(data, situation.state.get("board"), style or PictureStyle())
    numbers = [c for c in reach.costs.values() if isinstance(c, (int, float))]
    top = max(numbers, default=1) or 1
    for h, cost in reach.costs.items():
        t = cost / top if isinstance(cost, (int, float)) else 1.0
        colour = tuple(round(a + (b - a) * t)
                       for a, b in zip(_REACH_LIGHT, _REACH_DARK, strict=True))
        canvas.tint(h, colour, 150)  # type: ignore[arg-type]
    for h in reach.refused:
        canvas.cross(h, _REFUSED)
    for path in reach.paths.values():
        canvas.line(path[-2:], (120, 60, 10), 0.03, 170)
    colours = _side_colours(situation)
    for h in situation.occupants:
        unit = situation.units_in(h)[0]
        canvas.unit(h, _stack_label(situation, h), colours[unit.side])
    canvas.ring(reach.start, (20, 20, 20), 0.07)
    for h, cost in reach.costs.items():
        canvas.text(h, "1 hex" if cost == "one_hex" else f"{cost:g}", (60, 30, 0), 0.18)
    return canvas.finish(f"{mover} from {canvas.grid.id(reach.start)} (ringed): "
                         f"{len(reach.costs)} hexes, tint and number = MP spent (light 0, dark"
                         f" {top:g}); crossed = may not end there",
                         [reach.start, *reach.costs, *reach.refused] if crop else None)


def supply_picture(data: MapData, situation: Situation, answers: Mapping[str, SupplyAnswer],
                   style: PictureStyle | None = None) -> Image.Image:
    """Every unit's supply over the map (see the module docstring)."""
    canvas = _Canvas(data, situation.state.get("board"), style or PictureStyle())
    sources = {a.path[-1] for a in answers.values() if a.in_supply and len(a.path) > 1}
    for answer in answers.values():
        if answer.in_supply:
            canvas.line(list(answer.path), _IN_SUPPLY, 0.06, 170)
    for h in sources:
        canvas.ring(h, _IN_SUPPLY, 0.08)
    for h in situation.occupants:
        here = [u for u in situation.units_in(h) if u.id in answers]
        if not here:
            continue
        out = any(not answers[u.id].in_supply for u in here)
        canvas.unit(h, _stack_label(situation, h), _OUT_OF_SUPPLY if out else _IN_SUPPLY)
    short = sum(not a.in_supply for a in answers.values())
    return canvas.finish(f"{len(answers)} units: green in supply (with the line traced to the"
                         f" ringed source), red out of supply ({short})")
