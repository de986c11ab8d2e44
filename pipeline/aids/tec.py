"""The Terrain Effects Chart as a printed aid, from ``rules.json`` (and the map's colours).

One row a terrain, hexside feature and road: the movement cost for each unit
class, the combat effect, and a swatch in the map's colour for the terrain.
Costs print as the rulebooks write them (``2``, ``+1``, ``P`` prohibited); a
cost or effect the data leaves ``null`` prints as ``?``, and each entry's note
and citation is listed under the chart, so a player sees where the number is.

>>> from pipeline.model import load_rules
>>> from pathlib import Path
>>> rules = load_rules(Path(__file__).resolve().parents[2] / "maps" / "demo" / "rules.json")
>>> format_cost(rules.terrain["marsh"].move, "mobile"), format_cost(None, "leg")
('4', '?')
"""

from __future__ import annotations

from pipeline.aids.cite import Rulebook
from pipeline.aids.crt import UNKNOWN
from pipeline.aids.page import RGB, Cell, Flow, Page, paper_points
from pipeline.model.mapdata import MapData
from pipeline.model.rulesprofile import CombatEffect, CostLeaf, RulesProfile, TerrainRule

__all__ = ["format_combat", "format_cost", "parse_colour", "tec_pages"]

HEAD = (232, 238, 246)


def format_cost(cost: CostLeaf | dict[str, CostLeaf], unit_class: str) -> str:
    """A cost for one unit class as printed: ``1``, ``0.5``, ``+1``, ``P`` or ``?``.

    >>> format_cost({"infantry": None, "mechanized": "P"}, "mechanized"), format_cost(2.0, "x")
    ('P', '2')
    """
    value = cost.get(unit_class) if isinstance(cost, dict) else cost
    if value is None:
        return UNKNOWN
    if isinstance(value, str):
        return value
    return f"{value:g}"


def format_combat(effect: CombatEffect | None) -> str:
    """A combat effect in words: the CRT line, column shifts, modifier, multiplier.

    >>> format_combat(CombatEffect(shift=-2)), format_combat(None)
    ('-2 columns', '?')
    """
    if effect is None:
        return UNKNOWN
    parts = []
    if effect.row is not None:
        parts.append(f"CRT line: {effect.row}")
    if effect.shift is not None:
        parts.append(f"{effect.shift:+d} column{'s' if abs(effect.shift) != 1 else ''}")
    if effect.modifier is not None:
        parts.append(f"{effect.modifier:+d} modifier")
    if effect.multiplier is not None:
        parts.append(f"defence ×{effect.multiplier:g}")
    return "; ".join(parts)


def parse_colour(text: str | None) -> RGB | None:
    """``'#rrggbb'`` -> ``(r, g, b)``; anything else -> ``None``.

    >>> parse_colour("#5b8a3c"), parse_colour(None)
    ((91, 138, 60), None)
    """
    if not isinstance(text, str) or len(text) != 7 or not text.startswith("#"):
        return None
    try:
        return int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16)
    except ValueError:
        return None


def _colours(data: MapData | None, section: str) -> dict[str, RGB | None]:
    if data is None:
        return {}
    kinds = data.terrain_types if section == "terrain" else data.hexside_features
    return {name: parse_colour(kind.color) for name, kind in kinds.items()}


def tec_pages(rules: RulesProfile, paper: str = "letter", map_data: MapData | None = None,
              book: Rulebook | None = None) -> list[Page]:
    """Lay out the chart on portrait pages of ``paper``.

    Parameters
    ----------
    rules
        The rules profile (:func:`pipeline.model.load_rules`).
    paper
        ``letter`` or ``a4``.
    map_data
        The game's map, for the swatch colours (none drawn without it).
    book
        The rulebook the citations name (:meth:`Rulebook.of`): printed by its title.
    """
    title = f"Terrain Effects Chart ({rules.title or rules.game})"
    flow = Flow(paper_points(paper), title=title, words=book.cite if book else None)
    flow.heading(title)
    flow.paragraph(f"Movement cost in MP per unit class; +N: added to the hex's other terrain;"
                   f" P: prohibited; ?: not given in the rulebook text. Source: {rules.source}",
                   8)
    classes = list(rules.unit_classes)
    notes: list[str] = []
    swatch, name_w, class_w = 22.0, 110.0, 52.0
    combat_w = flow.width - swatch - name_w - class_w * len(classes)
    widths = [swatch, name_w, *([class_w] * len(classes)), combat_w]

    def section(heading: str, key: str, entries: dict[str, TerrainRule]) -> None:
        if not entries:
            return
        colours = _colours(map_data, key)
        flow.heading(heading, 11)
        rows = [[Cell("", HEAD), Cell("Name", HEAD, "bold", "left"),
                 *[Cell(c, HEAD, "bold") for c in classes], Cell("Combat", HEAD, "bold", "left")]]
        for name, rule in entries.items():
            mark = ""
            if rule.note or rule.cite or (rule.combat is not None and rule.combat.note):
                notes.append(_note(name, rule))
                mark = f" [{len(notes)}]"
            rows.append([Cell("", colours.get(name)), Cell(name + mark, None, "text", "left"),
                         *[Cell(format_cost(rule.move, c), None, "bold") for c in classes],
                         Cell(format_combat(rule.combat), None, "text", "left")])
        flow.table(widths, rows, header=1, size=8)

    section("Terrain in the hex", "terrain", dict(rules.terrain))
    section("Hexsides (cost to cross)", "hexsides", dict(rules.hexsides))
    if rules.roads:
        flow.heading("Roads (MP per hex along the road)", 11)
        rows = [[Cell("", HEAD), Cell("Name", HEAD, "bold", "left"),
                 *[Cell(c, HEAD, "bold") for c in classes], Cell("", HEAD)]]
        colours = _colours(map_data, "hexsides")
        for name, road in rules.roads.items():
            mark = ""
            if road.note or road.cite:
                notes.append(f"{name}: " + " ".join(x for x in (road.note, _cite(road.cite)) if x))
                mark = f" [{len(notes)}]"
            rows.append([Cell("", colours.get(name)), Cell(name + mark, None, "text", "left"),
                         *[Cell(format_cost(road.rate, c), None, "bold") for c in classes],
                         Cell("")])
        flow.table(widths, rows, header=1, size=8)
    if notes:
        flow.heading("Notes", 11)
        for i, text in enumerate(notes, 1):
            flow.paragraph(f"[{i}] {text}", 7)
    return flow.pages


def _cite(cite: str) -> str:
    return f"({cite})" if cite else ""


def _note(name: str, rule: TerrainRule) -> str:
    parts = [rule.note, _cite(rule.cite)]
    if rule.combat is not None and (rule.combat.note or rule.combat.cite):
        parts += ["Combat:", rule.combat.note, _cite(rule.combat.cite)]
    return f"{name}: " + " ".join(p for p in parts if p)
