"""The Combat Results Table as a printed aid, from ``crt.json``.

Three shapes of table come out of the data: a differential table with lines of
column headings by the defender's terrain (000 Combat Results Table, §8.2.1 d),
a plain differential table (001 §11.3) and an odds table (003 §8.3). Cells,
headings and die rolls the data leaves ``null`` print as ``?``, never as a guess.
For games with bombardment, the cells that read differently in bombardment are
shaded and explained under the table (000 §8.1.3: Ae, A1, A2, A3 and Ex are no
result; (A) only with a friendly unit adjacent).

>>> from pipeline.model import load_crt
>>> from pathlib import Path
>>> table = load_crt(Path(__file__).resolve().parents[2] / "maps" / "cobra" / "crt.json")
>>> pages = crt_pages(table, "letter")
>>> "1:3" in pages[0].texts() and "?" in pages[0].texts()
True
"""

from __future__ import annotations

from pipeline.aids.cite import Rulebook
from pipeline.aids.page import Cell, Flow, Page, paper_points
from pipeline.model.crt import CrtColumn, CrtTable

__all__ = ["BOMBARDMENT_CONDITIONAL", "BOMBARDMENT_NO_EFFECT", "UNKNOWN", "column_label",
           "crt_pages"]

UNKNOWN = "?"
"""What a cell, heading or die roll the data does not give prints as."""
BOMBARDMENT_NO_EFFECT = (215, 215, 215)
"""Shade of a cell that is no result in bombardment (000 §8.1.3)."""
BOMBARDMENT_CONDITIONAL = (255, 226, 150)
"""Shade of a cell that applies in bombardment only on a condition (000 §8.1.3)."""
HEAD = (232, 238, 246)
LABEL_WIDTH = 150.0


def column_label(column: CrtColumn, kind: str) -> str:
    """A column's printed heading: its label, else its range or ratio, else ``?``.

    >>> column_label(CrtColumn(low=2, high=3), "differential")
    '+2,+3'
    >>> column_label(CrtColumn(attacker=3, defender=1), "odds"), column_label(CrtColumn(), "odds")
    ('3:1', '?')
    """
    if column.label is not None:
        return column.label
    if kind == "odds" and column.attacker is not None:
        return f"{column.attacker}:{column.defender}"
    if column.low is not None and column.high is not None:
        if column.low == column.high:
            return f"{column.low:+d}"
        return f"{column.low:+d},{column.high:+d}"
    return UNKNOWN


def _shade(table: CrtTable, code: str | None) -> tuple[int, int, int] | None:
    if table.bombardment is None or code is None:
        return None
    if code in table.bombardment.no_effect:
        return BOMBARDMENT_NO_EFFECT
    if code in table.bombardment.conditional:
        return BOMBARDMENT_CONDITIONAL
    return None


