"""How bocage reads its own maps in printed styles, scored by the foreign bench's scorer.

The render bench's sample sheets (``pipeline.render.styles.sample_sheet``: icons over
realms, stipple printed edge to edge, halftone, a sheet with key and turn track, a phone
photo) are printed, captured, and digitized as a builder would set them up, as
``bench/foreign.py`` does for the foreign maps:

* the grid as printed: orientation, numbering, columns and rows (no pixel layout);
* at most three sample hexes per terrain (random hexes at least 90% one terrain, seeded);
* the hexside feature colours as printed.

Their truth (``pipeline.render.truth.truth_document``) is used only to score.

    python bench/styles.py                 # every sample, seeds 0-2, worst first
    python bench/styles.py icons --seeds 5
    python bench/styles.py --truth-grid    # the grid on the truth's centres: terrain alone
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from typing import Any

from pipeline.render import parse_hex_colour
from pipeline.render.styles import SAMPLES, SampleSheet, sample_sheet
from pipeline.render.truth import truth_document

try:  # run as a script from bench/, or imported as bench.styles
    from foreign import (
        Figures,
        candidate,
        choose_samples,
        choose_symbols,
        failed,
        figures,
        foreign_folder,
        scorer,
        table,
    )
except ImportError:  # pragma: no cover
    from bench.foreign import (
        Figures,
        candidate,
        choose_samples,
        choose_symbols,
        failed,
        figures,
        foreign_folder,
        scorer,
        table,
    )


def legend_of(sheet: SampleSheet, terrains: list[str]) -> dict[str, Any]:
    """The legend a builder writes: the map's terrain names only (their colours come from
    the sample hexes), feature colours picked off the map."""
    features = {}
    for name, feature in sheet.data.hexside_features.items():
        printed = sheet.style.palette.get(name) or feature.color or "#000000"
        entry: dict[str, Any] = {"kind": feature.kind, "color": list(parse_hex_colour(printed))}
        if name in sheet.style.marks:
            entry["shape"] = "mark"
        if name in sheet.style.ticked:
            entry["ticks"] = True  # a railway printed with cross ticks, as the legend says
        features[name] = entry
    return {"kind": "legend", "default_terrain": sheet.data.default_terrain,
            "terrain": {t: None for t in terrains}, "features": features}


def run(name: str, seed: int, score_module: Any, *, truth_grid: bool = False) -> Figures:
    """Print, capture, digitize and score one sample sheet."""
    result, truth, seconds = read(name, seed, truth_grid=truth_grid)
    return figures(f"{name} {seed}", score_module.score(truth, candidate(result)), truth, seconds)


def read(name: str, seed: int, *, truth_grid: bool = False, **options: Any
         ) -> tuple[Any, dict[str, Any], float]:
    """Print, capture and digitize one sample sheet: the result, its truth, the seconds.

    ``options`` go to :func:`~pipeline.digitize.digitize_scan` (``learner``, say).
    """
    from pipeline.digitize import digitize_scan, legend_from_data
    from pipeline.digitize.gridfit import fit_centres

    sheet = sample_sheet(name, seed)
    rendered, scan = sheet.make()
    truth = truth_document(rendered, scan)
    samples = choose_samples(truth, seed=seed)
    legend = legend_from_data(legend_of(sheet, sorted(samples)), f"{name} seed {seed}")
    grid = dataclasses.replace(rendered.grid, layout=None)
    fit = fit_centres(grid, {i: tuple(xy) for i, xy in truth["centers_px"].items()},
                      method="truth") if truth_grid else None
    t0 = time.perf_counter()
    result = digitize_scan(scan.image, legend, grid=grid, samples=samples, fit=fit,
                           symbols=choose_symbols(truth, seed=seed), **options)
    return result, truth, time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("samples", nargs="*", help=f"samples (default: {' '.join(SAMPLES)})")
    parser.add_argument("--seeds", type=int, default=3, help="seeds 0..N-1 of each (default 3)")
    parser.add_argument("--truth-grid", action="store_true",
                        help="use the truth's hex centres for the grid")
    args = parser.parse_args(argv)
    folder = foreign_folder()
    if folder is None:
        print("bench/styles.py: the foreign bench's score.py is not here (../shared/bench/foreign"
              " or $BOCAGE_FOREIGN)", file=sys.stderr)
        return 2
    score_module = scorer(folder)
    rows = []
    for name in args.samples or SAMPLES:
        for seed in range(args.seeds):
            try:
                rows.append(run(name, seed, score_module, truth_grid=args.truth_grid))
            except Exception as exc:  # a bench reports a failure and goes on
                rows.append(failed(f"{name} {seed}", exc))
    print(table(rows))
    for f in sorted((r for r in rows if not r.error), key=lambda r: r.terrain):
        feats = ", ".join(f"{k} {v:.2f}" for k, v in sorted(f.per_feature.items()))
        print(f"{f.name}: hexside F1 {feats or '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
