"""Counter templates: an SVG drawn by the builder, its fields filled from the manifest.

A template is an SVG file whose page is one counter (its ``viewBox``, else its
width and height, is the cut square; anything drawn beyond it shows in the
bleed). It is the published counter's look, drawn in Inkscape or any editor;
bocage fills it for every row of the manifest, as the Inkscape countersheets
extension does, and draws the result into the PNG faces and the PDF sheets.

Fields are written ``{column}`` anywhere in the text or in an attribute:
``<text>{attack}-{defence}-{movement}</text>``, ``fill="{background}"``,
``<image href="{image}"/>``. A unit template knows every column of the units
manifest (:data:`pipeline.model.manifest.UNIT_COLUMNS`) and:

* ``own``, ``parent``: the designation either side of the type box (``914``,
  ``352``); ``values``: the bottom line (``5-4-4``); ``corner``: the set-up hex
  or arrival turn; ``face``: ``front`` or ``back``;
* ``background``, ``box``, ``ink``, ``text``, ``band``: the colours of the
  unit's side in the style.

Values the manifest leaves empty print ``?`` (``attack``, ..., ``strength``)
or nothing. On a unit's back (its reduced side) the value fields hold the
``back_*`` values, so one template serves both faces unless the style names a
``unit_back`` template. A marker template knows the marker columns and the
same colours. A field name that is none of these is refused, with its line::

    unit.svg: line 12: unknown field '{atack}' (did you mean '{attack}'?)

An element ``id="symbol"``, a ``<rect>`` placed without a transform, marks
where bocage draws the unit-type box (NATO symbol and frame); ``id="size"``
where it draws the size mark. Text is set in DejaVu Sans, regular or bold
(:mod:`pipeline.counters.svg`).
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from lxml import etree

from pipeline.counters.art import Rect
from pipeline.counters.layout import format_value, identifier, marker_value, value_cells
from pipeline.counters.style import Palette
from pipeline.counters.svg import parse_svg, svg_bytes, svg_size
from pipeline.errors import DataError, did_you_mean
from pipeline.model.manifest import MARKER_COLUMNS, UNIT_COLUMNS, MarkerSpec, UnitSpec

__all__ = [
    "MARKER_FIELDS",
    "UNIT_FIELDS",
    "Template",
    "fill",
    "load_template",
    "marker_fields",
    "unit_fields",
]

FIELD = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
_COLOURS = ("background", "box", "ink", "text", "band")
UNIT_FIELDS: frozenset[str] = frozenset(
    {*UNIT_COLUMNS, "own", "parent", "values", "corner", "face", *_COLOURS})
"""Every field a unit template may use."""
MARKER_FIELDS: frozenset[str] = frozenset({*MARKER_COLUMNS, *_COLOURS})
"""Every field a marker template may use."""
_VALUE_FIELDS = ("attack", "defence", "range", "movement", "strength")
_SVG = "{http://www.w3.org/2000/svg}"


@dataclass(frozen=True)
class Template:
    """A template read and checked: its SVG text and where its page and boxes are.

    ``page`` is ``(x, y, width, height)`` in the SVG's units; ``symbol`` and
    ``size`` the boxes for the type box and size mark in the same units.
    """

    path: str
    text: str
    page: tuple[float, float, float, float]
    fields: frozenset[str]
    symbol: tuple[float, float, float, float] | None = None
    size: tuple[float, float, float, float] | None = None

    def to_pixels(self, box: tuple[float, float, float, float], side: int, bleed: int) -> Rect:
        """A box of the template in pixels of a face ``side`` + 2 ``bleed`` wide."""
        x, y, w, h = self.page
        sx, sy = side / w, side / h
        return (bleed + round((box[0] - x) * sx), bleed + round((box[1] - y) * sy),
                bleed + round((box[0] + box[2] - x) * sx),
                bleed + round((box[1] + box[3] - y) * sy))

    def page_with_bleed(self, side: int, bleed: int) -> str:
        """The SVG text with its page grown by the bleed, drawn ``side + 2 bleed`` px."""
        x, y, w, h = self.page
        bx, by = bleed * w / side, bleed * h / side
        size = side + 2 * bleed
        return self.text.replace(
            "@@PAGE@@", f'viewBox="{x - bx:g} {y - by:g} {w + 2 * bx:g} {h + 2 * by:g}"'
            f' width="{size}" height="{size}" preserveAspectRatio="none"', 1)


def _box(node: etree._Element, path: str) -> tuple[float, float, float, float]:
    where = f"line {node.sourceline}"
    if etree.QName(node).localname != "rect":
        raise DataError(path, where, f"the element id=\"{node.get('id')}\" must be a <rect>"
                        " (the box bocage draws into)")
    for up in (node, *node.iterancestors()):
        if up.get("transform"):
            raise DataError(path, where, f"the <rect id=\"{node.get('id')}\"> is moved by a"
                            " transform; place it without one (Inkscape: ungroup, or apply"
                            " the transform)")
    try:
        return tuple(float(node.get(k, "0")) for k in ("x", "y", "width", "height"))  # type: ignore[return-value]
    except ValueError:
        raise DataError(path, where, "the <rect>'s x, y, width and height must be plain"
                        " numbers") from None


def _used_fields(root: etree._Element, path: str, known: frozenset[str]) -> frozenset[str]:
    used: set[str] = set()
    for node in root.iter():
        if not isinstance(node.tag, str):
            continue
        texts = [node.text or "", node.tail or "", *node.attrib.values()]
        for text in texts:
            for name in FIELD.findall(text):
                if name not in known:
                    hint = did_you_mean(name, sorted(known)).replace("'", "")
                    hint = re.sub(r"mean (\w+)", r"mean '{\1}'", hint)
                    raise DataError(path, f"line {node.sourceline}",
                                    f"unknown field '{{{name}}}'{hint or ' (fields are the'
                                    ' manifest columns, own, parent, values, corner, face and'
                                    ' the colours)'}")
                used.add(name)
    return frozenset(used)


@functools.lru_cache(maxsize=16)
def _load(path: str, kind: str, mtime: int, size: int) -> Template:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise DataError(path, "", f"cannot read template ({exc.strerror or exc})") from None
    root = parse_svg(data, path)
    fields = _used_fields(root, path, UNIT_FIELDS if kind == "unit" else MARKER_FIELDS)
    boxes: dict[str, tuple[float, float, float, float]] = {}
    for name in ("symbol", "size"):
        found = root.xpath(f"//*[@id='{name}']")
        if found:
            boxes[name] = _box(found[0], path)
            found[0].getparent().remove(found[0])  # the builder's placeholder is not printed
    width, height = svg_size(data)
    view = root.get("viewBox")
    x = y = 0.0
    if view:
        x, y = (float(v) for v in re.split(r"[\s,]+", view.strip())[:2])
    for attribute in ("viewBox", "width", "height", "preserveAspectRatio"):
        root.attrib.pop(attribute, None)
    root.set("data-page", "@@PAGE@@")
    text = svg_bytes(root).decode("utf-8").replace('data-page="@@PAGE@@"', "@@PAGE@@", 1)
    return Template(path, text, (x, y, width, height), fields, boxes.get("symbol"),
                    boxes.get("size"))


def load_template(path: str | Path, kind: str = "unit") -> Template:
    """Read and check a template (``kind``: ``unit`` or ``marker``), cached while unchanged.

    Raises
    ------
    DataError
        Naming the file and the line: not an SVG, an unknown field, a symbol
        box that is not a plain ``<rect>``.
    """
    try:
        info = os.stat(path)
    except OSError as exc:
        raise DataError(path, "", f"cannot read template ({exc.strerror or exc})") from None
    return _load(str(path), kind, info.st_mtime_ns, info.st_size)


def _colours(palette: Palette) -> dict[str, str]:
    return {"background": palette.background, "box": palette.box or palette.background,
            "ink": palette.ink, "text": palette.text, "band": palette.band}


def unit_fields(unit: UnitSpec, layout: str, palette: Palette, *, back: bool = False,
                folder: str | Path = ".") -> dict[str, str]:
    """What each field of a unit template says for ``unit`` (see the module docstring).

    Examples
    --------
    >>> from pipeline.counters.style import default_style
    >>> unit = UnitSpec(id="914/352", side="german", type="infantry", attack=5,
    ...                 back_attack=3)
    >>> palette = default_style().palette_for(unit)
    >>> fields = unit_fields(unit, "attack-defence-movement", palette)
    >>> fields["own"], fields["attack"], fields["values"], fields["background"]
    ('914', '5', '5-?-?', '#a9b2b7')
    >>> unit_fields(unit, "attack-defence-movement", palette, back=True)["attack"]
    '3'
    """
    dumped = unit.model_dump(by_alias=True)
    fields = {name: "" if dumped.get(name) is None else str(dumped[name])
              for name in UNIT_COLUMNS}
    fields["flags"] = ";".join(unit.flags)
    for name in _VALUE_FIELDS:
        fields[name] = format_value(getattr(unit, f"back_{name}" if back else name))
        fields[f"back_{name}"] = format_value(getattr(unit, f"back_{name}"))
    if unit.image is not None:
        fields["image"] = str(Path(folder, unit.image).resolve())
    own, parent = identifier(unit)
    corner = unit.setup_hex or (f"GT{unit.arrival_turn}" if unit.arrival_turn is not None
                                else "")
    fields.update(own=own, parent=parent, corner=corner, face="back" if back else "front",
                  values="-".join(value_cells(unit, layout, back=back)), **_colours(palette))
    return fields


def marker_fields(marker: MarkerSpec, palette: Palette) -> dict[str, str]:
    """What each field of a marker template says for ``marker``.

    >>> from pipeline.counters.style import default_style
    >>> spec = MarkerSpec(id="sf", kind="support_fire")
    >>> marker_fields(spec, default_style().markers)["value"]
    '?'
    """
    dumped = marker.model_dump()
    fields = {name: "" if dumped.get(name) is None else str(dumped[name])
              for name in MARKER_COLUMNS}
    fields["value"] = marker_value(marker)
    fields.update(_colours(palette))
    return fields


def fill(template: Template, fields: dict[str, str], side: int, bleed: int) -> bytes:
    """The template's SVG with every field replaced (XML-escaped), page grown by the bleed.

    >>> t = Template("t.svg", '<svg xmlns="http://www.w3.org/2000/svg" @@PAGE@@>'
    ...              '<text>{own} &amp; {parent}</text></svg>', (0, 0, 10, 10),
    ...              frozenset({"own", "parent"}))
    >>> fill(t, {"own": "A<B", "parent": "2"}, 10, 0).decode()[-40:]
    '"none"><text>A&lt;B &amp; 2</text></svg>'
    """
    text = FIELD.sub(lambda m: escape(fields.get(m.group(1), ""), {'"': "&quot;"}),
                     template.page_with_bleed(side, bleed))
    return text.encode("utf-8")
