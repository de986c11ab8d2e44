"""How ``bocage validate`` does on maps typed right and then typed with mistakes.

For each map of the foreign bench (``../shared/bench/foreign/``, or ``$BOCAGE_FOREIGN``) and
of bocage's own render bench (``bench/styles.py``'s sample sheets):

1. the map is digitized as a builder would set it up (``bench/foreign_setup.json``: the grid
   as printed, three sample hexes a terrain, the feature colours), with the reader's
   confidence that each line is not where it read none (``absence``, as ``validate
   --scan`` reads), and the reading kept in ``build/validate-bench/`` so the next run
   starts from it;
2. its truth is typed into a map.json as a careful builder would type it (:func:`typed_map`:
   every hex's main terrain, the hexside features, the town symbols);
3. the correct map is validated against the reading: every error or warning is a false
   alarm (checks are counted apart: they are what the report files under "worth a look");
4. :func:`pipeline.validate.inject_text` types 30 mistakes of the 12 kinds into it
   (seeded), and the map with mistakes is validated in one run: a mistake is *named* when
   an error or warning of a kind that states its reason touches its place.

    python bench/validate_bench.py                 # every map, worst first
    python bench/validate_bench.py icons --seeds 3
    python bench/validate_bench.py --truth-grid    # the reading on the truth's hex centres
    python bench/validate_bench.py --learner-seeds 3   # each map read by learner seeds 0-2:
                                                       # every figure's median and range
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:  # run as a script from bench/, or imported as bench.validate_bench
    from foreign import MAPS, foreign_folder, load_setup, read_map, truth_of
except ImportError:  # pragma: no cover
    from bench.foreign import MAPS, foreign_folder, load_setup, read_map, truth_of

from pipeline.digitize.outputs import with_absence
from pipeline.model import MapData, map_from_data
from pipeline.validate import (
    ALARMS,
    KINDS,
    Finding,
    Injected,
    inject_errors,
    score,
    validate_data,
    validate_text,
)

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "build" / "validate-bench"
ALONG = ("river", "stream", "canal", "obstacle", "bar", "ditch", "hedge", "wall", "coast")
# What the foreign bench's README says of its bridges: they are there wherever a road,
# secondary road or railroad crosses a river, and only there. A typist types the key's words.
BRIDGE_NOTE = "drawn on every hexside where a road or a railroad crosses a river (the map's key)"


def _kind(feature: str) -> str:
    return "along" if any(w in feature for w in ALONG) else "across"


def typed_map(truth: Mapping[str, Any], grid: Mapping[str, Any], game: str) -> dict[str, Any]:
    """A map.json typed from a bench truth, as a careful builder types it.

    Every hex is listed with its main terrain only (the typist types what the key calls
    the hex, not its area shares), every hexside with its features, and the town
    symbols as the ``town`` hex feature.
    """
    hexes = truth["hexes"]
    terrain = sorted({h["terrain"] for h in hexes.values()})
    features = sorted({f for s in truth["hexsides"] for f in s["features"]})
    towns = sorted({f for h in hexes.values() for f in h.get("features", [])})
    doc: dict[str, Any] = {
        "kind": "map", "game": game, "title": f"{game}, typed from its printed map",
        "illustrative": True, "source": f"bench map {game}",
        "boards": [{"name": "map", "grid": dict(grid)}],
        "terrain_types": {t: {} for t in terrain},
        "hexside_features": {f: {"kind": _kind(f), **({"note": BRIDGE_NOTE}
                                                      if "bridge" in f else {})}
                             for f in features},
        "hex_features": {t: {} for t in towns},
        "default_terrain": "clear" if "clear" in terrain else terrain[0],
        "hexes": {},
        "hexsides": [{"hexes": list(s["hexes"]), "features": list(s["features"])}
                     for s in truth["hexsides"]],
    }
    for hex_id, h in sorted(hexes.items()):
        entry: dict[str, Any] = {"terrain": [h["terrain"]]}
        if h.get("features"):
            entry["features"] = list(h["features"])
        doc["hexes"][hex_id] = entry
    return doc


def _learner(seed: int) -> dict[str, Any]:
    """The digitizer's options for learner seed ``seed`` (0: the default learner)."""
    from pipeline.digitize.learn import Learner

    return {"learner": Learner(seed=seed)} if seed else {}


def _suffix(truth_grid: bool, learner_seed: int) -> str:
    return (f"{'-truth-grid' if truth_grid else ''}"
            f"{f'-learner{learner_seed}' if learner_seed else ''}")


def reading(folder: Path, name: str, setup: Mapping[str, Any], *, truth_grid: bool,
            cache: Path = CACHE, learner_seed: int = 0) -> MapData:
    """The digitized map of one foreign bench map, read once and kept in ``cache``."""
    path = cache / f"{name}{_suffix(truth_grid, learner_seed)}.digitized.json"
    if path.is_file():
        return map_from_data(json.loads(path.read_text(encoding="utf-8")), path)
    result, _, _ = read_map(folder, name, setup, truth_grid=truth_grid, absence=True,
                            **_learner(learner_seed))
    cache.mkdir(parents=True, exist_ok=True)
    path.write_text(result.map.model_dump_json(exclude_none=True, indent=1), encoding="utf-8")
    return result.map


