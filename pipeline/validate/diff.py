"""Hand-entered map vs digitized map: hex by hex and hexside by hexside.

Both maps must share their grid (boards, numbering, size, missing hexes). Like is
compared with like:

* **hexes** (:mod:`~pipeline.validate.hexdiff`): the typed main terrain against the
  reading's main terrain, with its area shares and odds as support; hex features and
  names with the hex's confidence; neighbouring disagreements gathered into a swapped
  pair or a region the reading got wrong;
* **hexside features** (:mod:`~pipeline.validate.sidediff`), one by one, with the
  reading's own per-feature confidence, and its confidence that a line it did not read
  is not there. A feature the reading gives no confidence for, read on many hexsides of
  which fewer than half were typed (or typed on many of which fewer than half were
  read), is judged unreliable on this map: its disagreements are left out and one
  ``reading_unreliable`` note says so.

A disagreement's severity comes from the reading's confidence, in the bands the
digitizer was calibrated in (:mod:`~pipeline.validate.bands`), and from what the rules
make of the feature.

>>> from pipeline.model import GameFolder
>>> from pathlib import Path
>>> demo = GameFolder(Path(__file__).resolve().parents[2] / "maps" / "demo").map_data()
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
from pipeline.validate.bands import HALF, HINTED, LIKELY, OPINION, SUPPORTED, SURE, UNLIKELY
from pipeline.validate.findings import Finding, sort_findings
from pipeline.validate.hexdiff import gathered, hex_findings
from pipeline.validate.roles import Roles, roles_for
from pipeline.validate.sidediff import (
    Absence,
    absence_confidence,
    feature_confidence,
    side_findings,
)

__all__ = ["HALF", "HINTED", "LIKELY", "OPINION", "SUPPORTED", "SURE", "UNLIKELY", "Absence",
           "Agreement", "MapDiff", "absence_confidence", "diff_maps", "feature_confidence",
           "same_grid"]


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


# A feature the reading gives no confidence for is judged by how it agrees with the typed
# map as a whole: read on this many hexsides or more, of which fewer than half were typed,
# its reading is no evidence against the typist (30 typing mistakes cannot halve it).
_JUDGED = 10
_TRUSTED = 0.5



def _untrusted(counts: dict[str, Agreement], vouched: set[str]
               ) -> tuple[set[tuple[str, bool]], list[Finding]]:
    """Which (feature, typed) disagreements say nothing, and one note for each."""
    quiet: set[tuple[str, bool]] = set()
    notes = []
    for feature, a in sorted(counts.items()):
        if feature in vouched:
            continue
        for typed, n, share, what in ((False, a.digitized, a.both / max(a.digitized, 1),
                                       "read"),
                                      (True, a.hand, a.both / max(a.hand, 1), "typed")):
            if n >= _JUDGED and share < _TRUSTED:
                quiet.add((feature, typed))
                other = "typed" if what == "read" else "read"
                notes.append(Finding(
                    "check", "reading_unreliable", "",
                    f"{feature}: {what} on {n} hexsides, {a.both} of them {other} too, and the"
                    " reading gives no confidence for it: those disagreements are not listed;"
                    f" look at the {feature} lines on the scan", source="diff"))
    return quiet, notes


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


def diff_maps(hand: MapData, digitized: MapData, *, sure: float = SURE,
              roles: Roles | None = None) -> MapDiff:
    """Compare a hand-entered map with a digitized one of the same grid.

    Parameters
    ----------
    hand, digitized
        The two maps.
    sure
        Confidence from which a disagreement is an error (from :data:`LIKELY` it is a
        warning, below that a check).
    roles
        What the hand map's names mean (:func:`~pipeline.validate.roles.roles_for`,
        guessed from its names when not given): a map that types no bridges, and whose
        bridge note cites its rule, leaves every road-over-river crossing bridged by it
        (:func:`~pipeline.validate.roles.rule_bridged`): a bridge read there is a check.

    Raises
    ------
    BocageError
        The maps do not share a grid.
    """
    same_grid(hand, digitized)
    roles = roles or roles_for(hand)
    ids = list(hand.hex_ids())
    findings: list[Finding] = []
    terrain_pairs = []
    agreeing = 0
    for hex_id in ids:
        found = hex_findings(hand, digitized, hex_id, sure, roles.water)
        findings += found
        agreeing += not any(f.kind != "terrain_mixed" for f in found)
        terrain_pairs.append((set(hand.terrain_of(hex_id)), set(digitized.terrain_of(hex_id))))
    findings = gathered(hand, digitized, findings)
    sureness = feature_confidence(digitized)
    side_pairs, side_found = side_findings(hand, digitized, sure, roles, sureness)
    vocab = set(hand.terrain_types) | set(digitized.terrain_types)
    features = _count(side_pairs, set(hand.hexside_features) | set(digitized.hexside_features))
    vouched = {f for conf in sureness.values() for f in conf}
    quiet, notes = _untrusted(features, vouched)
    findings += [f for feature, typed, f in side_found if (feature, typed) not in quiet]
    return MapDiff(sort_findings(findings + notes), _count(terrain_pairs, vocab), features,
                   len(ids), agreeing)
