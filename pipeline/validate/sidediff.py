"""Typed hexside features against the reading's, one by one.

Each with the reading's own per-feature confidence (``HexsideEntry.confidence``); a
reading that gives none for a feature (readers before per-feature confidence) makes its
disagreements checks, and the finding says so: the two hexes' terrain confidence says
nothing about how sure a line reading was. A line typed where the reading read none is
judged by the reading's confidence that it is *not* there (``absent`` in the reading's
vocabulary and hexside entries, :func:`absence_confidence`): sure where the hexside
showed no trace of the line, doubtful where it showed some, or where the reading does
not read the typed line beside it either.

A hexside feature whose vocabulary note cites a rulebook section can be an error, one no
rule cites (a trail, a field boundary) at most a warning. What the typed map declares,
and what a line is (it goes on from hex to hex), make some disagreements looks only and
some alarms: each case is a function below, each with its bench map and its test.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pipeline.model import MapData
from pipeline.validate.bands import at_most, band_severity
from pipeline.validate.findings import Finding, Severity, cite_of
from pipeline.validate.roles import Roles, rule_bridged
from pipeline.validate.sides import (
    SideKey,
    feature_sides,
    named_places,
    road_may_end,
    side_hexes,
    side_name,
    sides_of,
    touching_sides,
)

__all__ = ["Absence", "SidePair", "absence_confidence", "feature_confidence", "side_findings"]

# A hexside's typed and read features.
SidePair = tuple[frozenset[str], frozenset[str]]


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


def side_findings(hand: MapData, dig: MapData, sure: float, roles: Roles,
                  sureness: dict[SideKey, dict[str, float]]
                  ) -> tuple[list[SidePair], list[tuple[str, bool, Finding]]]:
    """Every hexside either map gives a feature: its typed and read features, and each
    disagreement as (feature, typed by hand, finding), in the hexsides' order.
    ``sureness`` is the reading's confidence in its features (:func:`feature_confidence`
    of ``dig``)."""
    mine_sides, their_sides = feature_sides(hand), feature_sides(dig)
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
    absence = absence_confidence(dig)
    drawn = {side.key(): side.drawn for side in dig.hexsides if side.drawn}
    places = named_places(hand)
    pairs: list[SidePair] = []
    found: list[tuple[str, bool, Finding]] = []
    for key in sorted(set(mine_sides) | set(their_sides)):
        mine = mine_sides.get(key, frozenset())
        theirs = their_sides.get(key, frozenset())
        pairs.append((mine, theirs))
        found += _side_findings(hand, dig, key, mine, theirs, sure, sureness.get(key, {}),
                                {**_lone(hand, dig, key, theirs - mine - roles.bridges,
                                         their_sides),
                                 **_built_up(hand, dig, key, theirs - mine, roles, mine_sides),
                                 **_same_ink(dig, theirs - mine - roles.bridges,
                                             mine - theirs - roles.bridges),
                                 **_stray(hand, dig, key, mine - theirs - roles.bridges,
                                          mine_sides, their_sides, roles, places),
                                 **(crossing if key in bridged else {}),
                                 **(off_map if key in outline else {})},
                                absence.at(key),
                                _unseen_beside(hand, key, mine - theirs, mine_sides,
                                               their_sides),
                                _drawn_untyped(dig, drawn.get(key, {}), mine))
    return pairs, found


def _drawn_untyped(dig: MapData, drawn: dict[str, float], typed: frozenset[str]
                   ) -> dict[str, tuple[float, str]]:
    """The lines the reading is surer are drawn on a hexside than what they are called
    (``HexsideEntry.drawn``), where no line of their ink is typed there: each with how sure
    the reading is of the line, and the other lines of its ink it may be.

    A road left out where the reading sees a stroke of the road's black but cannot tell
    by the ticks whether it is the road or the railroad is a line left out all the same.
    """
    out = {}
    for feature, sure in drawn.items():
        alike = _inked_alike(dig, feature, dig)
        if not alike & typed:
            others = " or ".join(sorted(alike - {feature})) or "another line of its ink"
            out[feature] = (sure, others)
    return out


def _cited(the_map: MapData, feature: str) -> str:
    kind = the_map.hexside_features.get(feature)
    return cite_of(kind.note) if kind is not None else ""


def _side_findings(hand: MapData, dig: MapData, key: SideKey, mine: frozenset[str],
                   theirs: frozenset[str], sure: float,
                   confidence: dict[str, float], untyped: dict[str, str] | None = None,
                   absent: dict[str, float] | None = None, unseen: dict[str, str] | None = None,
                   drawn: dict[str, tuple[float, str]] | None = None
                   ) -> list[tuple[str, bool, Finding]]:
    """Each feature the two maps disagree on: (feature, typed by hand, finding).

    ``untyped`` are the features (``"*"``: all) the hand map leaves untyped on this
    hexside by its own declarations, with why: a bridge its rule puts on every crossing
    (:func:`~pipeline.validate.roles.rule_bridged`), any feature on the map's outline
    when it types none there. Read there, they are worth a look only. ``absent`` is the
    reading's confidence that each line it did not read is not there
    (:func:`absence_confidence`): a line typed where the reading is sure there is none
    is as much a disagreement as one read where none was typed, unless ``unseen`` says
    why the reading may not see it there (:func:`_unseen_beside`). A line read where no
    line of its ink was typed is judged by how sure the reading is of the line, not of
    its name, where ``drawn`` gives that (:func:`_drawn_untyped`).
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
            sev = band_severity(conf, sure)
            why = (f" (read as absent at confidence {conf:.2f})" if typed
                   else f" (read at confidence {conf:.2f})")
        line = None if typed else (drawn or {}).get(feature)
        if line is not None and conf is not None and line[0] > conf:
            sev = band_severity(line[0], sure)
            why = (f" (a line of its ink read at confidence {line[0]:.2f}; that it is the"
                   f" {feature}, not the {line[1]}, at {conf:.2f})")
            conf = line[0]
        rule = _cited(hand, feature) or _cited(dig, feature)
        if not rule:
            sev = at_most(sev, "warning")  # no rule cites it: it decides less
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
        # A line of its ink beside it is the same stroke read under another name (a road
        # read as the railroad printed in its black, where the ticks do not show).
        alike = _inked_alike(dig, feature, dig)
        if not any(alike & read.get(k, frozenset()) for k in near):
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
                _stops_at(hand, key, g, typed) for g in _inked_alike(dig, f, hand))}


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
           roles: Roles, places: set[str]) -> dict[str, str]:
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
            end = _dead_end(hand, dig, key, feature, typed, read, roles, places)
            if end is not None:
                out[feature] = (f"the typed {feature} ends at {end}, away from a town or the"
                                f" map edge, and the reading reads no {feature} into {end}:"
                                " typed one hexside too far?")
    return out


def _dead_end(hand: MapData, dig: MapData, key: SideKey, feature: str,
              typed: dict[SideKey, frozenset[str]], read: dict[SideKey, frozenset[str]],
              roles: Roles, places: set[str]) -> str | None:
    """The hex of ``key`` where the typed road ``feature`` ends and the reading reads none.

    An end as lint's ``road_dead_end`` has it: no other road typed through the hex (a
    junction), and not a hex where a road may end (:func:`road_may_end`; ``places`` are
    the map's named places). A line of the road's ink read there counts as the road read
    (own photo sheet: a railroad read as a road where its ticks blur).
    """
    alike = _inked_alike(dig, feature, dig)
    if read.get(key, frozenset()) & alike:
        return None
    for h in side_hexes(hand, key):
        others = [k for k in sides_of(hand, h) if k != key]
        if road_may_end(hand, h, places, roles.towns):
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


def _inked_alike(dig: MapData, feature: str, vocabulary: MapData) -> set[str]:
    """``feature`` and the features of ``vocabulary`` printed in its ink (:func:`_one_ink`):
    the lines the reading may take for it."""
    return {feature} | {g for g in vocabulary.hexside_features if _one_ink(dig, feature, g)}


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
