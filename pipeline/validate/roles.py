"""Vocabulary roles: which of a map's own names mean sea, coast, town, road, river, bridge.

Every map names its terrain and hexside features its own way (``all_sea``,
``ocean``, ``sea``; ``city``, ``town``, ``cherbourg_city``), so the checks
that need to know what a name *means* read it from :class:`Roles`. The
defaults are guessed from the names in the map's vocabulary and can be
overridden one role at a time (``bocage validate --role sea=all_sea,lake``).

>>> from pipeline.model import GameFolder
>>> from pathlib import Path
>>> demo = GameFolder(Path(__file__).resolve().parents[2] / "maps" / "demo").map_data()
>>> r = roles_for(demo)
>>> sorted(r.sea), sorted(r.coast), sorted(r.towns), sorted(r.roads)
(['all_sea'], ['beach'], ['city', 'village'], ['road', 'trail'])
>>> sorted(roles_for(demo, {"sea": ["all_sea", "harbour"]}).water)
['all_sea', 'harbour']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace

from pipeline.errors import BocageError, did_you_mean
from pipeline.model import MapData

__all__ = ["ROLE_NAMES", "Roles", "parse_role_options", "roles_for"]

# Name fragments that suggest a role; a map whose names say otherwise overrides the role.
_HINTS: dict[str, tuple[str, ...]] = {
    "sea": ("sea", "ocean"),
    "water": ("sea", "ocean", "lake", "pond", "loch", "lagoon", "reservoir", "water"),
    "coast": ("beach", "coast", "shore", "cliff"),
    "coast_sides": ("sea", "ocean", "coast", "beach", "cliff", "shore"),
    "towns": ("city", "town", "village", "hamlet", "urban"),
    "town_kinds": ("city", "town", "village", "hamlet", "urban"),
    "roads": ("road", "trail", "track", "highway", "pike"),
    "rivers": ("river", "stream", "canal", "creek", "brook"),
    "bridges": ("bridge",),
}


@dataclass(frozen=True)
class Roles:
    """What the map's names mean to the lint checks.

    Parameters
    ----------
    sea
        Terrain that is open water.
    water
        Terrain that is open water, the sea's or inland (a lake): of another kind than
        every land terrain, so that no reading of the land is the typist's water, nor
        the other way round. By default the sea and the names of inland water.
    coast
        Terrain that may meet the sea (a beach hex marks a coast).
    coast_sides
        Hexside features that mark a coast on the hexside itself.
    towns
        Terrain of built-up hexes (a named town should have one).
    town_kinds
        Location kinds that name a town (``city``, ``town``, ``village``).
    roads
        ``across`` hexside features that are roads or trails.
    rivers
        ``along`` hexside features that are rivers, streams or canals.
    bridges
        Hexside features that are bridges (need a road and a river).
    rare_share
        Terrain that is the main terrain of at most this share of the map's
        hexes is rare: a lone hex of it is worth a look.
    """

    sea: frozenset[str] = frozenset()
    water: frozenset[str] = frozenset()
    coast: frozenset[str] = frozenset()
    coast_sides: frozenset[str] = frozenset()
    towns: frozenset[str] = frozenset()
    town_kinds: frozenset[str] = frozenset()
    roads: frozenset[str] = frozenset()
    rivers: frozenset[str] = frozenset()
    bridges: frozenset[str] = frozenset()
    rare_share: float = 0.05


#: What a map's names can mean (``--role ROLE=NAME,...``): the fields of :class:`Roles`.
ROLE_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Roles) if f.name != "rare_share")


def rule_bridged(sides: Mapping[tuple[str, ...], frozenset[str]], roles: Roles,
                 ruled: Iterable[str]) -> set[tuple[str, ...]]:
    """The hexsides a map leaves bridged to its rule: road over river, no bridge typed.

    ``ruled`` are the bridge features whose note cites the rule that puts one on every
    crossing (Omaha's "River hexsides contain a bridge wherever a road crosses a river",
    000_3d79f68a6e3e33eb.txt §8.2.2). A map that types none of its bridges and declares
    such a rule leaves every crossing bridged by it, so a bridge a scan prints there
    agrees with the rule (the typist may still mean to list it). A map that types bridges
    one by one, or
    whose bridge note cites no rule (a map key describing the print), has none by rule:
    a bridge read on a crossing is then one the typist left out.

    >>> roles = Roles(roads=frozenset({"road"}), rivers=frozenset({"river"}),
    ...               bridges=frozenset({"bridge"}))
    >>> sides = {("0101", "0102"): frozenset({"road", "river"}),
    ...          ("0101", "0201"): frozenset({"road"})}
    >>> rule_bridged(sides, roles, ["bridge"]), rule_bridged(sides, roles, [])
    ({('0101', '0102')}, set())
    """
    if not roles.bridges & set(ruled) or any(f & roles.bridges for f in sides.values()):
        return set()
    return {key for key, features in sides.items()
            if features & roles.roads and features & roles.rivers}


def _matching(names: Iterable[str], hints: tuple[str, ...]) -> frozenset[str]:
    return frozenset(n for n in names if any(h in n.lower() for h in hints))


def roles_for(the_map: MapData, overrides: Mapping[str, Iterable[str]] | None = None) -> Roles:
    """The roles of a map's vocabulary: guessed from its names, then ``overrides``.

    Raises
    ------
    BocageError
        An override names an unknown role.
    """
    terrain = list(the_map.terrain_types)
    sides = the_map.hexside_features
    across = [n for n, t in sides.items() if t.kind == "across"]
    along = [n for n, t in sides.items() if t.kind == "along"]
    kinds = [place.kind for place in the_map.locations]
    bridges = _matching(sides, _HINTS["bridges"])
    roles = Roles(
        sea=_matching(terrain, _HINTS["sea"]),
        water=_matching(terrain, _HINTS["water"]),
        coast=_matching(terrain, _HINTS["coast"]),
        coast_sides=_matching(along, _HINTS["coast_sides"]),
        towns=_matching(terrain, _HINTS["towns"]),
        town_kinds=_matching(kinds, _HINTS["town_kinds"]),
        roads=_matching(across, _HINTS["roads"]) - bridges,
        rivers=_matching(along, _HINTS["rivers"]),
        bridges=bridges,
    )
    changes: dict[str, frozenset[str]] = {}
    for role, names in (overrides or {}).items():
        if role not in ROLE_NAMES:
            raise BocageError(f"unknown role '{role}'{did_you_mean(role, ROLE_NAMES)}"
                              f" (one of {', '.join(ROLE_NAMES)})")
        changes[role] = frozenset(names)
    if "sea" in changes and "water" not in changes:
        # The sea a map declares is open water whatever its name (``--role sea=all_sea``).
        changes["water"] = (roles.water - roles.sea) | changes["sea"]
    return replace(roles, **changes)  # type: ignore[arg-type]  # str keys, checked above


def parse_role_options(options: Iterable[str]) -> dict[str, list[str]]:
    """``["sea=all_sea,lake", "coast="]`` -> ``{"sea": ["all_sea", "lake"], "coast": []}``.

    >>> parse_role_options(["sea=all_sea,lake", "coast="])
    {'sea': ['all_sea', 'lake'], 'coast': []}
    """
    out: dict[str, list[str]] = {}
    for option in options:
        role, sep, names = option.partition("=")
        if not sep or not role.strip():
            raise BocageError(f"--role '{option}': write ROLE=NAME,NAME (roles:"
                              f" {', '.join(ROLE_NAMES)})")
        out[role.strip()] = [n.strip() for n in names.split(",") if n.strip()]
    return out
