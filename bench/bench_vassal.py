"""``vassal build`` speed, as a ratio to zipping the same images, pair by pair (A B A B).

The demo game with 2,000 units (the demo's own and invented ones, each with a
front and a back drawn by ``bocage counters render`` at 5/8 in, 300 dpi, 188
px) on a 1,240 x 1,290 board: the module build (pieces scaled to the hexes,
each distinct face once, in worker processes) against writing a ``.vmod`` of
the same board and the same 4,000 face files as they are. Goal (issue 18):
2,000 pieces in at most 3 s.

``BENCH_VASSAL_UNITS`` and ``BENCH_PAIRS`` change the size and the number of pairs.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import tempfile
from pathlib import Path

from PIL import Image

from pipeline.counters.render import write_manifests
from pipeline.model.manifest import load_markers, load_units
from pipeline.vassal.archive import write_vmod
from pipeline.vassal.build import build_module

try:  # run through bench/run.py, or directly as a script
    from pairs import interleaved
    from run import Row, format_table
except ImportError:  # pragma: no cover - imported as bench.bench_vassal
    from bench.pairs import interleaved
    from bench.run import Row, format_table

ROOT = Path(__file__).resolve().parents[1]
UNITS = int(os.environ.get("BENCH_VASSAL_UNITS", "2000"))
PAIRS = int(os.environ.get("BENCH_PAIRS", "3"))


def make_game(work: Path, count: int) -> tuple[Path, Path]:
    """``work/maps/demo`` with a board and ``work/counters/demo`` with ``count`` units drawn."""
    game, counters = work / "maps" / "demo", work / "counters" / "demo"
    shutil.copytree(ROOT / "maps" / "demo", game)
    shutil.copytree(ROOT / "counters" / "demo", counters)
    data = json.loads((game / "map.json").read_text())
    data["boards"][0]["grid"]["layout"] = {"dx": 48.0, "dy": 55.0, "x0": 40.0, "y0": 40.0}
    (game / "map.json").write_text(json.dumps(data))
    Image.new("RGB", (1240, 1290), (233, 228, 195)).save(game / "board.png")
    with (counters / "units.csv").open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    columns = list(rows[0])
    for i in range(count - len(rows)):
        rows.append({**{c: "" for c in columns}, "id": f"{100 + i}/{i % 40}", "side":
                     ("allied", "german")[i % 2], "type": ("infantry", "armor", "artillery")[i % 3],
                     "size": "battalion", "attack": str(i % 9), "defence": str(i % 7),
                     "movement": str(i % 6 + 3), "back_attack": str(i % 4),
                     "back_defence": str(i % 3), "back_movement": str(i % 6 + 3)})
    with (counters / "units.csv").open("w", newline="") as fh:
        out = csv.DictWriter(fh, fieldnames=columns)
        out.writeheader()
        out.writerows(rows)
    write_manifests(load_units(counters / "units.csv"), load_markers(counters / "markers.csv"),
                    counters)
    return game, counters


def main() -> list[Row]:
    work = Path(tempfile.mkdtemp(prefix="bocage-bench-"))
    try:
        game, counters = make_game(work, UNITS)
        faces = sorted(counters.glob("*-front.png")) + sorted(counters.glob("*-back.png"))
        board = game / "board.png"

        def build() -> None:
            build_module(game, work / "demo.vmod", boards={"omaha": board}, counters=counters)

        def zipped() -> None:
            entries = [("images/board.png", board.read_bytes())]
            entries += [(f"images/{p.name}", p.read_bytes()) for p in faces]
            write_vmod(work / "plain.vmod", entries)

        pairs = interleaved(build, zipped, pairs=PAIRS)
        wall, cpu = pairs.median("task"), pairs.median("task", 1)
        return [Row(f"vassal build, {UNITS:,} pieces ({len(faces):,} faces): {wall:.2f} s wall,"
                    f" {cpu:.2f} s CPU (goal 3 s); ratio {pairs.summary()}, CPU"
                    f" {pairs.summary(1)}", wall, f"zip the same {len(faces):,} images",
                    pairs.median("baseline"))]
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    print(format_table("vassal", main()))
