"""Pages of play aids as drawing lists, printed twice: a PDF (reportlab) and a PNG (Pillow).

An aid is laid out once, in PostScript points from the top left of the page,
as a list of :class:`Text`, :class:`Rect`, :class:`Line` and :class:`Picture`
items; :func:`pages_pdf` and :func:`pages_png` draw the same list, so the PDF
for the table and the PNG for the module's chart window cannot differ. Text
is set in the DejaVu fonts shipped in ``pipeline/counters/fonts`` (registered
with reportlab and loaded by path in Pillow), never in system fonts.

>>> flow = Flow((612.0, 792.0))
>>> flow.heading("Terrain Effects Chart")
>>> [item.text for item in flow.pages[0].items if isinstance(item, Text)]
['Terrain Effects Chart']
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from PIL import Image, ImageDraw
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from pipeline.counters.measure import PAPERS
from pipeline.counters.typeset import FontName, font
from pipeline.errors import DataError
from pipeline.pdf import DocumentInfo, binary_images, new_canvas, pdf_font

__all__ = [
    "BLACK",
    "Cell",
    "Flow",
    "Line",
    "Page",
    "Picture",
    "Rect",
    "Text",
    "pages_pdf",
    "pages_png",
    "paper_points",
    "text_width",
    "wrap",
]

RGB = tuple[int, int, int]
Align = Literal["left", "centre", "right"]
BLACK: RGB = (0, 0, 0)
GRID: RGB = (90, 90, 90)


def text_width(text: str, size: float, face: FontName = "text") -> float:
    """Advance width of ``text`` in points (the PDF's metrics, which Pillow's match).

    >>> round(text_width("000", 10, "bold"), 1)
    20.9
    """
    return float(pdfmetrics.stringWidth(text, pdf_font(face), size))


def wrap(text: str, size: float, width: float, face: FontName = "text") -> list[str]:
    """Break ``text`` into lines at most ``width`` points wide (a long word stays whole).

    >>> wrap("all attacking units must retreat", 10, 80)
    ['all attacking', 'units must', 'retreat']
    """
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            trial = f"{line} {word}" if line else word
            if line and text_width(trial, size, face) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


def paper_points(paper: str, *, landscape: bool = False) -> tuple[float, float]:
    """Width and height of a paper in points; an unknown name raises :class:`DataError`.

    >>> paper_points("letter"), paper_points("letter", landscape=True)
    ((612.0, 792.0), (792.0, 612.0))
    """
    if paper not in PAPERS:
        raise DataError(None, "--paper", f"unknown paper '{paper}' (one of"
                        f" {', '.join(PAPERS)})")
    w, h = PAPERS[paper]
    size = (round(w * 72, 3), round(h * 72, 3))
    return (size[1], size[0]) if landscape else size


@dataclass(frozen=True)
class Text:
    """A line of text; ``y`` is its baseline, ``x`` its left, centre or right by ``align``."""

    x: float
    y: float
    text: str
    size: float
    face: FontName = "text"
    colour: RGB = BLACK
    align: Align = "left"


@dataclass(frozen=True)
class Rect:
    """A rectangle, filled and/or outlined."""

    x: float
    y: float
    w: float
    h: float
    fill: RGB | None = None
    stroke: RGB | None = None
    width: float = 0.5


@dataclass(frozen=True)
class Line:
    """A straight line."""

    x1: float
    y1: float
    x2: float
    y2: float
    colour: RGB = BLACK
    width: float = 0.5


@dataclass(frozen=True)
class Picture:
    """An image scaled into a box."""

    x: float
    y: float
    w: float
    h: float
    image: Image.Image


Item = Text | Rect | Line | Picture


@dataclass
class Page:
    """One page: its size in points and what is drawn on it, in order."""

    width: float
    height: float
    items: list[Item] = field(default_factory=list)

    def texts(self) -> list[str]:
        """The text items' strings, in drawing order."""
        return [item.text for item in self.items if isinstance(item, Text)]


@dataclass(frozen=True)
class Cell:
    """A table cell: its text (wrapped to the column), fill, face and alignment."""

    text: str = ""
    fill: RGB | None = None
    face: FontName = "text"
    align: Align = "centre"
    colour: RGB = BLACK


