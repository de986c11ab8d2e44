"""How bocage reads maps it did not draw: the foreign-style bench, scored by its own scorer.

The maps, their exact truth and the scorer ``score.py`` come with the bench folder
(``../shared/bench/foreign/`` beside the repository, or ``$BOCAGE_FOREIGN``). Each map is
digitized the way a builder would set it up, from ``bench/foreign_setup.json`` only:

* the grid as printed: orientation, numbering, columns and rows (no pixel layout);
* at most three sample hexes per terrain (``--sample woods=0412``);
* the hexside feature colours, picked off the map, and how lines are drawn
  (a railroad's ties, a road's casing, what a bridge spans);
* two example hexes per hex symbol (``--symbol town=0412``).

The truth is read only to score. ``--truth-grid`` puts the grid where the truth says the
hex centres are, to measure terrain and hexsides apart from calibration.

    python bench/foreign.py                      # every map, worst first
    python bench/foreign.py icons keybox         # some maps
    python bench/foreign.py --truth-grid --json figures.json
    python bench/foreign.py --side-calibration   # how right the hexside confidences are
                                                 # (of presence, then of absence)
    python bench/foreign.py --choose-samples     # rewrite the samples in the setup file
    python bench/foreign.py --truth-grid --curve 3     # accuracy as suggested labels are added
    python bench/foreign.py --truth-grid --calibration # how right each terrain confidence is
    python bench/foreign.py --truth-grid --seeds 5     # terrain under five learner seeds
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SETUP = ROOT / "bench" / "foreign_setup.json"
MAPS = ("icons", "stipple", "halftone", "keybox", "dense", "photo")


def foreign_folder() -> Path | None:
    """The foreign bench folder, if this checkout can see it."""
    env = os.environ.get("BOCAGE_FOREIGN")
    candidates = [Path(env)] if env else []
    candidates += [p / "shared" / "bench" / "foreign" for p in ROOT.parents]
    for folder in candidates:
        if (folder / "score.py").is_file():
            return folder
    return None


def scorer(folder: Path) -> ModuleType:
    """The bench's own ``score.py``, imported from its folder."""
    spec = importlib.util.spec_from_file_location("foreign_score", folder / "score.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_setup() -> dict[str, Any]:
    """``bench/foreign_setup.json``: per map, what a builder gives the digitizer."""
    data: dict[str, Any] = json.loads(SETUP.read_text(encoding="utf-8"))
    return data


def truth_of(folder: Path, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / name / "truth.json").read_text(encoding="utf-8"))
    return data


def image_of(folder: Path, name: str) -> Path:
    return next(p for p in sorted((folder / name).glob("map.*")) if p.suffix in (".png", ".jpg"))


def candidate(result: Any) -> dict[str, Any]:
    """A :class:`~pipeline.digitize.Digitization` in the scorer's neutral format."""
    grid = result.fit.grid
    hexes = list(result.terrain)
    centres = result.fit.centres(hexes)
    out: dict[str, Any] = {"hexes": {}, "hexsides": [], "centers_px": {}}
    features = getattr(result, "hex_features", {}) or {}
    for h, c in zip(hexes, centres, strict=True):
        hex_id = grid.id(h)
        entry: dict[str, Any] = {"terrain": result.terrain[h].terrain[0]}
        if features.get(h):
            entry["features"] = sorted(features[h])
        out["hexes"][hex_id] = entry
        out["centers_px"][hex_id] = [float(c[0]), float(c[1])]
    for side, names in result.hexsides.items():
        # The scorer's truth never lists a hexside on the grid's outer outline
        # (a road leaving the map); the map document keeps them.
        if names and grid.contains(side.a) and grid.contains(side.b):
            out["hexsides"].append({"hexes": sorted([grid.id(side.a), grid.id(side.b)]),
                                    "features": sorted(names)})
    return out


@dataclass(frozen=True)
class Figures:
    """One map's scores, the few numbers the README reports."""

    name: str
    hexes_found: int
    hexes_truth: int
    ids_match: bool
    terrain: float
    hexside_f1: float
    per_feature: dict[str, float]
    town_f1: float | None
    centre_error: float | None  # mean, as a share of the hex width across the flats
    seconds: float
    error: str | None = None


