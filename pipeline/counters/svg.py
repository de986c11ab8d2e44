"""SVG pictures on counters: read safely, set in the shipped fonts, drawn by two back-ends.

A style's symbol file and a counter template (:mod:`pipeline.counters.template`)
are SVG documents a builder drew. They are read with lxml (no entities, no
network), and every ``font-family`` is set to DejaVu Sans, the shipped font,
so they look the same on every machine and in both back-ends: resvg
rasterises them for the PNG faces (:func:`rasterise`) and svglib turns them
into reportlab drawings, vector paths and embedded text, for the PDF
(:func:`drawing`). Regular and bold are kept; any other family is set in
DejaVu Sans of the same weight.

>>> data = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10"><rect width="20"'
>>> data += b' height="10" fill="#ff0000"/></svg>'
>>> svg_size(data)
(20.0, 10.0)
>>> rasterise(data, 4, 2).getpixel((1, 1))
(255, 0, 0, 255)
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lxml import etree
from PIL import Image

from pipeline.counters.typeset import FONT_DIR, FONTS
from pipeline.errors import DataError
from pipeline.pdf import PDF_FONTS

if TYPE_CHECKING:  # reportlab's graphics and svglib load only when an SVG is printed
    from reportlab.graphics.shapes import Drawing

__all__ = [
    "FAMILY",
    "drawing",
    "parse_svg",
    "rasterise",
    "read_svg",
    "svg_bytes",
    "svg_size",
]

FAMILY = "DejaVu Sans"
"""The one family SVG text is set in (regular and bold, shipped in ``fonts/``)."""

_SVG_NS = "http://www.w3.org/2000/svg"
_FAMILY_DECL = re.compile(r"(font-family\s*:\s*)([^;}]+)")
_FONT_SHORTHAND = re.compile(r"(?<![-\w])font\s*:[^;}]*")
_NUMBER = re.compile(r"\s*([0-9.]+)\s*(px|pt|mm|cm|in)?\s*$")
_UNIT_PX = {None: 1.0, "px": 1.0, "pt": 96 / 72, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96.0}


def _parser() -> etree.XMLParser:
    # A builder's file, but still: no entity expansion, no network, no huge trees.
    return etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False,
                           remove_comments=True)


def parse_svg(data: bytes, file: str | Path | None = None) -> Any:
    """The root element of an SVG document; a non-SVG raises :class:`DataError` naming ``file``.

    >>> parse_svg(b'<svg xmlns="http://www.w3.org/2000/svg"/>').tag
    '{http://www.w3.org/2000/svg}svg'
    """
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as exc:
        line = f"line {exc.lineno}: " if getattr(exc, "lineno", None) else ""
        raise DataError(file, "", f"{line}not a readable SVG file ({exc.msg})") from None
    if root.tag != f"{{{_SVG_NS}}}svg":
        tag = root.tag.decode() if isinstance(root.tag, bytes) else str(root.tag)
        raise DataError(file, "", f"not an SVG document: the root element is <{tag}>,"
                        " expected <svg> in the SVG namespace")
    return root


def _set_family(root: Any) -> None:
    """Every font family in the document becomes :data:`FAMILY` (attributes, style, CSS)."""
    for node in root.iter():
        if not isinstance(node.tag, str):
            continue
        if "font-family" in node.attrib:
            node.attrib["font-family"] = FAMILY
        style = node.attrib.get("style")
        if style is not None and "font" in style:
            # The shorthand 'font:' names a family too; replaced by the parts kept.
            style = _FONT_SHORTHAND.sub("", style)
            node.attrib["style"] = _FAMILY_DECL.sub(rf"\g<1>'{FAMILY}'", style)
        if node.tag == f"{{{_SVG_NS}}}style" and node.text:
            node.text = _FAMILY_DECL.sub(rf"\g<1>'{FAMILY}'", node.text)


def svg_bytes(root: Any) -> bytes:
    """A (possibly edited) SVG tree as the bytes both back-ends read, fonts set.

    >>> root = parse_svg(b'<svg xmlns="http://www.w3.org/2000/svg"><text font-family="Arial"'
    ...                  b'>1</text></svg>')
    >>> b'font-family="DejaVu Sans"' in svg_bytes(root)
    True
    """
    _set_family(root)
    return bytes(etree.tostring(root, encoding="utf-8", xml_declaration=False))


def read_svg(path: str | Path) -> bytes:
    """An SVG file as :func:`svg_bytes`; unreadable files raise one located line."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise DataError(path, "", f"cannot read file ({exc.strerror or exc})") from None
    return svg_bytes(parse_svg(data, path))