def crt_pages(table: CrtTable, paper: str = "letter", book: Rulebook | None = None
              ) -> list[Page]:
    """Lay out the CRT on landscape pages of ``paper`` (``letter`` or ``a4``).

    Parameters
    ----------
    table
        The game's CRT (:func:`pipeline.model.load_crt`).
    paper
        Paper name; an unknown one raises :class:`pipeline.errors.DataError`.
    book
        The rulebook the citations name (:meth:`Rulebook.of`): printed by its title.
    """
    flow = Flow(paper_points(paper, landscape=True), title=table.title,
                words=book.cite if book else None)
    flow.heading(table.title)
    kind = "Combat differential" if table.type == "differential" else "Odds"
    dice = table.dice + (" (attacker and defender each roll)" if table.rolls == "both" else "")
    flow.paragraph(f"{kind} table, {dice}. Source: {table.source}", 8)
    if table.rounding:
        flow.paragraph(table.rounding, 8)

    columns = len(table.columns)
    width = min(44.0, (flow.width - LABEL_WIDTH) / columns)
    widths = [LABEL_WIDTH, *([width] * columns)]
    head: list[list[Cell]] = []
    if table.lines:
        head.append([Cell("Defender's terrain (line)", HEAD, "bold", "left"),
                     *[Cell(str(c.index) if c.index is not None else UNKNOWN, HEAD, "bold")
                       for c in table.columns]])
        for line in table.lines:
            texts = [""] * columns
            if line.headings is None:
                texts = [UNKNOWN] * columns
            else:
                at = {c.index: i for i, c in enumerate(table.columns)}
                for heading in line.headings:
                    texts[at[heading.column]] = heading.label
            head.append([Cell(line.label, HEAD, "condensed", "left"),
                         *[Cell(t, HEAD, "bold") for t in texts]])
    else:
        head.append([Cell(kind, HEAD, "bold", "left"),
                     *[Cell(column_label(c, table.type), HEAD, "bold") for c in table.columns]])
    body: list[list[Cell]] = []
    rolls = table.die_rolls
    if rolls is None or not table.results:
        labels = [str(r) for r in rolls] if rolls is not None else [UNKNOWN]
        body = [[Cell(f"Die roll {label}", None, "bold", "left"),
                 *[Cell(UNKNOWN) for _ in range(columns)]] for label in labels]
    else:
        for row in table.results:
            body.append([Cell(f"Die roll {row.roll}", None, "bold", "left"),
                         *[Cell(UNKNOWN if code is None else code, _shade(table, code), "bold")
                           for code in row.cells]])
    flow.table(widths, [*head, *body], header=len(head), size=9)

    if table.bombardment is not None:
        b = table.bombardment
        flow.heading("Bombardment", 11)
        flow.table([60.0, flow.width - 60.0], [
            [Cell("", BOMBARDMENT_NO_EFFECT),
             Cell(f"No result in bombardment: {', '.join(b.no_effect)}", None, "text",
                  "left")],
            *[[Cell("", BOMBARDMENT_CONDITIONAL),
               Cell(f"{code} applies in bombardment {when}", None, "text", "left")]
              for code, when in b.conditional.items()],
            [Cell(""), Cell(f"Applies as in ground combat: {', '.join(b.applies)}", None,
                            "text", "left")],
        ], size=8)
        if b.terrain:
            flow.paragraph(f"Line: {b.terrain}", 8)
        flow.paragraph(" ".join(x for x in (b.note, f"({b.cite})" if b.cite else "") if x), 7)

    if table.result_key:
        flow.heading("Results", 11)
        flow.table([60.0, flow.width - 60.0], [
            [Cell(code, _shade(table, code), "bold"),
             Cell(" ".join(x for x in (r.meaning, f"({r.cite})" if r.cite else "") if x),
                  None, "text", "left")]
            for code, r in table.result_key.items()], size=8)

    if table.modifiers:
        flow.heading("Modifiers", 11)
        rows = [[Cell("Modifier", HEAD, "bold", "left"), Cell("Column shift", HEAD, "bold"),
                 Cell("Die roll", HEAD, "bold"), Cell("Note", HEAD, "bold", "left")]]
        for m in table.modifiers:
            shift = "" if m.column_shift is None else f"{m.column_shift:+d}"
            roll = "" if m.die_roll is None else f"{m.die_roll:+d}"
            if m.column_shift is None and m.die_roll is None:
                shift = roll = UNKNOWN
            note = " ".join(x for x in (m.note, f"({m.cite})" if m.cite else "") if x)
            rows.append([Cell(m.name, None, "text", "left"), Cell(shift, None, "bold"),
                         Cell(roll, None, "bold"), Cell(note, None, "text", "left")])
        flow.table([150.0, 60.0, 50.0, flow.width - 260.0], rows, header=1, size=8)

    noted = [c for c in table.columns if c.note]
    if noted or any(line.note for line in table.lines):
        flow.heading("Columns and lines", 11)
        for c in noted:
            flow.paragraph(f"{column_label(c, table.type)}: {c.note}"
                           + (f" ({c.cite})" if c.cite else ""), 7)
        for line in table.lines:
            if line.note:
                flow.paragraph(f"{line.label}: {line.note}", 7)
    if table.notes:
        flow.heading("Notes", 11)
        flow.paragraph(table.notes, 7)
        flow.paragraph(f"? = not given in the rulebook text ({table.cite or table.source}).", 7)
    return flow.pages
