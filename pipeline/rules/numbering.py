"""The map's hexes numbered, for the searches that visit thousands of them a question.

A :class:`~pipeline.hexgrid.Hex` is hashed as a tuple at every lookup; the movement
costs (:mod:`pipeline.rules.cheapest`) and supply lines (:mod:`pipeline.rules.supply`)
key their states by each hex's number instead, and name the hexes only in their answers.
The numbers follow the grid's own order and are the grid's alone, like its adjacency:
the map keeps them (:attr:`~pipeline.rules.situation.GameMap.numbers`), for every
position on it.

>>> from pipeline.rules.cases import case_from_data
>>> from pipeline.rules.engine import Engine
>>> case = case_from_data({"system": "fm_omaha", "map": {"cols": 2, "rows": 2},
...     "units": [], "state": {}, "query": {}, "expect": {}})
>>> numbers = numbering(Engine(case.situation))
>>> [numbers.ids[h] for h in numbers.hexes]
[0, 1, 2, 3]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pipeline.hexgrid import Hex, HexGrid

if TYPE_CHECKING:
    from pipeline.rules.engine import Engine

__all__ = ["Numbering", "numbering"]


@dataclass(frozen=True)
class Numbering:
    """Every hex of the map by its number, every number by its hex, and each hex's
    neighbours by number, in the grid's order."""

    hexes: tuple[Hex, ...]
    ids: dict[Hex, int]
    around: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, grid: HexGrid) -> Numbering:
        """The numbering of ``grid``'s hexes."""
        adjacency = grid.adjacency
        hexes = tuple(adjacency)
        ids = {h: i for i, h in enumerate(hexes)}
        return cls(hexes, ids, tuple(tuple(ids[n] for n in adjacency[h]) for h in hexes))


def numbering(engine: Engine) -> Numbering:
    """The numbering of the engine's map."""
    return engine.situation.map.numbers
