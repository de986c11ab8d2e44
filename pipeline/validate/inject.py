"""Injected typing mistakes: a bench for the validator.

:func:`inject_errors` takes a true map document and types it again with the
mistakes a typist makes, seeded so a run can be repeated, the twelve kinds of
:data:`KINDS` taken in turn: a wrong terrain, a river left out or typed on the
wrong side of its hex, a road left out or added, a bridge left out, two hexes
typed under each other's ids, an entry typed under a transposed id (0412 for
0421), a hex left out, a hex typed twice, a misspelled name, and a hexside
between hexes that are not neighbours. It returns the typed *text*: a hex typed
twice is a key given twice, which no parsed document can hold. No two mistakes
touch the same hex, so :func:`score` can tell which finding answers which.

A mistake is *named* when a finding of a kind that states its reason
(:data:`REASONS`) and of an alarm severity (error or warning) touches one of its
hexes; findings below that are counted apart (``seen``).

>>> from pathlib import Path
>>> from pipeline.model import GameFolder, read_json
>>> true = read_json(GameFolder(Path(__file__).resolve().parents[2] / "maps" / "demo").map_file)
>>> text, made = inject_errors(true, 12, seed=1)
>>> len(made), set(KINDS) - {e.kind for e in made}  # the demo types no bridge to leave out
(12, {'missing_bridge'})
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from pipeline.errors import BocageError
from pipeline.model import MapData, map_from_data
from pipeline.validate.findings import Finding
from pipeline.validate.roles import roles_for
from pipeline.validate.sides import (
    SideKey,
    feature_sides,
    neighbour_ids,
    sides_of,
    transpositions,
)

__all__ = ["ALARMS", "KINDS", "REASONS", "Injected", "Score", "inject_errors", "score"]

#: The mistakes :func:`inject_errors` makes in a true map, as a builder typing it would.
KINDS: tuple[str, ...] = (
    "wrong_terrain", "missing_river", "river_wrong_side", "missing_road", "added_road",
    "missing_bridge", "swapped_hexes", "transposed_id", "missing_hex", "duplicate_entry",
    "misspelled_name", "not_adjacent",
)

# The finding kinds that name each mistake for what it is. A wrong terrain typed beside a
# hex the reading doubts may meet it crosswise (halftone, learner seed 0: 2215 typed beach,
# read hills at 1.00, beside 2116 read beach at 0.47): the pair's finding gives the hex,
# what was typed and what was read, which names the slip all the same.
# A torn reading's soft note (``terrain_mixed``: typed woods on a hex read 55% clear / 45%
# woods) names the slip too, as a check: it counts as one seen, never as an alarm.
_TERRAIN = frozenset({"terrain_differs", "terrain_region_differs", "lone_rare_terrain",
                      "terrain_swapped", "terrain_mixed"})
#: The finding kinds that name each injected mistake for what it is.
REASONS: dict[str, frozenset[str]] = {
    "wrong_terrain": _TERRAIN,
    "missing_river": frozenset({"hexside_differs", "river_break"}),
    "river_wrong_side": frozenset({"hexside_differs", "river_break"}),
    "missing_road": frozenset({"hexside_differs", "road_gap"}),
    "added_road": frozenset({"hexside_differs", "road_gap"}),
    "missing_bridge": frozenset({"hexside_differs", "road_river_without_bridge"}),
    "swapped_hexes": _TERRAIN,
    "transposed_id": frozenset({"transposed_id", "duplicate_key", "missing_hex"}),
    "missing_hex": frozenset({"missing_hex", "terrain_differs", "terrain_region_differs"}),
    "duplicate_entry": frozenset({"duplicate_key", "transposed_id"}),
    "misspelled_name": frozenset({"unknown_name"}),
    "not_adjacent": frozenset({"not_adjacent"}),
}
#: The severities a builder must act on; a check is worth a look, not an alarm.
ALARMS: frozenset[str] = frozenset({"error", "warning"})


@dataclass(frozen=True)
class Injected:
    """One injected mistake: its kind, the hexes it changed and what was done."""

    kind: str
    hexes: tuple[str, ...]
    description: str


@dataclass(frozen=True)
class Score:
    """How a validation did on injected mistakes.

    ``missed`` are the mistakes no alarm names with its reason (``seen`` those
    of them a check at least touches); ``false_alarms`` the alarms that touch no
    mistake and that the true map does not raise too.
    """

    missed: list[Injected]
    false_alarms: list[Finding]
    seen: list[Injected]

    def named(self, total: int) -> int:
        """How many of ``total`` injected mistakes were named."""
        return total - len(self.missed)


class _Typist:
    """Makes the mistakes on a copy of the document, keeping them apart."""

    def __init__(self, data: dict[str, Any], rng: random.Random) -> None:
        self.data = data
        self.rng = rng
        self.the_map: MapData = map_from_data(data)
        self.roles = roles_for(self.the_map)
        self.ids = list(self.the_map.hex_ids())
        self.taken = feature_sides(self.the_map)
        self.reserved: set[str] = set()
        self.again: list[tuple[str, dict[str, Any]]] = []  # hexes typed a second time

    def free(self, *hexes: str) -> bool:
        return not any(h in self.reserved for h in hexes)

    def reserve(self, *hexes: str) -> None:
        # A mistake's neighbours are kept clear too: two mistakes side by side would
        # answer each other's findings.
        for h in hexes:
            self.reserved.add(h)
            if self.the_map.has_hex(h):
                self.reserved.update(neighbour_ids(self.the_map, h))

    def entry(self, hex_id: str) -> dict[str, Any]:
        hexes: dict[str, Any] = self.data.setdefault("hexes", {})
        entry: dict[str, Any] = hexes.setdefault(hex_id,
                                                 {"terrain": [self.the_map.default_terrain]})
        return entry

    def shuffled(self, items: list[Any]) -> list[Any]:
        return self.rng.sample(items, len(items))

    def sides(self, feature_in: Callable[[frozenset[str]], bool]) -> list[SideKey]:
        return [k for k, v in sorted(self.taken.items())
                if len(k) == 2 and all(self.the_map.has_hex(h) for h in k) and feature_in(v)
                and self.free(*k)]

    def blank_sides(self, hex_id: str) -> list[SideKey]:
        return [k for k in sides_of(self.the_map, hex_id) if len(k) == 2 and k not in self.taken
                and all(self.the_map.has_hex(h) for h in k) and self.free(*k)]

    def _drop_feature(self, key: SideKey, feature: str) -> None:
        for side in list(self.data.get("hexsides", [])):
            if side.get("hexes") and tuple(sorted(side["hexes"])) == key:
                side["features"] = [f for f in side["features"] if f != feature]
                if not side["features"]:
                    self.data["hexsides"].remove(side)

    def _add_side(self, key: SideKey, feature: str) -> None:
        self.data.setdefault("hexsides", []).append({"hexes": list(key), "features": [feature]})

    def wrong_terrain(self) -> Injected | None:
        vocab = sorted(self.the_map.used_terrain())
        for h in self.shuffled(self.ids):
            current = self.the_map.terrain_of(h)
            if not self.free(h) or len(vocab) < 2:
                continue
            new = self.rng.choice([t for t in vocab if t != current[0]])
            self.entry(h)["terrain"] = [new]
            self.reserve(h)
            return Injected("wrong_terrain", (h,), f"{h}: {current[0]} typed as {new}")
        return None

    def _lone(self, role: frozenset[str]) -> list[SideKey]:
        return self.sides(lambda v: len(v) == 1 and bool(v & role))

    def missing_river(self) -> Injected | None:
        candidates = self._lone(self.roles.rivers)
        if not candidates:
            return None
        key = self.rng.choice(candidates)
        river = sorted(self.taken[key])[0]
        self._drop_feature(key, river)
        self.reserve(*key)
        return Injected("missing_river", key, f"{'/'.join(key)}: {river} left out")

    def river_wrong_side(self) -> Injected | None:
        for key in self.shuffled(self._lone(self.roles.rivers)):
            a = self.rng.choice(key)
            others = self.blank_sides(a)
            if not others:
                continue
            wrong = self.rng.choice(others)
            river = sorted(self.taken[key])[0]
            self._drop_feature(key, river)
            self._add_side(wrong, river)
            self.reserve(*key, *wrong)
            return Injected("river_wrong_side", tuple(sorted({*key, *wrong})),
                            f"{river} typed on {'/'.join(wrong)} instead of {'/'.join(key)}")
        return None

    def missing_road(self) -> Injected | None:
        candidates = self._lone(self.roles.roads)
        if not candidates:
            return None
        key = self.rng.choice(candidates)
        road = sorted(self.taken[key])[0]
        self._drop_feature(key, road)
        self.reserve(*key)
        return Injected("missing_road", key, f"{'/'.join(key)}: {road} left out")

    def added_road(self) -> Injected | None:
        # The map's commonest road is the one a typist types by mistake.
        count = {r: sum(r in v for v in self.taken.values())
                 for r in self.roles.roads & set(self.the_map.hexside_features)}
        roads = sorted(count, key=lambda r: (-count[r], r))
        if not roads:
            return None
        for h in self.shuffled(self.ids):
            others = self.blank_sides(h) if self.free(h) else []
            if not others:
                continue
            key = self.rng.choice(others)
            self._add_side(key, roads[0])
            self.reserve(*key)
            return Injected("added_road", key, f"{'/'.join(key)}: a {roads[0]} typed that is"
                            " not on the map")
        return None

    def missing_bridge(self) -> Injected | None:
        candidates = self.sides(lambda v: bool(v & self.roles.bridges))
        if not candidates:
            return None
        key = self.rng.choice(candidates)
        bridge = sorted(self.taken[key] & self.roles.bridges)[0]
        self._drop_feature(key, bridge)
        self.reserve(*key)
        return Injected("missing_bridge", key, f"{'/'.join(key)}: {bridge} left out")

    def _differ(self, a: str, b: str) -> bool:
        return self.the_map.terrain_of(a)[0] != self.the_map.terrain_of(b)[0]

    def swapped_hexes(self) -> Injected | None:
        pairs = [(a, b) for a in self.ids for b in neighbour_ids(self.the_map, a) if a < b]
        for a, b in self.shuffled(pairs):
            if not self.free(a, b) or not self._differ(a, b):
                continue
            first, second = copy.deepcopy(self.entry(a)), copy.deepcopy(self.entry(b))
            self.data["hexes"][a], self.data["hexes"][b] = second, first
            self.reserve(a, b)
            return Injected("swapped_hexes", (a, b), f"{a} and {b} typed under each other's id")
        return None

    def transposed_id(self) -> Injected | None:
        pairs = [(a, b) for a in self.ids for b in transpositions(a) if self.the_map.has_hex(b)]
        for a, b in self.shuffled(pairs):
            if not self.free(a, b) or not self._differ(a, b) or a not in self.data["hexes"]:
                continue
            entry = self.data["hexes"].pop(a)
            if b in self.data["hexes"]:
                self.again.append((b, entry))
            else:
                self.data["hexes"][b] = entry
            self.reserve(a, b)
            return Injected("transposed_id", (a, b), f"{a}'s entry typed under {b}")
        return None

    def missing_hex(self) -> Injected | None:
        for h in self.shuffled(sorted(self.data.get("hexes", {}))):
            if self.free(h) and self.the_map.terrain_of(h)[0] != self.the_map.default_terrain:
                del self.data["hexes"][h]
                self.reserve(h)
                return Injected("missing_hex", (h,), f"{h} left out")
        return None

    def duplicate_entry(self) -> Injected | None:
        vocab = sorted(self.the_map.used_terrain())
        for h in self.shuffled(sorted(self.data.get("hexes", {}))):
            if not self.free(h) or len(vocab) < 2:
                continue
            other = self.rng.choice([t for t in vocab if t != self.the_map.terrain_of(h)[0]])
            self.again.append((h, {"terrain": [other]}))
            self.reserve(h)
            return Injected("duplicate_entry", (h,), f"{h} typed twice, the second as {other}")
        return None

    def misspelled_name(self) -> Injected | None:
        for h in self.shuffled(sorted(self.data.get("hexes", {}))):
            name = self.data["hexes"][h]["terrain"][0]
            if not self.free(h) or len(name) < 4:
                continue
            i = self.rng.randrange(1, len(name) - 1)
            wrong = name[:i] + name[i + 1:]  # a letter left out
            if wrong in self.the_map.terrain_types:
                continue
            self.data["hexes"][h]["terrain"][0] = wrong
            self.reserve(h)
            return Injected("misspelled_name", (h,), f"{h}: {name} typed as {wrong}")
        return None

    def not_adjacent(self) -> Injected | None:
        for key in self.shuffled(self.sides(lambda v: True)):
            a, b = key
            wrong = [t for t in transpositions(b) if self.the_map.has_hex(t) and t != a
                     and t not in neighbour_ids(self.the_map, a)]
            if not wrong or not self.free(*wrong):
                continue
            typo = self.rng.choice(wrong)
            for side in self.data.get("hexsides", []):
                if side.get("hexes") and tuple(sorted(side["hexes"])) == key:
                    side["hexes"] = [a, typo]
                    break
            self.reserve(a, b, typo)
            return Injected("not_adjacent", (a, b, typo), f"hexside {a}/{b} typed as {a}/{typo}")
        return None

    def text(self) -> str:
        """The typed document as JSON text, with the hexes typed twice written twice."""
        hexes = self.data.get("hexes", {})
        rows = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in hexes.items()]
        rows += [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in self.again]
        body = json.dumps({**self.data, "hexes": "@HEXES@"}, indent=1)
        return body.replace('"@HEXES@"', "{\n" + ",\n".join(rows) + "\n }")


def inject_errors(data: dict[str, Any], count: int, *, seed: int,
                  kinds: tuple[str, ...] = KINDS) -> tuple[str, list[Injected]]:
    """The text of a map document typed again with ``count`` mistakes, kinds taken in turn.

    A kind the map has no room for any more (its few bridges all taken) is left out of
    the turn from then on, so a map with one bridge gets one bridge left out.

    Raises
    ------
    BocageError
        The map has no room for ``count`` mistakes of any of the kinds.
    """
    typist = _Typist(copy.deepcopy(data), random.Random(seed))
    made: list[Injected] = []
    turn, left = 0, list(kinds)
    while len(made) < count:
        if not left:
            raise BocageError(f"cannot inject mistake {len(made) + 1}: no room left on the map"
                              f" for any of {', '.join(kinds)}")
        kind = left[turn % len(left)]
        made_one = getattr(typist, kind)()
        if made_one is None:  # no bridge left, say: the next kind in turn instead
            left.remove(kind)
            continue
        made.append(made_one)
        turn += 1
    return typist.text(), made


def _standing(f: Finding) -> tuple[str, str]:
    return (f.kind, f.where)


def _weight(f: Finding) -> int:
    return ("check", "warning", "error").index(f.severity)


def score(findings: Iterable[Finding], injected: Iterable[Injected],
          baseline: Iterable[Finding] = ()) -> Score:
    """Which injected mistakes no alarm names with its reason, and which alarms answer none.

    Findings the true map has too (same kind and place, from ``baseline``, as
    serious) are the map's standing findings, not alarms raised by the mistakes; one
    the mistakes made more serious (a look on the true map, an alarm now) is theirs.
    """
    errors = list(injected)
    standing: dict[tuple[str, str], int] = {}
    for f in baseline:
        standing[_standing(f)] = max(standing.get(_standing(f), 0), _weight(f))
    found = [f for f in findings if standing.get(_standing(f), -1) < _weight(f)]
    alarms = [f for f in found if f.severity in ALARMS]

    def names(e: Injected, among: list[Finding]) -> bool:
        return any(set(e.hexes) & set(f.hexes) and f.kind in REASONS.get(e.kind, {f.kind})
                   for f in among)

    missed = [e for e in errors if not names(e, alarms)]
    seen = [e for e in missed if names(e, found)]
    places = {h for e in errors for h in e.hexes}
    false = [f for f in alarms if not set(f.hexes) & places]
    return Score(missed, false, seen)
