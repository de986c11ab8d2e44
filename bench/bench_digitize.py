"""Digitizing speed and memory on a full-size scan, as ratios to same-run baselines.

A 46 x 62 flat-top map (2,852 hexes of 160 px, printed style with textures and
hex ids) is rendered, scanned (turned 1.5 degrees, slight perspective, uneven
light, yellowing, blur, noise) and saved as a 6,600 x 10,200 px JPEG and PNG in
a temporary folder. For each file:

* the whole digitization (read the file, find the grid, classify every hex,
  read every hexside, build map.json) is timed against decoding the same file
  and converting all its pixels to Lab (``cv2.imread`` + ``cv2.cvtColor``);
* peak memory is measured in a fresh process (``VmHWM``) for both, less
  the memory of a process that has only imported the libraries, and shown as
  a multiple of the decoded image (``height * width * 3`` bytes).

The two are timed in pairs, digitize then decode, so both see the same machine
(``bench/pairs.py``). The issue's targets: time at most 2.5x the baseline, peak memory
at most 3x the decoded image.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2

from pipeline.digitize import digitize_scan, legend_from_map
from pipeline.render import (
    RenderStyle,
    ScanOptions,
    printed_colours,
    render_map,
    sample_map,
    simulate_scan,
)

try:  # run through bench/run.py, or directly as a script
    from pairs import interleaved
    from run import Row, format_table
except ImportError:  # pragma: no cover - imported as bench.bench_digitize
    from bench.pairs import interleaved
    from bench.run import Row, format_table

COLS, ROWS, HEX = 46, 62, 160.0
PAIRS = 3
STYLE = RenderStyle(hex_size=HEX, margin=80.0, textured=True, ids=True, supersample=1, seed=7)
SCAN = ScanOptions(rotation=1.5, perspective=0.002, light=0.2, yellowing=0.4, blur=1.2, noise=3,
                   margin=24, seed=7)

# Run in a fresh interpreter: prints {"seconds": ..., "peak_kb": ...}. The peak is the
# process's own high-water mark (VmHWM); ru_maxrss would carry the parent's over exec.
_CHILD = r"""
import json, sys, time
import cv2, numpy as np
from pipeline.digitize import digitize_scan, legend_from_map
from pipeline.render import printed_colours, sample_map, RenderStyle
mode, path = sys.argv[1], sys.argv[2]
t0 = time.perf_counter()
if mode == "decode":
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab)
elif mode == "digitize":
    sample = sample_map("flat", %(cols)d, %(rows)d, seed=7)
    legend = legend_from_map(sample, colours=printed_colours(sample, RenderStyle(textured=True)))
    digitize_scan(path, legend)
seconds = time.perf_counter() - t0
status = open("/proc/self/status").read().split("VmHWM:")[1].split()[0]
print(json.dumps({"seconds": seconds, "peak_kb": int(status)}))
""".replace("%(cols)d", str(COLS)).replace("%(rows)d", str(ROWS))


def make_scan(folder: Path) -> tuple[Path, Path, tuple[int, int]]:
    """Render and scan the bench map; returns the JPEG and PNG paths and the image size."""
    sample = sample_map("flat", COLS, ROWS, seed=7)
    picture = render_map(sample, STYLE).image
    scan = simulate_scan(picture, SCAN).image
    del picture
    bgr = cv2.cvtColor(scan, cv2.COLOR_RGB2BGR)
    jpeg, png = folder / "scan.jpg", folder / "scan.png"
    cv2.imwrite(str(jpeg), bgr, [cv2.IMWRITE_JPEG_QUALITY, 90])
    cv2.imwrite(str(png), bgr, [cv2.IMWRITE_PNG_COMPRESSION, 1])
    return jpeg, png, (scan.shape[1], scan.shape[0])


def _child(mode: str, path: Path) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", _CHILD, mode, str(path)], check=True,
                         capture_output=True, text=True)
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> list[Row]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        jpeg, png, (w, h) = make_scan(Path(tmp))
        decoded_mb = w * h * 3 / 1e6
        idle_kb = _child("idle", jpeg)["peak_kb"]
        sample = sample_map("flat", COLS, ROWS, seed=7)
        legend = legend_from_map(sample, colours=printed_colours(sample, STYLE))
        for path in (jpeg, png):
            kind = path.suffix[1:].upper()

            def decode(p: Path = path) -> None:
                image = cv2.imread(str(p), cv2.IMREAD_COLOR)
                cv2.cvtColor(image, cv2.COLOR_BGR2Lab)

            def run(p: Path = path) -> None:
                digitize_scan(p, legend)

            peak = (_child("digitize", path)["peak_kb"] - idle_kb) / 1e3 / decoded_mb
            base = (_child("decode", path)["peak_kb"] - idle_kb) / 1e3 / decoded_mb
            rows.append(Row.paired(f"digitize {w}x{h} {kind}, peak mem {peak:.1f}x image",
                                   interleaved(run, decode, pairs=PAIRS, warmup=0),
                                   f"decode + Lab, peak mem {base:.1f}x image",
                                   goal="time <= 2.5x, memory <= 3x image"))
    return rows


if __name__ == "__main__":
    print(format_table("digitize", main()))
