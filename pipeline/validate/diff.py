"""Hand-entered map vs digitized map: hex by hex and hexside by hexside.

Both maps must share their grid (boards, numbering, size, missing hexes). For
each hex the terrain (as a set: the order of a hex's terrain is the typist's),
the hex features and the name are compared; for each hexside, each feature.
Every disagreement becomes a :class:`~pipeline.validate.findings.Finding` with
the digitizer's confidence from the digitized hex entry (for a hexside, the
lower confidence of its two hexes), and the agreement is counted per terrain
and per hexside feature.

A disagreement is an ``error`` when the digitizer was sure (confidence at
least ``sure``, or none given: a reference map made by hand has none) and a
``check`` when it was not: a scan it could not read proves little.

>>> from pipeline.model import load_map
>>> from pathlib import Path
>>> demo = load_map(Path(__file__).resolve().parents[2] / "maps" / "demo" / "map.json")
>>> result = diff_maps(demo, demo)
>>> result.findings, result.terrain["woods"].agreement
([], 1.0)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pipeline.errors import BocageError
from pipeline.model import MapData
from pipeline.validate.findings import Finding, Severity, sort_findings
from pipeline.validate.sides import SideKey, feature_sides, side_hexes, side_name

__all__ = ["Agreement", "MapDiff", "diff_maps", "same_grid"]

SURE = 0.5


@dataclass(frozen=True)
class Agreement:
    """How often the two maps agree about one terrain or feature.

    ``hand`` counts the places the hand-entered map gives it, ``digitized``
    those the digitized map gives it, ``both`` those where both do.
    """

    hand: int
    digitized: int
    both: int

    @property
    def agreement(self) -> float:
        """Places both give it over places either gives it (1.0 when neither does)."""
        either = self.hand + self.digitized - self.both
        return self.both / either if either else 1.0

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``--json``."""
        return {"hand": self.hand, "digitized": self.digitized, "both": self.both,
                "agreement": round(self.agreement, 4)}


