"""Write the README's picture of a validation report over a scan (docs/validate-scan.jpg).

The demo map is rendered and scanned (seed 3), typed again with two mistakes (a marsh
typed on a clear hex, a river hexside typed as a road), validated with ``--scan`` into
an HTML report, and the report is photographed by headless Chromium: the scan under the
findings with its fitted grid and hex ids, each finding's crop of the scan beside it, the
hexside finding drawn on its side.

    .venv/bin/python tools/validate_picture.py
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2

from pipeline.model import load_map, read_json
from pipeline.render import ScanOptions, render_map, simulate_scan
from pipeline.validate import validate_files, write_html_report

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "maps" / "demo"
OUT = ROOT / "docs" / "validate-scan.jpg"


def main() -> int:
    chromium = next((p for p in map(shutil.which, ("chromium", "chromium-browser")) if p), None)
    if chromium is None:
        print("tools/validate_picture.py: Chromium is not installed", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        scan = folder / "scan.png"
        rendered = render_map(load_map(DEMO / "map.json"))
        cv2.imwrite(str(scan), simulate_scan(rendered.image, ScanOptions(seed=3)).image[:, :, ::-1])
        data = read_json(DEMO / "map.json")
        data["hexes"]["1010"] = {"terrain": ["marsh"]}
        for side in data["hexsides"]:
            if sorted(side.get("hexes", [])) == ["0804", "0805"]:
                side["features"] = ["road"]
        typed = folder / "typed.json"
        typed.write_text(json.dumps(data), encoding="utf-8")
        result = validate_files(typed, scan=scan, legend=DEMO / "map.json")
        page = folder / "report.html"
        write_html_report(result, page)
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                        "--hide-scrollbars", f"--user-data-dir={folder / 'profile'}",
                        "--window-size=1500,900", f"--screenshot={folder / 'shot.png'}",
                        page.as_uri()], check=True, capture_output=True, timeout=120)
        shot = cv2.imread(str(folder / "shot.png"))
        cv2.imwrite(str(OUT), shot, [cv2.IMWRITE_JPEG_QUALITY, 82])
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
