"""A hex's typed terrain, hex features and name against the reading's.

The typed main terrain (the first one typed) is compared with the reading's main
terrain, with the reading's area shares and its classifier's odds as support: a typed
``woods`` on a hex read 55% clear / 45% woods is a soft note (``check``), not an error;
a typed terrain the reading sees none of is an alarm where the reading has an opinion
(its main terrain at 0.4 or more), and so is one its classifier gives almost no chance
(:data:`~pipeline.validate.bands.UNLIKELY`); open water typed where it sees only land
(or land where it sees only water) is one however unsure it is of which land it sees.

Four or more neighbouring hexes read as one terrain and typed otherwise, one of them an
alarm, are one ``terrain_region_differs`` finding: a typist's slips come a hex or two at
a time, a reading goes wrong over a region (glare, a fold). Two neighbours each typed as
the other is read are one ``terrain_swapped`` warning, however unsure the reading of
either: entries typed under each other's ids (:func:`gathered`).
"""

from __future__ import annotations

from collections.abc import Iterable

from pipeline.model import MapData
from pipeline.validate.bands import (
    HALF,
    HINTED,
    LIKELY,
    OPINION,
    SUPPORTED,
    UNLIKELY,
    at_least,
    band_severity,
)
from pipeline.validate.findings import Finding
from pipeline.validate.sides import hex_regions, neighbour_ids

__all__ = ["gathered", "hex_findings"]


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
    class probabilities), and one of which a reading with an opinion (:data:`OPINION`)
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
        return Finding(at_least(band_severity(conf, sure), "warning"), "terrain_differs", hex_id,
                       f"{hex_id}: typed {typed}, {seen}: {kind} where the reading sees"
                       f" none", hexes=(hex_id,), confidence=conf, source="diff")
    chance = _ruled_out(hand, dig, hex_id, typed, share)
    if chance is not None and readable:
        # The classifier's own odds, not the area shares: a terrain can cover part of a
        # hex that is plainly another's (a hill's edge in a wood).
        given = f"a {chance:.0%}" if chance >= 0.01 else "under a 1%"
        return Finding(at_least(band_severity(conf, sure), "warning"), "terrain_differs", hex_id,
                       f"{hex_id}: typed {typed}, {seen}: the reading gives {typed} {given}"
                       " chance of being the hex's main terrain", hexes=(hex_id,),
                       confidence=conf, source="diff")
    if share >= (SUPPORTED if conf is None or conf >= sure else HINTED):
        return Finding("check", "terrain_mixed", hex_id,
                       f"{hex_id}: typed {typed}, {seen}: both are in the hex; is {typed}"
                       " what the key calls it?", hexes=(hex_id,), confidence=conf,
                       source="diff")
    severity = band_severity(conf, sure)
    if fractions and readable and typed not in fractions and conf is not None \
            and conf >= OPINION:
        severity, seen = at_least(severity, "warning"), f"{seen}, and no {typed} in the hex"
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
    # Where they see most of the hex as it (HALF), none does.
    if share >= HALF or (share >= SUPPORTED and (conf is None or conf < LIKELY)):
        return None
    return chance if chance < UNLIKELY else None


def hex_findings(hand: MapData, dig: MapData, hex_id: str, sure: float,
                  water: frozenset[str] = frozenset()) -> list[Finding]:
    """What the typed hex and the reading's disagree on: its main terrain (``water``: the
    terrains that are open water), its hex features and its name, with the reading's
    confidence."""
    entry = dig.hexes.get(hex_id)
    conf = entry.confidence if entry is not None else None
    sev = band_severity(conf, sure)
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


# Typing mistakes come one or two hexes at a time (a hex, a swapped pair); a reading goes
# wrong over a region (glare, a fold, a shadow). This many neighbouring hexes read
# otherwise than typed, one of them an alarm, are one finding about the region, not one
# a hex.
_PATCH = 4


_TERRAIN_KINDS = frozenset({"terrain_differs", "terrain_mixed"})


def gathered(hand: MapData, dig: MapData, findings: list[Finding]) -> list[Finding]:
    """The hexes' findings with neighbouring terrain disagreements gathered: a pair typed
    crosswise is one finding (:func:`_swaps`), a region read otherwise is one
    (:func:`_patches`)."""
    return _patches(hand, dig, _swaps(hand, dig, findings))


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