@dataclass(frozen=True)
class MapDiff:
    """The disagreements (most certain first) and the agreement statistics."""

    findings: list[Finding]
    terrain: dict[str, Agreement]
    features: dict[str, Agreement]
    hexes: int
    hexes_agreeing: int

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``--json``."""
        return {
            "hexes": self.hexes, "hexes_agreeing": self.hexes_agreeing,
            "terrain": {k: v.to_dict() for k, v in self.terrain.items()},
            "features": {k: v.to_dict() for k, v in self.features.items()},
        }


def _grid_shape(the_map: MapData) -> list[dict[str, Any]]:
    # The layout is where the grid sits on one image, and a board's name is a label
    # (the digitizer cannot read it): two maps share a grid without either.
    return [b.grid.model_dump(exclude={"layout"}) for b in the_map.boards]


def same_grid(hand: MapData, digitized: MapData) -> None:
    """Raise :class:`BocageError` unless both maps have the same boards and grids."""
    if _grid_shape(hand) != _grid_shape(digitized):
        raise BocageError("the two maps do not share a grid (boards, numbering, size or"
                          " excluded hexes differ); digitize the scan with the hand map's grid")


def _severity(confidence: float | None, sure: float) -> Severity:
    return "error" if confidence is None or confidence >= sure else "check"


def _words(names: Iterable[str]) -> str:
    return ", ".join(sorted(names)) or "nothing"


def _hex_findings(hand: MapData, dig: MapData, hex_id: str, sure: float) -> list[Finding]:
    entry = dig.hexes.get(hex_id)
    conf = entry.confidence if entry is not None else None
    sev = _severity(conf, sure)
    out = []
    mine, theirs = set(hand.terrain_of(hex_id)), set(dig.terrain_of(hex_id))
    if mine != theirs:
        out.append(Finding(sev, "terrain_differs", hex_id,
                           f"{hex_id}: terrain {_words(mine)} by hand, {_words(theirs)}"
                           " digitized", hexes=(hex_id,), confidence=conf, source="diff"))
    h_entry = hand.hexes.get(hex_id)
    # Only what the digitizer can read is compared: hex features its legend
    # declares, and names only when it read any at all.
    readable = set(dig.hex_features)
    mine_f = (set(h_entry.features) if h_entry else set()) & readable
    theirs_f = set(entry.features) if entry else set()
    if mine_f != theirs_f:
        out.append(Finding(sev, "hex_feature_differs", hex_id,
                           f"{hex_id}: hex features {_words(mine_f)} by hand,"
                           f" {_words(theirs_f)} digitized", hexes=(hex_id,),
                           confidence=conf, source="diff"))
    mine_n = h_entry.name if h_entry else None
    theirs_n = entry.name if entry else None
    if mine_n != theirs_n and any(e.name for e in dig.hexes.values()):
        out.append(Finding(sev, "name_differs", hex_id,
                           f"{hex_id}: name {mine_n or 'none'!r} by hand,"
                           f" {theirs_n or 'none'!r} digitized", hexes=(hex_id,),
                           confidence=conf, source="diff"))
    return out


def _side_confidence(dig: MapData, hexes: tuple[str, ...]) -> float | None:
    known = [e.confidence for h in hexes if (e := dig.hexes.get(h)) and e.confidence is not None]
    return min(known) if known else None


def _side_findings(hand: MapData, dig: MapData, key: SideKey, mine: frozenset[str],
                   theirs: frozenset[str], sure: float) -> list[Finding]:
    hexes = side_hexes(hand, key)
    conf = _side_confidence(dig, hexes)
    name = side_name(key)
    out = []
    for feature in sorted(mine ^ theirs):
        by, not_by = ("by hand", "digitized") if feature in mine else ("digitized", "by hand")
        out.append(Finding(_severity(conf, sure), "hexside_differs", name,
                           f"{name}: {feature} {by}, not {not_by}", hexes=hexes,
                           confidence=conf, source="diff"))
    return out


def _count(pairs: Iterable[tuple[set[str] | frozenset[str], set[str] | frozenset[str]]],
           names: Iterable[str]) -> dict[str, Agreement]:
    hand: dict[str, int] = dict.fromkeys(names, 0)
    dig, both = dict(hand), dict(hand)
    for mine, theirs in pairs:
        for n in mine:
            hand[n] = hand.get(n, 0) + 1
        for n in theirs:
            dig[n] = dig.get(n, 0) + 1
        for n in mine & theirs:
            both[n] = both.get(n, 0) + 1
    return {n: Agreement(hand[n], dig.get(n, 0), both.get(n, 0)) for n in sorted(hand)}


def diff_maps(hand: MapData, digitized: MapData, *, sure: float = SURE) -> MapDiff:
    """Compare a hand-entered map with a digitized one of the same grid.

    Parameters
    ----------
    hand, digitized
        The two maps.
    sure
        Confidence from which a disagreement is an error rather than a check.

    Raises
    ------
    BocageError
        The maps do not share a grid.
    """
    same_grid(hand, digitized)
    ids = list(hand.hex_ids())
    findings: list[Finding] = []
    terrain_pairs = []
    agreeing = 0
    for hex_id in ids:
        found = _hex_findings(hand, digitized, hex_id, sure)
        findings += found
        agreeing += not found
        terrain_pairs.append((set(hand.terrain_of(hex_id)), set(digitized.terrain_of(hex_id))))
    mine_sides, their_sides = feature_sides(hand), feature_sides(digitized)
    side_pairs = []
    for key in sorted(set(mine_sides) | set(their_sides)):
        mine = mine_sides.get(key, frozenset())
        theirs = their_sides.get(key, frozenset())
        side_pairs.append((mine, theirs))
        findings += _side_findings(hand, digitized, key, mine, theirs, sure)
    vocab = set(hand.terrain_types) | set(digitized.terrain_types)
    features = set(hand.hexside_features) | set(digitized.hexside_features)
    return MapDiff(sort_findings(findings), _count(terrain_pairs, vocab),
                   _count(side_pairs, features), len(ids), agreeing)
