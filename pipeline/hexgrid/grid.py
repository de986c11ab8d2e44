"""A map's hex grid: its hexes, their printed ids, neighbours and hexsides.

``HexGrid`` joins the three facts of a printed grid: its orientation, its
numbering and which hexes exist (``cols`` x ``rows`` less ``exclude``), plus,
when an image is involved, its pixel :class:`Layout`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple

from pipeline.errors import GridError
from pipeline.hexgrid.coords import (
    SCALE,
    Hex,
    Orientation,
    axial_to_offset,
    direction_names,
    direction_vectors,
    distance,
    line,
    offset_to_axial,
    scaled_center_qr,
    scaled_corners,
)
from pipeline.hexgrid.layout import Layout
from pipeline.hexgrid.numbering import STAGGERS, Numbering
from pipeline.hexgrid.sightline import SightLine, sight_line

if TYPE_CHECKING:
    import numpy as np
    from shapely.geometry import LineString, Polygon
    from shapely.geometry.base import BaseGeometry

__all__ = ["HexGrid", "Hexside"]

#: A hex counts as "in" a region when this share of its area lies inside it;
#: half hexes at a map edge count (001_2c092b02feae28f3.txt §10.1 note: playable).
HALF_HEX = 0.5
_AREA_TOLERANCE = 1e-6


class Hexside(NamedTuple):
    """One hexside, keyed by its two hexes in sorted order (``a < b``).

    Both hexes are lattice hexes; at a map edge one of them is off the map.
    """

    a: Hex
    b: Hex


@dataclass(frozen=True)
class HexGrid:
    """A printed hex grid.

    Parameters
    ----------
    orientation
        ``Orientation.FLAT`` (columns straight) or ``Orientation.POINTY``.
    numbering
        How ids are printed; its stagger word must suit the orientation.
    cols, rows
        How many columns and rows the map prints.
    exclude
        Printed ids inside ``cols`` x ``rows`` that the map does not have.
    layout
        Pixel geometry on a board image, when there is one.

    Examples
    --------
    >>> g = HexGrid(Orientation.FLAT, Numbering(stagger="even-down"), cols=6, rows=6)
    >>> [g.id(n) for n in g.neighbours(g.hex("0405"))]
    ['0404', '0505', '0506', '0406', '0306', '0305']
    """

    orientation: Orientation
    numbering: Numbering = field(default_factory=Numbering)
    cols: int = 1
    rows: int = 1
    exclude: frozenset[str] = frozenset()
    layout: Layout | None = None

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "orientation", Orientation(self.orientation))
        except ValueError:
            raise GridError(
                f"unknown orientation {self.orientation!r}: use 'flat' or 'pointy'"
            ) from None
        if self.numbering.stagger not in STAGGERS[self.orientation]:
            raise GridError(
                f"stagger {self.numbering.stagger!r} does not suit a {self.orientation.value}-top"
                f" grid: use one of {', '.join(STAGGERS[self.orientation])}"
            )
        if self.cols < 1 or self.rows < 1:
            raise GridError(f"a grid needs at least one column and row ({self.cols}x{self.rows})")
        # Every on-map id must be printable (raises GridError otherwise).
        self.numbering.format(*self.numbering.from_lattice(self.cols - 1, self.rows - 1))
        self.numbering.format(*self.numbering.from_lattice(0, 0))
        for hex_id in self.exclude:
            c, r = self.offset(self.hex(hex_id))
            if not (0 <= c < self.cols and 0 <= r < self.rows):
                raise GridError(f"excluded hex {hex_id!r} is outside {self.describe_extent()}")

    # -- ids ------------------------------------------------------------------------

    @cached_property
    def _shifted(self) -> int:
        return self.numbering.shifted_parity()

    def hex(self, hex_id: str) -> Hex:
        """The hex a printed id names (it may lie off the map)."""
        c, r = self.numbering.to_lattice(*self.numbering.parse(hex_id))
        return offset_to_axial(c, r, self.orientation, self._shifted)

    def id(self, h: Hex) -> str:
        """The printed id of a hex."""
        known = self._ids.get(h)
        if known is None:
            known = self._ids[h] = self.numbering.format(
                *self.numbering.from_lattice(*self.offset(h)))
        return known

    @cached_property
    def _ids(self) -> dict[Hex, str]:
        # Filled as asked: answers name the same hexes over and over.
        return {}

    def offset(self, h: Hex) -> tuple[int, int]:
        """0-based lattice ``(column, row)`` of a hex, top-left is ``(0, 0)``."""
        return axial_to_offset(h, self.orientation, self._shifted)

    def from_offset(self, col: int, row: int) -> Hex:
        """The hex at 0-based lattice ``(column, row)``."""
        return offset_to_axial(col, row, self.orientation, self._shifted)

    @cached_property
    def _on_map(self) -> frozenset[Hex]:
        excluded = {self.hex(i) for i in self.exclude}
        return frozenset(
            h
            for c in range(self.cols)
            for r in range(self.rows)
            if (h := self.from_offset(c, r)) not in excluded
        )

    def contains(self, h: Hex) -> bool:
        """Whether a hex is on the map."""
        return h in self._on_map

    def has_id(self, hex_id: str) -> bool:
        """Whether ``hex_id`` is well formed and names a hex on the map."""
        try:
            return self.contains(self.hex(hex_id))
        except GridError:
            return False

    def hexes(self) -> list[Hex]:
        """Every hex on the map, column by column (row by row for pointy-top)."""
        if self.orientation is Orientation.FLAT:
            return sorted(self._on_map, key=self.offset)
        return sorted(self._on_map, key=lambda h: self.offset(h)[::-1])

    def describe_extent(self) -> str:
        """The id range in words, for error messages."""
        first = self.id(self.from_offset(0, 0))
        last = self.id(self.from_offset(self.cols - 1, self.rows - 1))
        return f"{self.cols} columns x {self.rows} rows, {first} to {last}"

    # -- neighbours and distance ----------------------------------------------------

    @property
    def direction_names(self) -> tuple[str, ...]:
        """Direction names in the fixed clockwise order."""
        return direction_names(self.orientation)

    def direction_index(self, direction: int | str) -> int:
        """Index (0-5) of a direction given by index or name."""
        if isinstance(direction, int) and not isinstance(direction, bool) and 0 <= direction < 6:
            return direction
        if isinstance(direction, str) and direction.upper() in self.direction_names:
            return self.direction_names.index(direction.upper())
        raise GridError(
            f"unknown direction {direction!r}: use one of {', '.join(self.direction_names)}"
        )

    def neighbour(self, h: Hex, direction: int | str) -> Hex:
        """The lattice neighbour in one direction (it may lie off the map)."""
        dq, dr = direction_vectors(self.orientation)[self.direction_index(direction)]
        return Hex(h.q + dq, h.r + dr)

    def neighbours(self, h: Hex) -> list[Hex]:
        """The neighbours on the map, in the fixed direction order."""
        return list(self._adjacency.get(h, ())) if h in self._on_map else [
            n for n in self._lattice_neighbours(h) if n in self._on_map
        ]

    @property
    def adjacency(self) -> dict[Hex, tuple[Hex, ...]]:
        """Every on-map hex's on-map neighbours, in the fixed direction order."""
        return self._adjacency

    def _lattice_neighbours(self, h: Hex) -> list[Hex]:
        return [Hex(h.q + dq, h.r + dr) for dq, dr in direction_vectors(self.orientation)]

    @cached_property
    def _adjacency(self) -> dict[Hex, tuple[Hex, ...]]:
        # Built once per grid: the rules engine asks for neighbours millions of times.
        return {
            h: tuple(n for n in self._lattice_neighbours(h) if n in self._on_map)
            for h in self._on_map
        }

    def direction(self, a: Hex, b: Hex) -> int | None:
        """Direction index from ``a`` to an adjacent ``b``, or ``None``."""
        step = (b.q - a.q, b.r - a.r)
        vectors = direction_vectors(self.orientation)
        return vectors.index(step) if step in vectors else None

    def adjacent(self, a: Hex, b: Hex) -> bool:
        """Whether two hexes share a hexside."""
        return distance(a, b) == 1

    distance = staticmethod(distance)
    line = staticmethod(line)

    def sight_line(self, a: Hex, b: Hex) -> SightLine:
        """Every hex and hexside the straight line between two centres passes."""
        return sight_line(a, b, self.orientation)

    # -- hexsides -------------------------------------------------------------------

    def hexside(self, a: Hex, b: Hex) -> Hexside:
        """The key of the hexside between two adjacent hexes."""
        if not self.adjacent(a, b):
            raise GridError(f"{self._name(a)} and {self._name(b)} are not adjacent")
        return Hexside(*sorted((a, b)))

    def hexside_at(self, h: Hex, direction: int | str) -> Hexside:
        """The key of a hex's hexside in one direction."""
        return self.hexside(h, self.neighbour(h, direction))

    def hexsides_of(self, h: Hex) -> list[Hexside]:
        """A hex's six hexsides, in the fixed direction order."""
        return [self.hexside_at(h, d) for d in range(6)]

    def hexsides(self) -> list[Hexside]:
        """Every hexside that touches a hex on the map, each once, sorted."""
        return sorted({s for h in self._on_map for s in self.hexsides_of(h)})

    def hexside_id(self, side: Hexside) -> str:
        """Printed name: ``0303/0304``, or ``0101/N`` where one hex is off the map."""
        if not self.adjacent(side.a, side.b):
            raise GridError(f"{self._name(side.a)} and {self._name(side.b)} are not adjacent")
        a_on, b_on = self.contains(side.a), self.contains(side.b)
        if a_on and b_on:
            # Lower printed id first, so descending maps read naturally too.
            return "/".join(sorted((self.id(side.a), self.id(side.b))))
        inner, outer = (side.a, side.b) if a_on else (side.b, side.a)
        if not self.contains(inner):
            raise GridError(f"hexside {side} touches no hex on the map")
        d = self.direction(inner, outer)
        assert d is not None  # a Hexside only ever holds adjacent hexes
        return f"{self.id(inner)}/{self.direction_names[d]}"

    def parse_hexside(self, text: str) -> Hexside:
        """The hexside a name from :meth:`hexside_id` denotes."""
        first, sep, second = text.partition("/")
        if not sep:
            raise GridError(f"{text!r} is not a hexside: write 'HEX/HEX' or 'HEX/DIRECTION'")
        a = self.hex(first)
        if second.upper() in self.direction_names:
            return self.hexside_at(a, second)
        return self.hexside(a, self.hex(second))

    # -- geometry (needs a layout) --------------------------------------------------

    @property
    def _layout(self) -> Layout:
        if self.layout is None:
            raise GridError("this grid has no pixel layout (dx, dy, x0, y0)")
        return self.layout

    def center(self, h: Hex) -> tuple[float, float]:
        """Pixel centre of a hex."""
        return self._layout.center(h, self.orientation)

    def corners(self, h: Hex) -> list[tuple[float, float]]:
        """Pixel corners of a hex, clockwise on screen."""
        return self._layout.corners(h, self.orientation)

    def polygon(self, h: Hex) -> Polygon:
        """The hex as a Shapely polygon in pixel coordinates."""
        from shapely.geometry import Polygon

        return Polygon(self.corners(h))

    def polygons(self, hexes: Sequence[Hex]) -> np.ndarray:
        """Polygons of many hexes at once (a NumPy array of Shapely polygons)."""
        import numpy as np
        import shapely

        if not hexes:
            return np.empty(0, dtype=object)
        lay = self._layout
        # Integer corners, divided once, so neighbours share corners bit for bit.
        q = np.array([h.q for h in hexes], dtype=np.int64)
        r = np.array([h.r for h in hexes], dtype=np.int64)
        origin = scaled_corners(Hex(0, 0), self.orientation)
        offsets = np.array(origin, dtype=np.int64)
        centers = np.stack(scaled_center_qr(q, r, self.orientation), axis=-1)
        corners = centers[:, None, :] + offsets[None, :, :]
        su, sv = SCALE[self.orientation]
        cu = corners[:, :, 0] / su
        cv = corners[:, :, 1] / sv
        a, b, c, d = lay.matrix
        xs = lay.x0 + a * cu + b * cv
        ys = lay.y0 + c * cu + d * cv
        polys: np.ndarray = shapely.polygons(np.stack([xs, ys], axis=-1))
        return polys

    def hexside_endpoints(self, side: Hexside) -> tuple[tuple[float, float], tuple[float, float]]:
        """Pixel end points of a hexside (the two corners its hexes share)."""
        d = self.direction(side.a, side.b)
        if d is None:
            raise GridError(f"{self._name(side.a)} and {self._name(side.b)} are not adjacent")
        corners = self.corners(side.a)
        return corners[d - 1], corners[d]

    def hexside_line(self, side: Hexside) -> LineString:
        """A hexside as a Shapely line in pixel coordinates."""
        from shapely.geometry import LineString

        return LineString(self.hexside_endpoints(side))

    def hex_at(self, x: float, y: float) -> Hex:
        """The hex (on the lattice, maybe off the map) holding a pixel position."""
        if not (math.isfinite(x) and math.isfinite(y)):
            raise GridError(f"pixel position ({x}, {y}) is not a finite number")
        import numpy as np

        q, r = self._layout.hex_at(np.array([x], float), np.array([y], float), self.orientation)
        return Hex(int(q[0]), int(r[0]))

    def hexes_at(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Axial ``(q, r)`` arrays of the hexes holding many pixel positions."""
        import numpy as np

        return self._layout.hex_at(np.asarray(x, float), np.asarray(y, float), self.orientation)

    def coverage(self, hexes: Sequence[Hex], region: BaseGeometry) -> np.ndarray:
        """Share of each hex's area that lies inside ``region`` (0..1)."""
        import numpy as np
        import shapely

        polys = self.polygons(hexes)
        if len(polys) == 0:
            return np.empty(0)
        inside = shapely.area(shapely.intersection(polys, region))
        return np.asarray(inside / shapely.area(polys), dtype=float)

    def hexes_in(
        self,
        region: BaseGeometry | tuple[float, float, float, float],
        *,
        min_fraction: float = HALF_HEX,
        on_map_only: bool = False,
    ) -> list[Hex]:
        """Lattice hexes with at least ``min_fraction`` of their area in a region.

        ``region`` is a Shapely geometry or a rectangle ``(minx, miny, maxx, maxy)``
        in pixels. The default keeps half hexes at a map edge, which are
        playable (001_2c092b02feae28f3.txt §10.1 note).
        """
        if isinstance(region, tuple):
            import shapely

            region = shapely.box(*region)
        candidates = self._candidates(region.bounds)
        if on_map_only:
            candidates = [h for h in candidates if h in self._on_map]
        share = self.coverage(candidates, region)
        keep = (share > 0) & (share >= min_fraction - _AREA_TOLERANCE)
        return sorted(h for h, k in zip(candidates, keep, strict=True) if k)

    def partial_hexes(self, width: float, height: float) -> list[Hex]:
        """Hexes of the map that an image of ``width`` x ``height`` cuts (half hexes)."""
        import shapely

        hexes = self.hexes()
        share = self.coverage(hexes, shapely.box(0, 0, width, height))
        return [h for h, s in zip(hexes, share, strict=True) if _AREA_TOLERANCE < s < 1 - 1e-3]

    def _candidates(self, bounds: tuple[float, float, float, float]) -> list[Hex]:
        import numpy as np

        minx, miny, maxx, maxy = bounds
        xs = np.array([minx, maxx, minx, maxx], float)
        ys = np.array([miny, miny, maxy, maxy], float)
        q, r = self._layout.fractional_axial(xs, ys, self.orientation)
        s = -q - r
        # The axial box spanned by the corners covers the region; widen by one hex.
        q0, q1 = int(np.floor(q.min())) - 1, int(np.ceil(q.max())) + 1
        s0, s1 = int(np.floor(s.min())) - 1, int(np.ceil(s.max())) + 1
        r0, r1 = int(np.floor(r.min())) - 1, int(np.ceil(r.max())) + 1
        return [
            Hex(qq, rr)
            for qq in range(q0, q1 + 1)
            for rr in range(r0, r1 + 1)
            if s0 <= -qq - rr <= s1
        ]

    def _name(self, h: Hex) -> str:
        try:
            return self.id(h)
        except GridError:
            return f"lattice hex {tuple(h)}"

    def ids(self, hexes: Iterable[Hex]) -> list[str]:
        """Printed ids of several hexes."""
        return [self.id(h) for h in hexes]
