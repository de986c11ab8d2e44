"""Where things go on a counter, and what its lines of text say.

Geometry is in whole pixels, computed from the counter's side alone so one
layout serves every size and resolution (5/8 in at 300 dpi is 188 px). The
common layout (000_3d79f68a6e3e33eb.txt §2.3 diagram; 001_2c092b02feae28f3.txt
§2.4.2, §2.4.3)::

    +------------------------+
    | 2417      III      ⬢   |   corner: set-up hex / arrival turn; size mark; no-ZOC hexagon
    |       +--------+       |
    |  914  |   X    |  352  |   unit id | unit-type box | parent formation
    |       +--------+       |
    |        5 - 4 - 4       |   values: attack-defence-movement (000, 001)
    +------------------------+

Cobra (003) prints strength-movement, the tactical game (002) attack, range,
defence and movement. A reduced side has a band across the top, just inside the edge (a
band at the very edge would melt into white paper on a printed sheet).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass

from pipeline.model.manifest import MarkerSpec, UnitSpec

__all__ = [
    "CounterLayout",
    "MarkerLayout",
    "Rect",
    "counter_layout",
    "format_value",
    "identifier",
    "marker_layout",
    "marker_value",
    "resolve_value_layout",
    "value_cells",
]

Rect = tuple[int, int, int, int]
"""``(left, top, right, bottom)`` in pixels; right and bottom are exclusive."""

_VALUE_COLUMNS = {
    "attack-defence-movement": ("attack", "defence", "movement"),
    "strength-movement": ("strength", "movement"),
    "attack-range-defence-movement": ("attack", "range", "defence", "movement"),
}
# Marker kinds whose counters print a number; an empty value prints '?' on these only.
_NUMBERED_MARKERS = frozenset({
    "support_fire", "naval_support_fire", "supply_points", "air_points", "naval_points",
    "step_loss",
})


@dataclass(frozen=True)
class CounterLayout:
    """Pixel geometry of a unit counter of ``side`` pixels with ``bleed`` around it.

    Every rectangle is in the coordinates of the whole image (bleed included).
    """

    side: int
    bleed: int
    frame: int
    box: Rect
    size_mark: Rect
    id_left: Rect
    id_right: Rect
    values: Rect
    band: Rect
    corner: Rect
    zoc: Rect
    value_px: int
    id_px: int
    corner_px: int

    @property
    def image_size(self) -> int:
        """Width (= height) of the whole image, bleed included."""
        return self.side + 2 * self.bleed

    @property
    def trim(self) -> Rect:
        """The counter itself, inside the bleed."""
        return (self.bleed, self.bleed, self.bleed + self.side, self.bleed + self.side)


@dataclass(frozen=True)
class MarkerLayout:
    """Pixel geometry of a marker counter (see :class:`CounterLayout`)."""

    side: int
    bleed: int
    label: Rect
    icon: Rect
    value: Rect
    centre: Rect
    label_px: int
    value_px: int
    big_px: int


def _at(side: int, bleed: int, fraction: float) -> int:
    return bleed + round(side * fraction)


@functools.lru_cache(maxsize=64)
def counter_layout(side: int, bleed: int = 0) -> CounterLayout:
    """The layout of a unit counter ``side`` pixels square, with ``bleed`` pixels around.

    Examples
    --------
    >>> lay = counter_layout(188)
    >>> lay.box, lay.values[1] > lay.box[3]
    ((51, 47, 137, 104), True)
    """
    s, b = side, bleed
    frame = max(1, round(s * 0.011))
    box_w = round(s * 0.46)
    box_w += (s - box_w) % 2  # same parity as the side: the box centres on a whole pixel
    box_h = round(box_w / 1.5)  # NATO frames are 3:2
    left = b + (s - box_w) // 2
    top = _at(s, b, 0.25)
    box = (left, top, left + box_w, top + box_h)
    mark_h = max(3, round(s * 0.095))
    mark_bottom = top - max(1, round(s * 0.03))
    margin = round(s * 0.035)
    gap = round(s * 0.025)
    return CounterLayout(
        side=s,
        bleed=b,
        frame=frame,
        box=box,
        size_mark=(left, mark_bottom - mark_h, left + box_w, mark_bottom),
        id_left=(b + margin, top, left - gap, box[3]),
        id_right=(box[2] + gap, top, b + s - margin, box[3]),
        values=(b + margin, box[3] + round(s * 0.04), b + s - margin, _at(s, b, 0.96)),
        band=(0, _at(s, b, 0.045), s + 2 * b, _at(s, b, 0.235)),
        corner=(_at(s, b, 0.045), _at(s, b, 0.07), _at(s, b, 0.3), _at(s, b, 0.2)),
        zoc=(_at(s, b, 0.8), _at(s, b, 0.045), _at(s, b, 0.95), _at(s, b, 0.175)),
        value_px=max(4, round(s * 0.27)),
        id_px=max(4, round(s * 0.16)),
        corner_px=max(4, round(s * 0.11)),
    )


@functools.lru_cache(maxsize=64)
def marker_layout(side: int, bleed: int = 0) -> MarkerLayout:
    """The layout of a marker counter: label on top, icon in the middle, value below.

    >>> marker_layout(188).icon
    (54, 46, 133, 125)
    """
    s, b = side, bleed
    icon = round(s * 0.42)
    left = b + (s - icon) // 2
    top = _at(s, b, 0.245)
    return MarkerLayout(
        side=s,
        bleed=b,
        label=(_at(s, b, 0.05), _at(s, b, 0.05), _at(s, b, 0.95), _at(s, b, 0.21)),
        icon=(left, top, left + icon, top + icon),
        value=(_at(s, b, 0.05), _at(s, b, 0.69), _at(s, b, 0.95), _at(s, b, 0.95)),
        centre=(_at(s, b, 0.06), _at(s, b, 0.25), _at(s, b, 0.94), _at(s, b, 0.65)),
        label_px=max(4, round(s * 0.13)),
        value_px=max(4, round(s * 0.25)),
        big_px=max(4, round(s * 0.3)),
    )


def resolve_value_layout(wanted: str, units: Iterable[UnitSpec]) -> str:
    """The value layout to print: ``wanted``, or for ``auto`` the one the data fills.

    A manifest that gives a range is the tactical game's (002); one that gives a
    strength but no attack or defence is Cobra's (003); anything else prints
    attack-defence-movement (000, 001), also when no values are given at all.

    >>> resolve_value_layout("auto", [UnitSpec(id="1", side="a", type="armor", strength=7)])
    'strength-movement'
    """
    if wanted != "auto":
        return wanted
    units = list(units)
    if any(u.range is not None or u.back_range is not None for u in units):
        return "attack-range-defence-movement"
    has_strength = any(u.strength is not None or u.back_strength is not None for u in units)
    has_combat = any(v is not None for u in units
                     for v in (u.attack, u.defence, u.back_attack, u.back_defence))
    if has_strength and not has_combat:
        return "strength-movement"
    return "attack-defence-movement"


def format_value(value: int | float | None) -> str:
    """A printed value: whole numbers without '.0', a missing one as '?'.

    >>> format_value(4), format_value(2.5), format_value(None)
    ('4', '2.5', '?')
    """
    if value is None:
        return "?"
    return f"{value:g}"


def value_cells(unit: UnitSpec, layout: str, *, back: bool = False) -> list[str]:
    """What the bottom band prints, cell by cell.

    Artillery with the ``artillery_parens`` flag prints its attack in parentheses
    (001_2c092b02feae28f3.txt §2.4.2); ``long_range`` puts '*' after the range
    (002: may fire beyond it at half strength).

    Examples
    --------
    >>> unit = UnitSpec(id="1", side="allied", type="infantry", attack=5, defence=4,
    ...                 movement=4, back_attack=3, back_defence=2, back_movement=4)
    >>> value_cells(unit, "attack-defence-movement"), value_cells(unit, "strength-movement")
    (['5', '4', '4'], ['?', '4'])
    >>> value_cells(unit, "attack-defence-movement", back=True)
    ['3', '2', '4']
    """
    cells = []
    for column in _VALUE_COLUMNS[layout]:
        text = format_value(getattr(unit, f"back_{column}" if back else column))
        if column == "attack" and unit.has("artillery_parens"):
            text = f"({text})"
        if column == "range" and unit.has("long_range"):
            text += "*"
        cells.append(text)
    return cells


def identifier(unit: UnitSpec) -> tuple[str, str]:
    """The unit's own designation and its parent formation, printed either side of the box.

    >>> identifier(UnitSpec(id="914/352", side="german", type="infantry"))
    ('914', '352')
    >>> identifier(UnitSpec(id="2 Rgr", side="allied", type="ranger"))
    ('2 Rgr', '')
    """
    if "/" in unit.id:
        own, parent = unit.id.split("/", 1)
        return own, parent
    return unit.id, unit.formation or ""


def marker_value(marker: MarkerSpec) -> str:
    """What a marker prints as its value: the value, '?' where one is due but not given.

    >>> marker_value(MarkerSpec(id="a", kind="support_fire")), marker_value(
    ...     MarkerSpec(id="b", kind="beachhead"))
    ('?', '')
    """
    if marker.value is not None:
        return marker.value
    return "?" if marker.kind in _NUMBERED_MARKERS else ""
