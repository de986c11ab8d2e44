"""Scenarios (``scenario*.json``): turn track, set-up, reinforcements, markers.

A scenario names units by their manifest id and hexes by their printed id;
whether those exist is a question for the whole game folder
(:func:`pipeline.model.check.check_game_dir`), since one file cannot know.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, Self

from pydantic import Field, model_validator

from pipeline.model.base import Cite, Invalid, Model, Note
from pipeline.model.documents import read_json, validate_document
from pipeline.model.mapdata import EdgeName

__all__ = [
    "MarkerPlacement",
    "Reinforcement",
    "Scenario",
    "SetupPlacement",
    "Turn",
    "load_scenario",
    "scenario_from_data",
]


class Turn(Model):
    """One box of the game turn record track."""

    turn: int = Field(ge=0)
    date: str | None = None
    label: str | None = None
    notes: Note = ""


class SetupPlacement(Model):
    """A unit on the map at the start."""

    unit: str = Field(min_length=1)
    hex: str = Field(min_length=1)
    cite: Cite = ""
    note: Note = ""


class Reinforcement(Model):
    """A unit that arrives later: at a hex, along an edge, or where the note says."""

    unit: str = Field(min_length=1)
    turn: int = Field(ge=0)
    hex: str | None = None
    edge: EdgeName | None = None
    cite: Cite = ""
    note: Note = ""

    @model_validator(mode="after")
    def _where(self) -> Self:
        if self.hex is None and self.edge is None and not self.note.strip():
            raise Invalid((), 'a reinforcement needs "hex", "edge", or a note saying where it'
                          " arrives (e.g. \"any beach landing hex with a beachhead marker\")")
        return self


class MarkerPlacement(Model):
    """Markers on the map at the start."""

    marker: str = Field(min_length=1)
    hex: str = Field(min_length=1)
    count: int = Field(1, ge=1)
    cite: Cite = ""
    note: Note = ""


class Scenario(Model):
    """A scenario document (``kind: "scenario"``)."""

    kind: Literal["scenario"]
    game: str = Field(min_length=1)
    name: str = Field(min_length=1)
    source: Cite
    illustrative: bool = Field(False, description="true when placements are invented (demo data)")
    notes: Note = ""
    turns: list[Turn] = []
    first_turn: int = Field(ge=0)
    last_turn: int = Field(ge=0)
    first_player: str | None = None
    setup: list[SetupPlacement] = []
    reinforcements: list[Reinforcement] = []
    markers: list[MarkerPlacement] = []

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.last_turn < self.first_turn:
            raise Invalid(("last_turn",), f"last_turn {self.last_turn} is before first_turn"
                          f" {self.first_turn}")
        seen: dict[int, int] = {}
        for i, box in enumerate(self.turns):
            if box.turn in seen:
                raise Invalid(("turns", i, "turn"), f"turn {box.turn} is already listed at"
                              f" turns[{seen[box.turn]}]")
            seen[box.turn] = i
        placed: dict[str, int] = {}
        for i, item in enumerate(self.setup):
            if item.unit in placed:
                raise Invalid(("setup", i, "unit"), f"unit '{item.unit}' is already set up at"
                              f" setup[{placed[item.unit]}]")
            placed[item.unit] = i
        for i, extra in enumerate(self.reinforcements):
            if extra.turn < self.first_turn:
                raise Invalid(("reinforcements", i, "turn"), f"turn {extra.turn} is before the"
                              f" scenario's first_turn {self.first_turn}")
        return self

    def hexes(self) -> list[tuple[tuple[str | int, ...], str]]:
        """Every hex id the scenario names, with its place in the document."""
        out: list[tuple[tuple[str | int, ...], str]] = []
        out += [(("setup", i, "hex"), s.hex) for i, s in enumerate(self.setup)]
        out += [(("reinforcements", i, "hex"), r.hex) for i, r in enumerate(self.reinforcements)
                if r.hex is not None]
        out += [(("markers", i, "hex"), m.hex) for i, m in enumerate(self.markers)]
        return out

    def units(self) -> list[tuple[tuple[str | int, ...], str]]:
        """Every unit id the scenario names, with its place in the document."""
        out: list[tuple[tuple[str | int, ...], str]] = []
        out += [(("setup", i, "unit"), s.unit) for i, s in enumerate(self.setup)]
        out += [(("reinforcements", i, "unit"), r.unit) for i, r in enumerate(self.reinforcements)]
        return out


def scenario_from_data(data: Any, file: str | Path | None = "<scenario>") -> Scenario:
    """Validate parsed JSON as a scenario document; problems raise one located :class:`DataError`.

    Parameters
    ----------
    data
        The parsed document (a dict with ``"kind": "scenario"``).
    file
        Name used in messages.
    """
    return validate_document(Scenario, data, file, kind="scenario")


def load_scenario(path: str | Path) -> Scenario:
    """Read a scenario document (scenario.json); problems raise one located :class:`DataError`."""
    return scenario_from_data(read_json(path), path)
