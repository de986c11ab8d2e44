"""What was drawn, written in the neutral truth format of the foreign-style bench.

The maps of ``../shared/bench/foreign/`` come with a ``truth.json`` that its
scorer (``score.py``) reads; :func:`truth_document` writes the same format for
a map bocage drew and captured, so one scorer measures the digitizer on both:

* ``hexes``: per printed id, the main terrain (the one under the centre),
  ``fractions`` (terrains over 20% of the visible area), ``fractions_all``
  (0.5% or more), ``main_area_fraction``, ``visible`` and hex ``features``;
* ``hexsides``: every hexside between two hexes of the map with what is drawn
  on it, bridges included (hexsides on the map's outline are not listed, as
  in the foreign truth);
* ``centers_px``: each hex centre on the captured image, through the capture's
  exact transform; ``hex_size_px`` is the mean circumradius there;
* ``key_px``, ``panels_px`` and ``labels``: the printed key's swatches, the
  sheet's other parts and the distractor words, as image boxes.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from pipeline.render.draw import Rendered
from pipeline.render.scan import Scan

__all__ = ["truth_document"]

FRACTION = 0.2  # a terrain listed in "fractions" covers more than this share
TRACE = 0.005  # ... and in "fractions_all" at least this


def truth_document(rendered: Rendered, scan: Scan | None = None, *, image: str = "map.png"
                   ) -> dict[str, Any]:
    """The truth of a drawn (and maybe scanned or photographed) map.

    Parameters
    ----------
    rendered
        What :func:`~pipeline.render.render_map` drew.
    scan
        The capture of that picture; ``None`` for the clean picture itself.
    image
        The image's file name, recorded in the document.

    Examples
    --------
    >>> from pipeline.render import render_map, sample_map, RenderStyle
    >>> t = truth_document(render_map(sample_map("flat", 5, 4, seed=2), RenderStyle()))
    >>> t["hex_count"], t["orientation"], round(t["hex_size_px"], 2)
    (20, 'flat', 27.71)
    """
    grid = rendered.grid
    hexes = grid.hexes()
    centres = np.array([grid.center(h) for h in hexes], float)
    x, y = centres[:, 0], centres[:, 1]
    if scan is not None:
        x, y = scan.to_scan(x, y)
    entries: dict[str, Any] = {}
    for h in hexes:
        shares = rendered.shares.get(h, {})
        main = rendered.terrain[h][0] if rendered.terrain else max(shares, key=shares.__getitem__)
        entry: dict[str, Any] = {
            "terrain": main,
            "fractions": {t: round(v, 6) for t, v in shares.items() if v > FRACTION},
            "fractions_all": {t: round(v, 6) for t, v in shares.items() if v >= TRACE},
            "main_area_fraction": round(shares.get(main, 1.0), 6),
            "visible": round(rendered.visible.get(h, 1.0), 6),
        }
        if rendered.hex_features.get(h):
            entry["features"] = sorted(rendered.hex_features[h])
        entries[grid.id(h)] = entry
    sides = []
    for side, names in sorted(rendered.hexsides.items()):
        if names and grid.contains(side.a) and grid.contains(side.b):
            sides.append({"hexes": sorted((grid.id(side.a), grid.id(side.b))),
                          "features": sorted(names)})
    return {
        "image": image,
        "orientation": grid.orientation.value,
        "hex_ids": "XXYY: column then row, as printed",
        "pixel_convention": "x right, y down, (0, 0) is the centre of the top-left pixel",
        "grid": {"cols": grid.cols, "rows": grid.rows},
        "hex_count": len(hexes),
        "hex_size_px": _radius(rendered, x, y),
        "centers_px": {grid.id(h): [float(a), float(b)] for h, a, b in zip(hexes, x, y,
                                                                         strict=True)},
        "hexes": entries,
        "hexsides": sides,
        "key_px": {t: _box(b, scan) for t, b in rendered.key.items()},
        "panels_px": {t: _box(b, scan) for t, b in rendered.panels.items()},
        "labels": [{"text": lab.text, "kind": lab.kind, "box_px": _box(lab.box, scan)}
                   for lab in rendered.labels],
    }


def _radius(rendered: Rendered, x: np.ndarray, y: np.ndarray) -> float:
    """Mean distance between neighbouring centres on the image, over sqrt(3)."""
    grid = rendered.grid
    hexes = grid.hexes()
    index = {h: i for i, h in enumerate(hexes)}
    gaps = [math.hypot(x[i] - x[index[n]], y[i] - y[index[n]])
            for h, i in index.items() for n in grid.neighbours(h) if n in index and n > h]
    return float(np.mean(gaps)) / math.sqrt(3) if gaps else 0.0


def _box(box: tuple[float, float, float, float], scan: Scan | None) -> list[float]:
    """``(x, y, w, h)`` on the paper -> the bounding box of its image on the capture."""
    bx, by, bw, bh = box
    if scan is None:
        return [float(bx), float(by), float(bw), float(bh)]
    t = np.linspace(0, 1, 5)
    xs = np.concatenate([bx + bw * t, np.full(5, bx + bw), bx + bw * t, np.full(5, bx)])
    ys = np.concatenate([np.full(5, by), by + bh * t, np.full(5, by + bh), by + bh * t])
    u, v = scan.to_scan(xs, ys)
    return [float(u.min()), float(v.min()), float(u.max() - u.min()), float(v.max() - v.min())]
