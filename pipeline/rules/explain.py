"""The rules a game's validator applies, in words, each with the citation its answers give.

Everything comes from the game's profile and its system's declaration: one line per
rule the kernel reads (by topic: movement, zones of control, stacking, supply, line
of sight), then one per procedure the system declares in ``overrides`` (its method's
own first sentence, with the section it names). Nothing is guessed from names: a game
whose profile says nothing of Rangers has no line about them, and its lines cite its
own rulebook. ``bocage rules explain`` prints them; the quick reference play aid
(:mod:`pipeline.aids.quickref`) lays them out.

>>> from pipeline.model import rules_from_data
>>> p = rules_from_data({"kind": "rules", "game": "g", "source": "RULES.md", "cite_as": "R",
...     "unit_classes": ["foot"], "dice": "1d6", "terrain": {"clear": {"move": 1, "note": "n"}},
...     "zoc": {"enter": {"stop": True, "cite": "RULES.md §4"}},
...     "stacking": {"limit": 2, "cite": "RULES.md §5"}})
>>> [(x.topic, x.rule, x.text) for x in explain(p) if x.key == "stacking.limit"]
[('Stacking', 'R §5', 'A hex holds at most 2 units.')]
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from pipeline.model.rulesprofile import (
    Cost,
    EzocToEzoc,
    MaModifier,
    RulesProfile,
    SupplySource,
    UnitSelector,
    ZocEnter,
    ZocLeave,
    cost_is_unknown,
)
from pipeline.rules.registry import SystemSpec, spec_for

__all__ = ["HOOK_TOPICS", "TOPICS", "RuleLine", "explain", "first_sentence", "who"]

TOPICS = ("Movement", "Zones of control", "Stacking", "Supply", "Line of sight")
#: The topic of each kernel hook a system may override (the kernel's own API).
HOOK_TOPICS = {
    "allowance": "Movement", "start": "Movement", "enter": "Movement", "steps": "Movement",
    "step_cost": "Movement", "entry_cost": "Movement", "remember": "Movement",
    "remembered_hexes": "Movement", "over_budget": "Movement", "short_of_mp": "Movement",
    "one_hex_allowed": "Movement", "carriers": "Movement", "end": "Stacking",
    "stacking": "Stacking", "placement": "Stacking", "exerts_zoc": "Zones of control",
    "zoc_reaches": "Zones of control", "may_enter_ezoc": "Zones of control",
    "ezoc_stop": "Zones of control", "ezoc_to_ezoc": "Zones of control",
    "supply": "Supply", "los": "Line of sight", "overrun": "Movement",
}


@dataclass(frozen=True)
class RuleLine:
    """One rule in words: its topic, the citation answers give, the profile key or the
    system hook it comes from."""

    topic: str
    rule: str | None
    text: str
    key: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"topic": self.topic, "rule": self.rule, "text": self.text, "key": self.key}


def explain(profile: RulesProfile, spec: SystemSpec | None = None) -> list[RuleLine]:
    """Every rule the validator applies to a game with this profile, by topic.

    Parameters
    ----------
    profile
        The game's rules profile.
    spec
        Its system's declaration (default: the registered ``profile.system``).
    """
    spec = spec or spec_for(profile.system)
    words = _Words(profile)
    lines = [*words.movement(), *words.overrun(spec), *words.zoc(), *words.stacking(),
             *words.supply(), *words.los()]
    lines += _procedures(spec)
    return sorted(lines, key=lambda x: TOPICS.index(x.topic))


def first_sentence(doc: str) -> str:
    """The first sentence of a docstring's first paragraph, on one line, without the
    markup of a docstring.

    >>> first_sentence('001 §6.0: a ZOC covers "terrain, e.g. the Caen Canal".\\n\\nMore.')
    '001 §6.0: a ZOC covers "terrain, e.g. the Caen Canal".'
    >>> first_sentence("003 §6.1 one division a hex; §6.2 too. §9 free: one HQ.")
    '003 §6.1 one division a hex; §6.2 too.'
    """
    paragraph = " ".join(inspect.cleandoc(doc).split("\n\n")[0].split())
    match = re.search(r"\.(?=\s+[A-Z0-9§\"])", paragraph)
    sentence = paragraph[:match.end()] if match else paragraph
    return re.sub(r":\w+:`~?([^`]+)`", r"\1", sentence).replace("``", "")


def _procedures(spec: SystemSpec) -> list[RuleLine]:
    """The procedures the system declares, in its own words."""
    lines = []
    for hook, section in spec.overrides.items():
        method = getattr(spec.factory, hook, None)
        doc = inspect.getdoc(method) if method is not None else None
        if not doc:
            continue
        text = re.sub(r"^(?:\d{3}\s+)?§[^:]*:\s*", "", first_sentence(doc))
        if text.count('"') % 2:  # the sentence ended inside a quotation: close it
            text += '"'
        rule = f"{spec.code} §{section}" if spec.code else section
        lines.append(RuleLine(HOOK_TOPICS.get(hook, "Movement"), rule,
                              text[:1].upper() + text[1:], f"{spec.id}.{hook}"))
    return lines


# -- words ------------------------------------------------------------------------------


def _list(items: Sequence[str], last: str = "or") -> str:
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def who(selector: UnitSelector, plural: bool = True) -> str:
    """A unit selector in words.

    >>> who(UnitSelector(sides=["german"], flags=["paratroop"]))
    'German units flagged paratroop'
    >>> who(UnitSelector(roles=["hq"])), who(UnitSelector())
    ('HQ units', 'all units')
    """
    before: list[str] = []
    after: list[str] = []
    if selector.sides:
        before.append(_list([_side(x) for x in selector.sides]))
    if selector.nationalities:
        before.append(_list(selector.nationalities))
    if selector.classes:
        before.append(_list(selector.classes))
    if selector.roles:
        before.append(_list([_ACRONYMS.get(x, x) for x in selector.roles]))
    if selector.types:
        after.append(f"of type {_list(selector.types)}")
    if selector.sizes:
        after.append(f"of size {_list(selector.sizes)}")
    if selector.flags:
        after.append(f"flagged {_list(selector.flags)}")
    if selector.steps:
        after.append(f"with {_list([str(s) for s in selector.steps])} steps")
    if selector.transported is not None:
        after.append("carried by another unit" if selector.transported else "not carried")
    if selector.out_of_supply is not None:
        after.append("out of supply" if selector.out_of_supply else "in supply")
    noun = "units" if plural else "unit"
    if not before and not after:
        return "all units" if plural else "any unit"
    return " ".join([*before, noun, *after])


def _whos(selectors: Sequence[UnitSelector]) -> str:
    return _list([who(s) for s in selectors])


#: Role names the rulebooks write as abbreviations.
_ACRONYMS = {"hq": "HQ"}


def _side(side: str) -> str:
    """A side's id as a name: ``allied`` is "Allied"."""
    return side[:1].upper() + side[1:]


