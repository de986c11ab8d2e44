"""Injected typing errors: a bench for the validator.

:func:`inject_errors` takes a true map document and makes the mistakes a
typist makes, seeded so a run can be repeated: a wrong terrain, a river
hexside left out, a road typed on the next hexside, two hex ids swapped (a
transposition such as 0412 for 0421 where one exists), a town's name on a
clear hex. No two errors change the same hex, so :func:`score` can tell which
finding answers which error.

>>> from pathlib import Path
>>> from pipeline.model import read_json
>>> true = read_json(Path(__file__).resolve().parents[2] / "maps" / "demo" / "map.json")
>>> typed, errors = inject_errors(true, 5, seed=1)
>>> sorted(e.kind for e in errors)
['missing_river', 'road_wrong_side', 'swapped_ids', 'town_on_clear', 'wrong_terrain']
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from pipeline.errors import BocageError
from pipeline.model import MapData, map_from_data
from pipeline.validate.findings import Finding
from pipeline.validate.sides import (
    SideKey,
    feature_sides,
    neighbour_ids,
    sides_of,
    transpositions,
)

__all__ = ["KINDS", "Injected", "Score", "inject_errors", "score"]

KINDS: tuple[str, ...] = ("wrong_terrain", "missing_river", "road_wrong_side", "swapped_ids",
                          "town_on_clear")


@dataclass(frozen=True)
class Injected:
    """One injected error: its kind, the hexes it changed and what was done."""

    kind: str
    hexes: tuple[str, ...]
    description: str


@dataclass(frozen=True)
class Score:
    """How a validation did on injected errors."""

    missed: list[Injected]
    false_alarms: list[Finding]


class _Typist:
    """Makes the errors on a copy of the document, keeping them apart."""

    def __init__(self, data: dict[str, Any], rng: random.Random) -> None:
        self.data = data
        self.rng = rng
        self.the_map: MapData = map_from_data(data)
        self.ids = list(self.the_map.hex_ids())
        self.reserved: set[str] = set()

    def free(self, *hexes: str) -> bool:
        return not any(h in self.reserved for h in hexes)

    def reserve(self, *hexes: str) -> None:
        self.reserved.update(hexes)

    def entry(self, hex_id: str) -> dict[str, Any]:
        hexes: dict[str, Any] = self.data.setdefault("hexes", {})
        entry: dict[str, Any] = hexes.setdefault(hex_id,
                                                 {"terrain": [self.the_map.default_terrain]})
        return entry

    def sides(self, feature_in: Callable[[frozenset[str]], bool]) -> list[SideKey]:
        return [k for k, v in sorted(feature_sides(self.the_map).items())
                if len(k) == 2 and all(self.the_map.has_hex(h) for h in k) and feature_in(v)
                and self.free(*k)]

    def wrong_terrain(self) -> Injected | None:
        vocab = sorted(self.the_map.used_terrain())
        for h in self.rng.sample(self.ids, len(self.ids)):
            current = self.the_map.terrain_of(h)
            if not self.free(h) or len(vocab) < 2:
                continue
            new = self.rng.choice([t for t in vocab if t not in current])
            self.entry(h)["terrain"] = [new, *current[1:]]
            self.reserve(h)
            return Injected("wrong_terrain", (h,), f"{h}: {current[0]} typed as {new}")
        return None

    def _drop_feature(self, key: SideKey, feature: str) -> None:
        for side in list(self.data.get("hexsides", [])):
            if side.get("hexes") and tuple(sorted(side["hexes"])) == key:
                side["features"] = [f for f in side["features"] if f != feature]
                if not side["features"]:
                    self.data["hexsides"].remove(side)

    def missing_river(self) -> Injected | None:
        candidates = self.sides(lambda v: "river" in v and "bridge" not in v)
        if not candidates:
            return None
        key = self.rng.choice(candidates)
        self._drop_feature(key, "river")
        self.reserve(*key)
        return Injected("missing_river", key, f"{'/'.join(key)}: river left out")

    def road_wrong_side(self) -> Injected | None:
        taken = feature_sides(self.the_map)
        for key in self.rng.sample(self.sides(lambda v: v == {"road"}),
                                   len(self.sides(lambda v: v == {"road"}))):
            a = self.rng.choice(key)
            others = [k for k in sides_of(self.the_map, a) if len(k) == 2 and k not in taken
                      and all(self.the_map.has_hex(h) for h in k) and self.free(*k)]
            if not others:
                continue
            wrong = self.rng.choice(others)
            self._drop_feature(key, "road")
            self.data.setdefault("hexsides", []).append({"hexes": list(wrong),
                                                         "features": ["road"]})
            self.reserve(*key, *wrong)
            return Injected("road_wrong_side", tuple(sorted({*key, *wrong})),
                            f"road typed on {'/'.join(wrong)} instead of {'/'.join(key)}")
        return None

    def swapped_ids(self) -> Injected | None:
        pairs = [(a, b) for a in self.ids for b in transpositions(a)
                 if a < b and self.the_map.has_hex(b)]
        pairs += [(a, b) for a in self.ids for b in neighbour_ids(self.the_map, a) if a < b]
        for a, b in self.rng.sample(pairs, len(pairs)):
            if not self.free(a, b) or self.the_map.terrain_of(a)[0] == self.the_map.terrain_of(b)[0]:
                continue
            first, second = copy.deepcopy(self.entry(a)), copy.deepcopy(self.entry(b))
            self.data["hexes"][a], self.data["hexes"][b] = second, first
            self.reserve(a, b)
            return Injected("swapped_ids", (a, b), f"{a} and {b} typed under each other's id")
        return None

    def town_on_clear(self) -> Injected | None:
        towns = sorted({p.name for p in self.the_map.locations
                        if p.kind in ("city", "town", "village")})
        clear = [h for h in self.ids if self.the_map.terrain_of(h) == ["clear"]
                 and h not in self.the_map.hexes and self.free(h)]
        if not towns or not clear:
            return None
        h, name = self.rng.choice(clear), self.rng.choice(towns)
        self.entry(h)["name"] = name
        self.reserve(h)
        return Injected("town_on_clear", (h,), f"{h}: {name} typed on a clear hex")


def inject_errors(data: dict[str, Any], count: int, *, seed: int,
                  kinds: tuple[str, ...] = KINDS) -> tuple[dict[str, Any], list[Injected]]:
    """A copy of a map document with ``count`` typing errors, kinds taken in turn.

    Raises
    ------
    BocageError
        The map has too little room (or no roads, rivers, towns) for that many.
    """
    typist = _Typist(copy.deepcopy(data), random.Random(seed))
    made: list[Injected] = []
    for i in range(count):
        kind = kinds[i % len(kinds)]
        made_one = getattr(typist, kind)()
        if made_one is None:
            raise BocageError(f"cannot inject error {i + 1} ({kind}): no room left on the map")
        made.append(made_one)
    map_from_data(typist.data)  # the typed map must still load: typos, not corruption
    return typist.data, made


def _standing(f: Finding) -> tuple[str, str]:
    return (f.kind, f.where)


def score(findings: Iterable[Finding], injected: Iterable[Injected],
          baseline: Iterable[Finding] = ()) -> Score:
    """Which injected errors no finding touches, and which findings answer none.

    A finding answers an error when it touches one of the error's hexes.
    Findings the true map has too (same kind and place, from ``baseline``) are
    the map's standing findings, not alarms raised by the errors.
    """
    errors = list(injected)
    standing = {_standing(f) for f in baseline}
    found = [f for f in findings if _standing(f) not in standing]
    missed = [e for e in errors if not any(set(e.hexes) & set(f.hexes) for f in found)]
    places = {h for e in errors for h in e.hexes}
    alarms = [f for f in found if not set(f.hexes) & places]
    return Score(missed, alarms)
