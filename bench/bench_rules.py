"""Rules engine speed on a generated 2,000-hex map with 300 units, pair by pair (A B A B).

Targets from issue 18 (they replaced the rules issue's 2, 10 and 20 ms): the reachable set
of a 12-MP unit in at most 1 ms, whatever the size of the map; supply for all 300 units in
at most 5 ms on the Fire & Movement position and 10 ms on the same position read by the
Cobra rules. Each task is timed interleaved with its baseline (``bench/pairs.py``), so
both see the same machine: for the reachable set, the textbook weighted search (Dijkstra
with a heap) over the same step costs, stops and ends, worked out beforehand, its answers
checked against the engine's (the row says whether they are the same: on F&M they are;
the other systems' rules, a one-hex move or Cobra's own, are not in it); for supply still
a plain breadth-first search over the 2,000 hexes (the same supply rule written as a
plain multi-source search is the next yardstick). The figures are CPU-time medians over
the pairs (a loaded machine stretches wall times by waiting), with the range of the
pair-by-pair ratios, the wall clock's median and range beside them, and each goal said
met or not on both. The June '44
and tactical systems read the same position too (their unit classes and feature names).

Each timed call builds a fresh engine on the same position, as a position held by the
studio or a game is asked many questions. The map keeps for every position on it what
depends on the map and the rules alone (``Situation.terrain_memo``: what a step or a line
costs, each hex's steps before any unit stands near), and the position keeps for every
engine the facts its units set (``Situation.position_memo``: each side's zones of
control, the hexes enemy units bar, where moves stop, each kind of mover's steps near
them, where a lone mover may not end); each question's own work (its search, supply's
lines and their explanations) is timed.
The "new position" rows time a new position on the same map each call
(``Situation.with_position``, the units as they stand), which works out every fact its
units set again, as a game moving from position to position does. The "new game" rows
copy the map too, so that everything is worked out again but the grid's adjacency (its
hexes numbered, the terrain costs, every hex's steps): a command answering one question.
A reachable set is its hexes and their MP (what most questions read); each hex's path and
the refusals of the hexes beside are worked out when first read, and the "paths and
refusals read" row reads them too.

The scaling rows time the reachable set and supply on maps of 500, 2,000, 8,000 and
32,000 hexes, as dense in units, roads and rivers as the bench map, and print how the time
grows with the map (the exponent k of time ~ hexes**k; 0 is independent of map size).

``BENCH_RULES_PAIRS`` changes the number of pairs (default 21),
``BENCH_RULES_SCALE_ROUNDS`` the rounds of the scaling rows (default 9).
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import heapq
import math
import os
import random
import statistics
import time
from collections import deque
from collections.abc import Callable

from pipeline.hexgrid import Hex, HexGrid, Numbering, Orientation
from pipeline.rules import Engine
from pipeline.rules.cases import case_grid
from pipeline.rules.registry import reference_profile
from pipeline.rules.situation import Chart, GameMap, Marker, Situation, Unit

try:  # run through bench/run.py, or directly as a script
    from pairs import interleaved
    from run import Row, format_table
except ImportError:  # pragma: no cover - imported as bench.bench_rules
    from bench.pairs import interleaved
    from bench.run import Row, format_table

COLS, ROWS, UNITS, SEED = 40, 50, 300, 7
PAIRS = int(os.environ.get("BENCH_RULES_PAIRS", "21"))
# The targets, in seconds: (task, system label) -> target.
TARGETS = {("reachable", "F&M"): 1e-3, ("supply", "F&M"): 5e-3, ("supply", "Cobra"): 10e-3,
           ("reachable_new", "F&M"): 1e-3, ("supply_new", "F&M"): 5e-3,
           ("supply_new", "Cobra"): 10e-3}


def situation(seed: int = SEED, cols: int = COLS, rows: int = ROWS) -> Situation:
    """A Fire & Movement position: mixed terrain, roads, rivers, beachheads and units, as
    dense on any size of map as 300 units, 40 road runs and 150 river hexsides on the
    2,000 hexes of the bench map."""
    rng = random.Random(seed)
    # The cases' grid; numbered with three digits where two do not fit.
    grid = case_grid(cols, rows) if max(cols, rows) < 100 else HexGrid(
        Orientation.FLAT, Numbering(stagger="even-down", col_digits=3, row_digits=3),
        cols=cols, rows=rows)
    per = cols * rows / (COLS * ROWS)
    hexes = grid.hexes()
    kinds = ["clear"] * 12 + ["woods"] * 4 + ["rough"] * 2 + ["marsh", "city"]
    terrain = {h: (rng.choice(kinds),) for h in hexes}
    beaches = [grid.from_offset(c, 0) for c in range(5, cols - 5, 6)]
    for b in beaches:
        terrain[b] = ("beach",)
    sides = {}
    for _ in range(round(40 * per)):  # road runs
        h = rng.choice(hexes)
        d = rng.randrange(6)
        for _ in range(rng.randrange(3, 12)):
            n = grid.neighbour(h, d)
            if not grid.contains(n):
                break
            sides[grid.hexside(h, n)] = frozenset({"road"})
            h, d = n, (d + rng.choice((-1, 0, 0, 1))) % 6
    for _ in range(round(150 * per)):  # river hexsides
        h = rng.choice(hexes)
        n = grid.neighbour(h, rng.randrange(6))
        if grid.contains(n):
            sides.setdefault(grid.hexside(h, n), frozenset({"river"}))
    free = [h for h in hexes if h not in beaches]
    rng.shuffle(free)
    units = []
    for i, h in enumerate(free[:round(UNITS * per)]):
        side = "allied" if grid.offset(h)[1] < rows // 2 else "german"
        mobile = i % 3 == 0
        units.append(Unit(f"u{i}", side, h, "mobile" if mobile else "leg",
                          12.0 if mobile else 4.0, 2))
    profile = reference_profile("fm_omaha")
    assert profile is not None
    chart = Chart.for_case(profile, _BENCH_HEX, _BENCH_HEXSIDE, _BENCH_RATES, {}, "bench")
    markers = tuple(Marker("beachhead", b) for b in beaches)
    return Situation("fm_omaha", GameMap(grid, terrain, sides), chart, tuple(units), markers,
                     {"active_side": "allied", "turn": 3, "phase": "movement"}, profile)


# The chart of the bench position (numbers chosen for it: the rulebooks print no TEC).
_BENCH_HEX = {"clear": 1, "woods": {"leg": 2, "mobile": 3}, "rough": 3,
              "marsh": {"leg": 2, "mobile": 4}, "city": 1, "beach": 1}
_BENCH_HEXSIDE = {"river": 1}
_BENCH_RATES = {"road": 0.5, "trail": 1.0}

# The other systems read the same position with their own vocabulary.
_CLASSES = {"june44": {"leg": "infantry", "mobile": "infantry"},
            "cobra": {"leg": "infantry", "mobile": "mechanized"},
            "tactical": {"leg": "infantry", "mobile": "vehicle"}}
_FEATURES = {"cobra": {"road": "primary_road", "river": "minor_river"},
             "tactical": {"river": "slope"}}  # the aid's brown bars, 1 MP in this chart


def as_system(sit: Situation, system: str) -> Situation:
    """The F&M position as another system's question (classes, features, unit sizes)."""
    classes, names = _CLASSES[system], _FEATURES.get(system, {})
    units = tuple(dataclasses.replace(
        u, unit_class=classes[u.unit_class],
        data={**u.data, "size": "regiment", "nationality": "US" if u.side == "allied" else
              "German"}) for u in sit.units)
    profile = reference_profile(system)
    assert profile is not None
    chart = Chart.for_case(
        profile,
        {k: {classes[c]: x for c, x in v.items()} if isinstance(v, dict) else v
         for k, v in _BENCH_HEX.items()},
        {names.get(k, k): v for k, v in _BENCH_HEXSIDE.items()},
        {names.get(k, k): v for k, v in _BENCH_RATES.items()}, {}, "bench")
    sides = {side: frozenset(names.get(f, f) for f in feats)
             for side, feats in sit.map.hexsides.items()}
    # Sources: the beachheads become Allied-controlled beaches (001 §7.2, 003 §10.5.3);
    # German units trace to the south edge (001 §7.2) or to roads leaving it (003 §10.4).
    grid = sit.map.grid
    markers = [Marker("beach", m.hex, {"controlled_by": "allied"}) for m in sit.markers]
    markers += [Marker("supply_source", grid.from_offset(c, grid.rows - 1), {"side": "german"})
                for c in range(3, grid.cols, 6)]
    gmap = dataclasses.replace(sit.map, hexsides=sides,
                               edges={"south": "german_supply", "east": "german_supply"})
    state = {**sit.state, "turn": 5, "phase": "initial_movement"} if system == "cobra" \
        else {**sit.state, "overrun_this_phase": []}
    return dataclasses.replace(sit, system=system, map=gmap, chart=chart, units=units,
                               markers=tuple(markers), state=state, profile=profile)


