"""The turn record track as a printed aid: a track of boxes, one a game turn.

Boxes run left to right and wrap in rows, as a printed track does. Each box
holds its turn's number, date or label, and the counters of the units that
arrive on it (``reinforcements``, drawn by :func:`pipeline.counters.render_unit`
from the manifest, or a box with the id when the manifest lacks them), each
marked with where it enters: a hex, a map edge, or ``[n]``, the note that
says. A turn's notes and its arrivals' notes are printed under the track,
numbered, and the box shows the number. Turns run from ``first_turn`` to
``last_turn``, plus any turn the data lists outside them.

>>> from pathlib import Path
>>> from pipeline.model import load_scenario
>>> root = Path(__file__).resolve().parents[2]
>>> scenario = load_scenario(root / "maps" / "demo" / "scenario.json")
>>> turn_numbers(scenario)[:3], turn_numbers(scenario)[-1]
([1, 2, 3], 17)
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.aids.cite import Rulebook
from pipeline.aids.page import Flow, Page, Picture, Rect, Text, paper_points, wrap
from pipeline.counters.render import RenderOptions, render_unit
from pipeline.model.manifest import UnitManifest
from pipeline.model.scenario import Reinforcement, Scenario

__all__ = ["BOXES_PER_ROW", "TurnBox", "arrival_text", "track_pages", "turn_boxes",
           "turn_numbers", "unit_label"]

BOXES_PER_ROW = 6
"""Boxes in a row of the track on a portrait page."""

COUNTER = 24.0  # printed counter side in a box, points
SLOT = COUNTER + 4.0  # a counter and the gap after it
MARK = 8.0  # the where-mark under a counter
HEADER = 24.0  # the turn number's strip at the top of a box
PAD = 4.0
EDGE = (110, 110, 110)
HEADER_FILL = (232, 238, 246)
CHIP = (245, 245, 245)


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
    """One arriving unit in words: ``9/3 9 Infantry Regiment (south edge)``.

    >>> arrival_text(Reinforcement(unit="Sch/30", turn=1, hex="1005"), None)
    'Sch/30 (hex 1005)'
    """
    where = (f"hex {extra.hex}" if extra.hex is not None
             else f"{extra.edge} edge" if extra.edge is not None else "see note")
    return f"{unit_label(extra.unit, manifest)} ({where})"


def _mark(extra: Reinforcement, note: int | None) -> str:
    """Where a unit enters, short enough to print under its counter."""
    if extra.hex is not None:
        return extra.hex
    if extra.edge is not None:
        return f"{extra.edge[0].upper()} edge"
    return f"[{note}]" if note is not None else "?"


@dataclass(frozen=True)
class TurnBox:
    """What one box of the track shows."""

    turn: int
    when: str
    arrivals: tuple[Reinforcement, ...]
    notes: tuple[str, ...]


def _arrival_notes(arrivals: list[Reinforcement], manifest: UnitManifest | None) -> list[str]:
    """The arrivals' own notes, one line for the units that share a note."""
    grouped: dict[str, list[str]] = {}
    for extra in arrivals:
        text = " ".join(x for x in (extra.note, f"({extra.cite})" if extra.cite else "") if x)
        if extra.note:
            grouped.setdefault(text, []).append(unit_label(extra.unit, manifest))
    return [f"{', '.join(units)}: {text}" for text, units in grouped.items()]


def turn_boxes(scenario: Scenario, manifest: UnitManifest | None = None) -> list[TurnBox]:
    """The track's boxes in turn order.

    >>> from pathlib import Path
    >>> from pipeline.model import load_scenario
    >>> root = Path(__file__).resolve().parents[2]
    >>> boxes = turn_boxes(load_scenario(root / "maps" / "demo" / "scenario.json"))
    >>> [(b.turn, [a.unit for a in b.arrivals]) for b in boxes[:3]]
    [(1, ['Sch/30']), (2, ['9/2', '23/2', '38/2', 'CCA/2']), (3, ['9/3', '117/30'])]
    """
    given = {box.turn: box for box in scenario.turns}
    out = []
    for turn in turn_numbers(scenario):
        box = given.get(turn)
        arrivals = [extra for extra in scenario.reinforcements if extra.turn == turn]
        when = " ".join(x for x in (box.date, box.label) if x) if box is not None else ""
        notes = ([box.notes] if box is not None and box.notes else [])
        out.append(TurnBox(turn, when, tuple(arrivals),
                           tuple(notes + _arrival_notes(arrivals, manifest))))
    return out


