"""Hand-entered map vs digitized map: hex by hex and hexside by hexside.

Both maps must share their grid (boards, numbering, size, missing hexes). Like
is compared with like:

* **terrain**: the typed main terrain (the first one typed) against the
  reading's main terrain, with the reading's area shares as support: a typed
  ``woods`` on a hex read 55% clear / 45% woods is a soft note (``check``),
  not an error; a typed terrain the reading sees none of is an alarm where the
  reading has an opinion (its main terrain at 0.5 or more), and open water typed
  where it sees only land (or land where it sees only water) is one however
  unsure it is of which land it sees;
* **hexside features**, one by one, with the reading's own per-feature
  confidence (``HexsideEntry.confidence``); a reading that gives none for a
  feature (readers before per-feature confidence) makes its disagreements
  checks, and the finding says so: the two hexes' terrain confidence says
  nothing about how sure a line reading was. Such a feature read on many
  hexsides of which fewer than half were typed (or typed on many of which
  fewer than half were read) is judged unreliable on this map: its
  disagreements are left out and one ``reading_unreliable`` note says so.
  A line typed where the reading read none is judged by the reading's
  confidence that it is *not* there (``absent`` in the reading's vocabulary
  and hexside entries, :func:`absence_confidence`): sure where the hexside
  showed no trace of the line, doubtful where it showed some, or where the
  reading does not read the typed line beside it either;
* hex features and names, with the hex's confidence.

Four or more neighbouring hexes read as one terrain and typed otherwise, one of
them an alarm, are one ``terrain_region_differs`` finding: a typist's slips come
a hex or two at a time, a reading goes wrong over a region (glare, a fold). Two
neighbours each typed as the other is read are one ``terrain_swapped`` warning,
however unsure the reading of either: entries typed under each other's ids.

A disagreement's severity comes from the reading's confidence, in the bands the
digitizer was calibrated in on the foreign bench (README, "Reading a map drawn
by someone else": of hexes read at 0.9 or more, 100% are right; from 0.7, 99%;
below, 95% and less), and from what the rules make of the feature:
a hexside feature whose vocabulary note cites a rulebook section can be an
error, one no rule cites (a trail, a field boundary) at most a warning.

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
from pipeline.validate.findings import Finding, Severity, cite_of, sort_findings
from pipeline.validate.roles import Roles, roles_for, rule_bridged
from pipeline.validate.sides import (
    SideKey,
    feature_sides,
    hex_regions,
    named_places,
    neighbour_ids,
    side_hexes,
    side_name,
    sides_of,
    touching_sides,
)

__all__ = ["HINTED", "LIKELY", "MAJORITY", "SUPPORTED", "SURE", "UNLIKELY", "Absence",
           "Agreement", "MapDiff", "absence_confidence", "diff_maps", "feature_confidence",
           "same_grid"]

# The digitizer's confidence bands, calibrated on the foreign bench (README, "Reading a
# map drawn by someone else"): at 0.9 or more, 100% of its readings are right; from 0.7,
# 98.9%; from 0.5, 94.6%; below, 66%. A disagreement is an error where the reading was
# always right, a warning where it nearly always is, a check below (one in twenty wrong
# is too many to call the typist wrong).
SURE = 0.9
LIKELY = 0.7
# A typed terrain that covers this share of the hex in the reading is supported by it:
# the typist named one of the hex's two terrains (the key's, the printer's choice).
SUPPORTED = 0.25
# Below SURE a reading is wrong about once in a hundred hexes: on a map of a thousand,
# that is ten alarms on a correct map. Where such a reading still sees the typed terrain
# in the hex (a twentieth of it or more), the typist's word is as likely as the reading's.
HINTED = 0.05
# A reading whose main terrain is more likely than all the others together has an
# opinion of the hex; below, its main terrain is more likely wrong than right, and the
# area shares built on it may leave out the hex's true terrain (icons, learner seed 0:
# woods read as forest at 0.29 and as marsh at 0.33, with no woods in either's shares).
# From here a typed terrain the reading sees none of in the hex is an alarm.
MAJORITY = 0.5
# A typed terrain the reading gives less than this chance of being the hex's main terrain
# (its class probabilities, ``probabilities`` of a digitized hex) contradicts it even
# where its area shares see some of it. On the eleven bench maps (six foreign, five of
# bocage's own; learner seed 0) a hex's true main terrain fell below it only inside the own
# photo's glare, a region the reading got wrong (one region finding), while 92.5% of the
# 29,992 wrong terrains one could type did. At 0.05 a clear hex with an unread town
# symbol (own icons, 0407, 2.5%) would be an alarm too.
UNLIKELY = 0.02
_ORDER: tuple[Severity, ...] = ("check", "warning", "error")


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


def _severity(confidence: float | None, sure: float, likely: float = LIKELY) -> Severity:
    # No confidence at all is a reference made by hand: it is taken at its word.
    if confidence is None or confidence >= sure:
        return "error"
    return "warning" if confidence >= likely else "check"


def _at_most(severity: Severity, cap: Severity) -> Severity:
    return severity if _ORDER.index(severity) <= _ORDER.index(cap) else cap


def _at_least(severity: Severity, floor: Severity) -> Severity:
    return severity if _ORDER.index(severity) >= _ORDER.index(floor) else floor


def _words(names: Iterable[str]) -> str:
    return ", ".join(sorted(names)) or "nothing"


def _shares(fractions: dict[str, float] | None) -> str:
    if not fractions:
        return ""
    parts = sorted(fractions.items(), key=lambda kv: (-kv[1], kv[0]))
    return " (" + " / ".join(f"{share:.0%} {name}" for name, share in parts) + ")"


def _kind(terrain: str, water: frozenset[str]) -> str:
    return "open water" if terrain in water else "land"


def _terrain_finding(hand: MapData, dig: MapData, hex_id: str, sure: float,
                     water: frozenset[str] = frozenset()) -> Finding | None:
    """The typed main terrain against the reading's, its area shares and confidence.

    ``water`` are the terrains that are open water (:attr:`Roles.water`): a typed
    terrain of a kind the reading sees nothing of in the hex (water typed where it reads
    only land, land where it reads only water) contradicts it however unsure the
    reading is of *which* terrain it sees. So does a typed terrain the reading gives
    almost no chance of being the main one (:data:`UNLIKELY`, where the reading has its
    class probabilities), and one of which a reading with an opinion (:data:`MAJORITY`)
    sees no share at all.
    """
    typed, read = hand.terrain_of(hex_id)[0], dig.terrain_of(hex_id)[0]
    if typed == read:
        return None
    entry = dig.hexes.get(hex_id)
    conf = entry.confidence if entry is not None else None
    fractions = entry.fractions if entry is not None else None
    share = (fractions or {}).get(typed, 0.0)
    seen = f"read {read}{_shares(fractions)}"
    if conf is not None:
        seen += f" at confidence {conf:.2f}"
    kind = _kind(typed, water)
    # A reading that cannot read the typed terrain (or any of its kind) says nothing
    # of its absence.
    readable = typed in dig.terrain_types
    if water and any(_kind(t, water) == kind for t in dig.terrain_types) \
            and all(_kind(t, water) != kind for t in {read, *(fractions or {})}):
        # The shares list every terrain the reading sees in a hundredth of it or more.
        return Finding(_at_least(_severity(conf, sure), "warning"), "terrain_differs", hex_id,
                       f"{hex_id}: typed {typed}, {seen}: {kind} where the reading sees"
                       f" none", hexes=(hex_id,), confidence=conf, source="diff")
    chance = _ruled_out(hand, dig, hex_id, typed, share)
    if chance is not None and readable:
        # The classifier's own odds, not the area shares: a terrain can cover part of a
        # hex that is plainly another's (a hill's edge in a wood).
        given = f"a {chance:.0%}" if chance >= 0.01 else "under a 1%"
        return Finding(_at_least(_severity(conf, sure), "warning"), "terrain_differs", hex_id,
                       f"{hex_id}: typed {typed}, {seen}: the reading gives {typed} {given}"
                       " chance of being the hex's main terrain", hexes=(hex_id,),
                       confidence=conf, source="diff")
    if share >= (SUPPORTED if conf is None or conf >= sure else HINTED):
        return Finding("check", "terrain_mixed", hex_id,
                       f"{hex_id}: typed {typed}, {seen}: both are in the hex; is {typed}"
                       " what the key calls it?", hexes=(hex_id,), confidence=conf,
                       source="diff")
    severity = _severity(conf, sure)
    if fractions and readable and typed not in fractions and conf is not None \
            and conf >= MAJORITY:
        severity, seen = _at_least(severity, "warning"), f"{seen}, and no {typed} in the hex"
    return Finding(severity, "terrain_differs", hex_id,
                   f"{hex_id}: typed {typed}, {seen}", hexes=(hex_id,), confidence=conf,
                   source="diff")


def _ruled_out(hand: MapData, dig: MapData, hex_id: str, typed: str, share: float
               ) -> float | None:
    """The chance the reading's classifier gives ``typed`` of being the hex's main
    terrain, where that rules it out (under :data:`UNLIKELY`); ``None`` where the reading
    has no odds for the hex, gives it more, or its odds say nothing against the typist."""
    entry = dig.hexes.get(hex_id)
    if entry is None or not entry.probabilities:
        return None
    chance = entry.probabilities.get(typed, 0.0)
    conf = entry.confidence
    # A symbol typed in the hex (a town) is printed over its ground, and the classifier
    # reads its ink as terrain (own icons sheet, learner seeds 1-2: three clear town hexes
    # read as marsh, clear given 1%): there its odds say nothing against the typist.
    typed_entry = hand.hexes.get(hex_id)
    if typed_entry is not None and typed_entry.features:
        return None
    # Where the area shares see a good part of the typed terrain, only a classifier likely
    # right (LIKELY) overrules them: an unsure one spreads its odds thin (the demo scan
    # taught by one sample: woods typed on a hex read rough at 0.50, 50% woods, given 2%).
    if share >= SUPPORTED and (conf is None or conf < LIKELY):
        return None
    return chance if chance < UNLIKELY else None


def _hex_findings(hand: MapData, dig: MapData, hex_id: str, sure: float,
                  water: frozenset[str] = frozenset()) -> list[Finding]:
    entry = dig.hexes.get(hex_id)
    conf = entry.confidence if entry is not None else None
    sev = _severity(conf, sure)
    terrain = _terrain_finding(hand, dig, hex_id, sure, water)
    out = [terrain] if terrain is not None else []
    h_entry = hand.hexes.get(hex_id)
    # Only what the digitizer can read is compared: hex features its legend
    # declares, and names only when it read any at all.
    readable = set(dig.hex_features)
    mine_f = (set(h_entry.features) if h_entry else set()) & readable
    theirs_f = set(entry.features) if entry else set()
    if mine_f != theirs_f:
        out.append(Finding(sev, "hex_feature_differs", hex_id,
                           f"{hex_id}: hex features {_words(mine_f)} typed,"
                           f" {_words(theirs_f)} read", hexes=(hex_id,),
                           confidence=conf, source="diff"))
    mine_n = h_entry.name if h_entry else None
    theirs_n = entry.name if entry else None
    if mine_n != theirs_n and any(e.name for e in dig.hexes.values()):
        out.append(Finding(sev, "name_differs", hex_id,
                           f"{hex_id}: name {mine_n or 'none'!r} typed,"
                           f" {theirs_n or 'none'!r} read", hexes=(hex_id,),
                           confidence=conf, source="diff"))
    return out


def feature_confidence(the_map: MapData) -> dict[SideKey, dict[str, float]]:
    """Per hexside, the reading's own confidence in each feature it gives one for.

    >>> from pipeline.model import map_from_data
    >>> m = map_from_data({"kind": "map", "game": "g", "title": "t", "illustrative": True,
    ...     "source": "s", "terrain_types": {"clear": {}},
    ...     "hexside_features": {"river": {"kind": "along"}},
    ...     "boards": [{"name": "1", "grid": {"orientation": "flat", "cols": 2, "rows": 2,
    ...                                       "numbering": {"stagger": "even-down"}}}],
    ...     "hexsides": [{"hexes": ["0101", "0102"], "features": ["river"],
    ...                   "confidence": {"river": 0.8}}]})
    >>> feature_confidence(m)
    {('0101', '0102'): {'river': 0.8}}
    """
    out: dict[SideKey, dict[str, float]] = {}
    for side in the_map.hexsides:
        if side.confidence:
            out.setdefault(side.key(), {}).update(side.confidence)
    return out


@dataclass(frozen=True)
class Absence:
    """How sure a reading is that lines are not on hexsides where it read none.

    ``unseen`` is each line's confidence where the hexside showed no trace of it,
    ``doubts`` the hexsides where the reading's own differs (a trace of the line's
    colour, or ground that would hide it).
    """

    unseen: dict[str, float]
    doubts: dict[SideKey, dict[str, float]]

    def at(self, key: SideKey) -> dict[str, float]:
        """Line -> the confidence that it is not on hexside ``key`` (lines read there too)."""
        return {**self.unseen, **self.doubts.get(key, {})}


def absence_confidence(the_map: MapData) -> Absence:
    """The reading's confidence that each line is not on a hexside (digitized maps).

    >>> from pipeline.model import map_from_data
    >>> m = map_from_data({"kind": "map", "game": "g", "title": "t", "illustrative": True,
    ...     "source": "s", "terrain_types": {"clear": {}},
    ...     "hexside_features": {"road": {"kind": "across", "absent": 0.93}},
    ...     "boards": [{"name": "1", "grid": {"orientation": "flat", "cols": 2, "rows": 2,
    ...                                       "numbering": {"stagger": "even-down"}}}],
    ...     "hexsides": [{"hexes": ["0101", "0102"], "features": [], "absent": {"road": 0.4}}]})
    >>> found = absence_confidence(m)
    >>> found.at(("0101", "0102")), found.at(("0101", "0201"))
    ({'road': 0.4}, {'road': 0.93})
    """
    unseen = {n: f.absent for n, f in the_map.hexside_features.items() if f.absent is not None}
    doubts: dict[SideKey, dict[str, float]] = {}
    for side in the_map.hexsides:
        if side.absent:
            doubts.setdefault(side.key(), {}).update(side.absent)
    return Absence(unseen, doubts)


def _cited(the_map: MapData, feature: str) -> str:
    kind = the_map.hexside_features.get(feature)
    return cite_of(kind.note) if kind is not None else ""


def _side_findings(hand: MapData, dig: MapData, key: SideKey, mine: frozenset[str],
                   theirs: frozenset[str], sure: float,
                   confidence: dict[str, float], untyped: dict[str, str] | None = None,
                   absent: dict[str, float] | None = None, unseen: dict[str, str] | None = None
                   ) -> list[tuple[str, bool, Finding]]:
    """Each feature the two maps disagree on: (feature, typed by hand, finding).

    ``untyped`` are the features (``"*"``: all) the hand map leaves untyped on this
    hexside by its own declarations, with why: a bridge its rule puts on every crossing
    (:func:`~pipeline.validate.roles.rule_bridged`), any feature on the map's outline
    when it types none there. Read there, they are worth a look only. ``absent`` is the
    reading's confidence that each line it did not read is not there
    (:func:`absence_confidence`): a line typed where the reading is sure there is none
    is as much a disagreement as one read where none was typed, unless ``unseen`` says
    why the reading may not see it there (:func:`_unseen_beside`).
    """
    hexes = side_hexes(hand, key)
    name = side_name(key)
    untyped = untyped or {}
    out = []
    for feature in sorted(mine ^ theirs):
        typed = feature in mine
        said = "typed, not read" if typed else "read, not typed"
        conf = (absent or {}).get(feature) if typed else confidence.get(feature)
        if conf is None:
            # Nothing says how sure the line reading was (a feature not read has no
            # confidence, nor has a reader without per-feature confidence): a look only.
            sev: Severity = "check"
            why = " (the reading gives no confidence for this line)"
        else:
            sev = _severity(conf, sure)
            why = (f" (read as absent at confidence {conf:.2f})" if typed
                   else f" (read at confidence {conf:.2f})")
        rule = _cited(hand, feature) or _cited(dig, feature)
        if not rule:
            sev = _at_most(sev, "warning")  # no rule cites it: it decides less
        doubt = (unseen or {}).get(feature) if typed else None
        if doubt is not None and sev != "check":
            sev = "check"
            why = f"{why[:-1]}; {doubt})"
        leave = untyped.get(feature, untyped.get("*"))
        if leave is not None and not typed and sev != "check":
            sev = "check"
            why += f"; {leave}"
        if typed and feature in untyped and sev == "check":
            # Typed alone, and read neither there nor beside it: two witnesses.
            sev, why = "warning", f"{why[:-1]}; {untyped[feature]})" if conf is not None \
                else f" ({untyped[feature]})"
        out.append((feature, typed, Finding(
            sev, "hexside_differs", name, f"{name}: {feature} {said}{why}", cite=rule,
            hexes=hexes, confidence=conf, source="diff")))
    return out


def _lone(hand: MapData, dig: MapData, key: SideKey, read_only: Iterable[str],
          read: dict[SideKey, frozenset[str]]) -> dict[str, str]:
    """The features read on ``key`` alone: with nothing of the kind where it would go on.

    A road or a river left out by a typist is a stretch cut from a line the reading
    still follows on both sides (or one, at its end); a stretch the reading found with
    nothing of its kind beside it is more likely a mark misread (a town's dark dots, a
    name) than a line left out, however sure the line reader was of the mark itself.
    (A bridge is a mark on one hexside, not a line: the caller leaves bridges out.)
    """
    out = {}
    for feature in read_only:
        kind = (hand.hexside_features.get(feature) or dig.hexside_features.get(feature))
        near = touching_sides(hand, key, kind.kind if kind is not None else "across")
        if not any(feature in read.get(k, ()) for k in near):
            out[feature] = (f"read on this hexside alone, with no {feature} beside it in the"
                            " reading: a mark misread, or a stretch left out?")
    return out


def _built_up(hand: MapData, dig: MapData, key: SideKey, read_only: Iterable[str],
              roles: Roles, typed: dict[SideKey, frozenset[str]]) -> dict[str, str]:
    """Roads read into a hex typed and read as built-up: its print is dark lines itself.

    A town's or a city's fill is blocks and streets in dark ink, which a road reader
    follows as well as a road; a road left out there is one the typist can see, and
    it is listed for a look rather than as an alarm. Unless the typed road stops at
    this hexside (:func:`_stops_at`): then the reading carries on a road the typed map
    breaks off, two witnesses of a stretch left out. So does a line of the same ink the
    typed map breaks off there: the reading takes a railroad for a road where its ticks
    do not show (own keybox sheet, a railroad left out into a city read as a road).
    """
    towns = [h for h in side_hexes(hand, key)
             if hand.terrain_of(h)[0] in roles.towns and dig.terrain_of(h)[0] in roles.towns]
    if not towns:
        return {}
    return {f: f"{towns[0]} is built-up, and its print is dark lines the reading follows too"
            for f in read_only if f in roles.roads and not any(
                _stops_at(hand, key, g, typed) for g in {f, *hand.hexside_features}
                if g == f or _one_ink(dig, f, g))}


def _stops_at(hand: MapData, key: SideKey, feature: str,
              typed: dict[SideKey, frozenset[str]]) -> bool:
    """Whether a typed ``feature`` (an across line) ends in one of ``key``'s hexes.

    A road goes on from hex to hex: a hex with one typed side of it is its end, where
    a town or the map's edge usually is, or a stretch left out.
    """
    for h in side_hexes(hand, key):
        ways = [k for k in sides_of(hand, h) if feature in typed.get(k, ())]
        if len(ways) == 1 and ways[0] != key and len(ways[0]) == 2 and all(
                hand.has_hex(i) for i in ways[0]):
            return True
    return False


def _stray(hand: MapData, dig: MapData, key: SideKey, typed_only: Iterable[str],
           typed: dict[SideKey, frozenset[str]], read: dict[SideKey, frozenset[str]],
           roles: Roles) -> dict[str, str]:
    """Features typed on ``key`` alone, with nothing of the kind beside them in either map,
    and roads typed on ``key`` into a dead end the reading finds no road at.

    A road or a river is a line: a stretch of one hexside that goes on nowhere in the
    typed map, and that the reading finds neither there nor beside it, is a stretch
    typed on the wrong hexside (or on none) far more often than a line printed so. A road
    typed into a hex where it ends away from a town, a named place or the map's edge
    (lint's ``road_dead_end``), that the reading reads neither on this hexside nor on any
    other of that hex, is the same slip at a line's end: a stretch typed one hexside too
    far, or where there is none (own photo sheet, a road typed into a clear hex).
    """
    out = {}
    for feature in typed_only:
        kind = hand.hexside_features.get(feature) or dig.hexside_features.get(feature)
        near = touching_sides(hand, key, kind.kind if kind is not None else "across")
        if not any(feature in typed.get(k, ()) or feature in read.get(k, ()) for k in near):
            out[feature] = (f"typed on this hexside alone, with no {feature} beside it, and"
                            " read neither here nor beside it: typed on the wrong hexside?")
        elif feature in roles.roads:
            end = _dead_end(hand, dig, key, feature, typed, read, roles)
            if end is not None:
                out[feature] = (f"the typed {feature} ends at {end}, away from a town or the"
                                f" map edge, and the reading reads no {feature} into {end}:"
                                " typed one hexside too far?")
    return out


def _dead_end(hand: MapData, dig: MapData, key: SideKey, feature: str,
              typed: dict[SideKey, frozenset[str]], read: dict[SideKey, frozenset[str]],
              roles: Roles) -> str | None:
    """The hex of ``key`` where the typed road ``feature`` ends and the reading reads none.

    An end as lint's ``road_dead_end`` has it: no other road typed through the hex (a
    junction), none of the hex's six neighbours off the map (the road leaves), no town
    typed there and no place named there. A line of the road's ink read there counts as
    the road read (own photo sheet: a railroad read as a road where its ticks blur).
    """
    alike = {g for g in dig.hexside_features if g == feature or _one_ink(dig, feature, g)}
    alike.add(feature)
    if read.get(key, frozenset()) & alike:
        return None
    for h in side_hexes(hand, key):
        others = [k for k in sides_of(hand, h) if k != key]
        if len(neighbour_ids(hand, h)) < 6 or set(hand.terrain_of(h)) & roles.towns \
                or h in named_places(hand):
            continue
        if any(typed.get(k, frozenset()) & roles.roads for k in others):
            continue
        if not any(read.get(k, frozenset()) & alike for k in others):
            return h
    return None


def _unseen_beside(hand: MapData, key: SideKey, typed_only: Iterable[str],
                   typed: dict[SideKey, frozenset[str]], read: dict[SideKey, frozenset[str]]
                   ) -> dict[str, str]:
    """Lines typed on ``key`` that go on, typed, where the reading does not read them either.

    The reading's confidence that a line is not there was measured where the reader sees
    the map's lines as well as on the bench. A line it reads nowhere along the typed
    stretches beside this one (a faint trail through a halftone screen) may be a line it
    does not see here either; where it reads the typed line beside this hexside and none
    of it here, the typed stretch is one too many (a road typed beside a road).
    """
    out = {}
    for feature in typed_only:
        kind = hand.hexside_features.get(feature)
        near = [k for k in touching_sides(hand, key, kind.kind if kind is not None else "across")
                if feature in typed.get(k, ())]
        if near and not any(feature in read.get(k, ()) for k in near):
            out[feature] = (f"the reading does not read the {feature} typed beside it either:"
                            " it may not see this line here")
    return out


# Two colours of hexside ink this close (the largest channel difference) are one ink.
_INK = 40


def _same_ink(dig: MapData, read_only: Iterable[str], typed_only: Iterable[str]
              ) -> dict[str, str]:
    """Features read where another of the same kind and ink was typed, and not read.

    A railroad and a road printed in one black differ by the railroad's ticks; where
    the reading has the one and the typist the other, the reading is as likely to have
    missed the ticks as the typist to have typed the wrong line: a look, not an alarm.
    """
    out = {}
    for feature in read_only:
        for other in typed_only:
            if _one_ink(dig, feature, other):
                out[feature] = (f"{other} is typed here and printed in the same ink: the"
                                f" reading may have taken the one for the other")
    return out


def _one_ink(dig: MapData, a: str, b: str) -> bool:
    """Whether two hexside features are of one kind and printed in one ink (:data:`_INK`)."""
    def ink(name: str) -> tuple[str, tuple[int, ...]] | None:
        kind = dig.hexside_features.get(name)
        if kind is None or not kind.color:
            return None
        text = kind.color.lstrip("#")
        return kind.kind, tuple(int(text[i:i + 2], 16) for i in (0, 2, 4))

    mine, theirs = ink(a), ink(b)
    return mine is not None and theirs is not None and mine[0] == theirs[0] and max(
        abs(x - y) for x, y in zip(mine[1], theirs[1], strict=True)) <= _INK


# Typing mistakes come one or two hexes at a time (a hex, a swapped pair); a reading goes
# wrong over a region (glare, a fold, a shadow). This many neighbouring hexes read
# otherwise than typed, one of them an alarm, are one finding about the region, not one
# a hex.
_PATCH = 4


_TERRAIN_KINDS = frozenset({"terrain_differs", "terrain_mixed"})


def _swaps(hand: MapData, dig: MapData, findings: list[Finding]) -> list[Finding]:
    """Neighbouring hexes each typed as the other is read: one finding for the pair.

    Either hex alone may be a reading's doubt (a soft note, a check), but a reading that
    errs on two neighbours exactly crosswise is a coincidence none of the bench's eleven
    correct maps showed; two entries typed under each other's ids is a typist's slip.
    """
    differ = {f.where: f for f in findings if f.kind in _TERRAIN_KINDS}
    pairs = []
    for a in sorted(differ):
        for b in neighbour_ids(hand, a):
            if b in differ and a < b and hand.terrain_of(a)[0] == dig.terrain_of(b)[0] \
                    and hand.terrain_of(b)[0] == dig.terrain_of(a)[0]:
                pairs.append((a, b))
    taken: set[str] = set()
    out = []
    for a, b in pairs:
        if a in taken or b in taken:
            continue
        taken |= {a, b}
        typed_a, typed_b = hand.terrain_of(a)[0], hand.terrain_of(b)[0]
        out.append(Finding(
            "warning", "terrain_swapped", a,
            f"{a} and {b}: typed {typed_a} and {typed_b}, read {typed_b} and {typed_a}: are"
            f" the two entries typed under each other's ids? ({differ[a].message};"
            f" {differ[b].message})", hexes=(a, b),
            confidence=min(differ[a].confidence or 1.0, differ[b].confidence or 1.0),
            source="diff"))
    return [f for f in findings if f.where not in taken or f.kind not in _TERRAIN_KINDS] + out


def _patches(the_map: MapData, dig: MapData, findings: list[Finding]) -> list[Finding]:
    """Terrain disagreements of neighbouring hexes gathered: a region is one finding.

    A region is :data:`_PATCH` or more neighbouring hexes read as one terrain and typed
    otherwise, however sure the reading of each (a shadow read as hills at 0.5 to 0.9
    is a region all the same), with at least one alarm among them: its alarms and looks
    are one warning. A reading gone wrong over a region reads one thing across it; a
    typed slip beside it is read as something else and stays a finding of its own. So
    does one on a hex the reading took as an example (a sample, or a hex the legend's
    colour names surely: a hex without odds on a map that gives them): the classifier
    that went wrong over the region did not read it (own photo sheet, a town beside a
    glare read as town, typed as hills).
    """
    odds = any(e.probabilities for e in dig.hexes.values())
    differ = {f.where: f for f in findings if f.kind == "terrain_differs"
              and not (odds and _example(dig, f.where))}
    gathered: list[Finding] = []
    gone: set[str] = set()
    for region in hex_regions(the_map, sorted(differ), lambda start, n: n in differ and
                              dig.terrain_of(n)[0] == dig.terrain_of(start)[0]):
        alarms = [h for h in region if differ[h].severity != "check"]
        if len(region) >= _PATCH and alarms:
            region.sort()
            gone.update(region)
            gathered.append(Finding(
                "warning", "terrain_region_differs", region[0],
                f"{region[0]}: {len(region)} neighbouring hexes ({', '.join(region[:6])}"
                f"{' ...' if len(region) > 6 else ''}) are typed otherwise than read: a region"
                " the reading got wrong (glare, a fold, a shadow), or a block typed from the"
                " wrong place? Look at it once on the scan", hexes=tuple(region),
                confidence=min(differ[h].confidence or 1.0 for h in alarms), source="diff"))
    return [f for f in findings if f.where not in gone or f.kind != "terrain_differs"] + gathered


def _example(dig: MapData, hex_id: str) -> bool:
    """Whether the reading took ``hex_id`` as an example (it gives the hex no odds)."""
    entry = dig.hexes.get(hex_id)
    return entry is not None and not entry.probabilities


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
        found = _hex_findings(hand, digitized, hex_id, sure, roles.water)
        findings += found
        agreeing += not any(f.kind != "terrain_mixed" for f in found)
        terrain_pairs.append((set(hand.terrain_of(hex_id)), set(digitized.terrain_of(hex_id))))
    findings = _patches(hand, digitized, _swaps(hand, digitized, findings))
    mine_sides, their_sides = feature_sides(hand), feature_sides(digitized)
    ruled = [b for b in roles.bridges
             if b in hand.hexside_features and cite_of(hand.hexside_features[b].note)]
    bridged = rule_bridged(mine_sides, roles, ruled)
    outline = {k for k in set(mine_sides) | set(their_sides) if not hand.has_hex(k[-1])}
    # Off-map crossings matter to no rule of movement: a typist who types none of the
    # outline's hexsides leaves them all out, and a road read leaving the map is no slip.
    off_map = {"*": "the map types no feature on its outline hexsides"} \
        if not outline & set(mine_sides) else {}
    crossing = {b: "the map types no bridge and its rule puts one on every road over a"
                " river: type it if this map lists them" for b in roles.bridges}
    sureness = feature_confidence(digitized)
    absence = absence_confidence(digitized)
    side_pairs = []
    side_found = []
    for key in sorted(set(mine_sides) | set(their_sides)):
        mine = mine_sides.get(key, frozenset())
        theirs = their_sides.get(key, frozenset())
        side_pairs.append((mine, theirs))
        side_found += _side_findings(hand, digitized, key, mine, theirs, sure,
                                     sureness.get(key, {}),
                                     {**_lone(hand, digitized, key,
                                              theirs - mine - roles.bridges, their_sides),
                                      **_built_up(hand, digitized, key, theirs - mine, roles,
                                                  mine_sides),
                                      **_same_ink(digitized, theirs - mine - roles.bridges,
                                                  mine - theirs - roles.bridges),
                                      **_stray(hand, digitized, key,
                                               mine - theirs - roles.bridges, mine_sides,
                                               their_sides, roles),
                                      **(crossing if key in bridged else {}),
                                      **(off_map if key in outline else {})},
                                     absence.at(key),
                                     _unseen_beside(hand, key, mine - theirs, mine_sides,
                                                    their_sides))
    vocab = set(hand.terrain_types) | set(digitized.terrain_types)
    features = _count(side_pairs, set(hand.hexside_features) | set(digitized.hexside_features))
    vouched = {f for conf in sureness.values() for f in conf}
    quiet, notes = _untrusted(features, vouched)
    findings += [f for feature, typed, f in side_found if (feature, typed) not in quiet]
    return MapDiff(sort_findings(findings + notes), _count(terrain_pairs, vocab), features,
                   len(ids), agreeing)