def bfs(adjacency: dict[Hex, tuple[Hex, ...]], start: Hex) -> int:
    seen = {start}
    queue = deque([start])
    while queue:
        for n in adjacency[queue.popleft()]:
            if n not in seen:
                seen.add(n)
                queue.append(n)
    return len(seen)


Graph = dict[Hex, list[tuple[Hex, float]]]


def weighted_graph(sit: Situation, unit: Unit) -> tuple[Graph, frozenset[Hex], frozenset[Hex]]:
    """What a plain weighted search needs to answer ``unit``'s move as the rules do, worked
    out once (as the position keeps its facts for every engine): each hex's steps with
    their MP (the system's step costs, the EZOC surcharge added, enemy hexes left out),
    the hexes whose entry stops a move (EZOC and ``movement.stops``), and the hexes the
    system may refuse as an end (stacking)."""
    engine = Engine(sit)
    system, query = engine.system, engine.query(unit.id)
    barred = system.barred(engine, query)
    ezoc = engine.enemy_zoc(unit.side)
    surcharge = system.ezoc_surcharge(engine, query, system.mover(engine, query))
    graph: Graph = {}
    for h in sit.map.grid.hexes():
        steps = []
        for n in sit.map.grid.adjacency[h]:
            cost = system.step_cost(engine, unit.unit_class, h, n)
            if n not in barred and isinstance(cost, int | float):
                steps.append((n, cost + (surcharge if n in ezoc else 0.0)))
        graph[h] = steps
    stops = frozenset(ezoc) | frozenset(system.stopping(engine, unit)[0])
    return graph, stops, system.end_checks(engine, query) or frozenset()


