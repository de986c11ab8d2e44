"""Write the README's pictures of the demo's counters, sheets, charts and module (docs/).

Made from a demo folder (``bocage demo DIR``; ``make demo`` fills build/demo), so the
pictures show exactly what the demo makes. The counter sheet's first page is drawn by
poppler's ``pdftoppm``, as the tests read the PDFs.

    .venv/bin/python tools/demo_pictures.py              # from build/demo, into docs/
    .venv/bin/python tools/demo_pictures.py bocage-demo
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGE = 1100  # one Letter page of a chart PNG at 100 dpi
MODULE_BOX = (572, 770, 1367, 1401)  # the beach corner of the module preview


def first_page(png: Path) -> Image.Image:
    """The first page of a chart PNG (its pages are stacked top to bottom)."""
    with Image.open(png) as image:
        return image.crop((0, 0, image.width, min(PAGE, image.height))).convert("RGB")


def track(png: Path) -> Image.Image:
    """The track's first page down to the end of its notes, with a margin."""
    page = first_page(png)
    rows = [y for y in range(page.height)
            if page.crop((0, y, page.width, y + 1)).getextrema() != ((255, 255),) * 3]
    return page.crop((0, 0, page.width, min(page.height, rows[-1] + 40)))


def sheet_page(pdf: Path) -> Image.Image:
    """The counter sheet's first page at 50 dpi."""
    with tempfile.TemporaryDirectory() as folder:
        stem = Path(folder) / "page"
        subprocess.run(["pdftoppm", "-png", "-r", "50", "-f", "1", "-l", "1", str(pdf),
                        str(stem)], check=True)
        (made,) = Path(folder).glob("page*.png")
        with Image.open(made) as image:
            return image.convert("RGB")


def main(demo: Path) -> None:
    with Image.open(demo / "counters" / "contact-sheet.png") as sheet:
        sheet.convert("RGB").save(DOCS / "counters-demo.png", optimize=True)
    sheet_page(demo / "counters.pdf").save(DOCS / "demo-sheet.png", optimize=True)
    first_page(demo / "aids" / "tec.png").save(DOCS / "demo-tec.png", optimize=True)
    track(demo / "aids" / "track.png").save(DOCS / "demo-track.png", optimize=True)
    with Image.open(demo / "module-preview.png") as preview:
        preview.convert("RGB").crop(MODULE_BOX).save(DOCS / "demo-module.jpg", quality=85)
    for name in ("counters-demo.png", "demo-sheet.png", "demo-tec.png", "demo-track.png",
                 "demo-module.jpg"):
        print(DOCS / name)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build" / "demo")