def figures(name: str, score: Mapping[str, Any], truth: Mapping[str, Any], seconds: float
            ) -> Figures:
    width = float(truth["hex_size_px"]) * 3 ** 0.5
    centres = score.get("centres") or {}
    hex_features = score.get("hex_features") or {}
    town = hex_features.get("town")
    return Figures(
        name=name,
        hexes_found=int(score["hex_count"]["candidate"]),
        hexes_truth=int(score["hex_count"]["truth"]),
        ids_match=bool(score["hex_count"]["ids_match"]),
        terrain=float(score["terrain"]["accuracy"]),
        hexside_f1=float(score["hexsides"]["micro"]["f1"]),
        per_feature={f: float(v["f1"]) for f, v in score["hexsides"]["per_feature"].items()},
        town_f1=float(town["f1"]) if town else None,
        centre_error=float(centres["mean_px"]) / width if centres.get("mean_px") is not None
        else None,
        seconds=seconds,
    )


def truth_fit(truth: Mapping[str, Any], grid: Any, image: Path) -> Any:
    """A grid fitted to the truth's own hex centres (for ``--truth-grid``)."""
    from PIL import Image

    from pipeline.digitize.gridfit import fit_centres

    with Image.open(image) as picture:
        width, height = picture.size
    ids = sorted(truth["centers_px"])
    return fit_centres(grid, {i: tuple(truth["centers_px"][i]) for i in ids}, method="truth",
                       image_shape=(height, width))


def digitize_map(folder: Path, name: str, setup: Mapping[str, Any], *, truth_grid: bool = False,
                 **options: Any) -> tuple[Any, Any, dict[str, Any], float]:
    """Digitize one bench map as set up: the result, the pixels, the truth, the seconds.

    ``options`` go to :func:`~pipeline.digitize.digitize_scan` (``key``, ``suggest``, ...).
    """
    from pipeline.digitize import digitize_scan, legend_from_data
    from pipeline.digitize.gridfile import grid_from_data
    from pipeline.digitize.scanfile import load_scan

    truth = truth_of(folder, name)
    grid = grid_from_data(setup["grid"], f"{SETUP.name}: {name}.grid")
    legend = legend_from_data(setup["legend"], f"{SETUP.name}: {name}.legend")
    options = {"samples": setup.get("samples") or {},
               "symbols": setup.get("symbols") or {}, **options}
    if truth_grid:
        options["fit"] = truth_fit(truth, grid, image_of(folder, name))
    t0 = time.perf_counter()
    pixels = load_scan(image_of(folder, name))
    result = digitize_scan(pixels, legend, grid=grid, source=str(image_of(folder, name)),
                           **options)
    return result, pixels, truth, time.perf_counter() - t0


def read_map(folder: Path, name: str, setup: Mapping[str, Any], *, truth_grid: bool = False,
             **options: Any) -> tuple[Any, dict[str, Any], float]:
    """Digitize one bench map as set up: the result, the map's truth, and the seconds taken."""
    result, _, truth, seconds = digitize_map(folder, name, setup, truth_grid=truth_grid,
                                             **options)
    return result, truth, seconds


def run_map(folder: Path, name: str, setup: Mapping[str, Any], *, truth_grid: bool = False,
            **options: Any) -> tuple[Figures, dict[str, Any]]:
    """Digitize one bench map as set up, and score it."""
    result, truth, seconds = read_map(folder, name, setup, truth_grid=truth_grid, **options)
    score = scorer(folder).score(truth, candidate(result))
    return figures(name, score, truth, seconds), score


def side_reading(result: Any, pixels: Any) -> Any:
    """The hexside reader's full reading of a digitized map (evidence and all)."""
    from pipeline.digitize.hexsides import read_hexsides

    fills = {h: (t.terrain[0], t.colour) for h, t in result.terrain.items()}
    return read_hexsides(pixels, result.fit, result.legend, result.light, fills)


def _inner_truth(result: Any, truth: Mapping[str, Any], evidence: Mapping[Any, Any]
                 ) -> list[tuple[Any, set[str]]]:
    """Each hexside of ``evidence`` inside the grid's outline, with the truth's features."""
    g = result.fit.grid
    true = {tuple(sorted(h["hexes"])): set(h["features"]) for h in truth["hexsides"]}
    return [(found, true.get(tuple(sorted((g.id(side.a), g.id(side.b)))), set()))
            for side, found in evidence.items() if g.contains(side.a) and g.contains(side.b)]