def _name(name: str) -> str:
    """A terrain, feature or phase name in words: ``major_river`` is "major river"."""
    return name.replace("_", " ")


def _a(word: str) -> str:
    """``word`` with its indefinite article."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def _where(values: dict[str, Any]) -> str:
    """A marker's required values in words ("$side" is the side asking)."""
    def value(v: Any) -> str:
        if v == "$side":
            return "the side tracing"
        return str(v).lower() if isinstance(v, bool) else str(v)
    return ", ".join(f"{'of' if k == 'side' else k.replace('_', ' ')} {value(v)}"
                     for k, v in values.items())


def _mp(x: float) -> str:
    return f"{x:g}"


def _cost(cost: Cost) -> str:
    def leaf(v: Any) -> str:
        if v is None:
            return "not given"
        if v == "P":
            return "prohibited"
        if isinstance(v, str):
            return f"{v} MP (added)"
        return f"{_mp(v)} MP"
    if isinstance(cost, dict):
        return ", ".join(f"{leaf(v)} ({k})" for k, v in cost.items())
    return leaf(cost)


def _unknown(costs: dict[str, Any]) -> bool:
    return any(cost_is_unknown(rule.move) for rule in costs.values())


class _Words:
    """The profile's rules, one method a topic."""

    def __init__(self, profile: RulesProfile) -> None:
        self.p = profile

    def line(self, topic: str, cite: str, text: str, key: str,
             fallback: str = "") -> RuleLine:
        chosen = cite or fallback
        return RuleLine(topic, self.p.cite_text(chosen) if chosen else None, text, key)

    # -- movement ---------------------------------------------------------------------

    def movement(self) -> Iterator[RuleLine]:
        p, m, t = self.p, self.p.movement, "Movement"
        yield self.line(t, m.allowance.cite, "A unit spends at most its movement allowance"
                        " (MA) in a phase: a hex costs what its terrain costs the unit's class"
                        " (the highest of several terrains, '+N' terrain added to the rest),"
                        " and a hexside feature crossed adds its cost.", "movement.allowance",
                        m.cite)
        costs = "; ".join(f"{name}: {_cost(rule.move)}" for name, rule in p.terrain.items())
        yield self.line(t, "", f"Terrain: {costs}.", "terrain")
        if p.hexsides:
            sides = "; ".join(f"{name}: {_cost(rule.move)}"
                              for name, rule in p.hexsides.items())
            yield self.line(t, "", f"Hexside features: {sides}.", "hexsides")
        if _unknown(p.terrain) or _unknown(p.hexsides):
            yield self.line(t, "", "A step whose cost is not given is not answered: the answer"
                            " names the entry to fill in (terrain.NAME.move), never a guess.",
                            "terrain.*.move")
        for name, side in p.hexsides.items():
            if side.bridged_between is not None:
                b = side.bridged_between
                yield self.line(t, b.cite, f"Where a {name} hexside separates two"
                                f" {_list(b.between)} hexes a bridge is assumed: it is crossed as"
                                f" a {b.crossed_as} is.", f"hexsides.{name}.bridged_between")
        prohibited = [f"{_name(n)} hexes" for n, r in p.terrain.items() if r.move == "P"]
        prohibited += [f"{_name(n)} hexsides" for n, r in p.hexsides.items() if r.move == "P"]
        if prohibited:
            yield self.line(t, m.prohibited.cite, "No unit enters prohibited terrain:"
                            f" {_list(prohibited, 'and')}.", "movement.prohibited")
        for name, road in p.roads.items():
            rate = _cost(road.rate)
            rate = "its rate (not given)" if rate == "not given" else rate
            if road.along == "hexside":
                text = (f"{_name(name)}: a hex entered through {_a(_name(name))} hexside costs"
                        f" {rate} instead of the hex's and the hexside's costs")
            else:
                text = (f"{_name(name)}: from {_a(_name(name))} hex into {_a(_name(name))}"
                        f" hex, {rate} instead of the hex's cost (hexside features still add"
                        " theirs)")
            if road.bridges:
                text += (f"; it crosses {_list([_name(b) for b in road.bridges], 'and')}"
                         " hexsides where it runs over them")
            if road.negated_by is not None:
                n = road.negated_by
                what = [f"{n.units} units besides the movers"] if n.units else []
                what += [f"a {x}" for x in n.markers]
                text += f"; not in a hex holding {_list(what)}"
            yield self.line(t, road.cite, text[:1].upper() + text[1:] + ".", f"roads.{name}")
        for name, rule in p.terrain.items():
            for j, least in enumerate(rule.minimum):
                whom = f"{_list(least.classes)} units" if least.classes else "any unit"
                roads = ", along roads too" if least.along_roads else ", except along a road"
                unless = (f" (not in a hex that is also"
                          f" {_list([_name(x) for x in least.unless_terrain])})"
                          if least.unless_terrain else "")
                yield self.line(t, least.cite, f"{_cap(_a(_name(name)))} hex costs {whom} at least"
                                f" {_mp(least.cost)} MP{roads}{unless}.",
                                f"terrain.{name}.minimum[{j}]")
            if rule.road_only is not None:
                yield self.line(t, rule.road_only.cite, f"{_cap(_list(rule.road_only.classes))}"
                                f" units enter {_a(_name(name))} hex only through a road"
                                " hexside.",
                                f"terrain.{name}.road_only")
            if rule.entry_roll is not None:
                roll = rule.entry_roll
                yield self.line(t, roll.cite, f"{_cap(_list(roll.classes))} units roll {p.dice}"
                                f" to enter {_a(_name(name))} hex: on"
                                f" {_list([str(r) for r in roll.succeeds])} the unit enters,"
                                " otherwise it stops before it.",
                                f"terrain.{name}.entry_roll")
        enemy = m.enemy_hexes
        if enemy.enterable:
            yield self.line(t, enemy.cite, "A unit may enter hexes holding enemy units.",
                            "movement.enemy_hexes")
        else:
            unless = (f", unless it holds only {_whos(enemy.except_holding_only)}"
                      if enemy.except_holding_only else "")
            yield self.line(t, enemy.cite, f"No unit enters a hex holding an enemy"
                            f" unit{unless}.", "movement.enemy_hexes")
        if m.one_hex is None:
            yield self.line(t, m.allowance.cite, "There is no minimum move: a unit without"
                            " the MP for a hex does not enter it.", "movement.one_hex")
        else:
            not_ezoc = "" if m.one_hex.from_ezoc else ", unless it starts in an EZOC"
            yield self.line(t, m.one_hex.cite, "A unit with an MA above 0 may always move"
                            f" one hex, which ends its move{not_ezoc}.", "movement.one_hex")
        for name, phase in m.phases.items():
            words = _name(name)
            if phase.movers:
                movers = []
                for mover in phase.movers:
                    how = ""
                    if mover.ma_factor is not None:
                        how = f" ({_share(mover.ma_factor)} of their MA)"
                    if mover.one_hex_only:
                        how = " (one hex" + (", terrain costs ignored)" if mover.ignore_terrain
                                             else ")")
                    movers.append(who(mover) + how)
                text = f"In the {words} phase only {_list(movers, 'and')} move"
            else:
                text = f"In the {words} phase every unit moves"
            if phase.not_if_moved_in:
                text += (f"; units that moved earlier this turn (the position's"
                         f" {phase.not_if_moved_in}) do not")
            yield self.line(t, phase.cite, text + ".", f"movement.phases.{name}")
        for i, modifier in enumerate(m.ma_modifiers):
            yield self.line(t, modifier.cite, _modifier(modifier),
                            f"movement.ma_modifiers[{i}]")
        for i, stop in enumerate(m.stops):
            where = [f"{_name(x)} terrain" for x in stop.terrain] + [
                _a(f"{_name(x.type)} marker") + (f" ({_where(x.where)})" if x.where else "")
                for x in stop.markers]
            yield self.line(t, stop.cite, f"{_cap(who(stop))} entering a hex with"
                            f" {_list(where)} stop there.", f"movement.stops[{i}]")
        for i, passing in enumerate(m.no_passing_friendly):
            yield self.line(t, passing.cite, f"{_cap(who(passing))} may not move through"
                            " hexes holding friendly units.",
                            f"movement.no_passing_friendly[{i}]")
        for i, moving in enumerate(m.moves_as):
            yield self.line(t, moving.cite, f"{_cap(who(moving))} move and pay terrain as"
                            f" {moving.unit_class} units.", f"movement.moves_as[{i}]")

    # -- overruns --------------------------------------------------------------------

    def overrun(self, spec: SystemSpec) -> Iterator[RuleLine]:
        """The ``overrun`` keys the system reads (the tactical aid reads only some)."""
        o, t = self.p.overrun, "Movement"
        if o is None:
            return
        reads = spec.reads

        def read(key: str) -> bool:
            return "overrun" in reads or f"overrun.{key}" in reads

        whom = f"{_cap(_whos(o.by))} may overrun" if o.by and read("by") else (
            "Any unit may overrun")
        yield self.line(t, o.by[0].cite if o.by else "", f"{whom} an enemy hex: a path checked"
                        " with --overrun enters it, the overrun is taken as won and the move"
                        " goes on from there.", "overrun.by", o.cite)
        if o.cost is not None and read("cost"):
            yield self.line(t, o.cost.cite, f"An overrun costs {_mp(o.cost.extra_mp)} MP on"
                            " top of the target hex's terrain (roads may be used).",
                            "overrun.cost", o.cite)
        for i, rule in enumerate(o.not_by if read("not_by") else []):
            yield self.line(t, rule.cite, f"{_cap(who(rule))} never overrun.",
                            f"overrun.not_by[{i}]", o.cite)
        for i, limit in enumerate(o.per_phase if read("per_phase") else []):
            many = f"{limit.count} overrun{'s' if limit.count != 1 else ''}"
            yield self.line(t, limit.cite, f"{_cap(who(limit))} make at most {many} a"
                            " phase.", f"overrun.per_phase[{i}]", o.cite)
        if o.phases is not None and read("phases"):
            phases = _list([x.replace("_", " ") for x in o.phases.phases])
            yield self.line(t, o.phases.cite, f"Overruns only in the {phases} phase.",
                            "overrun.phases", o.cite)
        if o.not_on_turns is not None and read("not_on_turns"):
            turns = _list([str(x) for x in o.not_on_turns.turns])
            yield self.line(t, o.not_on_turns.cite, f"No overrun on turn {turns}.",
                            "overrun.not_on_turns", o.cite)
        if o.not_across is not None and read("not_across"):
            sides = _list([x.replace("_", " ") for x in o.not_across.hexsides])
            yield self.line(t, o.not_across.cite, f"No overrun across a {sides} hexside,"
                            " bridged or not.", "overrun.not_across", o.cite)
        if o.not_into is not None and read("not_into"):
            into = _list([x.replace("_", " ") for x in o.not_into.terrain])
            yield self.line(t, o.not_into.cite, f"No overrun into a {into} hex.",
                            "overrun.not_into", o.cite)
        if o.only_into is not None and read("only_into"):
            into = _list([x.replace("_", " ") for x in o.only_into.terrain])
            yield self.line(t, o.only_into.cite, f"Overruns only into {into} hexes.",
                            "overrun.only_into", o.cite)
        if o.barred_by_markers is not None and read("barred_by_markers"):
            yield self.line(t, o.barred_by_markers.cite, "No overrun into a hex holding a"
                            f" {_list(o.barred_by_markers.markers)} marker.",
                            "overrun.barred_by_markers", o.cite)
        z = o.zoc
        if z is not None and read("zoc"):
            parts = []
            if z.ignores_target:
                parts.append("an overrunning unit ignores the ZOC of the units it overruns")
            if z.not_from_other_ezoc:
                parts.append("it may not overrun from a hex in the ZOC of other enemy units")
            if z.not_after_leaving:
                parts.append("nor after leaving an EZOC this phase")
            if parts:
                text = "; ".join(p for p in parts if not p.startswith("nor "))
                text += "".join(f", {p}" for p in parts if p.startswith("nor "))
                yield self.line(t, z.cite, _cap(text.lstrip(", ")) + ".", "overrun.zoc", o.cite)

    # -- zones of control ----------------------------------------------------------------

    def zoc(self) -> Iterator[RuleLine]:
        z, t = self.p.zoc, "Zones of control"
        if not z.exerted:
            yield self.line(t, z.cite, "There are no zones of control.", "zoc.exerted")
            return
        exerters = f"{_cap(_whos(z.exerted_by))} exert" if z.exerted_by else "Every unit exerts"
        text = f"{exerters} a ZOC into the six adjacent hexes"
        if z.not_exerted_by:
            text += f", except {_whos(z.not_exerted_by)}"
        several = len({r.cite for r in z.not_exerted_by}) > 1
        yield self.line(t, z.cite, (f"{exerters} a ZOC into the six adjacent hexes, but for the"
                                    " units below" if several else text) + ".", "zoc.exerted_by")
        if several:  # each exception where it is written
            for i, none in enumerate(z.not_exerted_by):
                yield self.line(t, none.cite, f"{_cap(who(none))} exert no ZOC.",
                                f"zoc.not_exerted_by[{i}]", z.cite)
        elif z.not_exerted_by and z.not_exerted_by[0].cite != z.cite:
            yield self.line(t, z.not_exerted_by[0].cite, f"{_cap(_whos(z.not_exerted_by))}"
                            " exert no ZOC.", "zoc.not_exerted_by", z.cite)
        for i, suspended in enumerate(z.suspended):
            near = ", nor do enemy units adjacent to them" if suspended.adjacent_enemies else ""
            yield self.line(t, suspended.cite, f"{_turns(suspended.turns)}, {who(suspended)}"
                            f" exert no ZOC{near}.", f"zoc.suspended[{i}]")
        for i, rule in enumerate(z.exerted_under):
            if rule.in_terrain:
                where = _list([_name(x) for x in rule.in_terrain])
                text = (f"{_cap(who(rule))} in {_a(where)} hex exert a ZOC out of it (though"
                        " none reaches into such hexes)" if set(rule.in_terrain) <= set(
                            z.reach.not_into_terrain) else
                        f"{_cap(who(rule))} in {_a(where)} hex exert a ZOC")
            else:
                text = f"{_cap(who(rule))} exert a ZOC"
            yield self.line(t, rule.cite, text + ".", f"zoc.exerted_under[{i}]")
        reach = z.reach
        limits: list[str] = []
        if reach.blocked_by_hexsides:
            limits.append(f"across {_list([_name(x) for x in reach.blocked_by_hexsides])}"
                          " hexsides")
        if reach.not_into_terrain:
            limits.append(f"into {_list([_name(x) for x in reach.not_into_terrain])} hexes")
        if reach.not_across_prohibited:
            limits.append("where the exerting unit could not move (prohibited terrain)")
        if limits:
            yield self.line(t, reach.cite, f"A ZOC does not extend {_list(limits)}.",
                            "zoc.reach")
        yield from self._effects(t, None, z.enter, z.leave, z.ezoc_to_ezoc, "zoc")
        for name, own in z.by_class.items():
            yield from self._effects(t, name, own.enter, own.leave,
                                     own.ezoc_to_ezoc, f"zoc.by_class.{name}")
        barred = z.ezoc_to_ezoc_barred
        if barred is not None:
            crossing = [f"across {_a(_name(x))} hexside" for x in barred.hexsides] + [
                f"into {_a(_name(x))} hex" for x in barred.terrain]
            exempt = f" ({_whos(barred.exempt)} excepted)" if barred.exempt else ""
            yield self.line(t, barred.cite, f"No unit moves from an EZOC into another"
                            f" {_list(crossing)}{exempt}.", "zoc.ezoc_to_ezoc_barred")
        negation = z.negated_by_friendly
        if negation.purposes:
            exempt = f" ({_whos(negation.not_by)} never do)" if negation.not_by else ""
            others = [x for x in ("movement", "supply", "retreat", "command")
                      if x not in negation.purposes]
            yield self.line(t, negation.cite, "A friendly unit in a hex negates the EZOC there"
                            f" for {_list(negation.purposes, 'and')}{exempt}; for"
                            f" {_list(others, 'or')} it does not.", "zoc.negated_by_friendly")
        else:
            yield self.line(t, negation.cite, "Friendly units never negate an EZOC.",
                            "zoc.negated_by_friendly", z.cite)
        for i, ignoring in enumerate(z.ignored_by):
            yield self.line(t, ignoring.cite, f"{_cap(who(ignoring))} ignore EZOC.",
                            f"zoc.ignored_by[{i}]")

    def _effects(self, t: str, unit_class: str | None, enter: ZocEnter | None,
                 leave: ZocLeave | None, e2e: EzocToEzoc | None, key: str
                 ) -> Iterator[RuleLine]:
        """What an EZOC does to movement: to every unit, or to units of ``unit_class``."""
        unit = f"a {unit_class} unit" if unit_class else "a unit"
        if enter is not None:
            costs = []
            if enter.extra_mp:
                costs.append(f"{_mp(enter.extra_mp)} MP")
            if enter.extra_ma_fraction is not None:
                costs.append(f"{_share(enter.extra_ma_fraction)} of its printed MA (rounded"
                             f" {enter.rounding})")
            pays = (f"pays {_list(costs, 'plus')} on top of the terrain" if costs else
                    "pays nothing more")
            goes = "and must stop" if enter.stop else "and may go on"
            yield self.line(t, enter.cite, _sentence("", f"{unit} entering an EZOC {pays}"
                                                     f" {goes}"), f"{key}.enter")
            for i, free in enumerate(enter.free_for):
                whom = who(UnitSelector(**{**free.conditions(), **(
                    {"classes": [unit_class]} if unit_class else {})}))
                yield self.line(t, free.cite, _sentence("", f"{whom} pay nothing more to enter"
                                                        " an EZOC"),
                                f"{key}.enter.free_for[{i}]", enter.cite)
        if leave is not None:
            if not leave.allowed:
                text = f"{unit} in an EZOC may not leave it"
            else:
                text = (f"{unit} leaving an EZOC pays nothing more" if not leave.extra_mp else
                        f"{unit} leaving an EZOC pays {_mp(leave.extra_mp)} MP on top of the"
                        " terrain")
                if leave.no_reentry:
                    text += " and may not enter an EZOC again that phase"
            for out in leave.one_hex:
                terrain = _list([_name(x) for x in out.terrain])
                unless = (f" (not a hex that is also"
                          f" {_list([_name(x) for x in out.unless_terrain])})"
                          if out.unless_terrain else "")
                text += (f"; {who(out)} in {_a(terrain)} hex may always leave it one hex into"
                         f" such a hex{unless}, whatever their MP")
            yield self.line(t, leave.cite, _sentence("", text), f"{key}.leave")
        if e2e is not None:
            text = {"allowed": f"{unit} may move directly from one EZOC hex into another",
                    "prohibited": f"{unit} may not move directly from one EZOC hex into"
                                  " another",
                    "whole_ma": f"{unit} may move directly from one EZOC hex into another only"
                                " as its whole move, spending its whole MA (the terrain not"
                                " costing more), and then stops",
                    "one_hex_into_friendly": f"{unit} may move directly from one EZOC hex into"
                                             " another only one hex, into a hex holding a"
                                             " friendly unit, and then stops"}[e2e.mode]
            yield self.line(t, e2e.cite, _sentence("", text), f"{key}.ezoc_to_ezoc")

    # -- stacking ------------------------------------------------------------------------

    def stacking(self) -> Iterator[RuleLine]:
        s, t = self.p.stacking, "Stacking"
        what = "points" if s.counts == "points" else "units"
        limit = "not given" if s.limit is None else _mp(s.limit)
        when = ("at all times" if s.applies == "always" else "at the end of a move")
        passing = ("; units may pass through a hex they could not end in" if s.pass_through
                   else "; no unit passes through a hex it could not end in")
        if limit == "1":
            what = what[:-1]
        yield self.line(t, s.cite, f"A hex holds at most {limit} {what}"
                        + (f" ({when}{passing})" if s.applies != "end_of_movement"
                           or not s.pass_through else "") + ".", "stacking.limit")
        if s.counts == "points" and s.points:
            points = "; ".join(f"{size} {_share(v)}" for size, v in s.points.items())
            yield self.line(t, s.cite, f"Stacking points by size: {points}.", "stacking.points")
        for i, entry in enumerate(s.units):
            parts = []
            if entry.free is not None:
                first = ("one a hex counts nothing" if entry.free == 1 else
                         f"the first {entry.free} a hex count nothing")
                parts.append(first + (f" (with {_whos(entry.free_with)} in the hex)"
                                      if entry.free_with else ""))
                if entry.value is not None:
                    parts.append(f"others {_share(entry.value)} each")
            elif entry.value is not None:
                parts.append("count nothing" if entry.value == 0 else
                             f"count {_share(entry.value)} each")
            if entry.max_count is not None:
                parts.append(f"at most {entry.max_count} a hex")
            if entry.max_stack is not None:
                parts.append("never stack with another unit" if entry.max_stack == 1 else
                             f"stand in stacks of at most {entry.max_stack} units")
            if entry.raises_limit is not None:
                parts.append(f"a hex holding one may hold {_mp(entry.raises_limit)} more"
                             " beyond the limit")
            yield self.line(t, entry.cite, f"{_cap(who(entry))}: {'; '.join(parts)}.",
                            f"stacking.units[{i}]")
        for kind, marker in s.markers.items():
            most = f", at most {marker.max_count} a hex" if marker.max_count is not None else ""
            counts = "nothing" if marker.value == 0 else _share(marker.value)
            yield self.line(t, marker.cite, f"{_cap(_a(_name(kind)))} marker counts {counts}"
                            f"{most}.", f"stacking.markers.{kind}")
        if not s.markers:
            yield self.line(t, s.cite, "Markers never count.", "stacking.markers")
        elif s.counts == "units" or s.markers:
            yield self.line(t, s.cite, "Other markers never count.", "stacking.markers")
        for i, ex in enumerate(s.exclusive_markers):
            yield self.line(t, ex.cite, f"No hex holds two of {_list(ex.types, 'and')}.",
                            f"stacking.exclusive_markers[{i}]")
        for i, special in enumerate(s.hex_limits):
            where = [x for x in (special.terrain and f"a {special.terrain} hex",
                                 special.marker and f"with a {special.marker} marker") if x]
            what = "points" if s.counts == "points" else "units"
            yield self.line(t, special.cite, f"{_cap(' '.join(where))} holds"
                            f" {_mp(special.limit)} {what[:-1] if special.limit == 1 else what}.",
                            f"stacking.hex_limits[{i}]")
            if special.once_left is not None:
                yield self.line(t, special.once_left.cite, "A unit that has left"
                                f" {' '.join(where)} (by the move being checked too) may never"
                                " stack again.", f"stacking.hex_limits[{i}].once_left")
        if s.no_mixing is not None:
            groups = [f"{_list(g, 'and')} units" for g in s.no_mixing.groups]
            text = (f"{groups[0]} never stack with {groups[1]}" if len(groups) == 2 else
                    f"Units of different groups never stack together: {'; '.join(groups)}")
            yield self.line(t, s.no_mixing.cite, f"{text}.", "stacking.no_mixing")
        placement = self.p.placement
        if placement is not None:
            where = [f"{_list(placement.terrain)} hexes"] if placement.terrain else ["hexes"]
            if placement.markers:
                where.append(f"with a {_list([m.type for m in placement.markers])} marker")
            yield self.line(t, placement.cite, f"Reinforcements are placed in {' '.join(where)},"
                            " within the stacking limits.", "placement")
            yield self.line(t, placement.enemy_occupied.cite, "No reinforcement is placed in a"
                            " hex holding an enemy unit.", "placement.enemy_occupied",
                            placement.cite)
            ezoc = placement.not_in_ezoc
            if ezoc is not None:
                unless = " unless a friendly unit is there" if ezoc.unless_friendly else ""
                turns = f"From turn {ezoc.from_turn}, no" if ezoc.from_turn > 1 else "No"
                yield self.line(t, ezoc.cite, f"{turns} reinforcement is placed in a hex in an"
                                f" EZOC{unless}.", "placement.not_in_ezoc")

    # -- supply --------------------------------------------------------------------------

    def supply(self) -> Iterator[RuleLine]:
        s, t = self.p.supply, "Supply"
        if not s.traced:
            yield self.line(t, s.cite, "Supply is not traced: every unit is in supply.",
                            "supply.traced")
            return
        for i, free in enumerate(s.not_traced):
            turns = f" {_turns(free.turns).lower()}" if free.turns else ""
            yield self.line(t, free.cite, f"{_cap(who(free))} need not trace supply"
                            f"{turns}: answered in supply, \"{free.reason}\".",
                            f"supply.not_traced[{i}]")
        for i, src in enumerate(s.sources):
            what = src.name or src.kind
            how = _source_hexes(src)
            excluded = "".join(f"; not one with {_where(x.where)}" for x in src.excluded)
            control = ", while the position's control gives it to the side" \
                if src.controlled else ""
            label = (_cap(what) if "source" in what.lower() else
                     f"{_side(src.side)} supply source ({what})")
            yield self.line(t, src.cite, f"{label}: {how}{control}{excluded}.",
                            f"supply.sources[{i}]")
            if src.in_hex is not None:
                yield self.line(t, src.in_hex.cite, f"A unit in {what} is in supply.",
                                f"supply.sources[{i}].in_hex", src.cite)
        length = s.length
        unit = "supply MP" if length.unit == "mp" else "hexes"
        if length.max is None:
            yield self.line(t, length.cite, "A line of supply may be of any length.",
                            "supply.length", s.cite)
        else:
            yield self.line(t, length.cite, f"A line of supply may be at most"
                            f" {_mp(length.max)} {unit} long, counting each hex it enters"
                            f" ({_mp(length.default)} each, the source included, the unit's"
                            " own hex not).", "supply.length", s.cite)
        for i, entry in enumerate(length.hex_counts):
            what = _a(f"{_name(entry.terrain)} hex") if entry.terrain else (
                f"a hex with {_a(_name(entry.feature or ''))} hexside")
            first = (" (of the counts below, the first that applies is used)" if i == 0
                     and len(length.hex_counts) > 1 else "")
            yield self.line(t, entry.cite, f"{_cap(what)} counts {_mp(entry.counts)}{first}.",
                            f"supply.length.hex_counts[{i}]")
        for i, crossing in enumerate(length.crossings):
            road = " unless a road crosses it" if crossing.unless_road else ""
            yield self.line(t, crossing.cite, f"Crossing {_a(_name(crossing.feature))}"
                            f" hexside{road} counts {_mp(crossing.counts)} instead of the hex"
                            " entered.", f"supply.length.crossings[{i}]")
        for i, along in enumerate(length.roads):
            yield self.line(t, along.cite, f"A step through {_a(_name(along.road))} hexside"
                            f" counts {_mp(along.counts)}.", f"supply.length.roads[{i}]")
        for i, lim in enumerate(length.terrain_limits):
            roads = (" (a hex entered and left through road hexsides does not count)"
                     if lim.except_along_roads else "")
            yield self.line(t, lim.cite, f"A line passes at most {lim.max} {_name(lim.terrain)}"
                            f" hex{'es' if lim.max != 1 else ''}{roads}.",
                            f"supply.length.terrain_limits[{i}]")
        yield self.line(t, s.enemy_units.cite, "A line never enters a hex holding an enemy"
                        " unit.", "supply.enemy_units", s.cite)
        ezoc = s.ezoc
        text = {"blocked": "A line may not enter a hex in an EZOC unless a friendly unit there"
                           " negates it",
                "enter_or_exit": "A line may enter or leave a hex in an EZOC but not both"
                                 " (only the unit's own hex and the source may be in one),"
                                 " even with a friendly unit in it",
                "ignored": "EZOC do not affect a line of supply"}[ezoc.mode]
        if ezoc.mode == "blocked":
            text += ("; no line leaves an EZOC hex that no friendly unit negates"
                     if ezoc.own_hex == "blocked" else "; the unit's own hex is not entered")
        yield self.line(t, ezoc.cite, text + ".", "supply.ezoc", s.cite)
        for i, blocker in enumerate(s.blocking_hexsides):
            road = " unless a road crosses it" if blocker.unless_road else ""
            yield self.line(t, blocker.cite, f"No line crosses {_a(_name(blocker.feature))}"
                            f" hexside{road}.", f"supply.blocking_hexsides[{i}]")
        if s.prohibited is not None:
            yield self.line(t, s.prohibited.cite, "No line crosses terrain prohibited to"
                            f" {s.prohibited.unit_class} units.", "supply.prohibited")

    # -- line of sight -------------------------------------------------------------------

    def los(self) -> Iterator[RuleLine]:
        rules, t = self.p.los, "Line of sight"
        if rules is None:
            return
        levels = ", ".join(f"{k} {v}" for k, v in rules.elevations.items())
        yield self.line(t, rules.cite, "A line of sight runs between hex centres; a unit"
                        f" stands at its hex's elevation ({levels}; else 0) and sees over"
                        " obstacles lower than the higher of the two units.", "los.elevations")
        for name, bar in rules.bars.items():
            extra = []
            if bar.not_when_joined_to:
                extra.append(f"not where it meets a {bar.not_when_joined_to} bar")
            if bar.always_block is not None:
                unless = (f" unless both units stand at elevation"
                          f" {bar.always_block.unless_both_at}"
                          if bar.always_block.unless_both_at is not None else "")
                extra.append(f"{bar.always_block.count} of them on a line always block"
                             f"{unless}")
            yield self.line(t, bar.cite, f"A {name} hexside bar on the line blocks it (an"
                            f" obstacle at elevation {bar.level})"
                            + (f"; {'; '.join(extra)}" if extra else "") + ".", f"los.bars.{name}")
        for i, blocking in enumerate(rules.blocking_hexes):
            yield self.line(t, blocking.cite, f"A hex of {_list(blocking.terrain, 'and')} on the"
                            " line always blocks it.", f"los.blocking_hexes[{i}]", rules.cite)


