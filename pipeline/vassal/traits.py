"""What a piece's traits say: its name, images, properties and Layers, as VASSAL shows them.

A piece is its traits outermost first, the BasicPiece last (prototypes already
expanded: :func:`pipeline.vassal.read.expand_traits`; saved games hold them
expanded). :func:`view_piece` reads them the way VASSAL's decorators answer:

* the name: the BasicPiece's, then each active Layer (``emb2``) from the
  inside out applies its level name: ``+ text`` appends ``text`` (so
  ``+ (back)`` gives ``NAME (back)``), ``text +`` prepends, plain text replaces;
* the images: the BasicPiece's, then each active Layer's level image drawn
  over it with the Layer's offset (inside out);
* properties: every Marker (``mark;``), Dynamic Property (``PROP;``) and the
  BasicPiece's own state properties, plus ``<Layer>_Level`` for each Layer;
* where it is: the BasicPiece state's map, x and y (saved games).

>>> from pipeline.vassal.encoding import basic_piece, flip_layer, marker
>>> piece = view_piece([flip_layer("f.png", "b.png", level=2, level_names=("", "+ (back)")),
...                     marker("Side", "Allied"), basic_piece("f.png", "2 Rgr", 7)])
>>> piece.name, piece.properties["Side"], piece.layers[0].level, piece.gpid
('2 Rgr (back)', 'Allied', 2, '7')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pipeline.vassal.encoding import Trait, decode

__all__ = ["Layer", "PieceImage", "PieceView", "trait_images", "view_piece"]


@dataclass(frozen=True)
class Layer:
    """A Layer (``emb2;``): its name, level (1-based, as its state holds it) and levels.

    ``active`` is VASSAL's ``isActive``: a positive state, or always active.
    """

    name: str
    level: int
    active: bool
    images: tuple[str, ...]
    level_names: tuple[str, ...]
    offset: tuple[int, int] = (0, 0)

    @property
    def levels(self) -> int:
        """How many levels the Layer has."""
        return len(self.images)

    def image(self) -> str | None:
        """The image it shows now (``None``: inactive, or an empty level)."""
        if not self.active or not 1 <= self.level <= len(self.images):
            return None
        return self.images[self.level - 1] or None

    def rename(self, name: str) -> str:
        """The piece name through this Layer (``Embellishment.getName``)."""
        if not self.active or not 1 <= self.level <= len(self.level_names):
            return name
        text = self.level_names[self.level - 1]
        if not text:
            return name
        if text.startswith("+"):
            return name + text[1:]
        if text.endswith("+"):
            return text[:-1] + name
        return text


@dataclass(frozen=True)
class PieceImage:
    """One image of a piece as drawn, centred on the piece's point plus ``offset``."""

    image: str
    offset: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class PieceView:
    """A piece read from its traits (see the module docstring)."""

    basic_name: str
    name: str
    image: str
    images: tuple[PieceImage, ...]
    layers: tuple[Layer, ...]
    properties: dict[str, str] = field(default_factory=dict)
    trait_ids: tuple[str, ...] = ()
    map_id: str | None = None
    x: int | None = None
    y: int | None = None
    gpid: str | None = None
    moved: bool = False  # the Mark When Moved flag


def _layer(trait: Trait) -> Layer | None:
    fields = trait.fields
    if len(fields) < 16:
        return None
    try:
        value = int(decode(trait.state, ";")[0] or "1") if trait.state else 1
    except ValueError:
        value = 1
    if len(fields) > 25 and fields[24] == "1":
        always = fields[25] == "true"
    else:  # version 0: always active when there is no legacy activate key
        always = not fields[2]
    try:
        offset = (int(fields[13] or 0), int(fields[14] or 0))
    except ValueError:
        offset = (0, 0)
    images = tuple(decode(fields[15], ","))
    names = tuple(decode(fields[16], ",")) if len(fields) > 16 else ()
    return Layer(fields[18] if len(fields) > 18 else "", abs(value) or 1,
                 value > 0 or always, images, names, offset)


def _basic_state(state: str) -> tuple[str | None, int | None, int | None, str | None,
                                      dict[str, str]]:
    parts = decode(state, ";")
    map_id = parts[0] if parts and parts[0] != "null" else None

    def number(i: int) -> int | None:
        try:
            return int(parts[i]) if i < len(parts) else None
        except ValueError:
            return None

    gpid = parts[3] if len(parts) > 3 and parts[3] else None
    props: dict[str, str] = {}
    count = number(4) or 0
    for i in range(min(count, (len(parts) - 5) // 2)):
        props[parts[5 + 2 * i]] = parts[6 + 2 * i]
    return map_id, number(1), number(2), gpid, props


def view_piece(traits: Sequence[Trait]) -> PieceView:
    """Read a piece's traits, outermost first (see the module docstring)."""
    basic = next((t for t in reversed(traits) if t.id == "piece;"), None)
    basic_name = image = ""
    map_id = gpid = None
    x = y = None
    properties: dict[str, str] = {}
    if basic is not None:
        fields = basic.fields
        image = fields[2] if len(fields) > 2 else ""
        basic_name = fields[3] if len(fields) > 3 else ""
        map_id, x, y, gpid, properties = _basic_state(basic.state)
    layers: list[Layer] = []
    images = [PieceImage(image)] if image else []
    name = basic_name
    moved = False
    # Inside out, as the decorators wrap the BasicPiece: an outer trait's property wins.
    for trait in reversed(traits):
        if trait.id == "mark;":
            names = decode(trait.type[len("mark;"):], ",")
            values = decode(trait.state, ",")
            for i, key in enumerate(names):
                properties[key] = values[i] if i < len(values) else ""
        elif trait.id == "PROP;" and trait.fields:
            properties[trait.fields[0]] = trait.state
        elif trait.id == "markmoved;":
            moved = trait.state == "true"
        elif trait.id == "emb2;":
            layer = _layer(trait)
            if layer is None:
                continue
            layers.append(layer)
            name = layer.rename(name)
            shown = layer.image()
            if shown is not None:
                images.append(PieceImage(shown, layer.offset))
            if layer.name:
                properties[f"{layer.name}_Level"] = str(layer.level)
    return PieceView(basic_name, name, image, tuple(images), tuple(reversed(layers)),
                     properties, tuple(t.id for t in traits), map_id, x, y, gpid, moved)


def trait_images(trait: Trait) -> list[str]:
    """Image names a trait refers to (BasicPiece, Layer levels, Mark When Moved).

    >>> from pipeline.vassal.encoding import flip_layer
    >>> trait_images(flip_layer("f.png", "b.png"))
    ['f.png', 'b.png']
    """
    fields = trait.fields
    if trait.id == "piece;" and len(fields) >= 3:
        return [fields[2]] if fields[2] else []
    if trait.id == "emb2;" and len(fields) >= 16:
        return [i for i in decode(fields[15], ",") if i]
    if trait.id == "markmoved;" and fields:
        return [fields[0]] if fields[0] else []
    return []
