"""bench/run.py and bench/pairs.py: every benchmark row, its ratio, spread and goal."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from pairs import interleaved  # noqa: E402
from run import Row, format_table  # noqa: E402


def test_a_paired_row_has_the_medians_and_the_range_of_its_ratios():
    timed = interleaved(lambda: time.sleep(0.004), lambda: time.sleep(0.001), pairs=3)
    row = Row.paired("sleep 4 ms", timed, "sleep 1 ms", goal="<= 5x")
    assert row.seconds == pytest.approx(timed.median("task"))
    assert 2.0 < row.ratio < 6.0
    low, high = (float(v) for v in row.spread.split("x,")[0].split("-"))
    assert low <= row.ratio <= high and row.spread.endswith("3 pairs")
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