def dijkstra(graph: Graph, stops: frozenset[Hex], no_end: frozenset[Hex], start: Hex,
             ma: float) -> dict[Hex, float]:
    """The cheapest MP to every hex within ``ma``, stopping where a move stops: the
    textbook search, with a heap."""
    best = {start: 0.0}
    heap = [(0.0, start)]
    while heap:
        spent, h = heapq.heappop(heap)
        if spent > best[h] or (h in stops and h != start):
            continue
        for n, cost in graph[h]:
            total = spent + cost
            if total <= ma and total < best.get(n, math.inf):
                best[n] = total
                heapq.heappush(heap, (total, n))
    return {h: c for h, c in best.items() if h != start and h not in no_end}


def _same_answers(sit: Situation, movers: list[Unit],
                  prepared: list[tuple[Graph, frozenset[Hex], frozenset[Hex]]]) -> int:
    """How many (unit, hex) answers the weighted search and the engine disagree on."""
    differ = 0
    for u, (graph, stops, no_end) in zip(movers, prepared, strict=True):
        assert u.hex is not None
        plain = dijkstra(graph, stops, no_end, u.hex, u.ma)
        costs = Engine(sit).reachable(u.id).costs
        differ += len(set(plain) ^ set(costs)) + sum(
            1 for h in set(plain) & set(costs) if plain[h] != costs[h])
    return differ