@dataclass
class Figures:
    """One map's figures: the correct map, then each seed's map with mistakes."""

    name: str
    alarms: list[str] = field(default_factory=list)  # "kind where" on the correct map
    checks: int = 0
    injected: int = 0
    named: int = 0
    seen: int = 0
    missed: Counter[str] = field(default_factory=Counter)
    real: int = 0   # alarms on the maps with mistakes that touch a mistake
    total: int = 0  # all alarms on the maps with mistakes
    checks_typed: int = 0
    error: str | None = None
    # Each mistake no alarm named: its seed and words, and the findings that touch it.
    misses: list[str] = field(default_factory=list)


def measure(name: str, truth: Mapping[str, Any], grid: Mapping[str, Any], read: MapData,
            seeds: Sequence[int], count: int = 30, kinds: Sequence[str] = KINDS) -> Figures:
    """The correct map's alarms, then ``count`` mistakes a seed (of ``kinds``, in turn),
    validated against ``read``."""
    doc = typed_map(truth, grid, name)
    clean = validate_data(doc, file=f"{name}.json", against=read)
    out = Figures(name)
    out.alarms = [f"{f.kind} {f.where}" for f in clean.findings if f.severity in ALARMS]
    out.checks = sum(f.severity not in ALARMS for f in clean.findings)
    for seed in seeds:
        text, made = inject_errors(doc, count, seed=seed, kinds=tuple(kinds))
        typed = validate_text(text, file=f"{name}-typed.json", against=read)
        got = score(typed.findings, made, baseline=clean.findings)
        places = {h for e in made for h in e.hexes}
        alarms = [f for f in typed.findings if f.severity in ALARMS]
        out.injected += len(made)
        out.named += got.named(len(made))
        out.seen += len(got.seen)
        out.missed.update(e.kind for e in got.missed)
        out.misses += [_miss(seed, e, typed.findings) for e in got.missed]
        out.real += sum(bool(set(f.hexes) & places) for f in alarms)
        out.total += len(alarms)
        out.checks_typed += sum(f.severity not in ALARMS for f in typed.findings)
    return out


def _miss(seed: int, mistake: Injected, findings: Sequence[Finding]) -> str:
    """One missed mistake, and what the run said of its hexes (the checks it may have made,
    the findings that name the place for another reason)."""
    near = [f"{f.severity} {f.kind} {f.where}: {f.message[:160]}" for f in findings
            if set(f.hexes) & set(mistake.hexes)]
    return "\n".join([f"  seed {seed}: {mistake.description}",
                      *(f"      {line}" for line in near or ["(no finding touches it)"])])


def table(rows: Sequence[Figures], seeds: int) -> str:
    """Markdown, worst first (most false alarms on the correct map, then fewest named)."""
    head = ("map", "false alarms, correct map", "checks, correct map",
            f"mistakes named ({seeds} x 30)", "missed (kinds)", "real among alarms, with mistakes")
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for f in sorted(rows, key=lambda r: (r.error is None, -len(r.alarms),
                                         r.named / max(r.injected, 1))):
        if f.error:
            lines.append(f"| {f.name} | failed: {f.error} |" + " |" * (len(head) - 2))
            continue
        missed = ", ".join(f"{k} {n}" for k, n in sorted(f.missed.items())) or "none"
        lines.append(f"| {f.name} | {len(f.alarms)} | {f.checks} | {f.named}/{f.injected}"
                     f" ({f.seen} more as checks) | {missed} | {f.real} of {f.total} |")
    return "\n".join(lines)


def own_reading(name: str, seed: int, *, truth_grid: bool, cache: Path = CACHE,
                learner_seed: int = 0) -> tuple[MapData, dict[str, Any], dict[str, Any]]:
    """One of bocage's own sample sheets (``bench/styles.py``) read as a builder would:
    the reading, its truth and its grid as printed, kept in ``cache``."""
    path = cache / f"own-{name}-{seed}{_suffix(truth_grid, learner_seed)}.json"
    if path.is_file():
        kept = json.loads(path.read_text(encoding="utf-8"))
        return map_from_data(kept["reading"], path), kept["truth"], kept["grid"]
    try:
        from styles import read as read_sheet
    except ImportError:  # pragma: no cover
        from bench.styles import read as read_sheet
    result, truth, _ = read_sheet(name, seed, truth_grid=truth_grid, **_learner(learner_seed))
    read = with_absence(result.map, result.legend, result.hexside_absence)
    grid = read.boards[0].grid.model_dump(mode="json", exclude={"layout"}, exclude_none=True)
    cache.mkdir(parents=True, exist_ok=True)
    reading_doc = read.model_dump(mode="json", exclude_none=True)
    slim = {k: truth[k] for k in ("hexes", "hexsides")}
    path.write_text(json.dumps({"reading": reading_doc, "truth": slim, "grid": grid}),
                    encoding="utf-8")
    return read, slim, grid


