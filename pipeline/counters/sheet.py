"""Printable counter sheets: a duplex PDF with fronts and backs that line up.

Pages alternate: fronts of sheet 1, backs of sheet 1, fronts of sheet 2, ...
so a duplex printer puts each backs page on the other side of its fronts
page. Counters sit on a grid centred on the paper, each at its exact physical
size with a bleed of face colour around it; the bleeds of neighbours touch, and
cut marks stand outside the grid's outer bleed, one at every cut line.

Where a back goes: print duplex and turn the sheet over on the same edge as
the printer flips it. Turned on the long edge (a portrait sheet turned like a
book page), a counter at ``x`` from the left edge shows its back at ``x`` from
the right edge; turned on the short edge, what was near the top is near the
bottom. So the backs page is the fronts page mirrored left-right (long) or
top-bottom (short), each back image upright. Printers rarely register both
sides exactly; ``back_offset`` shifts every back by a measured amount.

The page's TrimBox is the union of the counters on it, its BleedBox that plus
the bleed. Counters are vector art: the faces' marks (:mod:`pipeline.counters.art`)
drawn as PDF paths and text in the embedded fonts, so the print is sharp at
any size and any printer's resolution (faces given as images, e.g. drawn by
another program, are placed at exact size instead). The metadata names the
game (:class:`pipeline.pdf.DocumentInfo`).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from PIL import Image

from pipeline.counters.art import Face
from pipeline.counters.measure import (
    BLEEDS,
    COUNTER_SIZES,
    MARGINS,
    MAX_OFFSET,
    MM,
    PAPERS,
    check_length,
    format_length,
)
from pipeline.counters.render import (
    Counter,
    CounterArt,
    RenderOptions,
    check_icons,
    marker_art,
    resolve_options,
    unit_art,
)
from pipeline.counters.style import complete_sides
from pipeline.errors import DataError
from pipeline.files import write_bytes_atomic
from pipeline.model.documents import read_json
from pipeline.model.folder import GameFolder, companion_maps
from pipeline.model.manifest import MarkerManifest, MarkerSpec, UnitManifest, UnitSpec
from pipeline.progress import Told

if TYPE_CHECKING:  # reportlab loads when a PDF is drawn: `counters render` starts without it
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    from pipeline.pdf import DocumentInfo

__all__ = [
    "MAX_PAGES",
    "Placement",
    "SheetOptions",
    "SheetPlan",
    "plan_sheets",
    "sheet_info",
    "sheet_pdf",
    "write_sheet_pdf",
]

Duplex = Literal["long", "short"]


@dataclass(frozen=True)
class SheetOptions:
    """Paper, duplex and cutting settings. Lengths are in inches.

    Parameters
    ----------
    paper
        A key of :data:`pipeline.counters.measure.PAPERS` (``letter``, ``a4``), portrait.
    duplex
        The edge the sheet is turned on: ``long`` or ``short``.
    size
        The counter's side.
    bleed
        Face colour printed past each counter's cut line.
    back_offset
        ``(x, y)`` added to every back, x to the right and y down the backs page.
    margin
        Kept clear at every paper edge (printers do not print there); the cut
        marks are inside it.
    mark_length, mark_gap
        Cut marks: their length, and the space between them and the bleed.
    """

    paper: str = "letter"
    duplex: Duplex = "long"
    size: float = 0.625
    bleed: float = 3 * MM
    back_offset: tuple[float, float] = (0.0, 0.0)
    margin: float = 0.5
    mark_length: float = 4 * MM
    mark_gap: float = 1 * MM

    def __post_init__(self) -> None:
        check_length(self.size, "--size", COUNTER_SIZES)
        check_length(self.bleed, "--bleed", BLEEDS)
        check_length(self.margin, "--margin", MARGINS)
        for value in self.back_offset:
            check_length(value, "--back-offset", (-MAX_OFFSET, MAX_OFFSET))


@dataclass(frozen=True)
class Placement:
    """One counter face on one page: its cut square, in inches from the page's top left."""

    page: int
    face: Literal["front", "back"]
    index: int
    id: str
    x: float
    y: float
    size: float


@dataclass(frozen=True)
class SheetPlan:
    """Where every face goes: the page size, the grid and the placements."""

    width: float
    height: float
    columns: int
    rows: int
    pages: int
    placements: tuple[Placement, ...]

    def on_page(self, page: int) -> list[Placement]:
        """The placements of one page (0-based), in print order."""
        return [p for p in self.placements if p.page == page]


