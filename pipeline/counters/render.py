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

import contextlib
import functools
import math
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from PIL import Image

from pipeline.counters.art import (
    RGB,
    Area,
    Artwork,
    Block,
    Face,
    Icon,
    Mark,
    Rect,
    SizeMark,
    TypeBox,
    Words,
)
from pipeline.counters.contact import (
    CONTACT_PIXELS,
    ContactGrid,
    ContactPng,
    ContactSheet,
    caption,
    contact_sheet,
)
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
from pipeline.counters.raster import Painter, paint
from pipeline.counters.style import CounterStyle, Palette, complete_sides, default_style, rgb
from pipeline.counters.symbols import ICONS, KIND_ICONS
from pipeline.counters.typeset import (
    FontName,
    Typesetter,
    cap_height,
    centred_words,
    fit_font,
)
from pipeline.errors import DataError, ImageError, ManifestError, did_you_mean
from pipeline.files import StagedFolder, atomic_folder, write_bytes_atomic
from pipeline.model.manifest import MarkerManifest, MarkerSpec, UnitManifest, UnitSpec
from pipeline.pngwrite import DeflatedRows, PngRows, deflate_rows, png_bytes
from pipeline.progress import Told
from pipeline.workers import cores, map_chunks_in_processes

if TYPE_CHECKING:
    from pipeline.counters.template import Template

__all__ = [
    "CONTACT_PIXELS",
    "DPI_RANGE",
    "ContactSheet",
    "Counter",
    "CounterArt",
    "RenderOptions",
    "artwork",
    "check_icons",
    "contact_sheet",
    "draw_manifests",
    "iter_counters",
    "marker_art",
    "render_manifests",
    "render_marker",
    "render_unit",
    "resolve_options",
    "type_box",
    "unit_art",
    "write_bytes_atomic",
    "write_counters",
    "write_manifests",
]

DPI_RANGE: tuple[float, float] = (30, 2400)
"""Pixels per inch a counter image may have."""


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


def _hexagon(rect: tuple[int, int, int, int]) -> tuple[tuple[float, float], ...]:
    left, top, right, bottom = rect
    cx, cy, r = (left + right) / 2, (top + bottom) / 2, (bottom - top) / 2
    return tuple((cx + r * dx, cy + r * dy) for dx, dy in
                 ((-1, 0), (-0.5, -0.866), (0.5, -0.866), (1, 0), (0.5, 0.866), (-0.5, 0.866)))


def _corner_text(unit: UnitSpec) -> str:
    if unit.setup_hex:
        return unit.setup_hex
    if unit.arrival_turn is not None:
        return f"GT{unit.arrival_turn}"  # GT: game turn (000 §4.1)
    return ""


