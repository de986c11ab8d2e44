"""The order of battle and set-up sheet as a printed aid, from a scenario and the manifest.

Per side, in manifest order, every unit the scenario uses: its counter (drawn
by :func:`pipeline.counters.render_unit` at a small size), id and name, and
where it starts: its set-up hex, or the turn it arrives and where. A unit the
scenario names that the manifest lacks is listed at the end without a counter.

>>> from pathlib import Path
>>> from pipeline.model import load_scenario, load_units
>>> root = Path(__file__).resolve().parents[2]
>>> scenario = load_scenario(root / "maps" / "demo" / "scenario.json")
>>> units = load_units(root / "counters" / "demo" / "units.csv")
>>> [(e.side, e.unit_id, e.where) for e in oob_entries(scenario, units)][:2]
[('german', '352/352', 'set up in 1915'), ('german', '914/352', 'set up in 2021')]
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from pipeline.aids.cite import Rulebook
from pipeline.aids.page import Flow, Line, Page, Picture, Text, paper_points
from pipeline.counters.render import RenderOptions, render_unit
from pipeline.model.manifest import UnitManifest, UnitSpec
from pipeline.model.scenario import Scenario

__all__ = ["OobEntry", "oob_entries", "oob_pages"]

COUNTER = 30.0  # printed counter side, points
ROW = COUNTER + 6.0


@dataclass(frozen=True)
class OobEntry:
    """One line of the sheet."""

    side: str
    unit_id: str
    name: str
    where: str
    spec: UnitSpec | None


def _where(scenario: Scenario, unit_id: str) -> str | None:
    for placed in scenario.setup:
        if placed.unit == unit_id:
            return f"set up in {placed.hex}"
    for extra in scenario.reinforcements:
        if extra.unit == unit_id:
            at = (f"hex {extra.hex}" if extra.hex is not None
                  else f"{extra.edge} edge" if extra.edge is not None else "see scenario note")
            return f"arrives GT {extra.turn}, {at}"
    return None


def oob_entries(scenario: Scenario, manifest: UnitManifest) -> list[OobEntry]:
    """The units the scenario sets up or brings in, grouped by side in manifest order."""
    entries: list[OobEntry] = []
    for spec in manifest:
        where = _where(scenario, spec.id)
        if where is not None:
            entries.append(OobEntry(spec.side, spec.id, spec.name or "", where, spec))
    known = set(manifest.ids())
    for _, unit_id in scenario.units():
        if unit_id not in known:
            known.add(unit_id)
            entries.append(OobEntry("not in the manifest", unit_id, "", _where(scenario, unit_id)
                                    or "", None))
    sides = list(dict.fromkeys(e.side for e in entries))
    return sorted(entries, key=lambda e: sides.index(e.side))


def oob_pages(scenario: Scenario, manifest: UnitManifest, paper: str = "letter",
              dpi: float = 150.0, book: Rulebook | None = None) -> list[Page]:
    """Lay out the order of battle on portrait pages of ``paper``.

    Parameters
    ----------
    scenario, manifest
        The scenario and the game's units.
    paper
        ``letter`` or ``a4``.
    dpi
        Resolution the counters are drawn at.
    book
        The rulebook the citations name (:meth:`Rulebook.of`): printed by its title.
    """
    title = f"Order of Battle: {scenario.name}"
    flow = Flow(paper_points(paper), title=title, words=book.cite if book else None)
    flow.heading(title)
    flow.paragraph(f"Set-up hexes and arrival game turns (GT). Source: {scenario.source}", 8)
    options = RenderOptions(size=COUNTER / 72, dpi=dpi)
    side = None
    for entry in oob_entries(scenario, manifest):
        if entry.side != side:
            side = entry.side
            flow.space(4)
            flow.heading(side.capitalize(), 12)
        flow.need(ROW)
        top = flow.y
        x = flow.margin
        if entry.spec is not None:
            image: Image.Image = render_unit(entry.spec, options)
            flow.page.items.append(Picture(x, top, COUNTER, COUNTER, image))
        x += COUNTER + 8
        flow.page.items.append(Text(x, top + 12, entry.unit_id, 9, "bold"))
        flow.page.items.append(Text(x + 80, top + 12, entry.name, 9))
        flow.page.items.append(Text(x + 80, top + 25, entry.where, 9, colour=(60, 60, 60)))
        flow.page.items.append(Line(flow.margin, top + ROW - 3, flow.margin + flow.width,
                                    top + ROW - 3, (200, 200, 200), 0.3))
        flow.y += ROW
    return flow.pages