def _paper(name: str) -> tuple[float, float]:
    if name not in PAPERS:
        known = ", ".join(PAPERS)
        raise DataError(None, "--paper", f"unknown paper '{name}' (one of {known})")
    return PAPERS[name]


def _grid(count: int, options: SheetOptions) -> tuple[int, int]:
    """Columns and rows of counters a sheet holds; refuses a count needing over MAX_PAGES."""
    width, height = _paper(options.paper)
    pitch = options.size + 2 * options.bleed
    columns = int((width - 2 * options.margin) // pitch)
    rows = int((height - 2 * options.margin) // pitch)
    if columns < 1 or rows < 1:
        raise DataError(None, "--size", f"a {format_length(options.size)} counter with"
                        f" {format_length(options.bleed)} bleed does not fit on"
                        f" {options.paper} paper inside {format_length(options.margin)} margins")
    pages = 2 * max(1, -(-count // (columns * rows)))
    if pages > MAX_PAGES:
        raise DataError(None, "", f"{count:,} counters need {pages:,} pages, more than"
                        f" {MAX_PAGES}; print the manifests in parts")
    return columns, rows


def plan_sheets(count: int, options: SheetOptions, ids: Sequence[str] | None = None) -> SheetPlan:
    """Place ``count`` counters, fronts and backs, on as many duplex sheets as they need.

    Parameters
    ----------
    count
        How many counters (copies counted).
    options
        Paper and cutting settings.
    ids
        The counter of each position, for the placements' ``id`` (default: its index).

    Examples
    --------
    >>> plan = plan_sheets(3, SheetOptions(paper="letter", bleed=0.0, margin=0.5))
    >>> plan.columns, plan.rows, plan.pages
    (12, 16, 2)
    >>> front, back = plan.on_page(0)[0], plan.on_page(1)[0]
    >>> round(front.x + back.x + front.size, 9) == plan.width  # mirrored on the long edge
    True
    """
    width, height = _paper(options.paper)
    pitch = options.size + 2 * options.bleed
    columns, rows = _grid(count, options)
    left = (width - columns * pitch) / 2
    top = (height - rows * pitch) / 2
    per_page = columns * rows
    dx, dy = options.back_offset
    placements: list[Placement] = []
    for index in range(count):
        sheet, slot = divmod(index, per_page)
        row, column = divmod(slot, columns)
        x = left + column * pitch + options.bleed
        y = top + row * pitch + options.bleed
        name = ids[index] if ids is not None else str(index)
        placements.append(Placement(2 * sheet, "front", index, name, x, y, options.size))
        if options.duplex == "long":
            bx, by = width - x - options.size, y
        else:
            bx, by = x, height - y - options.size
        placements.append(Placement(2 * sheet + 1, "back", index, name, bx + dx, by + dy,
                                    options.size))
    sheets = max(1, -(-count // per_page))
    return SheetPlan(width, height, columns, rows, 2 * sheets, tuple(placements))


def _cut_marks(canvas: Canvas, placed: Sequence[Placement], height: float,
               options: SheetOptions) -> None:
    """Short lines continuing every cut line, outside the outer bleed of the grid."""
    xs = sorted({round(v, 9) for p in placed for v in (p.x, p.x + p.size)})
    ys = sorted({round(v, 9) for p in placed for v in (p.y, p.y + p.size)})
    left, right = xs[0] - options.bleed, xs[-1] + options.bleed
    top, bottom = ys[0] - options.bleed, ys[-1] + options.bleed
    near, far = options.mark_gap, options.mark_gap + options.mark_length
    lines: list[tuple[float, float, float, float]] = []
    for x in xs:
        lines += [(x, top - far, x, top - near), (x, bottom + near, x, bottom + far)]
    for y in ys:
        lines += [(left - far, y, left - near, y), (right + near, y, right + far, y)]
    canvas.setLineWidth(0.25)
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.lines([(x0 * 72, (height - y0) * 72, x1 * 72, (height - y1) * 72)
                  for x0, y0, x1, y1 in lines])


def _boxes(canvas: Canvas, placed: Sequence[Placement], height: float, bleed: float) -> None:
    left = min(p.x for p in placed)
    right = max(p.x + p.size for p in placed)
    top = min(p.y for p in placed)
    bottom = max(p.y + p.size for p in placed)
    trim = (left * 72, (height - bottom) * 72, right * 72, (height - top) * 72)
    canvas.setTrimBox(trim)
    canvas.setBleedBox((trim[0] - bleed * 72, trim[1] - bleed * 72,
                        trim[2] + bleed * 72, trim[3] + bleed * 72))


MAX_PAGES = 400
"""Pages a sheet PDF may have (200 duplex sheets: some 38,000 counters of 5/8 in on letter)."""


def sheet_pdf(counters: Sequence[Counter | CounterArt], options: SheetOptions, *,
              side_px: int, bleed_px: int, title: str = "",
              info: DocumentInfo | None = None) -> bytes:
    """The PDF of counter sheets as bytes (deterministic: same input, same bytes).

    Parameters
    ----------
    counters
        Laid-out faces (:class:`pipeline.counters.render.CounterArt`, drawn as
        vector art) or images (:class:`pipeline.counters.render.Counter`, placed
        as pictures), with ``bleed_px`` of bleed around ``side_px``; each is
        printed ``copies`` times.
    options
        Paper and cutting settings; ``options.size`` is the printed size of ``side_px``.
    side_px, bleed_px
        The counter's side and bleed in the faces, in pixels.
    title
        Printed in the top margin of every page.
    info
        The document's metadata (default: ``title``).
    """
    order = [c for c in counters for _ in range(c.copies)]
    return _pdf([c.id for c in order], lambda i: order[i], options, side_px, bleed_px, title,
                info=info)


def _pdf(ids: Sequence[str], face: Callable[[int], Counter | CounterArt], options: SheetOptions,
         side_px: int, bleed_px: int, title: str, release: Callable[[], None] = lambda: None,
         info: DocumentInfo | None = None) -> bytes:
    """The PDF of ``len(ids)`` counters, the ``i``-th drawn by ``face(i)``.

    Faces are asked for sheet by sheet (a front page, then its back page), and
    ``release`` is called after each sheet, so a caller can draw each counter
    when it is first needed and let it go after its sheet.
    """
    from pipeline.pdf import DocumentInfo, binary_images, new_canvas

    plan = plan_sheets(len(ids), options, ids)
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, (plan.width * 72, plan.height * 72),
                        info or DocumentInfo(title or "bocage counters"))
    # The cut square is exactly options.size; a pixel is therefore this many points.
    scale = options.size * 72 / side_px
    with binary_images():
        _draw_pages(canvas, plan, face, options, scale, bleed_px, title, release)
    return buffer.getvalue()


def _draw_pages(canvas: Canvas, plan: SheetPlan, face_of: Callable[[int], Counter | CounterArt],
                options: SheetOptions, scale: float, bleed_px: int, title: str,
                release: Callable[[], None]) -> None:
    from reportlab.lib.utils import ImageReader

    from pipeline.counters.vector import Forms, draw_face
    from pipeline.pdf import pdf_font

    readers: dict[int, ImageReader] = {}
    forms = Forms()  # symbols drawn once a document, placed on every counter that has them

    def reader(image: Image.Image) -> ImageReader:
        # One reader per image: reportlab then stores a repeated face once.
        return readers.setdefault(id(image), ImageReader(image))

    span = options.size * 72 + 2 * bleed_px * scale  # the image: cut square and bleed
    sheets = plan.pages // 2
    by_page: dict[int, list[Placement]] = {}
    for p in plan.placements:
        by_page.setdefault(p.page, []).append(p)
    for page in range(plan.pages):
        placed = by_page.get(page, [])
        face = "fronts" if page % 2 == 0 else "backs"
        turn = f"; turn on the {options.duplex} edge" if page % 2 else ""
        canvas.setFont(pdf_font("text"), 7)
        canvas.setFillColorRGB(0.3, 0.3, 0.3)
        canvas.drawString(0.5 * 72, plan.height * 72 - 0.3 * 72,
                          f"{title}  {face}, sheet {page // 2 + 1} of {sheets}{turn}".strip())
        for p in placed:
            counter = face_of(p.index)
            x_pt = p.x * 72 - bleed_px * scale
            y_pt = (plan.height - p.y - p.size) * 72 - bleed_px * scale
            if isinstance(counter, CounterArt):
                art = counter.front if p.face == "front" else counter.back
                draw_face(canvas, art, x_pt, y_pt + span, scale, forms)
            else:
                image = counter.front if p.face == "front" else counter.back
                canvas.drawImage(reader(image), x_pt, y_pt, width=span, height=span)
        if placed:
            _cut_marks(canvas, placed, plan.height, options)
            _boxes(canvas, placed, plan.height, options.bleed)
        canvas.showPage()
        if page % 2:
            # The sheet is done: its faces may go (reportlab keeps what it stored).
            readers.clear()
            release()
    canvas.save()


class _LazyFaces:
    """Counter ``i`` of the print order, drawn when first asked for, kept for its sheet."""

    def __init__(self, units: UnitManifest | None, markers: MarkerManifest | None,
                 options: RenderOptions) -> None:
        self.options = options
        self.folder = Path(units.file).parent if units is not None else Path(".")
        self.rows: list[UnitSpec | MarkerSpec] = [*(units or ()), *(markers or ())]
        self.order: list[int] = []  # print position -> row
        for row, spec in enumerate(self.rows):
            self.order += [row] * (spec.count or 1)
        self.drawn: dict[int, CounterArt] = {}

    def ids(self) -> list[str]:
        return [self.rows[row].id for row in self.order]

    def __call__(self, index: int) -> CounterArt:
        row = self.order[index]
        if row not in self.drawn:
            spec = self.rows[row]
            if isinstance(spec, MarkerSpec):
                face = marker_art(spec, self.options)
                self.drawn[row] = CounterArt(spec.id, "marker", face, face, spec.count or 1)
            else:
                front: Face = unit_art(spec, self.options, folder=self.folder)
                back = front if spec.steps == 1 else unit_art(spec, self.options, back=True,
                                                              folder=self.folder)
                self.drawn[row] = CounterArt(spec.id, "unit", front, back, spec.count or 1)
        return self.drawn[row]

    def release(self) -> None:
        self.drawn.clear()


def sheet_info(manifests: Sequence[str | Path], options: SheetOptions) -> DocumentInfo:
    """The metadata of a counter sheet: the game's title (from ``maps/<game>/map.json`` for
    manifests in ``counters/<game>``, else the manifests' names) and how it is printed.

    >>> sheet_info(["counters/demo/units.csv"], SheetOptions()).title[:17]
    'D-Day Omaha Beach'
    """
    from pipeline.pdf import DocumentInfo

    names = ", ".join(str(m) for m in manifests)
    game = ""
    for manifest in manifests:
        maps = companion_maps(Path(manifest).parent)
        if maps is not None:
            data = read_json(GameFolder(maps).map_file)
            title = data.get("title") if isinstance(data, dict) else None
            game = title if isinstance(title, str) else maps.name
            break
    subject = (f"counters from {names}: {format_length(options.size)} with"
               f" {format_length(options.bleed)} bleed, {options.paper} paper, duplex on the"
               f" {options.duplex} edge")
    if not game:
        return DocumentInfo(f"{names}: counter sheets", subject.capitalize())
    return DocumentInfo(f"{game}: counter sheets", f"Counter sheets for {game}, {subject}",
                        author=f"bocage, for {game}")


def write_sheet_pdf(units: UnitManifest | None, markers: MarkerManifest | None,
                    path: str | Path, options: SheetOptions,
                    render: RenderOptions | None = None, *, title: str = "",
                    info: DocumentInfo | None = None,
                    progress: Told | None = None) -> SheetPlan:
    """Render the manifests and write their counter sheets to ``path`` (atomically).

    Each counter is drawn when its sheet is laid out and let go after it, so
    the faces of a long manifest are never all in memory at once.

    Parameters
    ----------
    units, markers
        What to print (a marker is printed ``count`` times).
    path
        The PDF to write.
    options
        Paper and cutting settings; their ``size`` and ``bleed`` win over ``render``'s.
    render
        Style of the faces (and the resolution of their pixel grid, which the
        vector art is laid out on).
    title
        Printed at the top of every page.
    info
        The PDF's metadata (default: the title).
    progress
        Told ``(done, total, "sheet N")`` as each sheet (fronts and backs) is drawn.

    Returns
    -------
    SheetPlan
        Where each face went.
    """
    base = render or RenderOptions()
    style, _ = complete_sides(base.style, units, markers)  # warnings: see complete_sides
    faces = resolve_options(units, RenderOptions(options.size, base.dpi, options.bleed,
                                                 style, base.values))
    if markers is not None:
        check_icons(markers)
    copies = sum((s.count or 1) for s in [*(units or ()), *(markers or ())])
    _grid(copies, options)  # too many pages: refused before any list is made
    lazy = _LazyFaces(units, markers, faces)
    if not lazy.rows:
        names = ", ".join(m.file for m in (units, markers) if m is not None) or "the manifests"
        raise DataError(names, "", "nothing to print: no units or markers below the header")
    ids = lazy.ids()
    plan = plan_sheets(len(ids), options, ids)
    drawn = [0]

    def release() -> None:  # a sheet is done
        lazy.release()
        drawn[0] += 1
        if progress is not None:
            progress(drawn[0], plan.pages // 2, f"sheet {drawn[0]}")

    data = _pdf(ids, lazy, options, faces.side_px, faces.bleed_px, title, release, info)
    write_bytes_atomic(path, data)
    return plan
