"""Make the README's picture of the studio: the demo game and its scan, in headless Chromium.

    .venv/bin/python tools/studio_screenshot.py docs/studio-demo.jpg

The demo folder is copied to a temporary folder (nothing in maps/demo is written), the
studio opened on it, one finding clicked (the map flies to its hex) and the page saved
as a JPEG.
"""

from __future__ import annotations

import io
import shutil
import sys
import tempfile
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

from pipeline.studio import StudioServer, Workspace

ROOT = Path(__file__).resolve().parents[1]
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def main(out: Path) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("needs Chromium (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "demo"
        folder.mkdir()
        for name in ("map.json", "facts.json", "scan.jpg"):
            shutil.copy(ROOT / "maps" / "demo" / name, folder / name)
        with StudioServer(Workspace(folder)) as server, sync_playwright() as p:
            context = p.chromium.launch_persistent_context(
                str(Path(tmp) / "profile"), executable_path=chromium, headless=True,
                args=FLAGS, viewport={"width": 1400, "height": 860})
            page = context.new_page()
            page.goto(server.url)
            page.wait_for_function("document.body.dataset.scan === 'shown'"
                                   " && document.body.dataset.version !== ''", timeout=120_000)
            page.click("#findings li:nth-child(3) button")
            page.wait_for_timeout(1500)  # the flight, and the tiles of the new view
            shot = page.screenshot()
            context.close()
    Image.open(io.BytesIO(shot)).convert("RGB").save(out, quality=85, optimize=True)
    print(f"wrote {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "docs" / "studio-demo.jpg"))