def readings(result: Any, pixels: Any, truth: Mapping[str, Any], reading: Any = None
             ) -> list[tuple[str, float, bool]]:
    """Every hexside reading of a digitized map: its kind, evidence and whether it is right.

    Only hexsides inside the grid's outline count (the truth lists no others).
    """
    reading = reading if reading is not None else side_reading(result, pixels)
    return [(kind, value, feature in true)
            for found, true in _inner_truth(result, truth, reading.evidence)
            for feature, (kind, value) in found.items()]


def absences(result: Any, pixels: Any, truth: Mapping[str, Any], reading: Any = None
             ) -> list[tuple[str, float, bool]]:
    """Every line the reader did not read on a hexside: its kind, trace and whether the
    truth has none there (the reading of its absence is right)."""
    reading = reading if reading is not None else side_reading(result, pixels)
    return [(kind, trace, feature not in true)
            for found, true in _inner_truth(result, truth, reading.absent_evidence)
            for feature, (kind, trace) in found.items()]


# Bins of a line's trace where it was not read (NaN: the ground would hide it).
_TRACE_BINS = ((0.0, 0.0), (0.0, 0.25), (0.25, 0.5), (0.5, 0.75), (0.75, 1.0))


@dataclass(frozen=True)
class TraceBin:
    """One bin of traces of a kind of line where the reader read none."""

    kind: str
    low: float  # the bin holds traces above ``low`` up to ``high`` (exactly 0: both 0)
    high: float
    without: int  # hexsides without the line
    missed: int  # hexsides with it, which the reader missed
    even: float  # the share right at even odds

    @property
    def label(self) -> str:
        return f"{self.low:.2f}-{self.high:.2f}" if self.high else "0"


def absence_bins(rows: Sequence[tuple[str, str, float, bool]]) -> list[TraceBin]:
    """The bench's measure of absence, bin by bin of trace (``rows``: map, kind, trace,
    whether the line is truly absent; traces the ground hides left out).

    At even odds: a bin's share of the hexsides without the line against its share of
    the lines the reader missed, each with one more in every bin (misses are few: a bin
    none of them fell in is not taken to be one none ever will).
    """
    out = []
    for kind in ("along", "across"):
        mine = [(t, ok) for _, k, t, ok in rows if k == kind and t == t]
        right = sum(ok for _, ok in mine)
        wrong = len(mine) - right
        for lo, hi in _TRACE_BINS:
            oks = [ok for t, ok in mine if (lo < t <= hi if hi else t == 0.0)]
            a, m = sum(oks), len(oks) - sum(oks)
            pa = (a + 1) / (right + len(_TRACE_BINS))
            pm = (m + 1) / (wrong + len(_TRACE_BINS))
            out.append(TraceBin(kind, lo, hi, a, m, pa / (pa + pm)))
    return out


def absence_report(rows: Sequence[tuple[str, str, float, bool]]) -> str:
    """How the trace of a line not read tells whether it is there, per kind and map.

    Per bin of trace (:func:`absence_bins`): the hexsides without the line and those
    with it (the reader's misses), the share right among them as they come on the
    bench, the share right at even odds, and the table's confidence at the bin's upper
    end; where the ground would hide the line, how many; then per map, how many
    readings of absence are at 0.9 or more and how many of them were wrong (a line
    typed there is a false alarm).
    """
    from pipeline.digitize.sideconfidence import absence

    lines = [("| kind | trace | without the line | with it (missed) | right as on the bench |"
              " right at even odds | table |"), "| --- | --- | --- | --- | --- | --- | --- |"]
    for b in absence_bins(rows):
        table = absence(b.kind, b.high)  # type: ignore[arg-type]
        lines.append(f"| {b.kind} | {b.label} | {b.without} | {b.missed} |"
                     f" {b.without / max(b.without + b.missed, 1):.4f} | {b.even:.3f} |"
                     f" {table:.2f} |")
    for kind in ("along", "across"):
        hidden = [ok for _, k, t, ok in rows if k == kind and t != t]
        lines.append(f"| {kind} | hidden by its ground | {sum(hidden)} |"
                     f" {len(hidden) - sum(hidden)} | | | 0.50 |")
    lines += ["", ("| map | absences read | at >= 0.9 | with the line at >= 0.9 |"
                   " at >= 0.7 | with the line at >= 0.7 |"),
              "| --- | --- | --- | --- | --- | --- |"]
    for name in [*sorted({r[0] for r in rows}), "all"]:
        mine = [r for r in rows if name in ("all", r[0])]
        conf = np.array([absence(k, t) for _, k, t, _ in mine])  # type: ignore[arg-type]
        right = np.array([ok for *_, ok in mine], bool)
        lines.append(f"| {name} | {len(mine)} | {int((conf >= 0.9).sum())} |"
                     f" {int(((conf >= 0.9) & ~right).sum())} | {int((conf >= 0.7).sum())} |"
                     f" {int(((conf >= 0.7) & ~right).sum())} |")
    return "\n".join(lines)


