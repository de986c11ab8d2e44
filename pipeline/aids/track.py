"""The turn record track as a printed aid, from a scenario (and the unit manifest).

One row a game turn: its number, date or label, the scenario's notes for it,
and the units that arrive on it (``reinforcements``), by manifest id and name,
with where they enter (a hex, a map edge, or "see note"). Turns run from
``first_turn`` to ``last_turn``, plus any turn the data lists outside them.

>>> from pathlib import Path
>>> from pipeline.model import load_scenario
>>> root = Path(__file__).resolve().parents[2]
>>> scenario = load_scenario(root / "maps" / "demo" / "scenario.json")
>>> turn_numbers(scenario)[:3], turn_numbers(scenario)[-1]
([1, 2, 3], 17)
"""

from __future__ import annotations

from pipeline.aids.page import Cell, Flow, Page, paper_points
from pipeline.model.manifest import UnitManifest
from pipeline.model.scenario import Reinforcement, Scenario

__all__ = ["arrival_text", "track_pages", "turn_numbers"]

HEAD = (232, 238, 246)


def turn_numbers(scenario: Scenario) -> list[int]:
    """Every turn of the track in order: first to last, and any other turn named."""
    turns = set(range(scenario.first_turn, scenario.last_turn + 1))
    turns |= {box.turn for box in scenario.turns}
    turns |= {extra.turn for extra in scenario.reinforcements}
    return sorted(turns)


def unit_label(unit_id: str, manifest: UnitManifest | None) -> str:
    """``id name`` from the manifest, or the id alone when it has no name there.

    >>> unit_label("9/3", None)
    '9/3'
    """
    spec = manifest.get(unit_id) if manifest is not None else None
    if spec is None or not spec.name:
        return unit_id
    if spec.name.startswith(unit_id):
        return spec.name  # "Sch/30 Infantry Regiment", not "Sch/30 Sch/30 Infantry Regiment"
    return f"{unit_id} {spec.name}"


def arrival_text(extra: Reinforcement, manifest: UnitManifest | None) -> str:
    """One arriving unit as printed: ``9/3 9 Infantry Regiment (south edge)``.

    >>> arrival_text(Reinforcement(unit="Sch/30", turn=1, hex="1005"), None)
    'Sch/30 (hex 1005)'
    """
    where = (f"hex {extra.hex}" if extra.hex is not None
             else f"{extra.edge} edge" if extra.edge is not None else "see note")
    return f"{unit_label(extra.unit, manifest)} ({where})"


def track_pages(scenario: Scenario, manifest: UnitManifest | None = None,
                paper: str = "letter") -> list[Page]:
    """Lay out the turn record track on portrait pages of ``paper``.

    Parameters
    ----------
    scenario
        The scenario (:func:`pipeline.model.load_scenario`).
    manifest
        The game's units, for the names of the reinforcements (ids alone without it).
    paper
        ``letter`` or ``a4``.
    """
    title = f"Turn Record Track: {scenario.name}"
    flow = Flow(paper_points(paper), title=title)
    flow.heading(title)
    first = f"; {scenario.first_player} player first" if scenario.first_player else ""
    flow.paragraph(f"Game turns {scenario.first_turn}-{scenario.last_turn}{first}."
                   f" Source: {scenario.source}", 8)
    boxes = {box.turn: box for box in scenario.turns}
    arriving: dict[int, list[str]] = {}
    for extra in scenario.reinforcements:
        arriving.setdefault(extra.turn, []).append(arrival_text(extra, manifest))
    turn_w, date_w = 34.0, 80.0
    rest = flow.width - turn_w - date_w
    widths = [turn_w, date_w, rest * 0.55, rest * 0.45]
    rows = [[Cell("Turn", HEAD, "bold"), Cell("Date", HEAD, "bold", "left"),
             Cell("Notes", HEAD, "bold", "left"), Cell("Reinforcements", HEAD, "bold", "left")]]
    for turn in turn_numbers(scenario):
        box = boxes.get(turn)
        when = " ".join(x for x in (box.date, box.label) if x) if box is not None else ""
        notes = box.notes if box is not None else ""
        rows.append([Cell(str(turn), None, "bold"), Cell(when, None, "text", "left"),
                     Cell(notes, None, "text", "left"),
                     Cell("\n".join(arriving.get(turn, [])), None, "text", "left")])
    flow.table(widths, rows, header=1, size=8)
    return flow.pages
