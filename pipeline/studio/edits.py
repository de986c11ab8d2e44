"""What a person changed in the studio, with undo and redo.

A person's word overrides the reading in three places: a hex's terrain (``labelled``
when it confirms what the digitizer read, ``corrected`` when it changes it), a
hexside's features (``corrected``; an empty list says "nothing here"), and the grid's
anchors (hex id -> pixel centre). Each change is one :class:`Edit` holding the value
before and after, so undo puts the value before back and redo the value after; a new
change after an undo drops what could have been redone, as editors do.

>>> log = EditLog(Overrides())
>>> log.apply(Edit("terrain", "0101", None, ("woods", "corrected")))
>>> log.overrides.terrain, log.undo() is not None, log.overrides.terrain
({'0101': ('woods', 'corrected')}, True, {})
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

__all__ = ["Edit", "EditKind", "EditLog", "Overrides", "Provenance", "TerrainWord"]

EditKind = Literal["terrain", "hexside", "anchors"]
Provenance = Literal["labelled", "corrected"]
TerrainWord = tuple[str, Provenance]
Point = tuple[float, float]
Value = TerrainWord | tuple[str, ...] | dict[str, Point] | None


@dataclass(frozen=True)
class Overrides:
    """Everything a person has said, as it stands.

    Attributes
    ----------
    terrain
        Hex id -> (terrain, ``"labelled"`` or ``"corrected"``).
    hexsides
        Hexside id (``0101/0102``, ``0101/N`` at the edge) -> its features as the person
        says (sorted; empty for none).
    anchors
        Hex id -> the pixel centre the person put it at.
    """

    terrain: dict[str, TerrainWord] = field(default_factory=dict)
    hexsides: dict[str, tuple[str, ...]] = field(default_factory=dict)
    anchors: dict[str, Point] = field(default_factory=dict)

    def labels(self) -> dict[str, list[str]]:
        """Terrain -> the hexes a person labelled with it, confirming the reading (sorted)."""
        out: dict[str, list[str]] = {}
        for hex_id, (terrain, provenance) in sorted(self.terrain.items()):
            if provenance == "labelled":
                out.setdefault(terrain, []).append(hex_id)
        return out

    def corrections(self) -> dict[str, str]:
        """Hex id -> the terrain a person corrected the reading to."""
        return {hex_id: terrain for hex_id, (terrain, provenance) in sorted(self.terrain.items())
                if provenance == "corrected"}

    def with_value(self, kind: EditKind, key: str, value: Value) -> Overrides:
        """A copy with one value set (``None`` removes a hex's or hexside's override)."""
        if kind == "anchors":
            assert isinstance(value, dict)
            return replace(self, anchors=dict(value))
        table: dict[str, object] = dict(self.terrain if kind == "terrain" else self.hexsides)
        if value is None:
            table.pop(key, None)
        else:
            table[key] = value
        if kind == "terrain":
            return replace(self, terrain=table)  # type: ignore[arg-type]
        return replace(self, hexsides=table)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Edit:
    """One change: what it was before and what it is after.

    ``key`` is the hex or hexside id (``""`` for the anchors, which change as a set).
    """

    kind: EditKind
    key: str
    before: Value
    after: Value

    def describe(self) -> str:
        """One line for people (shown as the undo button's title)."""
        if self.kind == "terrain":
            return (f"{self.key}: {self.after[0]}" if isinstance(self.after, tuple)
                    else f"{self.key}: back to the reading")
        if self.kind == "hexside":
            return f"{self.key}: {', '.join(self.after or ()) or 'no feature'}"
        return "grid anchors"


class EditLog:
    """The overrides in force and the edits that can be undone and redone."""

    def __init__(self, overrides: Overrides) -> None:
        self.overrides = overrides
        self._done: list[Edit] = []
        self._undone: list[Edit] = []

    @property
    def can_undo(self) -> Edit | None:
        """The edit :meth:`undo` would take back, if any."""
        return self._done[-1] if self._done else None

    @property
    def can_redo(self) -> Edit | None:
        """The edit :meth:`redo` would make again, if any."""
        return self._undone[-1] if self._undone else None

    def apply(self, edit: Edit) -> None:
        """Make a new edit (what could have been redone is dropped)."""
        self.overrides = self.overrides.with_value(edit.kind, edit.key, edit.after)
        self._done.append(edit)
        self._undone.clear()

    def undo(self) -> Edit | None:
        """Take back the last edit; returns it, or ``None`` when there is none."""
        if not self._done:
            return None
        edit = self._done.pop()
        self.overrides = self.overrides.with_value(edit.kind, edit.key, edit.before)
        self._undone.append(edit)
        return edit

    def redo(self) -> Edit | None:
        """Make the last undone edit again; returns it, or ``None`` when there is none."""
        if not self._undone:
            return None
        edit = self._undone.pop()
        self.overrides = self.overrides.with_value(edit.kind, edit.key, edit.after)
        self._done.append(edit)
        return edit
