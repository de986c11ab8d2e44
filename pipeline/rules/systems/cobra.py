"""Cobra (003_de9c41aeffe9bb98.txt): Normandy, June–August 1944, division scale.

Initial and mechanized movement phases, zones of control that stop a unit and
are left only by disengaging, the bocage and its minimum costs, roads that
replace the terrain cost, one division a hex, and supply lines of at most 12
counted hexes. Readings of unclear rules follow RULINGS.md (COB-1..3); the
others chosen here are marked "Reading:" where they are applied.
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING

from pipeline.hexgrid import Hex
from pipeline.rules.errors import RulesError
from pipeline.rules.movement import Move, MoveQuery
from pipeline.rules.situation import Unit
from pipeline.rules.kernel import KERNEL_READS
from pipeline.rules.systems.base import REPOSITORY, Steps, SupplyAnswer, System, length_count, ma_factor
from pipeline.rules.verdict import Verdict

if TYPE_CHECKING:
    from pipeline.rules.engine import Engine

__all__ = ["Cobra"]

ALLIED, GERMAN = "allied", "german"
# Movement memory words.
IN_EZOC = "in_ezoc"        # began the phase in an EZOC (003 §5.2.3): it may only disengage
DISENGAGED = "disengaged"  # 003 §5.6.2: no EZOC may be entered again this phase
HOP = "hop"                # 003 §5.3.7: a Ranger/Commando's one hex in a mechanized phase

MECHANIZED_PHASE = "mechanized_movement"
ROADS = ("primary_road", "secondary_road")
WOODS = ("light_forest", "heavy_forest")
NO_ZOC_INTO = ("caen_city", "cherbourg_city", "fortress")  # 003 §7.6
US_GROUP = frozenset({"US", "French"})                       # 003 §2.3.4
BRITISH_GROUP = frozenset({"British", "Canadian", "Polish"})  # 003 §2.3.1, §2.3.4
SUPPLY_LENGTH = 12                                            # 003 §10.3.1
RIVER_COUNT = 6                                               # 003 §10.3.6 (RULINGS COB-3)
_SEA, _ROAD, _RIVER = 1, 2, 4  # hexside bits for supply tracing

# 003 §6.1: a division is one division-sized unit or three regiments/brigades.
_SIZE_VALUE = {"division": Fraction(1), "regiment": Fraction(1, 3),
               "brigade": Fraction(1, 3), "kampfgruppe": Fraction(1, 3),
               "kg": Fraction(1, 3)}
# Reading (003 §6.2, cob-47): a battalion or HQ beyond the free ones counts; the
# rulebook gives it no value, so it counts as the smallest counted unit, 1/3.
_EXTRA_VALUE = Fraction(1, 3)


@dataclass(frozen=True)
class _Mover:
    """A mover's surroundings for one movement question."""

    barred: dict[Hex, tuple[str, str]]  # hex: (section, reason) it may not be entered
    ezoc: frozenset[Hex]                # hexes in an enemy ZOC
    ma: float                           # MPA this phase
    rule: str                           # the section that set it


@dataclass(frozen=True)
class _Tracing:
    """The rules one supply search applies. The strict tracing answers; the
    diagnosis of a unit out of supply relaxes one rule at a time to name it."""

    side: str
    limit: int | None = SUPPLY_LENGTH   # 003 §10.3.1
    river_count: int = RIVER_COUNT      # 003 §10.3.6
    bocage_counts_two: bool = True      # 003 §10.3.4
    river_counts_six: bool = True       # 003 §10.3.6
    one_marsh: bool = True              # 003 §10.3.2
    all_sea_blocks: bool = True         # 003 §5.7.4
    wrecked_beaches: bool = False       # 003 §10.5.4 (relaxed: they would serve)
    open_beaches: bool = False          # 003 §10.5.3 (relaxed: no occupant needed in an EZOC)

    def loosest(self) -> _Tracing:
        """Every rule but enemy units and EZOC relaxed: a lower bound for any relaxation."""
        return replace(self, limit=None, bocage_counts_two=False, river_counts_six=False,
                       one_marsh=False, all_sea_blocks=False, wrecked_beaches=True,
                       open_beaches=True)


# (hex, counted marsh hexes so far, the line leaves this marsh hex toward the source by a road)
_State = tuple[Hex, int, bool]


@dataclass(frozen=True)
class _Lines:
    """The result of one multi-source supply search: the best state of each hex."""

    best: dict[Hex, _State]
    count: dict[_State, int]
    parent: dict[_State, _State | None]

    def counted(self, h: Hex) -> int:
        """The count of the shortest line from ``h``."""
        return self.count[self.best[h]]

    def path(self, h: Hex) -> tuple[Hex, ...]:
        """The line from ``h`` to its source."""
        out: list[Hex] = []
        state: _State | None = self.best[h]
        while state is not None:
            out.append(state[0])
            state = self.parent[state]
        return tuple(out)


@dataclass(frozen=True)
class _SupplyTerrain:
    """What supply tracing needs of the map, computed once per engine."""

    counts: dict[Hex, int]   # 003 §10.3.4/§10.3.5: what entering a hex counts
    marsh: frozenset[Hex]    # 003 §10.3.2
    present: frozenset[str]  # the relaxable things this position has at all
    # Filled as the searches go: each hex's neighbours with the hexside's _SEA/_ROAD/_RIVER.
    edges: dict[Hex, tuple[tuple[Hex, int], ...]]


@dataclass(frozen=True)
class _Relaxation:
    """003 §10.3, §10.5: a unit out of supply is refused by the first rule whose
    relaxation alone would supply it; otherwise by 10.3.1 (enemy units and EZOC)."""

    section: str
    relax: Callable[[_Tracing], _Tracing]
    needs: str | None  # without it in the position the relaxation changes nothing
    reason: str


