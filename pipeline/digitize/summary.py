"""What a reading found, as plain data: the command line's lines and ``--json``, and
each scan's outcome in a batch (:mod:`pipeline.digitize.batch`), from one function."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.digitize.outputs import UNSURE

if TYPE_CHECKING:
    from pipeline.digitize.run import Digitization
    from pipeline.hexgrid import Hex

__all__ = ["reading_summary"]


def reading_summary(result: Digitization, scan: Path, written: list[Path]) -> dict[str, Any]:
    """The grid found, the hexes' terrain counts, the unsure hexes, the features, the
    suggestions and the key swatches found, and the files ``written``; JSON-ready."""
    fit = result.fit
    grid = fit.grid
    unsure = sorted(grid.id(h) for h, t in result.terrain.items() if t.confidence < UNSURE)
    board = result.map.boards[0].grid
    return {
        "ok": True,
        "scan": str(scan),
        "grid": {"orientation": grid.orientation.value, "cols": grid.cols, "rows": grid.rows,
                 "stagger": grid.numbering.stagger, "hex_width": round(fit.hex_width, 2),
                 "rotation": board.layout.rotation if board.layout else 0.0,
                 "method": fit.method, "residual": round(fit.residual, 3),
                 "measured": fit.support},
        "hexes": len(result.terrain),
        "terrain": _counts(t.terrain[0] for t in result.terrain.values()),
        "unsure": unsure,
        "hexside_features": _counts(n for names in result.hexsides.values() for n in names),
        "hex_features": _counts(n for marks in result.hex_features.values() for n in marks),
        "suggest": [_suggestion(result, h) for h in result.suggestions],
        "key": [{"terrain": k.terrain, "box": list(k.box), "label": k.label,
                 "option": k.option()} for k in result.key],
        "written": [str(p) for p in written],
    }


def _counts(names: Any) -> dict[str, int]:
    counts: dict[str, int] = {}
    for n in names:
        counts[n] = counts.get(n, 0) + 1
    return dict(sorted(counts.items()))


def _suggestion(result: Digitization, h: Hex) -> dict[str, Any]:
    t = result.terrain[h]
    others = [n for n in sorted(t.fractions, key=lambda n: -t.fractions[n]) if n != t.terrain[0]]
    return {"hex": result.fit.grid.id(h), "read": t.terrain[0], "confidence": t.confidence,
            "or": others[0] if others else None}
