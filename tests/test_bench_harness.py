"""bench/run.py and bench/pairs.py: every benchmark row, its ratio, spread and goal."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from pairs import Pairs, interleaved  # noqa: E402
from run import Row, format_table  # noqa: E402


def test_a_paired_row_has_the_medians_and_the_range_of_its_ratios():
    # Timings as pairs.interleaved records them: (wall, CPU) of the task, then its baseline.
    timed = Pairs(task=((4.0, 2.0), (5.0, 2.5), (6.0, 3.0)),
                  baseline=((1.0, 1.0), (1.0, 1.0), (2.0, 1.0)))
    row = Row.paired("task", timed, "baseline", goal="<= 5x")
    assert (row.seconds, row.baseline_seconds, row.ratio) == (5.0, 1.0, 5.0)
    assert row.spread == "3.00-5.00x, 3 pairs"
    assert Row.paired("task", timed, "baseline", cpu=True).spread == "2.00-3.00x, 3 pairs"
    # And the pairs are what interleaved() times, one task then one baseline each.
    calls: list[str] = []
    real = interleaved(lambda: calls.append("a"), lambda: calls.append("b"), pairs=2, warmup=1)
    assert calls == ["a", "b"] * 3 and len(real.task) == len(real.baseline) == 2
    table = format_table("demo", [row, Row("plain", 2.0, "base", 1.0)]).splitlines()
    assert table[0].split() == ["bench", "task", "time", "baseline", "baseline", "time",
                                "ratio", "spread", "goal"]
    assert table[2].endswith("<= 5x") and table[3].split()[-3:] == ["2.00x", "-", "-"]


def test_run_writes_every_row_as_json_and_refuses_an_unknown_bench(tmp_path):
    out = tmp_path / "bench.json"
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "run.py"), "hexgrid",
                           "--json", str(out)], capture_output=True, text=True, cwd=ROOT,
                          check=True)
    rows = json.loads(out.read_text())
    assert [r["bench"] for r in rows] == ["hexgrid"] * 3
    for r in rows:
        assert r["ratio"] == pytest.approx(r["seconds"] / r["baseline_seconds"], rel=1e-3)
        assert r["spread"].endswith("pairs") and r["task"] in done.stdout
    bad = subprocess.run([sys.executable, str(ROOT / "bench" / "run.py"), "hexgird"],
                         capture_output=True, text=True, cwd=ROOT, check=False)
    assert bad.returncode == 2 and "no benchmark hexgird (there are: " in bad.stderr


def test_the_reachable_sets_baseline_gives_the_engines_answers_on_fire_and_movement():
    # Issue 18: the reachable set's yardstick is a weighted search giving identical
    # answers, not a BFS of the whole map. On the F&M bench position (its rules: terrain
    # and hexside costs, EZOC entry surcharge and stop, enemy hexes barred, stacking at
    # the end) the textbook Dijkstra over the same facts answers every hex alike.
    import bench_rules

    sit = bench_rules.situation(cols=20, rows=25)
    movers = [u for u in sit.units if u.ma == 12.0 and u.side == "allied"][:4]
    prepared = [bench_rules.weighted_graph(sit, u) for u in movers]
    assert bench_rules._same_answers(sit, movers, prepared) == 0
    assert movers[0].hex is not None
    reached = bench_rules.dijkstra(*prepared[0], movers[0].hex, movers[0].ma)
    assert 20 < len(reached) < 500  # a move, not the whole map nor nothing
    # And it would see a difference: one hex's cost changed is one answer off.
    graph, stops, no_end = prepared[0]
    first = next(iter(reached))
    cheaper = {h: [(n, c / 2 if n == first else c) for n, c in steps]
               for h, steps in graph.items()}
    assert bench_rules._same_answers(sit, movers[:1], [(cheaper, stops, no_end)]) >= 1
