"""VASSAL's text encodings: ``SequenceEncoder`` and piece definitions (AddPiece + traits).

Every piece definition a module holds (``PieceSlot`` and ``PrototypeDefinition``
text) is the serialized *AddPiece* command ``+/ID/TYPE/STATE``: TYPE and STATE
nest one entry per trait, outermost first, BasicPiece last, each level joined
by a TAB through VASSAL's ``SequenceEncoder`` (reference ``vassal-format.md``
§4). Hand-escaping these strings is the classic way to break a module, so
everything here goes through one faithful port of that class:
:func:`encode` / :class:`Decoder` behave exactly as
``VASSAL.tools.SequenceEncoder`` (3.5-3.7), quirks included.

>>> encode(["a;b", "", "'q'"], ";")
"a\\\\;b;;''q''"
>>> decode("a\\\\;b;;''q''", ";")
['a;b', '', "'q'"]
>>> p = PieceDefinition((marker("Attack", "6"), basic_piece("f.png", "4th Armd", 1)))
>>> p.encode()
'+/null/mark;Attack\\tpiece;;;f.png;4th Armd/6\\tnull;0;0;1;0'
>>> PieceDefinition.decode(p.encode()) == p
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pipeline.errors import ModuleError

__all__ = [
    "ADD_PIECE",
    "Decoder",
    "PieceDefinition",
    "Trait",
    "basic_piece",
    "decode",
    "delete_trait",
    "encode",
    "encode_exact",
    "flip_layer",
    "mark_moved",
    "marker",
    "named_key",
    "prototype",
    "report_state",
]

ADD_PIECE = "+/"
# VASSAL allocates named-key codes from the Unicode private use area upward and
# ignores the number on load; writing the same numbers keeps files tidy.
NAMED_KEY_BASE = 57344


# -- SequenceEncoder -------------------------------------------------------------------


def _escape(item: str, delimiter: str) -> str:
    return item.replace(delimiter, "\\" + delimiter)


def encode(items: Iterable[str | None], delimiter: str) -> str:
    """Join ``items`` with ``delimiter`` exactly as VASSAL's ``SequenceEncoder``.

    A delimiter inside an item is preceded by a backslash; an item that starts
    with a backslash, or starts and ends with ``'``, is wrapped in single quotes;
    an empty or ``None`` item contributes nothing. No items give ``""``.
    """
    if len(delimiter) != 1:
        raise ValueError(f"a delimiter is one character, got {delimiter!r}")
    parts = []
    for item in items:
        if not item:
            parts.append("")
        elif item[0] == "\\" or (item[0] == "'" and item[-1] == "'"):
            parts.append("'" + _escape(item, delimiter) + "'")
        else:
            parts.append(_escape(item, delimiter))
    return delimiter.join(parts)


class Decoder:
    """VASSAL's ``SequenceEncoder.Decoder``: tokens one at a time, with defaults.

    A delimiter preceded by a backslash is literal (that backslash is dropped),
    a trailing delimiter yields a final empty token, one enclosing pair of
    single quotes is removed.

    >>> d = Decoder("a,b", ",")
    >>> d.next(), d.next(), d.next("default"), d.has_more()
    ('a', 'b', 'default', False)
    """

    def __init__(self, value: str | None, delimiter: str) -> None:
        self._val = value
        self._delim = delimiter
        self._start = 0
        self._stop = len(value) if value is not None else 0

    def has_more(self) -> bool:
        """Whether another token is left (VASSAL's ``hasMoreTokens``)."""
        return self._val is not None

    def next(self, default: str | None = None) -> str:
        """The next token; ``default`` when none is left (``ValueError`` without one)."""
        val = self._val
        if val is None:
            if default is None:
                raise ValueError("no more tokens")
            return default
        if self._start == self._stop:
            self._val = None  # the token for "null" is the empty string
            return ""
        start, stop, delim = self._start, self._stop, self._delim
        buf: str | None = None
        tok: str | None = None
        i = start
        while True:
            # From delimiter to delimiter (str.find), not character by character: a
            # module's piece definitions are decoded at a few MB a second this way.
            i = val.find(delim, i, stop)
            if i < 0:
                i = stop
                break
            if i > 0 and val[i - 1] == "\\":
                # Escaped delimiter: drop the backslash, keep scanning.
                buf = (buf or "") + val[start:i - 1]
                start = i
                i += 1
                continue
            if not buf:
                tok = val[start:i]
            else:
                buf += val[start:i]
            start = i + 1
            break
        if start < i:  # reached the end without a real delimiter
            if not buf:
                tok = val[start:]
            else:
                buf += val[start:stop]
            self._val = None
        self._start = start
        text = tok if tok is not None else (buf or "")
        if len(text) > 1 and text[0] == "'" and text[-1] == "'":
            text = text[1:-1]
        return text

    def rest(self) -> list[str]:
        """Every token left."""
        out = []
        while self.has_more():
            out.append(self.next())
        return out


def decode(text: str, delimiter: str) -> list[str]:
    """Split ``text`` the way VASSAL's decoder does (inverse of :func:`encode`)."""
    return Decoder(text, delimiter).rest()


def encode_exact(items: Sequence[str], delimiter: str, what: str = "a field") -> str:
    """:func:`encode`, refusing items VASSAL could not read back unchanged.

    VASSAL cannot round-trip an item that is not last and ends with a backslash
    (the backslash escapes the next delimiter); this raises ``ModuleError`` naming
    ``what`` instead of writing a definition that decodes differently.
    """
    text = encode(items, delimiter)
    if items and not any("\\" in i or "'" in i for i in items if i):
        # Without backslashes and quotes the only escape is '\' before a delimiter, which the
        # decoder undoes: the text reads back unchanged (a test checks this at random).
        return text
    if decode(text, delimiter) != [i or "" for i in items]:
        raise ModuleError(None, f"{what} {list(items)!r} cannot be written so that VASSAL reads"
                          " it back unchanged (a value ends with a backslash?)")
    return text


# -- traits and piece definitions ----------------------------------------------------------


@dataclass(frozen=True)
class Trait:
    """One trait of a piece: its type string (``mark;Attack``) and state string (``6``).

    ``id`` is the text up to and including the first ``;`` (VASSAL dispatches on
    it). Most traits encode their type fields with ``;`` (:attr:`fields`); a few
    (``mark;``) have their own sub-encoding, which the typed builders know.
    """

    type: str
    state: str = ""

    @property
    def id(self) -> str:
        """The trait id, ``piece;``, ``emb2;``, ``mark;`` ..."""
        cut = self.type.find(";")
        return self.type if cut < 0 else self.type[: cut + 1]

    @property
    def fields(self) -> list[str]:
        """The type fields after the id, decoded with ``;``."""
        return decode(self.type, ";")[1:]

    @classmethod
    def of(cls, trait_id: str, fields: Sequence[str], state: str = "") -> Trait:
        """A trait whose type is ``trait_id`` + ``fields`` encoded with ``;``."""
        if not trait_id.endswith(";"):
            raise ValueError(f"a trait id ends with ';', got {trait_id!r}")
        body = encode_exact(list(fields), ";", f"the fields of trait {trait_id!r}")
        return cls(trait_id + body, state)


def _nest(entries: Sequence[str], what: str) -> str:
    text = entries[-1]
    for entry in reversed(entries[:-1]):
        text = encode_exact([entry, text], "\t", what)
    return text


def _unnest(text: str, what: str) -> list[str]:
    out = []
    while True:
        d = Decoder(text, "\t")
        out.append(d.next(""))
        if not d.has_more():
            return out
        text = d.next()
        if d.has_more():
            raise ModuleError(None, f"{what}: more than two TAB-separated parts at one level")


@dataclass(frozen=True)
class PieceDefinition:
    """A piece definition: traits outermost first, the BasicPiece (``piece;``) last.

    Parameters
    ----------
    traits
        Outermost first; the editor shows them in the opposite order.
    id
        The AddPiece id; ``"null"`` in module definitions.
    """

    traits: tuple[Trait, ...]
    id: str = "null"

    def __post_init__(self) -> None:
        if not self.traits:
            raise ValueError("a piece definition needs at least its BasicPiece")

    def encode(self) -> str:
        """The text VASSAL stores in a ``PieceSlot`` / ``PrototypeDefinition``."""
        types = _nest([t.type for t in self.traits], "piece type")
        states = _nest([t.state for t in self.traits], "piece state")
        return ADD_PIECE + encode_exact([self.id, types, states], "/", "piece definition")

    @staticmethod
    def split(text: str) -> tuple[str, list[str], list[str]]:
        """``(id, types, states)`` of a definition, outermost first; counts may differ.

        Raises
        ------
        ModuleError
            The text is not an AddPiece command.
        """
        if not text.startswith(ADD_PIECE):
            raise ModuleError(None, f"a piece definition starts with '+/', got {text[:20]!r}")
        d = Decoder(text[len(ADD_PIECE):], "/")
        try:
            piece_id, types, states = d.next(), d.next(), d.next()
        except ValueError:
            raise ModuleError(None, "a piece definition needs +/ID/TYPE/STATE") from None
        if d.has_more():
            raise ModuleError(None, "a piece definition has more than +/ID/TYPE/STATE")
        return piece_id, _unnest(types, "piece type"), _unnest(states, "piece state")

    @classmethod
    def decode(cls, text: str) -> PieceDefinition:
        """Parse definition text; :class:`ModuleError` when TYPE and STATE disagree."""
        piece_id, types, states = cls.split(text)
        if len(types) != len(states):
            raise ModuleError(None, f"piece definition has {len(types)} trait types but"
                              f" {len(states)} states (they must match one for one)")
        return cls(tuple(Trait(t, s) for t, s in zip(types, states, strict=True)), piece_id)


# -- trait builders ---------------------------------------------------------------------


def named_key(name: str, index: int = 0) -> str:
    """A named key command, ``57344,0,Flip`` (the numbers are ignored on load)."""
    return f"{NAMED_KEY_BASE + index},0,{name}"


def basic_piece(image: str, name: str, gpid: int | str = "") -> Trait:
    """The BasicPiece (``piece;``): image, name, and the palette slot's gpid in its state.

    A prototype's BasicPiece is ``basic_piece("", "")`` (``piece;;;;``).
    """
    state = encode([ "null", "0", "0", str(gpid), "0"], ";")
    return Trait.of("piece;", ["", "", image, name], state)


def marker(name: str, value: str) -> Trait:
    """A Marker (static property) ``mark;NAME`` with its value in the state."""
    return Trait("mark;" + encode_exact([name], ",", "marker name"),
                 encode_exact([value], ",", f"marker {name!r} value"))


def prototype(name: str) -> Trait:
    """``prototype;NAME``: the traits of the module's prototype of that name."""
    return Trait.of("prototype;", [name])


def flip_layer(
    front: str,
    back: str,
    *,
    layer: str = "Step",
    menu: str = "Flip",
    key: str = named_key("Flip"),
    level_names: tuple[str, str] = ("", "+ (reduced)"),
    level: int = 1,
) -> Trait:
    """A two-image Layer (``emb2;`` version 1, always active), flipped by a named key.

    Level 1 shows ``front``, level 2 ``back``; the increase command ``menu``
    loops between them. ``level`` is the starting side. Field order: reference
    §4.3 (33 fields; VASSAL 3.6 reads the first 31).
    """
    images = encode_exact([front, back], ",", "layer images")
    names = encode_exact(list(level_names), ",", "layer level names")
    fields = [
        "", "128", "A",            # activate: menu, legacy modifiers, legacy key
        menu, "128", "",           # increase: menu, legacy modifiers, legacy key
        "", "128", "",             # decrease
        "", "", "1",               # reset: menu, key, level
        "false", "0", "0",         # draw underneath when selected, x/y offset
        images, names, "true",     # level images, level names, loop
        layer, "", "",             # layer name, random key, random menu
        "false", "", "1",          # follow property, expression, first level value
        "1", "true", "",           # version, always active, activate key
        key, "", "",               # increase key, decrease key, description
        "1.0", "", "true",         # scale, show-only-if property name / state (3.7)
    ]
    return Trait.of("emb2;", fields, str(level))


def delete_trait(menu: str = "Delete", key: str = "68,130") -> Trait:
    """Delete (``delete;``), Ctrl-D by default."""
    return Trait.of("delete;", [menu, key, ""])


def report_state(keys: Sequence[str], report: str) -> Trait:
    """Report Action (``report;``): a chat line when one of ``keys`` is pressed."""
    key_list = encode_exact(list(keys), ",", "report keys")
    return Trait.of("report;", [key_list, report, "", "", "", "false"], "-1")


def mark_moved(image: str = "/images/moved.gif") -> Trait:
    """Mark When Moved (``markmoved;``): VASSAL's own moved flag (a jar image by default)."""
    fields = [image, "40", "-25", "Mark Moved", "77,130", "", "false",
              "Mark piece as moved", "", "Mark piece as unmoved", ""]
    return Trait.of("markmoved;", fields, "false")