def _length(text: str | None) -> float | None:
    if text is None:
        return None
    match = _NUMBER.match(text)
    return float(match.group(1)) * _UNIT_PX[match.group(2)] if match else None


def svg_size(data: bytes) -> tuple[float, float]:
    """The picture's width and height in its own units (the viewBox, else width/height)."""
    root = parse_svg(data)
    box = root.attrib.get("viewBox")
    if box:
        parts = [float(v) for v in re.split(r"[\s,]+", box.strip())]
        if len(parts) == 4 and parts[2] > 0 and parts[3] > 0:
            return parts[2], parts[3]
    width, height = _length(root.attrib.get("width")), _length(root.attrib.get("height"))
    return (width or 100.0, height or 100.0)


@functools.lru_cache(maxsize=256)
def rasterise(data: bytes, width: int, height: int, base: str = "") -> Image.Image:
    """The SVG rendered by resvg at exactly ``width`` x ``height`` pixels (RGBA, cached).

    ``base`` is the folder relative ``href`` links (a template's images) are read from.
    """
    import resvg_py  # a compiled extension: loaded only when a counter has SVG artwork

    try:
        png = resvg_py.svg_to_bytes(
            svg_string=data.decode("utf-8"), width=max(1, width), height=max(1, height),
            skip_system_fonts=True, font_files=[str(FONT_DIR / FONTS[n]) for n in
                                                ("regular", "bold")],
            font_family=FAMILY, sans_serif_family=FAMILY, resources_dir=base or None)
    except ValueError as exc:
        raise DataError(None, "", f"the SVG cannot be drawn ({exc})") from None
    from pipeline.imagefile import open_image  # resvg's own PNG, read the one way

    picture = open_image(bytes(png), "the drawn SVG").convert("RGBA")
    if picture.size != (width, height):  # resvg keeps the aspect; the caller asked for this
        picture = picture.resize((width, height), Image.Resampling.LANCZOS)
    return picture


@functools.lru_cache(maxsize=1)
def _font_map() -> Any:
    from svglib.fonts import FontMap

    fonts = FontMap()
    # The shipped family for every weight and style svglib may ask for (no italics ship).
    for weight, name in (("normal", "regular"), ("bold", "bold")):
        for style in ("normal", "italic"):
            # The names every PDF of bocage uses: the file embeds each font once.
            fonts.register_font(FAMILY, str(FONT_DIR / FONTS[name]), weight=weight,
                                style=style, rlgFontName=PDF_FONTS[name])
    return fonts


@functools.lru_cache(maxsize=256)
def drawing(data: bytes, base: str = "") -> Drawing:
    """The SVG as a reportlab :class:`Drawing` (paths and text in the shipped fonts, cached).

    The drawing is in the SVG's units, y up as reportlab draws; see
    :mod:`pipeline.counters.vector` for where it is placed.
    """
    from svglib.svglib import SvgRenderer

    root = parse_svg(data)
    # svglib resolves relative links against the folder of the path it is given.
    where = str(Path(base) / "counter.svg") if base else ""
    result = SvgRenderer(where, font_map=_font_map()).render(root)
    if result is None:  # pragma: no cover - svglib returns a drawing for any <svg> root
        raise DataError(None, "", "the SVG cannot be drawn")
    return result