_DIAGNOSES = (
    _Relaxation("10.5.4", lambda t: replace(t, wrecked_beaches=True), "wrecked_beach",
                "the only beach in reach is wrecked and no longer a source"),
    _Relaxation("10.5.3", lambda t: replace(t, open_beaches=True), "beach",
                "the only beach in reach is in an EZOC and no Allied unit occupies it"),
    _Relaxation("5.7.4", lambda t: replace(t, all_sea_blocks=False), "all_sea",
                "all-sea hexsides block every line to a source"),
    _Relaxation("10.3.2", lambda t: replace(t, one_marsh=False), "marsh",
                "every line passes more than one marsh hex off the roads"),
    _Relaxation("10.3.4", lambda t: replace(t, bocage_counts_two=False), "bocage",
                "bocage hexes count two and make every line longer than {limit} hexes"),
    _Relaxation("10.3.6", lambda t: replace(t, river_counts_six=False), "major_river",
                "a major river crossed off the road counts six and makes every line"
                " longer than {limit} hexes"),
    _Relaxation("10.3.1", lambda t: replace(t, limit=None), None,
                "every line is longer than {limit} hexes"),
)


class Cobra(System):
    """003: Cobra (the Normandy campaign), basic and expanded rules."""

    name = "cobra"
    title = "Cobra: The Normandy Campaign"
    rulebook = "003_de9c41aeffe9bb98.txt"
    code = "003"
    reads = KERNEL_READS
    reference = REPOSITORY / "maps" / "cobra" / "rules.json"

    # -- who is what -----------------------------------------------------------------

    @staticmethod
    def is_hq(unit: Unit) -> bool:
        """003 §9: headquarters units (size ``corps`` in the unit data)."""
        return unit.flag("hq") or unit.get("size") == "corps"

    @classmethod
    def is_mechanized(cls, unit: Unit) -> bool:
        """003 §5.3.1, §5.3.2: armour, panzer, panzer grenadier and every HQ."""
        return unit.unit_class == "mechanized" or cls.is_hq(unit)

    @staticmethod
    def is_delay(unit: Unit) -> bool:
        """003 §15: German delay units."""
        return unit.flag("delay") or unit.get("size") == "delay"

    @staticmethod
    def nation(unit: Unit) -> str | None:
        """003 §2.3.4: "US" includes the French, "British" the Canadians and Poles."""
        nationality = unit.get("nationality")
        if nationality in US_GROUP:
            return "US"
        if nationality in BRITISH_GROUP:
            return "British"
        return None if nationality is None else str(nationality)

    @staticmethod
    def in_bocage_area(engine: Engine, h: Hex) -> bool:
        """A hex inside the bocage outline (SCENARIOS.md §2.1 tag ``bocage``)."""
        return engine.situation.map.has(h, "bocage")

    @classmethod
    def bocage_hex(cls, engine: Engine, h: Hex) -> bool:
        """A bocage hex; 003 §8.3.4: a marsh hex in the bocage area is only marsh."""
        return cls.in_bocage_area(engine, h) and not engine.situation.map.has(h, "marsh")

    # -- zones of control (003 §7) ----------------------------------------------------

    def exerts_zoc(self, engine: Engine, unit: Unit) -> bool:
        """003 §7.1, §9.2.2: HQs, battalions and Flak units exert no ZOC; delay units
        do (§15.1); §7.8: on GT 1 Allied paratroops and enemy units next to them exert none.
        The rules profile's ``zoc`` lists say which units are HQs, battalions and Flak."""
        if self.zoc_exempt(engine, unit, published=self.is_hq(unit) or unit.flag("flak")
                           or unit.get("size") == "battalion"):
            return False
        if engine.situation.turn == 1 and unit.hex is not None:
            if unit.side == ALLIED and unit.flag("paratroop"):
                return False
            if any(u.side != unit.side and u.flag("paratroop")
                   for n in engine.grid.neighbours(unit.hex)
                   for u in engine.situation.units_in(n)):
                return False
        return True

    def zoc_reaches(self, engine: Engine, unit: Unit, into: Hex) -> bool:
        """003 §7.6, §5.7.4: not across major river or all-sea hexsides, not into Caen or
        Cherbourg city hexes or fortress hexes (but out of them). A game folder's rules
        profile names those hexsides and terrains (``zoc.blocked_by_hexsides``,
        ``zoc.not_into_terrain``)."""
        return self._zoc_reaches(engine, unit, into, rivers_block=True)

    def _zoc_reaches(self, engine: Engine, unit: Unit, into: Hex, rivers_block: bool) -> bool:
        assert unit.hex is not None
        sit = engine.situation
        features = sit.map.features(unit.hex, into)
        if features:
            blocking = self._zoc_blocking(engine)
            if any(f in blocking and (rivers_block or f != "major_river") for f in features):
                return False
        return sit.map.tags(into) not in self._zoc_proof_tags(engine)

    def _zoc_blocking(self, engine: Engine) -> frozenset[str]:
        """Hexside features a ZOC does not cross (003 §7.6, §5.7.4)."""
        return frozenset(self.profile_value(engine, lambda p: p.zoc.reach.blocked_by_hexsides,
                                            ("all_sea", "major_river")))

    def _zoc_proof(self, engine: Engine) -> tuple[str, ...]:
        """Terrains a ZOC does not enter, though it leaves them (003 §7.6)."""
        return tuple(self.profile_value(engine, lambda p: p.zoc.reach.not_into_terrain,
                                        NO_ZOC_INTO))

    def _zoc_proof_tags(self, engine: Engine) -> frozenset[tuple[str, ...]]:
        """The terrain combinations of the map a ZOC does not enter (003 §7.6)."""
        known = engine.memo.get(("cobra_zoc_proof",))
        if known is None:
            proof = self._zoc_proof(engine)
            mixes = {engine.situation.map.tags(h) for h in engine.grid.adjacency}
            known = engine.memo[("cobra_zoc_proof",)] = frozenset(
                tags for tags in mixes if any(t in tags for t in proof))
        assert isinstance(known, frozenset)
        return known

    def _zoc_rule(self, engine: Engine, unit: Unit, h: Hex) -> str:
        """The section that puts ``h`` in an EZOC: §5.2.3 for an ordinary unit, §15.1
        for a delay unit, §7.6 for a ZOC projected out of Caen, Cherbourg or a fortress."""
        sit = engine.situation
        exerting = engine.enemy_zoc(unit.side).get(h, ())

        proof = self._zoc_proof(engine)

        def out_of_city(u: Unit) -> bool:
            return u.hex is not None and any(sit.map.has(u.hex, t) for t in proof)

        if any(not self.is_delay(u) and not out_of_city(u) for u in exerting):
            return "5.2.3"
        return "15.1" if any(self.is_delay(u) for u in exerting) else "7.6"

    # -- movement allowance -----------------------------------------------------------

    def allowance(self, engine: Engine, query: MoveQuery) -> float:
        """MP for this phase (see :meth:`_allowance`)."""
        return self._allowance(engine, query)[0]

    def _allowance(self, engine: Engine, query: MoveQuery) -> tuple[float, str]:
        """The MPA of the slowest mover and the section that set it."""
        return min((self._unit_allowance(engine, u) for u in query.movers),
                   key=lambda pair: pair[0])

    def _unit_allowance(self, engine: Engine, unit: Unit) -> tuple[float, str]:
        """Printed MPA, then 003 §5.3.3 (2/3 in the mechanized phase for British and
        Canadian infantry divisions), §5.4.2 (German weather: storm full, overcast
        2/3, clear 1/3), §12.2.3 (half after a replacement) and §10.6.1 (half out
        of supply), each rounded up (§2.6, RULINGS COB-1)."""
        sit = engine.situation
        ma, rule = Fraction(unit.ma), "5.2.4"

        def scale(factor: Fraction, section: str) -> None:
            nonlocal ma, rule
            ma, rule = Fraction(math.ceil(ma * factor)), section

        if sit.phase == MECHANIZED_PHASE and self._two_thirds_in_mechanized_phase(unit):
            scale(Fraction(2, 3), "5.3.3")
        if unit.side == GERMAN:
            weather = sit.state.get("weather")
            published = {"storm": 1.0,            # "full printed MPA"
                         "overcast": 2 / 3,       # "reduced by a third"
                         "clear": 1 / 3}          # "reduced by two-thirds"
            if weather in published:
                factor = float(self.profile_value(
                    engine, lambda p: ma_factor(p, str(weather)), published[weather]))
                scale(_ratio(factor), "5.4.2")
            elif weather is not None:
                raise RulesError(f"unknown Cobra weather {weather!r}: use storm, overcast or clear")
        if unit.flag("received_replacement"):
            scale(Fraction(1, 2), "12.2.3")
        if unit.get("in_supply", True) is False:
            scale(_ratio(float(self.profile_value(
                engine, lambda p: ma_factor(p, out_of_supply=True), 0.5))),
                  "10.6.1")
        return float(ma), rule

    def _two_thirds_in_mechanized_phase(self, unit: Unit) -> bool:
        """003 §5.3.3: British and Canadian infantry divisions (and Polish: "British"
        includes them, §2.3.1)."""
        return (unit.side == ALLIED and self.nation(unit) == "British"
                and unit.get("size") == "division" and not self.is_mechanized(unit))

    # -- movement -----------------------------------------------------------------------

    def start(self, engine: Engine, query: MoveQuery) -> Move | Verdict:
        """003 §4.0 A5/B5: only mechanized units move in the Mechanized Movement Phase,
        with British/Canadian infantry divisions (§5.3.3) and Rangers/Commandos, one hex
        (§5.3.7). A unit that begins in an EZOC may only disengage (§5.2.3)."""
        unit = query.unit
        assert unit.hex is not None
        memory: set[str] = set()
        if engine.situation.phase == MECHANIZED_PHASE and not self.is_mechanized(unit):
            if unit.flag("ranger") or unit.flag("commando"):
                memory.add(HOP)
            elif not self._two_thirds_in_mechanized_phase(unit):
                return Verdict(False, self.cite("4.0"), None,
                               "only mechanized units move in the Mechanized Movement Phase")
        mover = self._mover(engine, query)
        if unit.hex in mover.ezoc:
            memory.add(IN_EZOC)
        return Move(unit.hex, 0.0, 0.0 if HOP in memory else mover.ma, frozenset(memory))

    def enter(self, engine: Engine, query: MoveQuery, move: Move, to: Hex) -> Move | Verdict:
        """One step of 003 §5-§7. Refusals leave ``at`` empty: the search names the hex."""
        unit, mover = query.unit, self._mover(engine, query)
        barred = mover.barred.get(to)
        if barred is not None:
            return Verdict(False, self.cite(barred[0]), None, barred[1])
        from_ezoc = IN_EZOC in move.memory
        to_ezoc = to in mover.ezoc
        if to_ezoc:
            if DISENGAGED in move.memory:
                return Verdict(False, self.cite("5.6.2"), None,
                               "a unit that disengaged may not re-enter an EZOC this phase")
            if from_ezoc:
                return Verdict(False, self.cite("5.3.7" if HOP in move.memory else "5.6.2"),
                               None, "EZOC to EZOC: a unit leaves an EZOC only by"
                               " disengaging directly into a hex free of EZOC")
            if "major_river" in engine.situation.map.features(move.hex, to):
                river = self._river_into_ezoc(engine, unit, move.hex, to)
                if river is not None:
                    return river
        memory = frozenset({DISENGAGED}) if from_ezoc else move.memory
        stop = self._stop(engine, unit, to, to_ezoc)
        if HOP in move.memory:
            # 003 §5.3.7: one hex, terrain costs ignored (all-sea hexsides still block).
            if "all_sea" in engine.situation.map.features(move.hex, to):
                return Verdict(False, self.cite("5.7.4"), None, "all-sea hexsides are impassable")
            return move.then(to, 0.0, memory=memory, one_hex=True, stop=stop or Verdict(
                False, self.cite("5.3.7"), None,
                "Rangers and Commandos move one hex in a mechanized movement phase"))
        cost = self._terrain_cost(engine, unit, move.hex, to)
        if isinstance(cost, Verdict):
            return cost
        leave = float(self.profile_value(engine, lambda p: p.zoc.leave.extra_mp, 2))
        if from_ezoc:
            cost += leave  # 003 §5.6.1: disengagement
        if cost <= move.left:
            return move.then(to, cost, memory=memory, stop=stop)
        one_hex = self._one_hex_rule(engine, unit, move, to)
        if one_hex is not None:
            return move.then(to, move.left, memory=memory, one_hex=True, stop=stop or Verdict(
                False, self.cite(one_hex), None, "the unit used its one-hex move and must stop"))
        if from_ezoc:
            return Verdict(False, self.cite("5.6.3"), None,
                           f"disengaging costs {cost:g} MP (terrain + {leave:g}) and the unit has"
                           f" {move.left:g}; 5.2.7 does not apply in an EZOC")
        return Verdict(False, self.cite(mover.rule), None,
                       f"entering costs {cost:g} MP and {move.left:g} of the MPA of"
                       f" {mover.ma:g} ({mover.rule}) remain")

    def steps(self, engine: Engine, query: MoveQuery, move: Move) -> Steps:
        """Plain steps: after the first (003 §5.2.7 may let the first go beyond the MPA),
        by a unit that remembers nothing (not in or out of an EZOC this phase, §5.2.3,
        §5.6, not a §5.3.7 hop), into a hex it may enter (§5.2.2, §15.3.2) that is free
        of EZOC (§7.1) and, for the Allies, not a fortress zone (§5.9.3), at a terrain
        cost (§5.2.1, §5.7). Every other step goes through :meth:`enter`."""
        if move.steps == 0 or move.memory:
            return (), engine.grid.adjacency[move.hex]
        # One table per kind of mover: what it may enter depends on its side and class,
        # and for a delay unit (§15.3.2) on which friendly units are not moving with it.
        unit = query.unit
        table = self.step_table(engine, (
            "cobra_steps", unit.side, unit.unit_class, self.is_mechanized(unit),
            tuple(u.id for u in query.movers) if self.is_delay(unit) else ()))
        known = table.get(move.hex)
        if known is None:
            known = table[move.hex] = self._split_steps(engine, query, move.hex)
        return known

    def _split_steps(self, engine: Engine, query: MoveQuery, here: Hex) -> Steps:
        """The neighbours of ``here`` split as :meth:`steps` says (003 §5.2, §7.1)."""
        unit, mover = query.unit, self._mover(engine, query)
        return self.split_steps(engine, here, lambda n: None if (
            n in mover.barred or n in mover.ezoc or self._stop(engine, unit, n, False)
        ) else self._terrain_cost(engine, unit, here, n))

    def over_budget(self, engine: Engine, query: MoveQuery, move: Move, to: Hex,
                    cost: float) -> Verdict:
        """003 §5.2.4 (or the section that set the MPA): short of MP after the first step."""
        mover = self._mover(engine, query)
        return Verdict(False, self.cite(mover.rule), None,
                       f"entering costs {cost:g} MP and {move.left:g} of the MPA of"
                       f" {mover.ma:g} ({mover.rule}) remain")

    def _mover(self, engine: Engine, query: MoveQuery) -> _Mover:
        """What the search asks of the mover's surroundings at every step, once."""
        key = ("cobra_mover", tuple(u.id for u in query.movers))
        known = engine.memo.get(key)
        if known is None:
            ma, rule = self._allowance(engine, query)
            known = engine.memo[key] = _Mover(self._barred(engine, query),
                                              frozenset(engine.enemy_zoc(query.unit.side)),
                                              ma, rule)
        assert isinstance(known, _Mover)
        return known

    def _barred(self, engine: Engine, query: MoveQuery) -> dict[Hex, tuple[str, str]]:
        """Hexes the mover may not enter: 003 §5.2.2, §9.2.1 an enemy hex unless it holds
        only HQs (displaced at no MP cost); §15.3.2 a delay unit may not move through a
        friendly unit."""
        unit, sit = query.unit, engine.situation
        ids = {u.id for u in query.movers}
        barred: dict[Hex, tuple[str, str]] = {}
        for h, here in sit.occupants.items():
            enemies = [u for u in here if u.side != unit.side]
            if enemies and not all(self.is_hq(u) for u in enemies):
                barred[h] = ("5.2.2", "holds an enemy unit that is not an HQ")
            elif self.is_delay(unit) and any(u.side == unit.side and u.id not in ids
                                             for u in here):
                barred[h] = ("15.3.2", "a delay unit may not move through a friendly unit")
        return barred

    def _stop(self, engine: Engine, unit: Unit, to: Hex, to_ezoc: bool) -> Verdict | None:
        """003 §5.2.3 / §7.1: stop on entering an EZOC (no extra cost, §7.2); §5.9.3:
        Allied units stop on entering a fortress zone hex."""
        if to_ezoc:
            return Verdict(False, self.cite(self._zoc_rule(engine, unit, to)), engine.name(to),
                           f"{unit.id} entered an enemy ZOC in {engine.name(to)} and must stop")
        if unit.side == ALLIED and engine.situation.map.has(to, "fortress"):
            return Verdict(False, self.cite("5.9.3"), engine.name(to),
                           "Allied units stop on entering a fortress zone hex")
        return None

    def _one_hex_rule(self, engine: Engine, unit: Unit, move: Move, to: Hex) -> str | None:
        """The section letting the first step go beyond the MP: §5.2.7 (always one hex,
        unless in an EZOC), or §5.6.4 (a German unit in bocage or forest in an EZOC
        disengages one hex into bocage or forest)."""
        if move.steps > 0 or unit.ma <= 0:
            return None
        if IN_EZOC not in move.memory:
            return "5.2.7"
        if unit.side == GERMAN and self._wooded(engine, move.hex) and self._wooded(engine, to):
            return "5.6.4"
        return None

    def _wooded(self, engine: Engine, h: Hex) -> bool:
        """003 §5.6.4: a bocage, light forest or heavy forest hex."""
        return self.bocage_hex(engine, h) or any(engine.situation.map.has(h, t) for t in WOODS)

    def _river_into_ezoc(self, engine: Engine, unit: Unit, frm: Hex, to: Hex) -> Verdict | None:
        """003 §5.7.2: no move across a major river into an EZOC hex unless a) a friendly
        unit occupies it, b) no unit exerting the EZOC is adjacent to the river, or c) the
        move would be ordinary without the river. Reading (cob-21, cob-23): c) holds when
        the mover's hex would not be in an EZOC if major rivers did not block ZOC; any
        major river hexside counts, bridged or not (the rule does not except roads)."""
        sit = engine.situation
        if any(u.side == unit.side for u in sit.units_in(to)):
            return None  # a)
        exerting = engine.enemy_zoc(unit.side).get(to, ())
        if not any(u.hex is not None and self._on_major_river(engine, u.hex) for u in exerting):
            return None  # b)
        would_be_in_ezoc = any(
            e.side != unit.side and self.exerts_zoc(engine, e)
            and self._zoc_reaches(engine, e, frm, rivers_block=False)
            for n in engine.grid.neighbours(frm) for e in sit.units_in(n))
        if not would_be_in_ezoc:
            return None  # c)
        return Verdict(False, self.cite("5.7.2"), None,
                       "across a major river into an EZOC hex: the hex is empty, the enemy"
                       " borders the river, and without the river the move would be EZOC to"
                       " EZOC")

    @staticmethod
    def _on_major_river(engine: Engine, h: Hex) -> bool:
        return any("major_river" in engine.situation.map.features(h, n)
                   for n in engine.grid.neighbours(h))

    def _terrain_cost(self, engine: Engine, unit: Unit, frm: Hex, to: Hex) -> float | Verdict:
        """Memoised :meth:`_entry_cost`: the cost depends on the hexside and the terrain
        of the hex entered, so it is remembered per combination (a map has few)."""
        mechanized = self.is_mechanized(unit)
        gmap = engine.situation.map
        key = ("cobra_entry", gmap.features(frm, to), gmap.tags(to), mechanized,
               unit.unit_class)
        known = engine.memo.get(key)
        if known is None:
            known = engine.memo[key] = self._entry_cost(engine, unit, frm, to, mechanized)
        assert isinstance(known, (float, Verdict))
        return known

    def _entry_cost(self, engine: Engine, unit: Unit, frm: Hex, to: Hex,
                    mechanized: bool) -> float | Verdict:
        """003 §5.2.1/§5.3.5 TEC cost for the unit's column plus hexside costs (added,
        SCENARIOS.md §3); §5.7.3 a road hexside replaces both with the road cost;
        §5.3.6 mechanized units enter marsh only through a road hexside; §5.7.1 in the
        bocage area no hex costs less than 2 except along a road, and mechanized units
        always pay at least 3 to enter a bocage hex. Reading: "always" includes roads."""
        sit = engine.situation
        features = sit.map.features(frm, to)
        if "all_sea" in features:
            return Verdict(False, self.cite("5.7.4"), None, "all-sea hexsides are impassable")
        roads = [f for f in ROADS if f in features]
        if mechanized and sit.map.has(to, "marsh") and not roads:
            return Verdict(False, self.cite("5.3.6"), None,
                           "mechanized units enter marsh only through a road hexside")
        floor = 3.0 if mechanized and self.bocage_hex(engine, to) else 0.0
        if roads:
            rates = [sit.chart.rate(f) for f in roads]
            if any(r is None for r in rates):
                raise RulesError(f"no road rate for {', '.join(roads)} in the terrain chart")
            return max(min(float(r) for r in rates if r is not None), floor)
        column = "mechanized" if mechanized else unit.unit_class
        hex_cost = self.hex_cost(engine, to, column)
        if hex_cost.prohibited_by:
            return Verdict(False, self.cite("5.2.1"), None,
                           f"{hex_cost.prohibited_by} is prohibited terrain (TEC)")
        side_cost = self.hexside_cost(engine, frm, to, column)
        if side_cost.prohibited_by:
            return Verdict(False, self.cite("5.2.1"), None,
                           f"the {side_cost.prohibited_by} hexside is prohibited (TEC)")
        if self.in_bocage_area(engine, to):
            floor = max(floor, 2.0)
        return float(max(hex_cost.mp, floor) + side_cost.mp)

    def end(self, engine: Engine, query: MoveQuery, move: Move) -> Verdict | None:
        """003 §6.1, §6.3: stacking holds at the end of movement. Enemy HQs in the hex are
        displaced (§9.2.1) and do not count."""
        here = engine.situation.units_in(move.hex)
        if not here and len(query.movers) == 1:
            return None  # a unit alone in a hex always stacks
        ids = {u.id for u in query.movers}
        others = tuple(u for u in here if u.id not in ids and u.side == query.unit.side)
        verdict = self.stacking(engine, move.hex, others + query.movers)
        return None if verdict.legal else verdict

    # -- stacking (003 §6) ----------------------------------------------------------------

    def stacking(self, engine: Engine, h: Hex, units: tuple[Unit, ...]) -> Verdict:
        """003 §6.1 one division-equivalent a hex (three regiments or brigades; a British
        brigade is half); §6.2/§9.2.4 free: one HQ and two battalions, a British independent
        armoured brigade with a British infantry division, a US armored cavalry regiment
        with a US division; §8.8.2 no US/French with British/Canadian/Polish units;
        §15.3.2 delay units never stack."""
        name = engine.name(h)
        if len(units) <= 1:
            return Verdict(True, None, name, "one unit")
        delays = [u.id for u in units if self.is_delay(u)]
        if delays:
            return Verdict(False, self.cite("15.3.2"), name,
                           f"delay unit {', '.join(delays)} may not stack with another unit")
        nations = sorted({n for u in units if u.side == ALLIED
                          if (n := self.nation(u)) is not None})
        if len(nations) > 1:
            return Verdict(False, self.cite("8.8.2"), name,
                           f"Allied units of different nationalities ({', '.join(nations)})")
        total, extra = self._stack_value(units)
        limit = _ratio(self.number(engine, "stacking.limit", 1))
        if total <= limit:
            return Verdict(True, None, name, f"{_fraction(total)} division-equivalent")
        rule = "6.2" if total - extra <= limit else "6.1"
        most = "one division" if limit == 1 else f"{_fraction(limit)} division-equivalents"
        return Verdict(False, self.cite(rule), name,
                       f"{_fraction(total)} division-equivalents exceed {most}"
                       + (" (beyond the free HQ and two battalions)" if rule == "6.2" else ""))

    def _stack_value(self, units: tuple[Unit, ...]) -> tuple[Fraction, Fraction]:
        """Division-equivalents of a stack, and the part due to HQs and battalions beyond
        the free ones."""
        free_hq, free_battalions = 1, 2
        british_infantry_division = any(
            u.get("size") == "division" and self.nation(u) == "British"
            and not self.is_mechanized(u) for u in units)
        us_division = any(u.get("size") == "division" and self.nation(u) == "US" for u in units)
        free_brigade, free_cavalry = british_infantry_division, us_division
        total = extra = Fraction(0)
        for u in sorted(units, key=lambda u: u.id):
            size = u.get("size")
            if self.is_hq(u):
                if free_hq:
                    free_hq -= 1
                    continue
                total, extra = total + _EXTRA_VALUE, extra + _EXTRA_VALUE
            elif size == "battalion":
                if free_battalions:
                    free_battalions -= 1
                    continue
                total, extra = total + _EXTRA_VALUE, extra + _EXTRA_VALUE
            elif (free_brigade and u.flag("independent_armored_brigade")
                  and self.nation(u) == "British"):
                free_brigade = False
            elif free_cavalry and u.flag("armored_cavalry") and self.nation(u) == "US":
                free_cavalry = False
            elif size == "brigade" and self.nation(u) == "British":
                total += Fraction(1, 2)
            elif size in _SIZE_VALUE:
                total += _SIZE_VALUE[size]
            else:
                raise RulesError(f"unit {u.id}: unknown size {size!r} for Cobra stacking"
                                 f" (use division, regiment, brigade, battalion, corps or delay)")
        return total, extra

    # -- supply (003 §10) -----------------------------------------------------------------

    def supply(self, engine: Engine, units: list[Unit]) -> dict[str, SupplyAnswer]:
        """003 §10.3-§10.5: one multi-source search per side answers every unit of it;
        the units it cannot supply are then explained together (:meth:`_diagnose`)."""
        answers: dict[str, SupplyAnswer] = {}
        cut: dict[str, list[Unit]] = {}
        for unit in units:
            answer = self._unit_supply(engine, unit)
            if answer is None:
                cut.setdefault(unit.side, []).append(unit)
            else:
                answers[unit.id] = answer
        for side, cut_off in sorted(cut.items()):
            answers.update(self._diagnose(engine, side, cut_off))
        return {u.id: answers[u.id] for u in units}

    def _unit_supply(self, engine: Engine, unit: Unit) -> SupplyAnswer | None:
        """A unit's answer, or ``None`` when no line of supply reaches it."""
        if unit.hex is None:
            return SupplyAnswer(True, None, "not on the map")
        if engine.situation.turn <= 2:
            if unit.side == ALLIED:
                return SupplyAnswer(True, self.cite("10.5.2"),
                                    "all Allied units are in supply on Game Turns 1 and 2")
            return SupplyAnswer(True, self.cite("10.4.2"),
                                "German supply is not determined on Game Turns 1 and 2")
        strict = self._tracing(engine, unit.side)
        if not self._supply_open(engine, strict, unit.hex, beach=False):
            # Only an HQ without a non-HQ friend can stand in an EZOC it does not negate.
            return SupplyAnswer(False, self.cite("9.2.6"),
                                "in an EZOC that no friendly non-HQ unit negates: an HQ does"
                                " not negate it (9.2.6), and no line may leave it (10.3.3)")
        lines = self._lines(engine, strict)
        if unit.hex not in lines.best:
            return None
        path = lines.path(unit.hex)
        return SupplyAnswer(True, self.cite("10.3.1"), f"{lines.counted(unit.hex)} hexes"
                            f" counted to the source in {engine.name(path[-1])}", path)

    def _diagnose(self, engine: Engine, side: str, units: list[Unit]) -> dict[str, SupplyAnswer]:
        """Name the rule that cuts each unit off. A search with every rule but enemy units
        and EZOC relaxed gives a lower bound of any line's count: the units it cannot
        bring within 12 need no other search. The others try one relaxation at a time,
        each search stopping once it has reached every unit still unexplained."""
        strict = self._tracing(engine, side)
        targets = {u.hex for u in units if u.hex is not None}
        found: dict[Hex, SupplyAnswer] = {}
        loosest = self._trace(engine, strict.loosest(), frozenset(targets))
        for h in targets:
            if h not in loosest.best:
                found[h] = SupplyAnswer(False, self.cite("10.3.1"), "no line free of enemy units"
                                        " and of EZOC not negated by a friendly unit reaches a"
                                        " source")
            elif strict.limit is not None and loosest.counted(h) > strict.limit:
                found[h] = SupplyAnswer(False, self.cite("10.3.1"), "every line counts more"
                                        f" than {strict.limit} hexes (at least"
                                        f" {loosest.counted(h)})")
        present = self._supply_terrain(engine).present
        for relaxation in _DIAGNOSES:
            left = frozenset(targets - found.keys())
            if not left:
                break
            if relaxation.needs is not None and relaxation.needs not in present:
                continue
            lines = self._trace(engine, relaxation.relax(strict), left)
            for h in left & lines.best.keys():
                reason = relaxation.reason.format(limit=strict.limit)
                if relaxation.section == "10.3.1":
                    reason = (f"the shortest line counts {lines.counted(h)} hexes, more than"
                              f" {strict.limit}")
                found[h] = SupplyAnswer(False, self.cite(relaxation.section), reason)
        for h in targets - found.keys():
            found[h] = SupplyAnswer(False, self.cite("10.3.1"), "no line of supply: several"
                                    " rules together cut every line")
        return {u.id: found[u.hex] for u in units if u.hex is not None}

    def _tracing(self, engine: Engine, side: str) -> _Tracing:
        """The strict rules of a supply line, with the profile's numbers (003 §10.3.1
        12 hexes, §10.3.6 a major river counts 6)."""
        limit = self.profile_value(engine, lambda p: p.supply.length.max, SUPPLY_LENGTH)
        river = self._count(engine, "major_river", RIVER_COUNT)
        return _Tracing(side, limit=None if limit is None else int(limit), river_count=river)

    def _count(self, engine: Engine, what: str, published: int) -> int:
        """How many hexes of a supply line a hex of ``what`` counts (003 §10.3.4-§10.3.6)."""
        value = float(self.profile_value(engine, lambda p: length_count(p, what), published))
        if not value.is_integer():
            raise RulesError(f"supply.length_costs.{what} must be a whole number of hexes,"
                             f" not {value:g}")
        return int(value)

    def _lines(self, engine: Engine, tracing: _Tracing) -> _Lines:
        key = ("cobra_supply", tracing)
        known = engine.memo.get(key)
        if known is None:
            known = engine.memo[key] = self._trace(engine, tracing)
        assert isinstance(known, _Lines)
        return known

    def supply_sources(self, engine: Engine, tracing: _Tracing) -> dict[Hex, bool]:
        """Source hexes of a side (value: whether it is a beach). 003 §10.4/§10.5.1: the
        primary road off the map edge (``supply_source`` markers); §10.5.3: Allied-
        controlled beach hexes, §10.5.4: not once wrecked."""
        found: dict[Hex, bool] = {}
        for m in engine.situation.markers:
            if m.hex is None:
                continue
            if m.type == "supply_source" and m.get("side") == tracing.side:
                found[m.hex] = found.get(m.hex, False)
            elif (m.type == "beach" and tracing.side == ALLIED
                  and m.get("controlled_by", ALLIED) == ALLIED
                  and (not m.get("wrecked", False) or tracing.wrecked_beaches)):
                found[m.hex] = True
        return found

    def _supply_open(self, engine: Engine, tracing: _Tracing, h: Hex, beach: bool) -> bool:
        """Whether a line may enter (or leave) ``h``: 003 §10.3.1/§10.3.3 free of enemy
        units and EZOC; §7.5 friendly units other than HQs negate the EZOC in their hex
        (§9.2.6); §10.5.3 a beach source in an EZOC needs an Allied unit in it."""
        here = engine.situation.units_in(h)
        if any(u.side != tracing.side for u in here):
            return False
        if not engine.in_enemy_zoc(h, tracing.side):
            return True
        if beach and tracing.open_beaches:
            return True
        return any(not self.is_hq(u) for u in here)

    def _supply_terrain(self, engine: Engine) -> _SupplyTerrain:
        """003 §10.3.5: a secondary road hex (one with a secondary road hexside,
        SCENARIOS.md §2.1) counts one whatever its terrain; §10.3.4: else a bocage hex
        counts two; every other hex one."""
        known = engine.memo.get(("cobra_supply_terrain",))
        if known is None:
            sit = engine.situation
            road = self._count(engine, "secondary_road", 1)
            bocage = self._count(engine, "bocage", 2)
            counts: dict[Hex, int] = {}
            marshes: list[Hex] = []
            bocage_hexes = 0
            for h in engine.grid.adjacency:  # one look at each hex's tags
                tags = sit.map.tags(h)
                in_marsh = "marsh" in tags
                if in_marsh:
                    marshes.append(h)
                if sit.map.is_feature_hex(h, "secondary_road"):
                    counts[h] = road
                elif "bocage" in tags and not in_marsh:  # bocage_hex, §8.3.4
                    counts[h] = bocage
                    bocage_hexes += 1
                else:
                    counts[h] = 1
            marsh = frozenset(marshes)
            present = {f for feats in sit.map.hexsides.values() for f in feats
                       if f in ("all_sea", "major_river")}
            if marsh:
                present.add("marsh")
            if bocage != 1 and bocage_hexes:
                present.add("bocage")
            for m in sit.markers:
                if m.type == "beach":
                    present.add("wrecked_beach" if m.get("wrecked", False) else "beach")
            known = engine.memo[("cobra_supply_terrain",)] = _SupplyTerrain(
                counts, marsh, frozenset(present), {})
        assert isinstance(known, _SupplyTerrain)
        return known

    def _unit_lines(self, engine: Engine, tracing: _Tracing, sources: dict[Hex, bool],
                    targets: frozenset[Hex] | None) -> _Lines:
        """:meth:`_trace` when every hex counts one and nothing but enemy units and EZOC
        stops a line (the loosest diagnosis, 003 §10.3.1): a breadth-first search."""
        count: dict[_State, int] = {}
        parent: dict[_State, _State | None] = {}
        queue: deque[_State] = deque()
        for s, beach in sorted(sources.items()):
            if self._supply_open(engine, tracing, s, beach):
                first: _State = (s, 0, False)
                count[first], parent[first] = 0, None
                queue.append(first)
        best: dict[Hex, _State] = {}
        remaining = set(targets) if targets is not None else None
        adjacency = engine.grid.adjacency
        is_open = self._open_hexes(engine, tracing)
        while queue:
            state = queue.popleft()
            x = state[0]
            if _settle(best, remaining, x, state):
                break
            if not self._passes(engine, tracing, is_open, sources, x):
                continue
            for y in adjacency[x]:
                nxt: _State = (y, 0, False)
                if nxt not in count:
                    count[nxt], parent[nxt] = count[state] + 1, state
                    queue.append(nxt)
        return _Lines(best, count, parent)

    def _passes(self, engine: Engine, tracing: _Tracing, is_open: dict[Hex, bool],
                sources: dict[Hex, bool], x: Hex) -> bool:
        """Whether a line may run on through ``x`` (003 §10.3.1, :meth:`_supply_open`),
        remembered in ``is_open``."""
        known = is_open.get(x)
        if known is None:
            known = is_open[x] = self._supply_open(engine, tracing, x, sources.get(x, False))
        return known

    @staticmethod
    def _open_hexes(engine: Engine, tracing: _Tracing) -> dict[Hex, bool]:
        """Whether a line may pass each hex, filled in as asked: it depends on the side
        and the two beach rules only, so every search of an engine that has them alike
        shares it."""
        key = ("cobra_open", tracing.side, tracing.open_beaches, tracing.wrecked_beaches)
        known = engine.memo.setdefault(key, {})
        assert isinstance(known, dict)
        return known

    @staticmethod
    def _hexside_bits_by_pair(engine: Engine) -> dict[tuple[Hex, Hex], int]:
        """The _SEA/_ROAD/_RIVER bits of every hexside that has any, both ways round."""
        known = engine.memo.get(("cobra_hexside_bits",))
        if known is None:
            found: dict[tuple[Hex, Hex], int] = {}
            for side, features in engine.situation.map.hexsides.items():
                bits = _hexside_bits(features)
                if bits:
                    found[(side.a, side.b)] = found[(side.b, side.a)] = bits
            known = engine.memo[("cobra_hexside_bits",)] = found
        assert isinstance(known, dict)
        return known

    def _trace(self, engine: Engine, tracing: _Tracing,
               targets: frozenset[Hex] | None = None) -> _Lines:
        """One cheapest-first search from every source at once, in reverse.

        A line runs from the unit to the source; each hex it enters counts (RULINGS
        COB-2: the unit's own hex does not, the source does). Searching from the
        sources, stepping from ``x`` to ``y`` prices the line's step from ``y`` into
        ``x``: 6 across a major river off the road (§10.3.6, COB-3), else the count of
        ``x`` (:meth:`_supply_terrain`). A marsh hex counts toward the limit of one
        (§10.3.2) unless the line both enters and leaves it along road hexsides (a
        source is only entered). A hex the line may not enter (enemy units, EZOC not
        negated) is still reached as a unit's own hex, but no line runs through it.
        With ``targets`` the search stops once it has reached all of them.
        """
        grid = engine.grid
        terrain = self._supply_terrain(engine)
        counts, marsh_hexes, edges = terrain.counts, terrain.marsh, terrain.edges
        bocage_two, river_six = tracing.bocage_counts_two, tracing.river_counts_six
        one_marsh, sea_blocks, limit = tracing.one_marsh, tracing.all_sea_blocks, tracing.limit
        sources = self.supply_sources(engine, tracing)
        if not (bocage_two or river_six or one_marsh or sea_blocks) and limit is None:
            return self._unit_lines(engine, tracing, sources, targets)
        heap: list[tuple[int, _State]] = []
        count: dict[_State, int] = {}
        parent: dict[_State, _State | None] = {}
        for s, beach in sorted(sources.items()):
            if self._supply_open(engine, tracing, s, beach):
                first: _State = (s, 0, True)
                count[first], parent[first] = 0, None
                heap.append((0, first))
        heapq.heapify(heap)
        is_open = self._open_hexes(engine, tracing)
        bits_of = self._hexside_bits_by_pair(engine)
        adjacency = grid.adjacency
        best: dict[Hex, _State] = {}
        settled: set[_State] = set()
        remaining = set(targets) if targets is not None else None
        while heap:
            d, state = heapq.heappop(heap)
            if state in settled:
                continue
            settled.add(state)
            x, marsh_used, leaves_by_road = state
            if x not in best and _settle(best, remaining, x, state):
                break
            if not self._passes(engine, tracing, is_open, sources, x):
                continue
            base = counts[x] if bocage_two else 1
            marsh = x in marsh_hexes
            around = edges.get(x)
            if around is None:
                around = edges[x] = tuple((y, bits_of.get((y, x), 0)) for y in adjacency[x])
            for y, bits in around:
                by_road, step = False, base
                if bits:
                    if sea_blocks and bits & _SEA:
                        continue
                    by_road = bool(bits & _ROAD)
                    if river_six and not by_road and bits & _RIVER:
                        step = tracing.river_count
                used = marsh_used
                if marsh and one_marsh and not (by_road and leaves_by_road):
                    if used:
                        continue
                    used = 1
                total = d + step
                if limit is not None and total > limit:
                    continue
                # The road bit only matters where the line will leave a marsh hex.
                nxt: _State = (y, used, by_road and one_marsh and y in marsh_hexes)
                if total < count.get(nxt, total + 1):
                    count[nxt], parent[nxt] = total, state
                    heapq.heappush(heap, (total, nxt))
        return _Lines(best, count, parent)


def _settle(best: dict[Hex, _State], remaining: set[Hex] | None, x: Hex, state: _State
            ) -> bool:
    """Record the best state of ``x``; whether every target of the search is now reached."""
    best[x] = state
    if remaining is None:
        return False
    remaining.discard(x)
    return not remaining


def _hexside_bits(features: frozenset[str]) -> int:
    return ((_SEA if "all_sea" in features else 0)
            | (_ROAD if any(f in features for f in ROADS) else 0)
            | (_RIVER if "major_river" in features else 0))


def _fraction(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _ratio(factor: float) -> Fraction:
    # Profiles hold 2/3 as 0.6666666666666666: round it back to the fraction meant,
    # so a rounded-up MPA (003 §2.6) is not one too high.
    return Fraction(factor).limit_denominator(100)