def _rows(sit: Situation, label: str, adjacency: dict[Hex, tuple[Hex, ...]],
          supply: bool = True, new_position: bool = False, read_all: bool = False
          ) -> list[Row]:
    movers = [u for u in sit.units if u.ma == 12.0 and u.side == "allied"][:10]
    prepared = [weighted_graph(sit, u) for u in movers]
    differ = _same_answers(sit, movers, prepared)
    # The prepared graphs are some 100,000 objects the collector would walk at every full
    # collection of either side's timed calls: set aside, as the interpreter's own are.
    gc.freeze()
    search = "Dijkstra, same step costs and stops, " + (
        "same answers" if differ == 0 else f"answers differ in {differ} hexes")

    def reach_all() -> None:
        # A fresh engine on the held position: its step tables and searches are the cost,
        # not what the position keeps for every engine (terrain_memo, position_memo).
        engine = Engine(sit)
        for u in movers:
            engine.reachable(u.id)

    def reach_read() -> None:
        # The same with every answer read: each hex's path and each refusal.
        engine = Engine(sit)
        for u in movers:
            reach = engine.reachable(u.id)
            assert reach.paths.keys() == reach.costs.keys() and reach.refused is not None

    def reach_new() -> None:
        # A new position on the same map: every fact its units set worked out again.
        engine = Engine(sit.with_position(sit.units))
        for u in movers:
            engine.reachable(u.id)

    def supply_new() -> None:
        Engine(sit.with_position(sit.units)).supply()

    def reach_cold() -> None:
        # A new game: the map's own facts worked out again too.
        engine = Engine(dataclasses.replace(sit, map=dataclasses.replace(sit.map)))
        for u in movers:
            engine.reachable(u.id)

    def supply_cold() -> None:
        Engine(dataclasses.replace(sit, map=dataclasses.replace(sit.map))).supply()

    def supply_all() -> None:
        Engine(sit).supply()

    def search_all() -> None:
        for u, (graph, stops, no_end) in zip(movers, prepared, strict=True):
            assert u.hex is not None
            dijkstra(graph, stops, no_end, u.hex, u.ma)

    def bfs_one() -> None:
        assert movers[0].hex is not None
        bfs(adjacency, movers[0].hex)

    rows = [_row("reachable", "reachable, 12-MP unit", label, reach_all, search_all,
                 len(movers), search)]
    if read_all:
        rows.append(_row("reachable_read", "reachable, 12-MP unit, paths and refusals read",
                         label, reach_read, search_all, len(movers), search))
    if supply:
        rows.append(_row("supply", "supply, 300 units", label, supply_all, bfs_one, 1,
                         "plain BFS, 2,000 hexes"))
    if new_position:
        rows.append(_row("reachable_new", "reachable, 12-MP unit, a new position", label,
                         reach_new, search_all, len(movers), search))
        if supply:
            rows.append(_row("supply_new", "supply, 300 units, a new position", label,
                             supply_new, bfs_one, 1, "plain BFS, 2,000 hexes"))
        rows.append(_row("reachable_cold", "reachable, 12-MP unit, a new game", label,
                         reach_cold, search_all, len(movers), search))
        if supply:
            rows.append(_row("supply_cold", "supply, 300 units, a new game", label,
                             supply_cold, bfs_one, 1, "plain BFS, 2,000 hexes"))
    return rows


def _row(kind: str, what: str, label: str, task: Callable[[], None],
         baseline: Callable[[], None], per: int, baseline_name: str) -> Row:
    """One task against its baseline, ``PAIRS`` pairs, times per ``per`` calls: the CPU
    medians (the steadier figure on a loaded machine) with the range of the pair-by-pair
    CPU ratios; the wall-clock median and range in the task's words; the goal, met or not."""
    pairs = interleaved(task, baseline, pairs=PAIRS, warmup=2)
    wall = [t[0] / per for t in pairs.task]
    cpu = [t[1] / per for t in pairs.task]
    ratios = pairs.ratios(1)
    target = TARGETS.get((kind, label))
    goal = "" if target is None else (
        f"<= {target * 1e3:g} ms: CPU {_met(cpu, target)}, wall {_met(wall, target)}")
    return Row(f"{what}, {label} (CPU {_range(cpu)}; wall {statistics.median(wall) * 1e3:.2f}"
               f" ms, {_range(wall)})", statistics.median(cpu), baseline_name,
               pairs.median("baseline", 1) / per,
               f"{min(ratios):.2f}-{max(ratios):.2f}x, {len(ratios)} pairs", goal)