def calibration_report(rows: Sequence[tuple[str, str, float, bool]]) -> str:
    """The reliability of the confidences (per map and pooled) and an isotonic fit per kind."""
    from pipeline.digitize.sideconfidence import CALIBRATION, confidence

    lines = ["| map | readings | at >= 0.9 | right at >= 0.9 | right below |",
             "| --- | --- | --- | --- | --- |"]
    for name in [*sorted({r[0] for r in rows}), "all"]:
        mine = [r for r in rows if name in ("all", r[0])]
        conf = np.array([confidence(k, v) for _, k, v, _ in mine])  # type: ignore[arg-type]
        right = np.array([ok for *_, ok in mine], bool)
        high = conf >= 0.9
        lines.append(f"| {name} | {len(mine)} | {int(high.sum())} | "
                     f"{right[high].mean() if high.any() else float('nan'):.3f} | "
                     f"{right[~high].mean() if (~high).any() else float('nan'):.3f} |")
    for kind, table in CALIBRATION.items():
        mine = sorted((v, ok) for _, k, v, ok in rows if k == kind)
        if not mine:
            continue
        xs = np.array([v for v, _ in mine])
        fit = _isotonic(np.array([ok for _, ok in mine], float))
        points = tuple((x, round(float(np.interp(x, xs, fit)), 2)) for x, _ in table)
        lines.append(f"{kind}: {len(mine)} readings; isotonic fit at the table's points: {points}")
    return "\n".join(lines)


def _isotonic(y: np.ndarray) -> np.ndarray:
    """Pool-adjacent-violators: the non-decreasing fit to ``y`` (in evidence order)."""
    values: list[float] = []
    weights: list[float] = []
    for v in y.tolist():
        values.append(v)
        weights.append(1.0)
        while len(values) > 1 and values[-2] > values[-1]:
            w = weights[-2] + weights[-1]
            values[-2:] = [(values[-2] * weights[-2] + values[-1] * weights[-1]) / w]
            weights[-2:] = [w]
    return np.repeat(values, np.array(weights, int))


def failed(name: str, exc: Exception) -> Figures:
    return Figures(name, 0, 0, False, 0.0, 0.0, {}, None, None, 0.0,
                   f"{type(exc).__name__}: {exc}")


def table(rows: Sequence[Figures]) -> str:
    """Markdown table, worst main-terrain accuracy first."""
    head = ("map", "hexes", "ids", "terrain", "hexside F1", "town F1", "centre err", "time")
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for f in sorted(rows, key=lambda r: (r.error is None, r.terrain)):
        if f.error:
            lines.append(f"| {f.name} | failed: {f.error} |" + " |" * (len(head) - 2))
            continue
        cells = (f.name, f"{f.hexes_found}/{f.hexes_truth}", "yes" if f.ids_match else "no",
                 f"{f.terrain:.1%}", f"{f.hexside_f1:.3f}",
                 "-" if f.town_f1 is None else f"{f.town_f1:.3f}",
                 "-" if f.centre_error is None else f"{f.centre_error:.2%}",
                 f"{f.seconds:.1f} s")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def choose_samples(truth: Mapping[str, Any], per_terrain: int = 3, seed: int = 0
                   ) -> dict[str, list[str]]:
    """Sample hexes as a builder would pick them: a few clearly-one-terrain hexes of each.

    Random among hexes the truth gives at least 90% to their main terrain and no hex
    feature, seeded so the setup is reproducible. A terrain with fewer such hexes (a beach
    is a strip along the coast) gets fewer samples: filling them up with its next most
    whole hexes (beach hexes two-thirds sea) read the halftone map worse (truth's grid,
    learner seeds 0-2: median 98.3%, lowest 95.9%, against 98.7% and 98.3% with its one
    whole beach hex), as a mixed example teaches a mixed picture.
    """
    rng = np.random.default_rng(seed)
    by: dict[str, list[str]] = {}
    for hex_id, h in sorted(truth["hexes"].items()):
        if h.get("main_area_fraction", 1.0) >= 0.9 and not h.get("features"):
            by.setdefault(h["terrain"], []).append(hex_id)
    return {t: sorted(str(x) for x in rng.choice(ids, min(per_terrain, len(ids)), replace=False))
            for t, ids in sorted(by.items())}