def _source_hexes(src: SupplySource) -> str:
    """Which hexes a supply source is, in words."""
    if src.kind == "marker":
        marker = _a(f"{_name(src.marker.type) if src.marker else ''} marker")
        where = f" ({_where(src.marker.where)})" if src.marker and src.marker.where else ""
        terrain = f", in {_name(src.terrain)} terrain" if src.terrain else ""
        return f"a hex with {marker}{where}{terrain}"
    if src.kind == "edge":
        marked = f" where map.json marks the edge {src.edge_role}" if src.edge_role else ""
        return f"a hex of the {_list(src.edges or ['any'], 'or')} map edge{marked}"
    if src.kind == "hexes":
        return f"hex {_list(src.hexes, 'or')}"
    if src.kind == "terrain":
        return _a(f"{_name(src.terrain or '')} hex")
    return f"the hex of one of the {_whos(src.units)}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _turns(turns: Sequence[int]) -> str:
    """"On turn 1", "On turns 1 and 2"."""
    return (f"On turn{'s' if len(turns) > 1 else ''}"
            f" {_list([str(x) for x in turns], 'and')}")


def _sentence(prefix: str, text: str) -> str:
    out = prefix + text
    return out[:1].upper() + out[1:] + "."


def _share(x: float) -> str:
    shares = {0.5: "half", 1 / 3: "a third", 2 / 3: "two-thirds", 0.25: "a quarter"}
    for value, words in shares.items():
        if abs(x - value) < 1e-9:
            return words
    return _mp(x)


def _modifier(m: MaModifier) -> str:
    when = []
    if m.weather:
        when.append(f"in {_list(m.weather)} weather")
    if m.turns:
        when.append(_turns(m.turns).lower())
    if m.phases:
        when.append(f"in the {_list([_name(p) for p in m.phases])} phase")
    whom = who(m)
    if m.max_hexes is not None:
        change = ("do not move" if m.max_hexes == 0 else
                  f"move at most {m.max_hexes} hex{'es' if m.max_hexes != 1 else ''}")
    elif m.factor is not None:
        change = ("keep their full MA" if m.factor == 1 else
                  f"have {_share(m.factor)} of their MA, rounded {m.rounding}")
        if m.factor == 0.5:
            change = f"have half their MA, rounded {m.rounding}"
    elif m.subtract is not None:
        change = f"have {_mp(m.subtract)} MP less (never below 0)"
    else:
        change = (f"have as many MP less as the position's {m.subtract_from_state} says"
                  " (never below 0)")
    text = f"{' '.join(when)}, {whom} {change}" if when else f"{whom} {change}"
    return text[:1].upper() + text[1:] + "."