def _met(times: list[float], target: float) -> str:
    return "met" if statistics.median(times) <= target else "NOT met"


def _range(times: list[float]) -> str:
    return f"{min(times) * 1e3:.2f}-{max(times) * 1e3:.2f} ms"


# The scaling rows: maps of these sizes (columns, rows), as dense in units and roads.
SIZES = ((20, 25), (40, 50), (80, 100), (160, 200))
SCALE_ROUNDS = int(os.environ.get("BENCH_RULES_SCALE_ROUNDS", "9"))


def growth_exponent(sizes: list[int], times: list[float]) -> float:
    """The slope k of log(time) against log(size), least squares: time grows as size**k.

    >>> round(growth_exponent([1, 2, 4], [1.0, 2.0, 4.0]), 6)
    1.0
    """
    xs = [math.log(n) for n in sizes]
    ys = [math.log(t) for t in times]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return (sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
            / sum((x - mx) ** 2 for x in xs))


def scaling_rows(rounds: int = SCALE_ROUNDS) -> list[Row]:
    """The reachable set (ten 12-MP units, a fresh engine for each) and supply (every unit) on the
    F&M and Cobra positions at 500, 2,000, 8,000 and 32,000 hexes: the sizes timed in
    turn, round after round (so every size sees the same machine), CPU medians, and the
    growth exponent of each. Each size is its own baseline's unit: the 2,000-hex map."""
    sits = {(label, n): sit for n in SIZES
            for label, sit in _systems(situation(SEED, *n)).items()}
    tasks: dict[tuple[str, str, tuple[int, int]], Callable[[], None]] = {}
    for (label, n), sit in sits.items():
        movers = [u.id for u in sit.units if u.ma == 12.0 and u.side == "allied"][:10]
        tasks["reachable", label, n] = functools.partial(_reach_all, sit, movers)
        tasks["supply", label, n] = functools.partial(_supply_all, sit)
    cpu: dict[tuple[str, str, tuple[int, int]], list[float]] = {k: [] for k in tasks}
    for fn in tasks.values():
        fn()  # warm-up
    for _ in range(rounds):
        for key, fn in tasks.items():
            start = time.process_time()
            fn()
            cpu[key].append(time.process_time() - start)
    rows = []
    for kind, label in (("reachable", "F&M"), ("supply", "F&M"), ("supply", "Cobra")):
        per = 10 if kind == "reachable" else 1
        times = [statistics.median(cpu[kind, label, n]) / per for n in SIZES]
        hexes = [c * r for c, r in SIZES]
        k = growth_exponent(hexes, times)
        base = times[SIZES.index((COLS, ROWS))]
        what = "reachable, 12-MP unit" if kind == "reachable" else "supply, every unit"
        rows.append(Row(
            f"{what}, {label}, by map size: "
            + ", ".join(f"{h:,} hexes {t * 1e3:.2f} ms" for h, t in zip(hexes, times,
                                                                        strict=True))
            + f" (CPU medians, {rounds} rounds)", times[-1], "the same on 2,000 hexes", base,
            f"grows as hexes**{k:.2f}", "independent of map size" if kind == "reachable"
            else ""))
    return rows


def _reach_all(sit: Situation, movers: list[str]) -> None:
    for u in movers:  # a fresh engine for each question on the held position
        Engine(sit).reachable(u)


def _supply_all(sit: Situation) -> None:
    Engine(sit).supply()


def _systems(sit: Situation) -> dict[str, Situation]:
    return {"F&M": sit, "Cobra": as_system(sit, "cobra")}


def main() -> list[Row]:
    sit = situation()
    grid = sit.map.grid
    adjacency = {h: tuple(grid.neighbours(h)) for h in grid.hexes()}
    rows = _rows(sit, "F&M", adjacency, new_position=True, read_all=True)
    for system, label in (("june44", "June '44"), ("cobra", "Cobra")):
        rows += _rows(as_system(sit, system), label, adjacency, new_position=label == "Cobra")
    # 002 has no supply rules: its movement only.
    rows += _rows(as_system(sit, "tactical"), "tactical", adjacency, supply=False)
    return rows + scaling_rows()


if __name__ == "__main__":
    print(format_table("rules", main()))
