"""Counter images: the front and back of every unit and marker, and a contact sheet.

A counter is drawn at its final resolution on a face of its palette's colour:
the unit-type box and size mark come from :mod:`pipeline.counters.symbols`
(drawn once per kind and size, then pasted), text from the shipped fonts. With
a bleed, the face colour (and a reduced side's band) runs past the counter's
edge so a slightly-off cut shows no white.

The back of a unit is its reduced side: the ``back_*`` values, and a band
across the top so it is recognisable at a glance. A one-step unit
(``steps`` = 1) has no reduced side; its back repeats its front. A marker's
back repeats its front (the rulebooks give no other side for them).
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from PIL import Image, ImageDraw

from pipeline.counters.layout import (
    counter_layout,
    identifier,
    marker_layout,
    marker_value,
    resolve_value_layout,
    value_cells,
)
from pipeline.counters.measure import (
    BLEEDS,
    COUNTER_SIZES,
    MAX_FACE_PX,
    check_length,
    pixels,
)
from pipeline.counters.names import check_slugs, counter_image_names, is_counter_file
from pipeline.counters.style import CounterStyle, Palette, default_style, rgb
from pipeline.counters.symbols import (
    ICONS,
    KIND_ICONS,
    icon_image,
    size_mark_image,
    symbol_image,
)
from pipeline.counters.typeset import draw_centred, draw_line_of_cells, fit_font
from pipeline.errors import DataError, ManifestError, did_you_mean
from pipeline.files import atomic_folder, write_bytes_atomic
from pipeline.model.manifest import MarkerManifest, MarkerSpec, UnitManifest, UnitSpec

__all__ = [
    "CONTACT_PIXELS",
    "DPI_RANGE",
    "Counter",
    "ContactSheet",
    "RenderOptions",
    "check_icons",
    "contact_sheet",
    "iter_counters",
    "render_manifests",
    "render_marker",
    "render_unit",
    "resolve_options",
    "write_bytes_atomic",
    "write_counters",
]

DPI_RANGE: tuple[float, float] = (30, 2400)
"""Pixels per inch a counter image may have."""
CONTACT_PIXELS = 40_000_000
"""The most pixels a contact sheet has: a big manifest's faces are shown smaller."""


@dataclass(frozen=True)
class RenderOptions:
    """How big and in what style counters are drawn.

    Parameters
    ----------
    size
        The counter's side in inches (5/8 in by default).
    dpi
        Pixels per inch.
    bleed
        Extra face colour around the counter, in inches (0 for screen images).
    style
        Colours; the package default when not given.
    values
        A value layout (:data:`pipeline.counters.style.VALUE_LAYOUTS`); ``None``
        takes the style's.
    """

    size: float = 0.625
    dpi: float = 300.0
    bleed: float = 0.0
    style: CounterStyle = field(default_factory=default_style)
    values: str | None = None

    def __post_init__(self) -> None:
        # Bounded before anything is drawn: a slip ('--size 100000mm') must not
        # become an image that exhausts memory.
        check_length(self.size, "--size", COUNTER_SIZES)
        check_length(self.bleed, "--bleed", BLEEDS)
        if not DPI_RANGE[0] <= self.dpi <= DPI_RANGE[1]:
            raise DataError(None, "--dpi", f"{self.dpi:g} is out of range"
                            f" ({DPI_RANGE[0]:g} to {DPI_RANGE[1]:g})")
        face = self.side_px + 2 * self.bleed_px
        if face > MAX_FACE_PX:
            raise DataError(None, "--dpi", f"a face would be {face:,} px a side at {self.dpi:g}"
                            f" dpi, more than {MAX_FACE_PX:,}; use a lower --dpi")

    @property
    def side_px(self) -> int:
        """The counter's side in pixels."""
        return pixels(self.size, self.dpi)

    @property
    def bleed_px(self) -> int:
        """The bleed in whole pixels, rounded up so the image covers a PDF's BleedBox."""
        return math.ceil(self.bleed * self.dpi - 1e-6) if self.bleed > 0 else 0


@dataclass(frozen=True)
class Counter:
    """One counter of a manifest: both faces and how many copies the game has."""

    id: str
    kind: Literal["unit", "marker"]
    front: Image.Image
    back: Image.Image
    copies: int = 1


def _face(size: int, colour: str) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (size, size), rgb(colour))
    return image, ImageDraw.Draw(image)


