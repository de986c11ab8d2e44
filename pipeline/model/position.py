"""Positions (``position*.json``): one moment of a game, for the rules validator.

A position says where every unit is (or that it is off the map), its steps
and standing flags, the markers on the map, the turn, phase, weather, active
side and who controls which hex. Whether a unit id exists, whether a hex is on
the map and whether enemies share a hex are checked against the game folder
(:func:`pipeline.model.check.check_game_dir`).
"""

# No ``from __future__ import annotations`` here: pydantic then reads each field's type
# as an object, not a string it evaluates, which saves a sixth of the time building
# these classes takes at every start (issue 18).

from pathlib import Path
from typing import Any, Literal, Self

from pydantic import ConfigDict, Field, model_validator

from pipeline.model.base import Invalid, Model, Name, Note
from pipeline.model.documents import read_json, validate_document

__all__ = [
    "Position",
    "PositionMarker",
    "PositionUnit",
    "load_position",
    "position_from_data",
]


class PositionUnit(Model):
    """A unit's state: its hex (or ``null`` with ``off_map: true``), steps and flags."""

    id: str = Field(min_length=1)
    hex: str | None
    off_map: bool = False
    steps: int | None = Field(None, ge=0)
    flags: list[Name] = Field([], description="standing state: exited_beach, out_of_supply, ...")
    transported_by: str | None = Field(None, description="id of the unit carrying it (002)")
    overruns: int = Field(0, ge=0, description="overruns it made earlier this phase, which"
                          " the rules profile's overrun.per_phase counts (Cobra 003 §5.5.1)")

    @model_validator(mode="after")
    def _where(self) -> Self:
        if self.hex is None and not self.off_map:
            raise Invalid(("hex",), 'hex is null: set "off_map": true for a unit not on the map')
        if self.hex is not None and self.off_map:
            raise Invalid(("off_map",), f"the unit is in hex '{self.hex}' and also off_map")
        return self


class PositionMarker(Model):
    """A marker on the map. Other keys (``controlled_by``, ``side``...) are kept as given."""

    # Marker details differ by system (SCENARIOS.md §2.4); the rules read them.
    model_config = ConfigDict(**Model.model_config | {"extra": "allow"})

    type: str = Field(min_length=1)
    hex: str = Field(min_length=1)


class Position(Model):
    """A position document (``kind: "position"``)."""

    kind: Literal["position"]
    game: str = Field(min_length=1)
    illustrative: bool = Field(False, description="true when the position is invented")
    notes: Note = ""
    turn: int = Field(ge=0)
    phase: str = Field(min_length=1)
    weather: str | None = None
    active_side: Name
    units: list[PositionUnit] = []
    markers: list[PositionMarker] = []
    control: dict[str, Name] = Field({}, description="hex id -> side that controls it")

    @model_validator(mode="after")
    def _check(self) -> Self:
        seen: dict[str, int] = {}
        for i, unit in enumerate(self.units):
            if unit.id in seen:
                raise Invalid(("units", i, "id"), f"unit '{unit.id}' is already listed at"
                              f" units[{seen[unit.id]}]")
            seen[unit.id] = i
        for i, unit in enumerate(self.units):
            if unit.transported_by is not None and unit.transported_by not in seen:
                raise Invalid(("units", i, "transported_by"),
                              f"unit '{unit.transported_by}' is not in this position")
        return self

    def hexes(self) -> list[tuple[tuple[str | int, ...], str]]:
        """Every hex id the position names, with its place in the document."""
        out: list[tuple[tuple[str | int, ...], str]] = []
        out += [(("units", i, "hex"), u.hex) for i, u in enumerate(self.units) if u.hex is not None]
        out += [(("markers", i, "hex"), m.hex) for i, m in enumerate(self.markers)]
        out += [(("control", h), h) for h in self.control]
        return out

    def units_in(self, hex_id: str) -> list[PositionUnit]:
        """The units in a hex, in document order."""
        return [u for u in self.units if u.hex == hex_id]


def position_from_data(data: Any, file: str | Path | None = "<position>") -> Position:
    """Validate parsed JSON as a position document; problems raise one located :class:`DataError`.

    Parameters
    ----------
    data
        The parsed document (a dict with ``"kind": "position"``).
    file
        Name used in messages.
    """
    return validate_document(Position, data, file, kind="position")


def load_position(path: str | Path) -> Position:
    """Read a position document (position.json); problems raise one located :class:`DataError`."""
    return position_from_data(read_json(path), path)