def spread_table(runs: Mapping[str, Sequence[Figures]], seeds: int) -> str:
    """Markdown of each map's figures under several learner seeds: median and range,
    worst first (most false alarms at the worst seed, then fewest named at the worst)."""
    head = ("map", "learner seeds", "false alarms, correct map: median (range)",
            f"mistakes named ({seeds} x 30): median (range)", "missed (kinds, every seed)")
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]

    def spread(values: Sequence[int]) -> str:
        ordered = sorted(values)
        return f"{ordered[(len(ordered) - 1) // 2]} ({ordered[0]}-{ordered[-1]})"

    def worst(name: str) -> tuple[int, float]:
        done = [f for f in runs[name] if f.error is None]
        if not done:
            return (-(10 ** 6), 0.0)
        return (-max(len(f.alarms) for f in done),
                min(f.named / max(f.injected, 1) for f in done))

    for name in sorted(runs, key=worst):
        done = [f for f in runs[name] if f.error is None]
        failed = [f.error for f in runs[name] if f.error is not None]
        if not done:
            lines.append(f"| {name} | {len(failed)} | failed: {failed[0]} |"
                         + " |" * (len(head) - 3))
            continue
        missed: Counter[str] = Counter()
        for f in done:
            missed.update(f.missed)
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(missed.items())) or "none"
        injected = done[0].injected
        lines.append(f"| {name} | {len(done)}{f' ({len(failed)} failed)' if failed else ''}"
                     f" | {spread([len(f.alarms) for f in done])}"
                     f" | {spread([f.named for f in done])} of {injected} | {kinds} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("maps", nargs="*", help=f"maps to run (default: {' '.join(MAPS)})")
    parser.add_argument("--truth-grid", action="store_true",
                        help="read with the grid on the truth's hex centres")
    parser.add_argument("--seeds", type=int, default=3, help="injector seeds 0..N-1 (default 3)")
    parser.add_argument("--learner-seeds", type=int, default=1, metavar="N",
                        help="read each map with learner seeds 0..N-1 (each reading kept) and"
                        " give every figure's median and range (default 1: seed 0 alone)")
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS),
                        metavar="KIND", help="the mistakes to inject, in turn (default: all"
                        " twelve; '--kinds wrong_terrain --seeds 10' gives 300 terrain slips"
                        " a map)")
    parser.add_argument("--read-only", action="store_true",
                        help="only digitize (and keep) the readings")
    parser.add_argument("--verbose", action="store_true",
                        help="list each false alarm, and each mistake missed with the"
                        " findings that touch its hexes")
    parser.add_argument("--own", action="store_true",
                        help="bocage's own sample sheets (bench/styles.py, seed 0 of each)")
    args = parser.parse_args(argv)
    if args.learner_seeds < 1:
        parser.error("--learner-seeds takes a count of 1 or more")
    folder = foreign_folder()
    if folder is None:
        print("bench/validate_bench.py: the foreign bench folder is not here"
              " (../shared/bench/foreign or $BOCAGE_FOREIGN)", file=sys.stderr)
        return 2
    setup = load_setup()
    runs: dict[str, list[Figures]] = {}
    for learner_seed in range(args.learner_seeds):
        tag = f" (learner seed {learner_seed})" if args.learner_seeds > 1 else ""
        if args.own:
            from pipeline.render.styles import SAMPLES
            for name in args.maps or SAMPLES:
                try:
                    read, truth, grid = own_reading(name, 0, truth_grid=args.truth_grid,
                                                    learner_seed=learner_seed)
                    if not args.read_only:
                        runs.setdefault(f"own {name}", []).append(
                            measure(f"own {name}", truth, grid, read, range(args.seeds),
                                    kinds=args.kinds))
                except Exception as exc:  # a bench reports a failure and goes on
                    runs.setdefault(f"own {name}", []).append(
                        Figures(f"own {name}", error=f"{type(exc).__name__}: {exc}"))
                print(f"own {name}{tag}: done", file=sys.stderr)
        for name in [] if args.own else (args.maps or MAPS):
            try:
                read = reading(folder, name, setup[name], truth_grid=args.truth_grid,
                               learner_seed=learner_seed)
                if not args.read_only:
                    runs.setdefault(name, []).append(
                        measure(name, truth_of(folder, name), setup[name]["grid"], read,
                                range(args.seeds), kinds=args.kinds))
            except Exception as exc:  # a bench reports a failure and goes on with the next
                runs.setdefault(name, []).append(
                    Figures(name, error=f"{type(exc).__name__}: {exc}"))
            print(f"{name}{tag}: done", file=sys.stderr)
    if runs and args.learner_seeds == 1:
        print(table([r[0] for r in runs.values()], args.seeds))
    elif runs:
        print(spread_table(runs, args.seeds))
    if args.verbose:
        for name, figures in runs.items():
            for seed, f in enumerate(figures):
                tag = f" (learner seed {seed})" if args.learner_seeds > 1 else ""
                print(f"{name}{tag}: {'; '.join(f.alarms) or 'no false alarm'}")
                for miss in f.misses:
                    print(miss)
    return 0


if __name__ == "__main__":
    sys.exit(main())