def unit_art(unit: UnitSpec, options: RenderOptions | None = None, *,
             back: bool = False, folder: str | Path = ".",
             typesetter: Typesetter | None = None) -> Face:
    """One face of a unit counter, laid out (see :mod:`pipeline.counters.art`).

    Parameters
    ----------
    unit
        The manifest row.
    options
        Size, resolution, bleed and style.
    back
        Lay out the reduced side (``back_*`` values and a band) instead of the front.
    folder
        Where the manifest is: the unit's ``image`` is found from there.
    typesetter
        Places the lines of text; one kept over many counters places each line once.

    Examples
    --------
    >>> unit = UnitSpec(id="9/2", side="allied", nationality="US", type="infantry",
    ...                 size="regiment", attack=5, defence=4, movement=4)
    >>> face = unit_art(unit)
    >>> face.size, [m.text for m in face.marks if hasattr(m, "text")]
    (188, ['9', '2', '5-4-4'])
    """
    opts = options or RenderOptions()
    setter = typesetter or Typesetter()
    style = opts.style
    lay = counter_layout(opts.side_px, opts.bleed_px)
    palette = style.palette_for(unit)
    values = resolve_value_layout(opts.values or style.values, [unit])
    reduced = back and unit.steps != 1
    ink, text = rgb(palette.ink), rgb(palette.text)
    template = style.templates.unit_back if reduced and style.templates.unit_back else (
        style.templates.unit)
    if template is not None:
        return _template_face(unit, _template(template, "unit"), opts, values, palette,
                              reduced, folder)
    marks: list[Mark] = []
    if reduced:
        marks.append(Block(lay.band, rgb(palette.band)))
    marks.append(type_box(unit, lay.box, lay.frame, rgb(palette.box or palette.background), ink,
                          style, folder))
    if unit.size is not None:
        marks.append(SizeMark(lay.size_mark, unit.size, lay.frame, ink))
    own, parent = identifier(unit)
    # Both sides of the box in one size: '914 [X] 352' reads as one designation.
    id_width = lay.id_left[2] - lay.id_left[0]
    id_face = min((fit_font(label, "condensed", lay.id_px, id_width) for label in (own, parent)
                   if label), key=lambda f: f.size, default=None)
    for label, rect in ((own, lay.id_left), (parent, lay.id_right)):
        if label and id_face is not None:
            marks.append(setter.centred_words(
                label, id_face, "condensed", ((rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2),
                text))
    corner = _corner_text(unit) if style.corner == "setup" else ""
    if corner:
        c = lay.corner
        face = fit_font(corner, "condensed", lay.corner_px, c[2] - c[0])
        baseline = round((c[1] + c[3]) / 2 + cap_height("condensed", face.size) / 2)
        marks.append(Words(corner, "condensed", int(face.size), c[0], baseline, text))
    if unit.has("no_zoc") or unit.has("hq"):
        marks.append(Area(_hexagon(lay.zoc), ink))  # black hexagon: no ZOC (000 §6.0)
    cells = value_cells(unit, values, back=reduced)
    mobile = unit.unit_class == "mobile" or unit.has("mobile")
    v = lay.values
    joined = "-".join(cells)
    face = fit_font(joined, "bold", lay.value_px, (v[2] - v[0]) * (0.86 if mobile else 1.0))
    marks += setter.line_of_cells(cells, face, "bold", v, text,
                                  boxed=len(cells) - 1 if mobile else None,
                                  box_fill=rgb(style.mobile), box_text=(255, 255, 255))
    return Face(lay.image_size, rgb(palette.background), tuple(marks))


def type_box(unit: UnitSpec, rect: Rect, frame: int, fill: RGB, ink: RGB,
             style: CounterStyle, folder: str | Path = ".") -> TypeBox:
    """The unit-type box: the unit's own image, the style's symbol file for its type, or
    bocage's symbol of the type (in that order of preference)."""
    inside = (rect[0] + frame, rect[1] + frame, rect[2] - frame, rect[3] - frame)
    if unit.image is not None:
        return TypeBox(rect, artwork(Path(folder) / unit.image, inside), frame, fill, ink)
    drawn = style.symbols.get(unit.type)
    if drawn is not None:
        whole = drawn.fit == "box"
        return TypeBox(rect, artwork(drawn.file, rect if whole else inside), frame, fill, ink,
                       framed=not whole)
    return TypeBox(rect, unit.type, frame, fill, ink)


def artwork(path: str | Path, rect: Rect, *, stretch: bool = False) -> Artwork:
    """A picture file (SVG, else a bitmap Pillow reads) to fit into ``rect``."""
    where = Path(path)
    if where.suffix.lower() == ".svg":
        return Artwork(rect, "svg", _svg_file(str(where), *_stamp(where)),
                       str(where.parent), stretch)
    return Artwork(rect, "bitmap", str(where), str(where.parent), stretch)


def _stamp(path: Path) -> tuple[int, int]:
    try:
        info = path.stat()
    except OSError as exc:
        raise ImageError(path, f"cannot read picture ({exc.strerror or exc})") from None
    return info.st_mtime_ns, info.st_size


@functools.lru_cache(maxsize=64)
def _svg_file(path: str, mtime: int, size: int) -> bytes:
    from pipeline.counters.svg import read_svg  # lxml: only for a style's SVG (see _template)

    return read_svg(path)


def _template(path: str, kind: Literal["unit", "marker"]) -> Template:
    # Templates and SVG files (lxml, and what xml.sax brings: urllib, http, ssl, email) are
    # loaded only for a style that has them: the built-in counters start without them.
    from pipeline.counters.template import load_template

    return load_template(path, kind)


def _template_face(unit: UnitSpec | MarkerSpec, template: Template, opts: RenderOptions,
                   values: str, palette: Palette, back: bool, folder: str | Path) -> Face:
    """A face drawn from a template: the filled SVG, then bocage's type box and size mark."""
    from pipeline.counters.template import fill, marker_fields, unit_fields

    side, bleed = opts.side_px, opts.bleed_px
    if isinstance(unit, UnitSpec):
        fields = unit_fields(unit, values, palette, back=back, folder=folder)
    else:
        fields = marker_fields(unit, palette)
    size = side + 2 * bleed
    marks: list[Mark] = [Artwork((0, 0, size, size), "svg", fill(template, fields, side, bleed),
                                 str(Path(template.path).parent), stretch=True)]
    ink = rgb(palette.ink)
    frame = max(1, round(side * 0.011))
    if isinstance(unit, UnitSpec) and template.symbol is not None:
        box = template.to_pixels(template.symbol, side, bleed)
        marks.append(type_box(unit, box, frame, rgb(palette.box or palette.background), ink,
                              opts.style, folder))
    if isinstance(unit, UnitSpec) and template.size is not None and unit.size is not None:
        marks.append(SizeMark(template.to_pixels(template.size, side, bleed), unit.size, frame,
                              ink))
    return Face(size, rgb(palette.background), tuple(marks))


def render_unit(unit: UnitSpec, options: RenderOptions | None = None, *,
                back: bool = False) -> Image.Image:
    """One face of a unit counter as an RGB image (:func:`unit_art`, painted).

    Examples
    --------
    >>> unit = UnitSpec(id="9/2", side="allied", nationality="US", type="infantry",
    ...                 size="regiment", attack=5, defence=4, movement=4)
    >>> render_unit(unit).size
    (188, 188)
    """
    return paint(unit_art(unit, options, back=back))


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


def marker_art(marker: MarkerSpec, options: RenderOptions | None = None) -> Face:
    """A marker counter's face (both of its faces are alike), laid out.

    >>> [m.text for m in marker_art(MarkerSpec(id="sf", kind="support_fire", value="+6")).marks
    ...  if hasattr(m, "text")]
    ['+6']
    """
    opts = options or RenderOptions()
    lay = marker_layout(opts.side_px, opts.bleed_px)
    palette: Palette = opts.style.palette_for(marker)
    if opts.style.templates.marker is not None:
        return _template_face(marker, _template(opts.style.templates.marker, "marker"),
                              opts, "", palette, False, ".")
    ink, text = rgb(palette.ink), rgb(palette.text)
    icon = marker.icon or KIND_ICONS.get(marker.kind)
    value = marker_value(marker)
    label = marker.label or ""
    marks: list[Mark] = []
    if icon is None and not value and label:
        slots = [(label, lay.centre, lay.big_px)]  # a bare title ('GT') fills the counter
    else:
        slots = [(label, lay.label, lay.label_px), (value, lay.value, lay.value_px)]
        if icon is not None:
            marks.append(Icon(lay.icon, icon, max(1, round(lay.side * 0.02)), ink))
        elif value:
            slots = [(label, lay.label, lay.label_px), (value, lay.centre, lay.big_px)]
    for words, rect, px in slots:
        if words:
            name: FontName = "bold" if rect is not lay.label else "condensed"
            face = fit_font(words, name, px, rect[2] - rect[0])
            marks.append(centred_words(words, face, name,
                                       ((rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2), text))
    return Face(lay.side + 2 * lay.bleed, rgb(palette.background), tuple(marks))


def render_marker(marker: MarkerSpec, options: RenderOptions | None = None) -> Image.Image:
    """A marker counter (both of its faces are alike) as an RGB image.

    Examples
    --------
    >>> render_marker(MarkerSpec(id="sf", kind="support_fire", side="allied", value="+6")).size
    (188, 188)
    """
    return paint(marker_art(marker, options))


def resolve_options(units: UnitManifest | None, options: RenderOptions | None
                    ) -> RenderOptions:
    """``options`` with the value layout a whole manifest of units prints (one for all)."""
    opts = options or RenderOptions()
    if units is not None:
        # One value layout for the whole manifest, so a unit with no values reads like its peers.
        values = resolve_value_layout(opts.values or opts.style.values, units)
        opts = RenderOptions(opts.size, opts.dpi, opts.bleed, opts.style, values)
    return opts


@dataclass(frozen=True)
class CounterArt:
    """One counter of a manifest laid out: both faces as marks, and its copies.

    ``back`` is ``front`` itself where both sides look alike (markers, one-step units).
    """

    id: str
    kind: Literal["unit", "marker"]
    front: Face
    back: Face
    copies: int = 1


def draw_manifests(units: UnitManifest | None, markers: MarkerManifest | None = None,
                   options: RenderOptions | None = None) -> list[CounterArt]:
    """Every unit's and marker's faces laid out, in file order (units first).

    Examples
    --------
    >>> from pipeline.model.manifest import units_from_text
    >>> art = draw_manifests(units_from_text("id,side,type,steps\\n1,a,infantry,1\\n"))
    >>> art[0].back is art[0].front
    True
    """
    opts = resolve_options(units, options)
    style, _ = complete_sides(opts.style, units, markers)  # warnings: see complete_sides
    opts = RenderOptions(opts.size, opts.dpi, opts.bleed, style, opts.values)
    folder = Path(units.file).parent if units is not None else Path(".")
    counters: list[CounterArt] = []
    setter = Typesetter()
    for unit in units or ():
        front = unit_art(unit, opts, folder=folder, typesetter=setter)
        back = front if unit.steps == 1 else unit_art(unit, opts, back=True, folder=folder,
                                                      typesetter=setter)
        counters.append(CounterArt(unit.id, "unit", front, back, unit.count or 1))
    if markers is not None:
        check_icons(markers)
        for marker in markers:
            face = marker_art(marker, opts)
            counters.append(CounterArt(marker.id, "marker", face, face, marker.count or 1))
    return counters


def iter_counters(units: UnitManifest | None, markers: MarkerManifest | None = None,
                  options: RenderOptions | None = None) -> Iterator[Counter]:
    """Both faces of every unit and marker, in file order (units first), one at a time.

    The markers' icons are checked before the first counter is drawn; a
    manifest of any length is drawn in the memory of one counter.
    """
    opts = resolve_options(units, options)
    style, _ = complete_sides(opts.style, units, markers)  # warnings: see complete_sides
    opts = RenderOptions(opts.size, opts.dpi, opts.bleed, style, opts.values)
    check_slugs([*(u.id for u in units or ()), *(m.id for m in markers or ())], "counters")
    if markers is not None:
        check_icons(markers)
    folder = Path(units.file).parent if units is not None else Path(".")
    painter, setter = Painter(), Typesetter()
    for unit in units or ():
        front = painter.paint(unit_art(unit, opts, folder=folder, typesetter=setter))
        back = front if unit.steps == 1 else painter.paint(unit_art(
            unit, opts, back=True, folder=folder, typesetter=setter))
        yield Counter(unit.id, "unit", front, back, unit.count or 1)
    for marker in markers or ():
        face = painter.paint(marker_art(marker, opts))
        yield Counter(marker.id, "marker", face, face, marker.count or 1)


def render_manifests(units: UnitManifest | None, markers: MarkerManifest | None = None,
                     options: RenderOptions | None = None) -> list[Counter]:
    """Both faces of every unit and marker, in file order (units first).

    Everything is drawn in memory; nothing is written (see :func:`write_counters`).
    """
    return list(iter_counters(units, markers, options))


def _png(image: Image.Image, dpi: float) -> bytes:
    return png_bytes(image, dpi=dpi)  # fast, flat art unfiltered (pipeline.pngwrite)


def _sheet_png(picture: Image.Image | ContactSheet, dpi: float) -> bytes:
    """The contact sheet as PNG, unfiltered at zlib level 1 as the faces are, compressed a
    band of rows at a time (never copied whole: it may be tens of megapixels)."""
    if isinstance(picture, ContactSheet):
        return picture.png(dpi)
    rows = PngRows(picture.width, picture.height, name="contact sheet")
    for top in range(0, picture.height, _SHEET_BAND):
        rows.add(picture.crop((0, top, picture.width, min(picture.height, top + _SHEET_BAND))))
    return rows.png(dpi=dpi)


_SHEET_BAND = 64
"""Rows of a contact sheet compressed at a time."""


class _Names:
    """Each counter's two file names, refusing two counters that would share them."""

    def __init__(self) -> None:
        self._ids: dict[str, str] = {}

    def take(self, counter_id: str) -> tuple[str, str]:
        front, back = counter_image_names(counter_id)
        if front in self._ids:
            if self._ids[front] == counter_id:
                raise DataError(None, "", f"counters: id '{counter_id}' is given twice (a"
                                " unit and a marker?); their images would be one file")
            check_slugs([self._ids[front], counter_id], "counters")  # names both
        self._ids[front] = counter_id
        return front, back


@dataclass(frozen=True)
class _SheetPlace:
    """Where the contact sheet goes: a name in the counters folder, or a file elsewhere."""

    inside: str | None = None
    outside: Path | None = None

    def owns(self, name: str) -> bool:
        """Whether a file of the folder is the renderer's (replaced as a set)."""
        return is_counter_file(name) or name == self.inside


def _sheet_place(out: Path, contact_path: str | Path | None) -> _SheetPlace:
    target = Path(contact_path) if contact_path else out / "contact-sheet.png"
    if os.path.realpath(target.parent) == os.path.realpath(out):
        return _SheetPlace(inside=target.name)
    return _SheetPlace(outside=target)


def write_counters(counters: Iterable[Counter], out_dir: str | Path, *,
                   dpi: float = 300.0,
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
    place = _sheet_place(out, contact_path) if contact is not None else _SheetPlace()
    names = _Names()
    files: list[Path] = []
    with atomic_folder(out, owns=place.owns) as folder:
        for counter in counters:
            front, back = names.take(counter.id)
            files.append(folder.write(front, _png(counter.front, dpi)))
            files.append(folder.write(back, _png(counter.back, dpi)))
            if isinstance(contact, ContactSheet):
                contact.add(counter)
        if contact is not None and place.inside is not None:
            files.append(folder.write(place.inside, _sheet_png(contact, dpi)))
    if contact is not None and place.outside is not None:
        write_bytes_atomic(place.outside, _sheet_png(contact, dpi))
        files.append(place.outside)
    return files


def _shown(image: Image.Image, side: int) -> Image.Image:
    if image.width == side:
        return image
    # Only ever smaller: a box filter averages each shown pixel's area, a quarter the cost
    # of Lanczos, and a contact sheet is for finding a counter, not for printing it.
    return image.resize((side, side), Image.Resampling.BOX)


_LEAST_RUN = 32
"""The fewest counters a worker is given at a time (but a whole row of the contact sheet)."""


def _runs(grid: ContactGrid, workers: int) -> list[int]:
    """How many counters each run a worker draws holds, in turn: whole rows of the contact
    sheet, each a quarter of what is left a worker, down to :data:`_LEAST_RUN`.

    A run is drawn with one store of rendered text (:class:`Painter`) and of placed
    lines (:class:`Typesetter`), so the more counters share them the fewer lines are
    drawn (formations and values recur); small runs at the end let the workers finish
    together. 2,021 counters on 2 workers: 512, 384, 288 ... 32, 5.

    >>> _runs(ContactGrid.of(2021, 188), 2)[:4], sum(_runs(ContactGrid.of(2021, 188), 2))
    ([512, 384, 288, 224], 2021)
    """
    row = grid.columns
    least = row * -(-_LEAST_RUN // row)
    runs, left = [], grid.count
    while left > 0:
        runs.append(min(left, max(least, -(-left // (2 * workers) // row) * row)))
        left -= runs[-1]
    return runs


@dataclass(frozen=True)
class _Drawing:
    """What a worker needs to draw counters: the options, the manifest's folder (its
    pictures are found from there), the folder being made and the contact sheet's grid."""

    options: RenderOptions
    folder: str
    staged: StagedFolder
    grid: ContactGrid


_Item = tuple[int, UnitSpec | MarkerSpec, str, str]
"""A counter to draw: its place in the manifests, its row and its two file names."""


def _faces(spec: UnitSpec | MarkerSpec, opts: RenderOptions, folder: str,
           setter: Typesetter) -> tuple[Face, Face | None]:
    """A counter's front and back laid out; no back where it repeats the front."""
    if isinstance(spec, UnitSpec):
        front = unit_art(spec, opts, folder=folder, typesetter=setter)
        return front, None if spec.steps == 1 else unit_art(spec, opts, back=True,
                                                            folder=folder, typesetter=setter)
    return marker_art(spec, opts), None


def _draw_chunk(drawing: _Drawing, chunk: Sequence[_Item]) -> list[DeflatedRows | None]:
    """Lay out, paint, encode and write a run of counters (in a worker).

    Their faces go straight into the folder being made. The run (see :func:`_runs`) is
    whole rows of the contact sheet: each row of cells is drawn and compressed here, and
    comes back with the last counter of the row (``None`` with the others).
    """
    painter, setter = Painter(), Typesetter()
    grid, dpi = drawing.grid, drawing.options.dpi
    made: list[DeflatedRows | None] = []
    cells: list[Image.Image] = []
    for n, spec, front_name, back_name in chunk:
        front_art, back_art = _faces(spec, drawing.options, drawing.folder, setter)
        front = painter.paint(front_art)
        back = front if back_art is None else painter.paint(back_art)
        data = _png(front, dpi)
        drawing.staged.write(front_name, data)
        drawing.staged.write(back_name, data if back is front else _png(back, dpi))
        shown = _shown(front, grid.side)
        cells.append(grid.draw_cell(n, shown, shown if back is front else _shown(back, grid.side),
                                    caption(spec.id, spec.count or 1)))
        row_done = (n + 1) % grid.columns == 0 or n + 1 == grid.count
        made.append(deflate_rows(grid.row(n + 1 - len(cells), cells)) if row_done else None)
        if row_done:
            cells = []
    return made


def write_manifests(units: UnitManifest | None, markers: MarkerManifest | None,
                    out_dir: str | Path, options: RenderOptions | None = None, *,
                    title: str = "", contact_path: str | Path | None = None,
                    jobs: int | None = None,
                    progress: Told | None = None) -> list[Path]:
    """Draw every counter of the manifests and write its faces and a contact sheet.

    The same files as :func:`iter_counters` then :func:`write_counters`, made on
    every core: the manifests are checked here, then each counter is laid out,
    painted, PNG-encoded and written by a worker process
    (:func:`pipeline.workers.map_chunks_in_processes`) into the temporary folder
    that replaces ``out_dir`` whole when every counter is there
    (:func:`pipeline.files.atomic_folder`). The workers also draw the contact
    sheet, a row of cells compressed at a time; this process joins the rows.

    Parameters
    ----------
    units, markers
        The manifests (either may be missing).
    out_dir
        The folder of ``<slug>-front.png`` / ``-back.png``.
    options
        Size, resolution and style.
    title
        Printed at the top of the contact sheet.
    contact_path
        The contact sheet (default ``out_dir/contact-sheet.png``).
    jobs
        Worker processes (default: every core; 1 draws here).
    progress
        Told ``(done, total, id)`` as each counter comes back drawn.

    Returns
    -------
    list of Path
        The files written, the contact sheet last.
    """
    opts = resolve_options(units, options)
    style, _ = complete_sides(opts.style, units, markers)  # warnings: see complete_sides
    opts = RenderOptions(opts.size, opts.dpi, opts.bleed, style, opts.values)
    specs: list[UnitSpec | MarkerSpec] = [*(units or ()), *(markers or ())]
    if markers is not None:
        check_icons(markers)
    check_slugs((spec.id for spec in specs), "counters")
    names = _Names()
    items: list[_Item] = [(n, spec, *names.take(spec.id)) for n, spec in enumerate(specs)]
    grid = ContactGrid.of(len(specs), opts.side_px + 2 * opts.bleed_px, title)
    sheet = ContactPng(grid, title)
    out = Path(out_dir)
    place = _sheet_place(out, contact_path)
    files: list[Path] = []
    with atomic_folder(out, owns=place.owns) as folder:
        drawing = _Drawing(opts, str(Path(units.file).parent) if units is not None else ".",
                           folder.staged, grid)
        rows = map_chunks_in_processes(functools.partial(_draw_chunk, drawing), items,
                                       jobs=jobs, chunk=_runs(grid, jobs or cores()))
        # Closed here on an error, so the pool's chunks in flight finish writing before
        # the temporary folder is removed.
        with contextlib.closing(rows):
            for (n, spec, front, back), row in zip(items, rows, strict=True):
                files += [folder.add(front), folder.add(back)]
                if row is not None:
                    sheet.add(row)
                if progress is not None:
                    progress(n + 1, len(items), spec.id)
        if place.inside is not None:
            files.append(folder.write(place.inside, sheet.png(opts.dpi)))
    if place.outside is not None:
        write_bytes_atomic(place.outside, sheet.png(opts.dpi))
        files.append(place.outside)
    return files
