"""Units and markers as VASSAL pieces: traits, prototypes and stable gpids.

A unit's piece, outermost trait first:

* a two-image Layer ``Step`` flipped by the named command ``Flip`` (when the
  unit has a back image; starts on the back with the ``reduced_start`` flag);
* one Marker (static property) per known fact: ``UnitId``, ``Nationality``,
  ``Type``, ``Size``, ``Formation``, the printed values (``Attack``,
  ``Defence``, ``Range``, ``Movement``, ``Strength`` and ``Back...``),
  ``Steps``, ``ArrivalTurn``; a fact the manifest leaves empty gets no property
  rather than an invented value;
* ``prototype;<Side> unit`` (``Side`` marker, then the shared ``Unit``
  prototype: flip report, mark-when-moved, delete);
* the BasicPiece with the front image and the unit's name.

gpids come from the ids (:class:`GpidAllocator`), so rebuilding a module keeps
every palette slot's gpid and VASSAL's "Refresh Counters" keeps working.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from pipeline.model import MarkerSpec, UnitSpec
from pipeline.vassal.encoding import (
    PieceDefinition,
    Trait,
    basic_piece,
    delete_trait,
    flip_layer,
    mark_moved,
    marker,
    named_key,
    prototype,
    report_state,
)

__all__ = [
    "MARKER_PROTOTYPE",
    "UNIT_PROTOTYPE",
    "Faces",
    "GpidAllocator",
    "marker_name",
    "marker_piece",
    "prototypes",
    "side_definition",
    "side_label",
    "side_prototype",
    "unit_piece",
]

UNIT_PROTOTYPE = "Unit"
MARKER_PROTOTYPE = "Marker"
FLIP = "Flip"
# gpids live below 2**24 + 1: unique enough for hashing, far from Java's int limit.
GPID_SPACE = 2 ** 24

_VALUES = (
    ("attack", "Attack"), ("defence", "Defence"), ("range", "Range"),
    ("movement", "Movement"), ("strength", "Strength"),
    ("back_attack", "BackAttack"), ("back_defence", "BackDefence"),
    ("back_range", "BackRange"), ("back_movement", "BackMovement"),
    ("back_strength", "BackStrength"),
)


def side_label(side: str) -> str:
    """How a side is shown in VASSAL: ``allied`` -> ``Allied``, ``red_army`` -> ``Red Army``."""
    return side.replace("_", " ").title()


def side_prototype(side: str) -> str:
    """Name of a side's prototype: ``Allied unit``."""
    return f"{side_label(side)} unit"


class GpidAllocator:
    """Stable gpids from keys such as ``unit:916/352``.

    A key's gpid is its SHA-256 folded into ``1..2**24``; keys that collide are
    settled in sorted key order (the smaller key keeps its number, the other
    takes the next free one), so a gpid changes only when a new key collides
    with it.

    >>> a = GpidAllocator(["unit:a", "unit:b"])
    >>> a["unit:a"] != a["unit:b"], a["unit:a"] == GpidAllocator(["unit:a"])["unit:a"]
    (True, True)
    """

    def __init__(self, keys: Iterable[str]) -> None:
        self._ids: dict[str, int] = {}
        used: set[int] = set()
        for key in sorted(set(keys)):
            digest = hashlib.sha256(key.encode("utf-8")).digest()
            gpid = int.from_bytes(digest[:8], "big") % GPID_SPACE + 1
            while gpid in used:
                gpid = gpid % GPID_SPACE + 1
            used.add(gpid)
            self._ids[key] = gpid

    def __getitem__(self, key: str) -> int:
        return self._ids[key]

    def next_free(self) -> int:
        """``nextPieceSlotId``: one more than the largest gpid."""
        return max(self._ids.values(), default=0) + 1


def _number(value: int | float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def prototypes() -> dict[str, PieceDefinition]:
    """The module-wide prototypes: ``Unit`` and ``Marker`` (per-side ones:
    :func:`side_prototype`)."""
    empty = basic_piece("", "")
    unit = PieceDefinition((
        report_state([named_key(FLIP)], "$location$: $newPieceName$ flipped *"),
        mark_moved(),
        delete_trait(),
        empty,
    ))
    return {UNIT_PROTOTYPE: unit, MARKER_PROTOTYPE: PieceDefinition((delete_trait(), empty))}


def side_definition(side: str) -> PieceDefinition:
    """A side's prototype: the ``Side`` property, then the shared ``Unit`` prototype."""
    return PieceDefinition((marker("Side", side_label(side)), prototype(UNIT_PROTOTYPE),
                            basic_piece("", "")))


@dataclass(frozen=True)
class Faces:
    """Image names of a counter's faces in the module (``back`` may be missing)."""

    front: str
    back: str | None


def unit_piece(unit: UnitSpec, faces: Faces, gpid: int, arrival_turn: int | None = None
               ) -> PieceDefinition:
    """A unit's piece definition (see the module docstring)."""
    facts: list[tuple[str, str]] = [("UnitId", unit.id)]
    for name, value in (("Nationality", unit.nationality), ("Type", unit.type),
                        ("Size", unit.size), ("Formation", unit.formation)):
        if value is not None:
            facts.append((name, value))
    for field_name, prop in _VALUES:
        value = getattr(unit, field_name)
        if value is not None:
            facts.append((prop, _number(value)))
    if unit.steps is not None:
        facts.append(("Steps", str(unit.steps)))
    if arrival_turn is not None:
        facts.append(("ArrivalTurn", str(arrival_turn)))
    traits: list[Trait] = []
    if faces.back is not None:
        reduced = "+ (reduced)" if (unit.steps or 0) >= 2 else "+ (back)"
        traits.append(flip_layer(faces.front, faces.back, level_names=("", reduced),
                                 level=2 if unit.has("reduced_start") else 1))
    traits += [marker(name, value) for name, value in reversed(facts)]
    traits.append(prototype(side_prototype(unit.side)))
    traits.append(basic_piece(faces.front, unit.name or unit.id, gpid))
    return PieceDefinition(tuple(traits))


def marker_piece(spec: MarkerSpec, faces: Faces, gpid: int) -> PieceDefinition:
    """A game marker's piece: its kind, value and side as properties, flip if two-sided."""
    facts = [("MarkerId", spec.id), ("MarkerKind", spec.kind)]
    if spec.value is not None:
        facts.append(("Value", spec.value))
    if spec.side is not None:
        facts.append(("Side", side_label(spec.side)))
    traits: list[Trait] = []
    if faces.back is not None:
        traits.append(flip_layer(faces.front, faces.back, level_names=("", "+ (back)")))
    traits += [marker(name, value) for name, value in reversed(facts)]
    traits.append(prototype(MARKER_PROTOTYPE))
    traits.append(basic_piece(faces.front, marker_name(spec), gpid))
    return PieceDefinition(tuple(traits))


def marker_name(spec: MarkerSpec) -> str:
    """A marker's piece name: its label, else its kind and value (``Support fire +3``)."""
    if spec.label:
        return spec.label
    kind = spec.kind.replace("_", " ").capitalize()
    return f"{kind} {spec.value}" if spec.value is not None else spec.id