class _Track:
    """Lays the boxes out in rows on a :class:`Flow`, and numbers their notes."""

    def __init__(self, flow: Flow, manifest: UnitManifest | None, dpi: float) -> None:
        self.flow = flow
        self.manifest = manifest
        self.options = RenderOptions(size=COUNTER / 72, dpi=dpi)
        self.width = flow.width / BOXES_PER_ROW
        self.per_row = max(1, int((self.width - PAD) // SLOT))
        self.footnotes: list[str] = []

    def height(self, box: TurnBox) -> float:
        rows = -(-len(box.arrivals) // self.per_row)
        return max(self.width * 0.8, HEADER + rows * (SLOT + MARK) + PAD)

    def row(self, boxes: list[TurnBox]) -> None:
        height = max(self.height(box) for box in boxes)
        self.flow.need(height)
        top = self.flow.y
        for i, box in enumerate(boxes):
            self.box(box, self.flow.margin + i * self.width, top, height)
        self.flow.y = top + height + 6

    def box(self, box: TurnBox, x: float, y: float, height: float) -> None:
        items = self.flow.page.items
        items.append(Rect(x, y, self.width, height, None, EDGE, 0.8))
        items.append(Rect(x, y, self.width, HEADER - 4, HEADER_FILL, EDGE, 0.8))
        items.append(Text(x + PAD, y + 15, str(box.turn), 14, "bold"))
        note = None
        if box.notes:
            self.footnotes.append(f"GT {box.turn}: " + ". ".join(box.notes))
            note = len(self.footnotes)
            items.append(Text(x + self.width - PAD, y + 14, f"[{note}]", 8, "bold",
                              align="right"))
        if box.when:
            items.append(Text(x + 26, y + 13, self.flow.say(box.when), 6.5))
        for k, extra in enumerate(box.arrivals):
            cx = x + PAD + (k % self.per_row) * SLOT
            cy = y + HEADER + (k // self.per_row) * (SLOT + MARK)
            self.counter(extra.unit, cx, cy)
            items.append(Text(cx + COUNTER / 2, cy + COUNTER + 7, _mark(extra, note), 6,
                              align="centre"))

    def counter(self, unit_id: str, x: float, y: float) -> None:
        """The unit's counter, or a chip with its id when the manifest does not have it."""
        items = self.flow.page.items
        spec = self.manifest.get(unit_id) if self.manifest is not None else None
        if spec is not None:
            items.append(Picture(x, y, COUNTER, COUNTER, render_unit(spec, self.options)))
            return
        items.append(Rect(x, y, COUNTER, COUNTER, CHIP, EDGE, 0.5))
        for i, line in enumerate(wrap(unit_id, 6, COUNTER - 2)[:2]):
            items.append(Text(x + COUNTER / 2, y + 10 + 7 * i, line, 6, align="centre"))


def track_pages(scenario: Scenario, manifest: UnitManifest | None = None,
                paper: str = "letter", *, book: Rulebook | None = None,
                dpi: float = 150.0) -> list[Page]:
    """Lay out the turn record track on portrait pages of ``paper``.

    Parameters
    ----------
    scenario
        The scenario (:func:`pipeline.model.load_scenario`).
    manifest
        The game's units, for the arrivals' counters (chips with their ids without it).
    paper
        ``letter`` or ``a4``.
    book
        The rulebook the citations name (:meth:`Rulebook.of`): printed by its title.
    dpi
        Resolution the counters are drawn at.
    """
    title = f"Turn Record Track: {scenario.name}"
    flow = Flow(paper_points(paper), title=title, words=book.cite if book else None)
    flow.heading(title)
    first = f"; {scenario.first_player} player first" if scenario.first_player else ""
    flow.paragraph(f"Game turns {scenario.first_turn}-{scenario.last_turn}{first}. A box is a"
                   " game turn; the units drawn in it arrive on that turn, each marked with"
                   " its hex, its map edge or the note that says where. [n]: a note below."
                   f" Source: {scenario.source}", 8)
    flow.space(4)
    track = _Track(flow, manifest, dpi)
    boxes = turn_boxes(scenario, manifest)
    for start in range(0, len(boxes), BOXES_PER_ROW):
        track.row(boxes[start:start + BOXES_PER_ROW])
    if track.footnotes:
        flow.space(4)
        flow.heading("Notes", 11)
        for i, text in enumerate(track.footnotes, 1):
            flow.paragraph(f"[{i}] {text}", 7.5)
    return flow.pages
