"""Render the demo map as a printed sheet and scan it: maps/demo/scan.jpg.

The digitizer's sample input for ``make demo``: the illustrative demo map
(map.json) drawn in the printed style (textures, dashed grid, hex ids) and
passed through the scan simulator (a small turn, slight perspective, uneven
light, yellowed paper, a crease, blur, sensor noise, JPEG quality 80). Seeded,
so running it again gives the same file.

    .venv/bin/python maps/demo/make_scan.py
"""

from __future__ import annotations

from pathlib import Path

import cv2

from pipeline.files import write_bytes_atomic
from pipeline.model import load_map
from pipeline.render import RenderStyle, ScanOptions, render_map, simulate_scan

HERE = Path(__file__).resolve().parent
STYLE = RenderStyle(hex_size=56, textured=True, grid_dashed=True, ids=True)
SCAN = ScanOptions(rotation=1.2, perspective=0.002, light=0.15, yellowing=0.35, crease=0.3,
                   blur=0.7, noise=3.0, jpeg_quality=80, seed=44)


def main() -> Path:
    rendered = render_map(load_map(HERE / "map.json"), STYLE)
    scan = simulate_scan(rendered.image, SCAN)
    ok, data = cv2.imencode(".jpg", scan.image[:, :, ::-1], [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    target = HERE / "scan.jpg"
    write_bytes_atomic(target, data.tobytes())
    return target


if __name__ == "__main__":
    print(f"wrote {main()}")