class Flow:
    """Blocks placed top to bottom, starting a new page when one does not fit.

    Parameters
    ----------
    size
        Page width and height in points.
    margin
        Blank border in points.
    title
        Printed small at the top of every page after the first (``"… (continued)"``).
    words
        Rewrites every text the flow lays out, before it is measured: citations as
        players read them (:meth:`pipeline.aids.cite.Rulebook.cite`).
    """

    def __init__(self, size: tuple[float, float], margin: float = 36.0, title: str = "",
                 words: Callable[[str], str] | None = None) -> None:
        self.size = size
        self.margin = margin
        self.words = words
        self.title = self.say(title)
        self.pages: list[Page] = []
        self.y = 0.0
        self._new_page()

    def say(self, text: str) -> str:
        """``text`` as the flow prints it (see ``words``)."""
        return self.words(text) if self.words is not None and text else text

    @property
    def width(self) -> float:
        """Width between the margins."""
        return self.size[0] - 2 * self.margin

    @property
    def page(self) -> Page:
        """The page being filled."""
        return self.pages[-1]

    def _new_page(self) -> None:
        self.pages.append(Page(*self.size))
        self.y = self.margin
        if len(self.pages) > 1 and self.title:
            self.page.items.append(Text(self.margin, self.y + 8, f"{self.title} (continued)", 8))
            self.y += 16

    def need(self, height: float) -> None:
        """Start a new page unless ``height`` points fit below the cursor."""
        if self.y + height > self.size[1] - self.margin and self.y > self.margin + 16:
            self._new_page()

    def space(self, height: float) -> None:
        """Leave ``height`` points blank."""
        self.y += height

    def heading(self, text: str, size: float = 16) -> None:
        """A heading in the bold face."""
        self.need(size * 2.2)
        self.page.items.append(Text(self.margin, self.y + size, self.say(text), size, "bold"))
        self.y += size * 1.5

    def paragraph(self, text: str, size: float = 8, indent: float = 0,
                  colour: RGB = BLACK, face: FontName = "text") -> None:
        """Wrapped text between the margins."""
        leading = size * 1.25
        for line in wrap(self.say(text), size, self.width - indent, face):
            self.need(leading)
            self.page.items.append(Text(self.margin + indent, self.y + size, line, size, face,
                                        colour))
            self.y += leading
        self.y += size * 0.4

    def table(self, widths: Sequence[float], rows: Sequence[Sequence[Cell]], *,
              header: int = 0, size: float = 9, pad: float = 3) -> list[tuple[int, Page,
                                                                             float, float]]:
        """A ruled table; ``header`` first rows repeat on each new page.

        Returns, for every row drawn, its index, page, top and height (for tests and
        for marks drawn over it).
        """
        leading = size * 1.2
        placed: list[tuple[int, Page, float, float]] = []
        rows = [[dataclasses.replace(cell, text=self.say(cell.text)) for cell in row]
                for row in rows]

        def measure(row: Sequence[Cell]) -> tuple[list[list[str]], float]:
            lines = [wrap(cell.text, size, w - 2 * pad, cell.face) if cell.text else []
                     for cell, w in zip(row, widths, strict=True)]
            return lines, max(1, *(len(x) for x in lines)) * leading + 2 * pad

        def draw(i: int, row: Sequence[Cell]) -> None:
            lines, height = measure(row)
            if i >= header:
                before = len(self.pages)
                self.need(height)
                if len(self.pages) != before:
                    for j in range(header):
                        draw(j, rows[j])
            x = self.margin
            top = self.y
            for cell, w, text in zip(row, widths, lines, strict=True):
                self.page.items.append(Rect(x, top, w, height, cell.fill, GRID, 0.5))
                for k, line in enumerate(text):
                    base = top + pad + size * 0.95 + k * leading
                    tx = {"left": x + pad, "centre": x + w / 2, "right": x + w - pad}[cell.align]
                    self.page.items.append(Text(tx, base, line, size, cell.face, cell.colour,
                                                cell.align))
                x += w
            placed.append((i, self.page, top, height))
            self.y += height

        for i, row in enumerate(rows):
            draw(i, row)
        self.y += size
        return placed