def curve(folder: Path, name: str, setup: Mapping[str, Any], rounds: int, *,
          truth_grid: bool, per_round: int = 10) -> list[tuple[int, float]]:
    """Accuracy after each round of labelling the hexes ``--suggest`` names (answered from
    the truth, as the builder would answer them): ``(labels, accuracy)`` per round."""
    truth = truth_of(folder, name)
    samples = {t: list(ids) for t, ids in setup.get("samples", {}).items()}
    out = []
    for _ in range(rounds + 1):
        result, _, _ = read_map(folder, name, {**setup, "samples": samples},
                                truth_grid=truth_grid, suggest=per_round)
        score = scorer(folder).score(truth, candidate(result))
        out.append((sum(len(v) for v in samples.values()), float(score["terrain"]["accuracy"])))
        for h in result.suggestions:
            hex_id = result.fit.grid.id(h)
            samples.setdefault(truth["hexes"][hex_id]["terrain"], []).append(hex_id)
    return out


def calibration(folder: Path, names: Sequence[str], setup: Mapping[str, Any], *,
                truth_grid: bool) -> list[tuple[str, int, float]]:
    """Pooled over maps: per confidence band, how many hexes and what share read right."""
    bands = [(0.0, 0.5), (0.5, 0.7), (0.7, 0.9), (0.9, 1.01)]
    counts = [[0, 0] for _ in bands]
    for name in names:
        truth = truth_of(folder, name)
        result, _, _ = read_map(folder, name, setup[name], truth_grid=truth_grid)
        for h, t in result.terrain.items():
            right = t.terrain[0] == truth["hexes"][result.fit.grid.id(h)]["terrain"]
            for i, (lo, hi) in enumerate(bands):
                if lo <= t.confidence < hi:
                    counts[i][0] += 1
                    counts[i][1] += int(right)
    return [(f"{lo:.1f}-{min(hi, 1.0):.1f}", n, ok / n if n else float("nan"))
            for (lo, hi), (n, ok) in zip(bands, counts, strict=True)]


def seed_table(folder: Path, names: Sequence[str], setup: Mapping[str, Any], seeds: int, *,
               truth_grid: bool = False) -> str:
    """Each map's terrain figure under learner seeds ``0..seeds-1``: median and range."""
    from pipeline.digitize.learn import Learner

    lines = ["| map | terrain, median | lowest | highest | seeds |",
             "| --- | --- | --- | --- | --- |"]
    rows = []
    for name in names:
        got = []
        for seed in range(seeds):
            fig, _ = run_map(folder, name, setup[name], truth_grid=truth_grid,
                             learner=Learner(seed=seed))
            got.append(fig.terrain)
        rows.append((float(np.median(got)), min(got), max(got), name))
    for median, low, high, name in sorted(rows):
        lines.append(f"| {name} | {median:.1%} | {low:.1%} | {high:.1%} | {seeds} |")
    return "\n".join(lines)


def choose_symbols(truth: Mapping[str, Any], per_feature: int = 2, seed: int = 0
                   ) -> dict[str, list[str]]:
    """Example hexes for each hex symbol, as a builder would point at them: seeded random."""
    rng = np.random.default_rng(seed)
    by: dict[str, list[str]] = {}
    for hex_id, h in sorted(truth["hexes"].items()):
        for name in h.get("features") or []:
            by.setdefault(name, []).append(hex_id)
    return {n: sorted(str(x) for x in rng.choice(ids, min(per_feature, len(ids)), replace=False))
            for n, ids in sorted(by.items())}


