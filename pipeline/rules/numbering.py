"""The map's hexes numbered, for the searches that visit thousands of them a question.

A :class:`~pipeline.hexgrid.Hex` is hashed as a tuple at every lookup; the movement
costs (:mod:`pipeline.rules.cheapest`) and supply lines (:mod:`pipeline.rules.supply`)
key their states by each hex's number instead, and name the hexes only in their answers.
The numbers follow the grid's own order and are the map's alone, so every engine on a
situation shares them (:attr:`~pipeline.rules.situation.Situation.terrain_memo`).

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
from typing import TYPE_CHECKING, cast

from pipeline.hexgrid import Hex

if TYPE_CHECKING:
    from pipeline.rules.engine import Engine

__all__ = ["Numbering", "numbering"]


@dataclass(frozen=True)
class Numbering:
    """Every hex of the map by its number, and every number by its hex."""

    hexes: tuple[Hex, ...]
    ids: dict[Hex, int]


def numbering(engine: Engine) -> Numbering:
    """The numbering of the engine's map (worked out once per situation)."""
    memo = engine.situation.terrain_memo
    known = memo.get(("hex_numbers",))
    if known is None:
        hexes = tuple(engine.grid.adjacency)
        known = memo[("hex_numbers",)] = Numbering(hexes, {h: i for i, h in enumerate(hexes)})
    return cast(Numbering, known)