# -- printing ---------------------------------------------------------------------------


def _colour(rgb: RGB) -> tuple[float, float, float]:
    return rgb[0] / 255, rgb[1] / 255, rgb[2] / 255


def pages_pdf(pages: Sequence[Page], title: str | DocumentInfo) -> bytes:
    """The pages as a PDF (deterministic: same pages, same bytes), with ``title`` (or the
    whole :class:`pipeline.pdf.DocumentInfo`) as its metadata."""
    buffer = io.BytesIO()
    info = title if isinstance(title, DocumentInfo) else DocumentInfo(title)
    canvas = new_canvas(buffer, (pages[0].width, pages[0].height), info)
    with binary_images():
        for page in pages:
            canvas.setPageSize((page.width, page.height))
            _draw_pdf(canvas, page)
            canvas.showPage()
        canvas.save()
    return buffer.getvalue()


def _draw_pdf(canvas: Canvas, page: Page) -> None:
    h = page.height
    for item in page.items:
        if isinstance(item, Rect):
            if item.fill is not None:
                canvas.setFillColorRGB(*_colour(item.fill))
            if item.stroke is not None:
                canvas.setStrokeColorRGB(*_colour(item.stroke))
                canvas.setLineWidth(item.width)
            canvas.rect(item.x, h - item.y - item.h, item.w, item.h,
                        stroke=int(item.stroke is not None), fill=int(item.fill is not None))
        elif isinstance(item, Line):
            canvas.setStrokeColorRGB(*_colour(item.colour))
            canvas.setLineWidth(item.width)
            canvas.line(item.x1, h - item.y1, item.x2, h - item.y2)
        elif isinstance(item, Text):
            canvas.setFillColorRGB(*_colour(item.colour))
            canvas.setFont(pdf_font(item.face), item.size)
            if item.align == "left":
                canvas.drawString(item.x, h - item.y, item.text)
            elif item.align == "centre":
                canvas.drawCentredString(item.x, h - item.y, item.text)
            else:
                canvas.drawRightString(item.x, h - item.y, item.text)
        else:
            canvas.drawImage(ImageReader(item.image), item.x, h - item.y - item.h,
                             item.w, item.h)


def pages_png(pages: Sequence[Page], dpi: float = 100.0, gap: int = 8) -> Image.Image:
    """The pages drawn by Pillow at ``dpi``, stacked top to bottom with ``gap`` grey pixels
    between them (one image for a chart window)."""
    scale = dpi / 72
    images = [_draw_png(page, scale) for page in pages]
    width = max(im.width for im in images)
    height = sum(im.height for im in images) + gap * (len(images) - 1)
    out = Image.new("RGB", (width, height), (160, 160, 160))
    y = 0
    for im in images:
        out.paste(im, (0, y))
        y += im.height + gap
    return out


def _draw_png(page: Page, s: float) -> Image.Image:
    image = Image.new("RGB", (round(page.width * s), round(page.height * s)), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    for item in page.items:
        if isinstance(item, Rect):
            box = (round(item.x * s), round(item.y * s), round((item.x + item.w) * s) - 1,
                   round((item.y + item.h) * s) - 1)
            width = max(1, round(item.width * s)) if item.stroke is not None else 0
            draw.rectangle(box, fill=item.fill, outline=item.stroke, width=width)
        elif isinstance(item, Line):
            draw.line((item.x1 * s, item.y1 * s, item.x2 * s, item.y2 * s), fill=item.colour,
                      width=max(1, round(item.width * s)))
        elif isinstance(item, Text):
            anchor = {"left": "ls", "centre": "ms", "right": "rs"}[item.align]
            draw.text((item.x * s, item.y * s), item.text, fill=item.colour,
                      font=font(item.face, max(1, round(item.size * s))), anchor=anchor)
        else:
            at = (round(item.x * s), round(item.y * s))
            size = (round((item.x + item.w) * s) - at[0], round((item.y + item.h) * s) - at[1])
            image.paste(item.image.convert("RGB").resize(size, Image.Resampling.LANCZOS), at)
    return image