def compact_json(data: Any) -> str:
    """JSON with one key a line and short lists (colours, hex ids) kept on one line."""
    text = json.dumps(data, indent=1)
    return re.sub(r"\[\s+([^\[\]{}]*?)\s+\]",
                  lambda m: "[" + re.sub(r",\s+", ", ", m.group(1)) + "]", text) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("maps", nargs="*", help=f"maps to run (default: {' '.join(MAPS)})")
    parser.add_argument("--truth-grid", action="store_true",
                        help="use the truth's hex centres for the grid")
    parser.add_argument("--json", type=Path, help="write every map's full score here")
    parser.add_argument("--side-calibration", action="store_true",
                        help="print how right the hexside confidences are (truth grid)")
    parser.add_argument("--choose-samples", action="store_true",
                        help="rewrite the sample and symbol hexes of bench/foreign_setup.json")
    parser.add_argument("--curve", type=int, metavar="ROUNDS",
                        help="add ten suggested labels a round and print the accuracy")
    parser.add_argument("--calibration", action="store_true",
                        help="print how right each terrain confidence band is, pooled over"
                        " the maps")
    parser.add_argument("--key-auto", action="store_true",
                        help="learn the terrain from the printed key alone (--key auto, no"
                        " sample hexes): for maps whose sheet has a labelled key")
    parser.add_argument("--seeds", type=int, metavar="N",
                        help="read each map with learner seeds 0..N-1 and print the terrain"
                        " figure's median and range: how much of a change is the learner's"
                        " chance")
    args = parser.parse_args(argv)
    if args.seeds is not None and args.seeds < 1:
        parser.error("--seeds takes a count of 1 or more")
    folder = foreign_folder()
    if folder is None:
        print("bench/foreign.py: the foreign bench folder is not here (../shared/bench/foreign"
              " or $BOCAGE_FOREIGN)", file=sys.stderr)
        return 2
    setup = load_setup()
    names = args.maps or list(MAPS)
    if args.choose_samples:
        for name in names:
            setup[name]["samples"] = choose_samples(truth_of(folder, name))
            symbols = choose_symbols(truth_of(folder, name))
            if symbols:
                setup[name]["symbols"] = symbols
        SETUP.write_text(compact_json(setup), encoding="utf-8")
        return 0
    if args.curve is not None:
        print("| map | " + " | ".join(f"round {i}" for i in range(args.curve + 1)) + " |")
        print("|" + " --- |" * (args.curve + 2))
        for name in names:
            points = curve(folder, name, setup[name], args.curve, truth_grid=args.truth_grid)
            print(f"| {name} | " + " | ".join(f"{a:.1%} ({n})" for n, a in points) + " |")
        return 0
    if args.seeds is not None:
        print(seed_table(folder, names, setup, args.seeds, truth_grid=args.truth_grid))
        return 0
    if args.calibration:
        print("| confidence | hexes | right |")
        print("| --- | --- | --- |")
        for band, n, right in calibration(folder, names, setup, truth_grid=args.truth_grid):
            print(f"| {band} | {n} | {right:.1%} |")
        return 0
    if args.side_calibration:
        pooled, missing = [], []
        for name in names:
            result, pixels, truth, _ = digitize_map(folder, name, setup[name], truth_grid=True)
            reading = side_reading(result, pixels)
            pooled += [(name, *r) for r in readings(result, pixels, truth, reading)]
            missing += [(name, *r) for r in absences(result, pixels, truth, reading)]
        print(calibration_report(pooled))
        print()
        print(absence_report(missing))
        return 0
    rows, scores = [], {}
    for name in names:
        try:
            if args.key_auto:
                fig, score = run_map(folder, name, {**setup[name], "samples": {}},
                                     truth_grid=args.truth_grid, key_auto=True)
            else:
                fig, score = run_map(folder, name, setup[name], truth_grid=args.truth_grid)
        except Exception as exc:  # a bench reports a failure and goes on with the next map
            fig, score = failed(name, exc), {}
        rows.append(fig)
        scores[name] = score
        print(f"{name}: {'failed' if fig.error else f'terrain {fig.terrain:.1%}'}",
              file=sys.stderr)
    print(table(rows))
    worst = sorted((r for r in rows if not r.error), key=lambda r: r.terrain)
    for f in worst:
        feats = ", ".join(f"{k} {v:.2f}" for k, v in sorted(f.per_feature.items()))
        print(f"{f.name}: hexside F1 {feats or '-'}")
    if args.json:
        args.json.write_text(json.dumps(scores, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