def _hexagon(rect: tuple[int, int, int, int]) -> list[tuple[float, float]]:
    left, top, right, bottom = rect
    cx, cy, r = (left + right) / 2, (top + bottom) / 2, (bottom - top) / 2
    return [(cx + r * dx, cy + r * dy) for dx, dy in
            ((-1, 0), (-0.5, -0.866), (0.5, -0.866), (1, 0), (0.5, 0.866), (-0.5, 0.866))]


def _corner_text(unit: UnitSpec) -> str:
    if unit.setup_hex:
        return unit.setup_hex
    if unit.arrival_turn is not None:
        return f"GT{unit.arrival_turn}"  # GT: game turn (000 §4.1)
    return ""


def render_unit(unit: UnitSpec, options: RenderOptions | None = None, *,
                back: bool = False) -> Image.Image:
    """One face of a unit counter as an RGB image.

    Parameters
    ----------
    unit
        The manifest row.
    options
        Size, resolution, bleed and style.
    back
        Draw the reduced side (``back_*`` values and a band) instead of the front.

    Examples
    --------
    >>> unit = UnitSpec(id="9/2", side="allied", nationality="US", type="infantry",
    ...                 size="regiment", attack=5, defence=4, movement=4)
    >>> render_unit(unit).size
    (188, 188)
    """
    opts = options or RenderOptions()
    style = opts.style
    lay = counter_layout(opts.side_px, opts.bleed_px)
    palette = style.palette_for(unit)
    values = resolve_value_layout(opts.values or style.values, [unit])
    reduced = back and unit.steps != 1
    image, draw = _face(lay.image_size, palette.background)
    ink, text = rgb(palette.ink), rgb(palette.text)
    if reduced:
        draw.rectangle((lay.band[0], lay.band[1], lay.band[2] - 1, lay.band[3] - 1),
                       fill=rgb(palette.band))
    left, top, right, bottom = lay.box
    box = symbol_image(unit.type, right - left, bottom - top, lay.frame,
                       rgb(palette.box or palette.background), ink)
    image.paste(box, (left, top))
    if unit.size is not None:
        m_left, m_top, m_right, m_bottom = lay.size_mark
        mark = size_mark_image(unit.size, m_right - m_left, m_bottom - m_top, lay.frame, ink)
        image.paste(mark, (m_left, m_top), mark)
    own, parent = identifier(unit)
    # Both sides of the box in one size: '914 [X] 352' reads as one designation.
    id_width = lay.id_left[2] - lay.id_left[0]
    id_face = min((fit_font(label, "condensed", lay.id_px, id_width) for label in (own, parent)
                   if label), key=lambda f: f.size, default=None)
    for label, rect in ((own, lay.id_left), (parent, lay.id_right)):
        if label and id_face is not None:
            draw_centred(draw, label, id_face,
                         ((rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2), text)
    corner = _corner_text(unit) if style.corner == "setup" else ""
    if corner:
        c = lay.corner
        face = fit_font(corner, "condensed", lay.corner_px, c[2] - c[0])
        draw.text((c[0], round((c[1] + c[3]) / 2 + face.getbbox("H0", anchor="ls")[1] / -2)),
                  corner, font=face, fill=text, anchor="ls")
    if unit.has("no_zoc") or unit.has("hq"):
        draw.polygon(_hexagon(lay.zoc), fill=ink)  # black hexagon: no ZOC (000 §6.0)
    cells = value_cells(unit, values, back=reduced)
    mobile = unit.unit_class == "mobile" or unit.has("mobile")
    v = lay.values
    joined = "-".join(cells)
    face = fit_font(joined, "bold", lay.value_px, (v[2] - v[0]) * (0.86 if mobile else 1.0))
    draw_line_of_cells(draw, cells, face, v, text,
                       boxed=len(cells) - 1 if mobile else None,
                       box_fill=rgb(style.mobile), box_text=(255, 255, 255))
    return image


def check_icons(markers: MarkerManifest) -> None:
    """Fail on the first marker whose icon cannot be drawn, naming its CSV line.

    >>> from pipeline.model.manifest import markers_from_text
    >>> check_icons(markers_from_text("id,kind,icon\\nn,naval_points,shipp\\n", "m.csv"))
    Traceback (most recent call last):
    ...
    pipeline.errors.ManifestError: m.csv:2: unknown marker icon 'shipp' (did you mean 'ship'?)
    """
    for marker in markers:
        if marker.icon is not None and marker.icon not in ICONS:
            hint = did_you_mean(marker.icon, ICONS) or f" (one of {', '.join(ICONS)})"
            raise ManifestError(markers.file, markers.line_of(marker.id) or 0, "icon",
                                f"unknown marker icon '{marker.icon}'{hint}")


def render_marker(marker: MarkerSpec, options: RenderOptions | None = None) -> Image.Image:
    """A marker counter (both of its faces are alike) as an RGB image.

    Examples
    --------
    >>> render_marker(MarkerSpec(id="sf", kind="support_fire", side="allied", value="+6")).size
    (188, 188)
    """
    opts = options or RenderOptions()
    lay = marker_layout(opts.side_px, opts.bleed_px)
    palette: Palette = opts.style.palette_for(marker)
    image, draw = _face(lay.side + 2 * lay.bleed, palette.background)
    ink, text = rgb(palette.ink), rgb(palette.text)
    icon = marker.icon or KIND_ICONS.get(marker.kind)
    value = marker_value(marker)
    label = marker.label or ""
    if icon is None and not value and label:
        slots = [(label, lay.centre, lay.big_px)]  # a bare title ('GT') fills the counter
    else:
        slots = [(label, lay.label, lay.label_px), (value, lay.value, lay.value_px)]
        if icon is not None:
            i = lay.icon
            picture = icon_image(icon, i[2] - i[0], max(1, round(lay.side * 0.02)), ink)
            image.paste(picture, (i[0], i[1]), picture)
        elif value:
            slots = [(label, lay.label, lay.label_px), (value, lay.centre, lay.big_px)]
    for words, rect, px in slots:
        if words:
            face = fit_font(words, "bold" if rect is not lay.label else "condensed", px,
                            rect[2] - rect[0])
            draw_centred(draw, words, face, ((rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2),
                         text)
    return image


def resolve_options(units: UnitManifest | None, options: RenderOptions | None
                    ) -> RenderOptions:
    """``options`` with the value layout a whole manifest of units prints (one for all)."""
    opts = options or RenderOptions()
    if units is not None:
        # One value layout for the whole manifest, so a unit with no values reads like its peers.
        values = resolve_value_layout(opts.values or opts.style.values, units)
        opts = RenderOptions(opts.size, opts.dpi, opts.bleed, opts.style, values)
    return opts


def iter_counters(units: UnitManifest | None, markers: MarkerManifest | None = None,
                  options: RenderOptions | None = None) -> Iterator[Counter]:
    """Both faces of every unit and marker, in file order (units first), one at a time.

    The markers' icons are checked before the first counter is drawn; a
    manifest of any length is drawn in the memory of one counter.
    """
    opts = resolve_options(units, options)
    check_slugs([*(u.id for u in units or ()), *(m.id for m in markers or ())], "counters")
    if markers is not None:
        check_icons(markers)
    for unit in units or ():
        front = render_unit(unit, opts)
        back = front if unit.steps == 1 else render_unit(unit, opts, back=True)
        yield Counter(unit.id, "unit", front, back)
    for marker in markers or ():
        face = render_marker(marker, opts)
        yield Counter(marker.id, "marker", face, face, marker.count or 1)


def render_manifests(units: UnitManifest | None, markers: MarkerManifest | None = None,
                     options: RenderOptions | None = None) -> list[Counter]:
    """Both faces of every unit and marker, in file order (units first).

    Everything is drawn in memory; nothing is written (see :func:`write_counters`).
    """
    return list(iter_counters(units, markers, options))


class ContactSheet:
    """One image with every counter's front and back side by side, captioned by id.

    Counters are added one at a time (:meth:`add`), so a sheet is made without
    holding the counters. A big manifest gets more columns and smaller faces,
    so the sheet stays within :data:`CONTACT_PIXELS`.

    Parameters
    ----------
    count
        How many counters will be added.
    side
        Their side in pixels (bleed included).
    """

    def __init__(self, count: int, side: int, title: str = "", *, columns: int = 6,
                 background: str = "#e9e7e1") -> None:
        if count < 1:
            raise DataError(None, "", "nothing to show: the manifests have no rows")
        # Roughly square for many counters; each cell is about 2.6 faces wide, 1.4 high.
        self.columns = max(1, min(count, max(columns, math.ceil(math.sqrt(count / 2)))))
        rows = -(-count // self.columns)
        self.side = side
        while True:
            self.gap = max(4, self.side // 8)
            self.caption_px = max(10, self.side // 10)
            self.cell = (2 * self.side + self.gap // 2 + self.gap,
                         self.side + self.caption_px * 2 + self.gap)
            self.title_h = self.caption_px * 3 if title else self.gap
            size = (self.columns * self.cell[0] + self.gap, self.title_h + rows * self.cell[1])
            if size[0] * size[1] <= CONTACT_PIXELS or self.side <= 8:
                break
            self.side = max(8, int(self.side * 0.9))
        self.image = Image.new("RGB", size, rgb(background))
        self._draw = ImageDraw.Draw(self.image)
        self._added = 0
        if title:
            face = fit_font(title, "condensed", round(self.caption_px * 1.5),
                            self.image.width - 2 * self.gap)
            self._draw.text((self.gap, round(self.title_h * 0.7)), title, font=face,
                            fill=_CAPTION_INK, anchor="ls")

    def add(self, counter: Counter) -> None:
        """Place the next counter."""
        n = self._added
        self._added += 1
        x = self.gap + (n % self.columns) * self.cell[0]
        y = self.title_h + (n // self.columns) * self.cell[1]
        front, back = counter.front, counter.back
        if front.width != self.side:
            size = (self.side, self.side)
            front = front.resize(size, Image.Resampling.LANCZOS)
            back = front if counter.back is counter.front else back.resize(
                size, Image.Resampling.LANCZOS)
        self.image.paste(front, (x, y))
        self.image.paste(back, (x + self.side + self.gap // 2, y))
        caption = counter.id + (f"  x{counter.copies}" if counter.copies > 1 else "")
        face = fit_font(caption, "condensed", self.caption_px, 2 * self.side)
        draw_centred(self._draw, caption, face,
                     (x + self.side + self.gap / 4, y + self.side + self.caption_px),
                     _CAPTION_INK)


_CAPTION_INK = (40, 40, 40)


def contact_sheet(counters: Sequence[Counter], title: str = "", *, columns: int = 6,
                  background: str = "#e9e7e1") -> Image.Image:
    """One image with every counter's front and back side by side, captioned by id.

    See :class:`ContactSheet`, which makes it one counter at a time.
    """
    if not counters:
        raise DataError(None, "", "nothing to show: the manifests have no rows")
    sheet = ContactSheet(len(counters), counters[0].front.width, title, columns=columns,
                         background=background)
    for counter in counters:
        sheet.add(counter)
    return sheet.image


def _png(image: Image.Image, dpi: float) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", dpi=(dpi, dpi))
    return buffer.getvalue()


def write_counters(counters: Iterable[Counter], out_dir: str | Path, *, dpi: float = 300.0,
                   contact: Image.Image | ContactSheet | None = None,
                   contact_path: str | Path | None = None) -> list[Path]:
    """Write ``<slug>-front.png`` and ``<slug>-back.png`` per counter (and a contact sheet).

    Names follow :func:`pipeline.counters.names.counter_image_names`, the
    convention the VASSAL export reads.

    The folder is written whole or not at all (:func:`pipeline.files.atomic_folder`):
    the images go to a temporary folder that replaces ``out_dir`` when every
    counter is written, so a failure, a Ctrl-C or a killed run leaves the old
    set of faces or the new one, never a mix. Counter images of an earlier run
    are replaced as a set (faces of ids no longer in the manifest go); other
    files in the folder are kept. ``counters`` may be a generator
    (:func:`iter_counters`): each counter is encoded, written and let go. A
    :class:`ContactSheet` given as ``contact`` gets every counter as it passes
    and is written after them.

    Returns
    -------
    list of Path
        The files written, in order.
    """
    out = Path(out_dir)
    sheet_name: str | None = None
    outside: Path | None = None
    if contact is not None:
        target = Path(contact_path) if contact_path else out / "contact-sheet.png"
        if os.path.realpath(target.parent) == os.path.realpath(out):
            sheet_name = target.name
        else:
            outside = target
    files: list[Path] = []
    seen: dict[str, str] = {}

    def ours(name: str) -> bool:
        return is_counter_file(name) or name == sheet_name

    with atomic_folder(out, owns=ours) as folder:
        for counter in counters:
            front, back = counter_image_names(counter.id)
            if front in seen:
                if seen[front] == counter.id:
                    raise DataError(None, "", f"counters: id '{counter.id}' is given twice (a"
                                    " unit and a marker?); their images would be one file")
                check_slugs([seen[front], counter.id], "counters")  # names both
            seen[front] = counter.id
            files.append(folder.write(front, _png(counter.front, dpi)))
            files.append(folder.write(back, _png(counter.back, dpi)))
            if isinstance(contact, ContactSheet):
                contact.add(counter)
        picture = contact.image if isinstance(contact, ContactSheet) else contact
        if picture is not None and sheet_name is not None:
            files.append(folder.write(sheet_name, _png(picture, dpi)))
    if picture is not None and outside is not None:
        write_bytes_atomic(outside, _png(picture, dpi))
        files.append(outside)
    return files
