"""Hex grid speed on a full-size map scan, as ratios to baselines timed interleaved.

The layout is a 6,600 x 10,200 px board with 40 x 50 = 2,000 flat-top hexes,
slightly rotated, as a fitted scan would be:

* pixel -> hex for every pixel of a 1,000 x 1,000 crop, against NumPy reading
  as many pixels (``astype(np.float32)`` of a 1000x1000x3 uint8 array);
* all 2,000 hex polygons, against ``shapely.box`` making 2,000 boxes in one call;
* the neighbours of every hex, 100 times, against a plain dict lookup per hex.
"""

from __future__ import annotations

import numpy as np
import shapely

from pipeline.hexgrid import HexGrid, Layout, Numbering, Orientation

try:  # run through bench/run.py, or directly as a script
    from pairs import interleaved
    from run import Row, format_table
except ImportError:  # pragma: no cover - imported as bench.bench_hexgrid
    from bench.pairs import interleaved
    from bench.run import Row, format_table

WIDTH, HEIGHT = 6_600, 10_200
CROP = (3_000, 5_000, 1_000, 1_000)  # x, y, width, height
NEIGHBOUR_ROUNDS = 100
PAIRS = 7


def board() -> HexGrid:
    return HexGrid(
        Orientation.FLAT,
        Numbering(stagger="even-down"),
        cols=40,
        rows=50,
        layout=Layout(dx=160.0, dy=200.0, x0=110.0, y0=110.0, rotation=0.4),
    )


def main() -> list[Row]:
    grid = board()
    hexes = grid.hexes()
    assert len(hexes) == 2_000

    # (a) pixel -> hex over a crop vs. reading as many pixels with NumPy.
    x, y, w, h = CROP
    ys, xs = np.mgrid[y : y + h, x : x + w].astype(np.float64)
    image = np.random.default_rng(0).integers(0, 256, (h, w, 3), dtype=np.uint8)
    pixel_to_hex = interleaved(lambda: grid.hexes_at(xs, ys),
                               lambda: image.astype(np.float32), pairs=PAIRS)

    # (b) all polygons vs. as many shapely boxes in one call.
    rng = np.random.default_rng(1)
    x0 = rng.uniform(0, WIDTH, len(hexes))
    y0 = rng.uniform(0, HEIGHT, len(hexes))
    polygons = interleaved(lambda: grid.polygons(hexes),
                           lambda: shapely.box(x0, y0, x0 + 160.0, y0 + 200.0), pairs=PAIRS)

    # (c) neighbours of every hex, 100 times, vs. a plain dict lookup.
    grid.neighbours(hexes[0])  # builds the adjacency cache once, outside the timing
    table = {hx: tuple(grid.neighbours(hx)) for hx in hexes}

    def neighbours() -> None:
        for _ in range(NEIGHBOUR_ROUNDS):
            for hx in hexes:
                grid.neighbours(hx)

    def lookups() -> None:
        for _ in range(NEIGHBOUR_ROUNDS):
            for hx in hexes:
                table[hx]

    return [
        Row.paired("pixel->hex, 1000x1000 crop", pixel_to_hex, "numpy astype(float32)"),
        Row.paired("2,000 hex polygons", polygons, "2,000 shapely.box"),
        Row.paired("neighbours x100, 2,000 hexes", interleaved(neighbours, lookups, pairs=5),
                   "dict lookup x100"),
    ]


if __name__ == "__main__":
    print(format_table("hexgrid", main()))
