"""The vector back-end: a :class:`pipeline.counters.art.Face` drawn on a reportlab canvas.

The marks the raster back-end paints become PDF paths, filled rectangles and
text set in the embedded shipped fonts; SVG artwork becomes paths through
svglib; picture files are placed as images at full resolution. Every mark is
drawn in the face's own pixel coordinates under one transformation (a face
pixel is ``scale`` points, y down), so the PDF shows the very layout of the
PNG faces.

Symbols, size marks, icons and SVG artwork repeat across a sheet; each is
drawn once as a PDF form (an XObject) and placed wherever it recurs, which
keeps a sheet of hundreds of counters small and quick to print.

Pillow strokes an outline inside its bounding box; PDF strokes centre on the
path. Outlines are therefore drawn half a stroke inside their box, so a
circle or an oval covers the same pixels in both back-ends.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

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
from pipeline.counters.raster import fit, picture_size
from pipeline.counters.svg import drawing
from pipeline.counters.symbols import (
    ICONS,
    SIZE_MARKS,
    SUPERSAMPLE,
    SYMBOLS,
    Arc,
    Circle,
    Label,
    Oval,
    Polygon,
    Shape,
    Stroke,
)
from pipeline.counters.typeset import FontName, cap_height, fit_font, font
from pipeline.pdf import pdf_font

__all__ = ["Forms", "draw_face"]


@dataclass
class Forms:
    """The PDF forms a canvas holds, by what they draw (one per canvas)."""

    names: dict[tuple[object, ...], str] = field(default_factory=dict)

    def use(self, canvas: Canvas, key: tuple[object, ...], size: tuple[float, float],
            draw: object) -> None:
        """Place the form for ``key`` at the current origin, defining it first if new.

        ``draw(canvas)`` draws the form's content in its own coordinates,
        ``0..size[0]`` across and ``0..size[1]`` down (under the face's y-down
        transformation).
        """
        name = self.names.get(key)
        if name is None:
            name = "F" + hashlib.sha1(repr(key).encode()).hexdigest()[:12]
            self.names[key] = name
            canvas.beginForm(name, 0, 0, size[0], size[1])
            draw(canvas)  # type: ignore[operator]
            canvas.endForm()
        canvas.doForm(name)


def _fill(canvas: Canvas, colour: RGB) -> None:
    canvas.setFillColorRGB(colour[0] / 255, colour[1] / 255, colour[2] / 255)


def _stroke(canvas: Canvas, colour: RGB, width: float) -> None:
    canvas.setStrokeColorRGB(colour[0] / 255, colour[1] / 255, colour[2] / 255)
    canvas.setLineWidth(width)
    canvas.setLineCap(1)  # round, as the raster back-end caps strokes with discs
    canvas.setLineJoin(1)


def draw_face(canvas: Canvas, face: Face, x: float, y: float, scale: float,
              forms: Forms | None = None) -> None:
    """Draw ``face`` with its top-left corner at ``(x, y)`` points (PDF space, y up).

    Parameters
    ----------
    canvas
        Where to draw.
    face
        The face; one pixel becomes ``scale`` points.
    x, y
        The top-left corner of the face (bleed included) on the page.
    scale
        Points per face pixel.
    forms
        The canvas's forms (reused across faces); a new set if not given.
    """
    forms = forms if forms is not None else Forms()
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(scale, -scale)
    _fill(canvas, face.background)
    canvas.rect(0, 0, face.size, face.size, stroke=0, fill=1)
    for mark in face.marks:
        _draw(canvas, mark, forms)
    canvas.restoreState()


def _draw(canvas: Canvas, mark: Mark, forms: Forms) -> None:
    if isinstance(mark, Block):
        left, top, right, bottom = mark.rect
        if right > left and bottom > top:
            _fill(canvas, mark.colour)
            canvas.rect(left, top, right - left, bottom - top, stroke=0, fill=1)
    elif isinstance(mark, Words):
        _words(canvas, mark.text, mark.font, mark.px, mark.x, mark.y, mark.colour)
    elif isinstance(mark, Area):
        _fill(canvas, mark.colour)
        path = canvas.beginPath()
        # Pillow's point is a pixel's centre and it fills the pixels on the edge too.
        (x0, y0), *rest = [(x + 0.5, y + 0.5) for x, y in mark.points]
        path.moveTo(x0, y0)
        for px, py in rest:
            path.lineTo(px, py)
        path.close()
        canvas.drawPath(path, stroke=0, fill=1)
    elif isinstance(mark, TypeBox):
        _type_box(canvas, mark, forms)
    elif isinstance(mark, SizeMark):
        left, top, right, bottom = mark.rect
        w, h = right - left, bottom - top
        stroke = max(1, round(mark.stroke * SUPERSAMPLE * 1.2)) / SUPERSAMPLE
        _placed(canvas, forms, (left, top), ("size", mark.size, w, h, mark.stroke, mark.ink),
                (w, h), lambda c: _shapes(c, SIZE_MARKS[mark.size], 0, 0, w, h, stroke,
                                          mark.ink, centred=True))
    elif isinstance(mark, Icon):
        left, top, right, _ = mark.rect
        px = right - left
        stroke = max(1, round(mark.stroke * SUPERSAMPLE)) / SUPERSAMPLE
        _placed(canvas, forms, (left, top), ("icon", mark.icon, px, mark.stroke, mark.ink),
                (px, px), lambda c: _shapes(c, ICONS[mark.icon], 0, 0, px, px, stroke,
                                            mark.ink))
    else:
        _artwork(canvas, mark, forms)


def _placed(canvas: Canvas, forms: Forms, at: tuple[float, float], key: tuple[object, ...],
            size: tuple[float, float], draw: object) -> None:
    canvas.saveState()
    canvas.translate(*at)
    forms.use(canvas, key, size, draw)
    canvas.restoreState()


def _words(canvas: Canvas, text: str, name: FontName, px: int, x: float, y: float,
           colour: RGB, shrink: float = 1.0) -> None:
    """Text at ``x, y`` as Pillow sets ``font(name, px)``, scaled by ``1 / shrink``.

    Pillow kerns pairs such as 'Tr' and 'AV'; a PDF string is set without
    kerning. Where the two widths differ, each letter is placed where Pillow
    puts it, so the printed line is the PNG's line.
    """
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(1, -1)  # text upright in the y-down face
    _fill(canvas, colour)
    size = px / shrink
    pdf_name = pdf_font(name)
    canvas.setFont(pdf_name, size)
    face = font(name, px)
    if abs(face.getlength(text) - stringWidth(text, pdf_name, px)) < 0.05 or len(text) < 2:
        canvas.drawString(0, 0, text)
    else:
        line = canvas.beginText()
        line.setFont(pdf_name, size)
        for i, letter in enumerate(text):
            # Where Pillow ends this letter, less its own advance: kerning with the one before.
            start = face.getlength(text[:i + 1]) - face.getlength(letter)
            line.setTextOrigin(start / shrink, 0)
            line.textOut(letter)
        canvas.drawText(line)
    canvas.restoreState()


def _type_box(canvas: Canvas, box: TypeBox, forms: Forms) -> None:
    left, top, right, bottom = box.rect
    w, h, f = right - left, bottom - top, box.frame

    def draw(c: Canvas) -> None:
        if box.framed:
            _fill(c, box.ink)
            c.rect(0, 0, w, h, stroke=0, fill=1)
            _fill(c, box.fill)
            c.rect(f, f, w - 2 * f, h - 2 * f, stroke=0, fill=1)
        if isinstance(box.symbol, str):
            c.saveState()
            clip = c.beginPath()
            clip.rect(f, f, w - 2 * f, h - 2 * f)
            c.clipPath(clip, stroke=0, fill=0)  # strokes into the corners end at the frame
            stroke = max(1, round(f * SUPERSAMPLE * 0.9)) / SUPERSAMPLE
            _shapes(c, SYMBOLS[box.symbol], f, f, w - 2 * f, h - 2 * f, stroke, box.ink)
            c.restoreState()
        else:
            art = box.symbol
            shifted = Artwork((art.rect[0] - left, art.rect[1] - top, art.rect[2] - left,
                               art.rect[3] - top), art.kind, art.data, art.base, art.stretch)
            _artwork_here(c, shifted)

    symbol_key = box.symbol if isinstance(box.symbol, str) else _art_key(box.symbol)
    _placed(canvas, forms, (left, top), ("box", symbol_key, w, h, f, box.fill, box.ink,
                                         box.framed), (w, h), draw)


def _art_key(art: Artwork) -> tuple[object, ...]:
    data = art.data if isinstance(art.data, str) else hashlib.sha1(art.data).hexdigest()
    return (art.kind, data, art.base, art.rect[2] - art.rect[0], art.rect[3] - art.rect[1],
            art.stretch)


def _artwork(canvas: Canvas, art: Artwork, forms: Forms) -> None:
    left, top, right, bottom = art.rect
    local = Artwork((0, 0, right - left, bottom - top), art.kind, art.data, art.base,
                    art.stretch)
    _placed(canvas, forms, (left, top), ("art", *_art_key(art)), (right - left, bottom - top),
            lambda c: _artwork_here(c, local))


def _artwork_here(canvas: Canvas, art: Artwork) -> None:
    """Draw the artwork in the current (y-down) coordinates at ``art.rect``."""
    where: Rect = art.rect if art.stretch else fit(art.rect, picture_size(art))
    left, top, right, bottom = where
    canvas.saveState()
    canvas.translate(left, bottom)
    if art.kind == "svg":
        from reportlab.graphics import renderPDF  # loaded only when an SVG is printed

        assert isinstance(art.data, bytes)
        picture = drawing(art.data, art.base)
        canvas.scale((right - left) / picture.width, -(bottom - top) / picture.height)
        renderPDF.draw(picture, canvas, 0, 0)
    else:
        canvas.scale(1, -1)
        canvas.drawImage(str(art.data), 0, 0, right - left, bottom - top, mask="auto")
    canvas.restoreState()


def _shapes(canvas: Canvas, shapes: Sequence[Shape], x0: float, y0: float, width: float,
            height: float, stroke: float, ink: RGB, *, centred: bool = False) -> None:
    """The shapes of a symbol scaled to ``width`` x ``height`` at ``(x0, y0)``, as paths.

    The same geometry as :func:`pipeline.counters.symbols._draw_shapes`, at the
    final size instead of supersampled.
    """

    def at(p: tuple[float, float]) -> tuple[float, float]:
        if centred:
            return x0 + width / 2 + p[0] * height, y0 + p[1] * height
        return x0 + p[0] * width, y0 + p[1] * height

    _stroke(canvas, ink, stroke)
    _fill(canvas, ink)
    half = stroke / 2
    for shape in shapes:
        if isinstance(shape, Stroke):
            points = [at(p) for p in shape.points]
            path = canvas.beginPath()
            path.moveTo(*points[0])
            for p in points[1:]:
                path.lineTo(*p)
            if shape.closed:
                path.close()
            canvas.drawPath(path, stroke=1, fill=0)
        elif isinstance(shape, Oval):
            left, top = x0 + shape.left * width, y0 + shape.top * height
            right, bottom = x0 + shape.right * width, y0 + shape.bottom * height
            filled = int(shape.filled)
            if shape.ellipse:
                canvas.ellipse(left + half, top + half, right - half, bottom - half,
                               stroke=1, fill=filled)
            else:
                radius = (bottom - top) / 2 - half
                canvas.roundRect(left + half, top + half, right - left - stroke,
                                 bottom - top - stroke, radius, stroke=1, fill=filled)
        elif isinstance(shape, Circle):
            x, y = at(shape.centre)
            r = shape.radius * height
            if shape.filled:
                canvas.circle(x, y, r, stroke=0, fill=1)
            else:
                canvas.circle(x, y, r - half, stroke=1, fill=0)
        elif isinstance(shape, Arc):
            left, top = x0 + shape.left * width, y0 + shape.top * height
            right, bottom = x0 + shape.right * width, y0 + shape.bottom * height
            path = canvas.beginPath()
            # (types-reportlab says int; reportlab takes any number of degrees)
            path.arc(left + half, top + half, right - half, bottom - half,
                     shape.start, shape.end - shape.start)  # type: ignore[arg-type]
            canvas.drawPath(path, stroke=1, fill=0)
        elif isinstance(shape, Polygon):
            points = [at(p) for p in shape.points]
            path = canvas.beginPath()
            path.moveTo(*points[0])
            for p in points[1:]:
                path.lineTo(*p)
            path.close()
            canvas.drawPath(path, stroke=0, fill=1)
        else:
            _label(canvas, shape, at, width, height, ink)


def _label(canvas: Canvas, shape: Label, at: object, width: float, height: float,
           ink: RGB) -> None:
    """Letters placed as the raster back-end places them, at its supersampled sizes."""
    s = SUPERSAMPLE
    face = fit_font(shape.text, "bold", round(shape.height * height * s * 1.38), width * s * 0.9)
    cx, cy = at(shape.centre)  # type: ignore[operator]
    cap = cap_height("bold", face.size)
    x = round(cx * s - face.getlength(shape.text) / 2) / s
    y = round(cy * s + cap / 2) / s
    _words(canvas, shape.text, "bold", int(face.size), x, y, ink, shrink=s)
