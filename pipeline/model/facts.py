"""Facts (``facts.json``): what a rulebook states about its map, as checkable claims.

A rulebook names hexes ("Omaha beach hexes 2318, 2319 ..."), places ("Isigny
(hexes 1811 and 1911)"), rivers ("the river coursing from hex 2108 to 0805")
and map edges ("any hex from 5101 through 5134"). Each fact is one such
statement with its citation, written as a claim about the map data that a
checker can test against ``map.json`` (hand-entered or digitized):

* ``hex_terrain``: each of ``hexes`` has ``terrain`` among its terrain;
* ``hex_name``: each of ``hexes`` is (part of) the place called ``name``;
* ``hexside_feature``: each hexside of ``hexsides`` carries ``feature``, and
  each of ``hexes`` has at least one hexside that does;
* ``river_course``: hexsides carrying ``feature`` form one unbroken line that
  touches every hex of ``hexes``, from the first to the last;
* ``map_edge``: each of ``hexes`` lies on the map's ``edge``, and the map says
  what the edge means (``role``, for ``side``).

This module defines and loads facts; checking them against a map is the
validator's work. ``quote`` keeps the rulebook's own words where they help.

>>> facts = Facts.model_validate({"kind": "facts", "game": "g", "source": "s", "facts": [
...     {"id": "beach", "claim": "hex_terrain", "hexes": ["2318"], "terrain": "beach",
...      "cite": "000_3d79f68a6e3e33eb.txt §11.0"}]})
>>> [f.id for f in facts.of_claim("hex_terrain")], facts.hexes()
(['beach'], ['2318'])
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, Self

from pydantic import Field, model_validator

from pipeline.model.base import Cite, Invalid, Model, Note
from pipeline.model.documents import read_json, validate_document
from pipeline.model.mapdata import EdgeName

__all__ = ["CLAIMS", "Fact", "Facts", "facts_from_data", "load_facts"]

Claim = Literal["hex_terrain", "hex_name", "hexside_feature", "river_course", "map_edge"]
CLAIMS: tuple[str, ...] = ("hex_terrain", "hex_name", "hexside_feature", "river_course",
                           "map_edge")

# What each claim needs besides its citation: (required keys, keys it may not have).
_SHAPE: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "hex_terrain": (("hexes", "terrain"), ("hexsides", "name", "feature", "edge", "role")),
    "hex_name": (("hexes", "name"), ("hexsides", "terrain", "feature", "edge", "role")),
    "hexside_feature": (("feature",), ("terrain", "name", "edge", "role")),
    "river_course": (("hexes", "feature"), ("hexsides", "terrain", "edge", "role")),
    "map_edge": (("edge",), ("hexsides", "terrain", "name", "feature")),
}


class Fact(Model):
    """One statement of the rulebook about the map, with its citation."""

    id: str = Field(min_length=1, description="unique in the file, for reports")
    claim: Claim
    hexes: list[str] = []
    hexsides: list[list[str]] = Field([], description="hexsides as [hex, hex] pairs")
    terrain: str | None = None
    name: str | None = None
    feature: str | None = None
    edge: EdgeName | None = None
    role: str | None = Field(None, description="map_edge: what the edge is to the rules")
    side: str | None = Field(None, description="map_edge: the side the role is for")
    cite: Cite = Field(min_length=1)
    quote: str = ""
    note: Note = ""

    @model_validator(mode="after")
    def _shape(self) -> Self:
        needed, refused = _SHAPE[self.claim]
        for key in needed:
            value = getattr(self, key)
            if value is None or value == []:
                raise Invalid((key,), f"a '{self.claim}' fact needs \"{key}\"")
        for key in refused:
            value = getattr(self, key)
            if value is not None and value != []:
                raise Invalid((key,), f"a '{self.claim}' fact has no \"{key}\"")
        if self.claim == "hexside_feature" and not self.hexes and not self.hexsides:
            raise Invalid(("hexes",), 'a \'hexside_feature\' fact needs "hexsides" (pairs) or'
                          ' "hexes" (each has such a hexside)')
        if self.claim == "river_course" and len(self.hexes) < 2:
            raise Invalid(("hexes",), "a river course needs at least its first and last hex")
        if self.claim == "map_edge" and not self.hexes and self.role is None:
            raise Invalid(("role",), 'a \'map_edge\' fact needs "role" or "hexes"')
        for i, pair in enumerate(self.hexsides):
            if len(pair) != 2 or pair[0] == pair[1]:
                raise Invalid(("hexsides", i), "a hexside is a pair of two different hexes")
        return self

    def hex_ids(self) -> list[str]:
        """Every hex id the fact names (hexes, then hexside ends), in order."""
        return [*self.hexes, *(h for pair in self.hexsides for h in pair)]


class Facts(Model):
    """A facts document (``kind: "facts"``)."""

    kind: Literal["facts"]
    game: str = Field(min_length=1)
    source: Cite
    notes: Note = ""
    facts: list[Fact] = []

    @model_validator(mode="after")
    def _unique(self) -> Self:
        seen: dict[str, int] = {}
        for i, fact in enumerate(self.facts):
            if fact.id in seen:
                raise Invalid(("facts", i, "id"), f"fact id '{fact.id}' is already used by"
                              f" facts[{seen[fact.id]}]")
            seen[fact.id] = i
        return self

    def of_claim(self, claim: str) -> list[Fact]:
        """The facts making one kind of claim, in file order."""
        return [f for f in self.facts if f.claim == claim]

    def hexes(self) -> list[str]:
        """Every hex id the facts name, once each, in first-seen order."""
        return list(dict.fromkeys(h for f in self.facts for h in f.hex_ids()))

    def places(self) -> list[tuple[tuple[str | int, ...], str]]:
        """Every hex id with its place in the document (for located errors)."""
        out: list[tuple[tuple[str | int, ...], str]] = []
        for i, fact in enumerate(self.facts):
            out += [(("facts", i, "hexes", j), h) for j, h in enumerate(fact.hexes)]
            out += [(("facts", i, "hexsides", j, k), h)
                    for j, pair in enumerate(fact.hexsides) for k, h in enumerate(pair)]
        return out


def facts_from_data(data: Any, file: str | Path | None = "<facts>") -> Facts:
    """Validate parsed JSON as a facts document; problems raise one located :class:`DataError`.

    Parameters
    ----------
    data
        The parsed document (a dict with ``"kind": "facts"``).
    file
        Name used in messages.
    """
    return validate_document(Facts, data, file)


def load_facts(path: str | Path) -> Facts:
    """Read a facts document (facts.json); problems raise one located :class:`DataError`."""
    return facts_from_data(read_json(path), path)
