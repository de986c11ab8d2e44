"""Write the README's pictures of the render bench's printed styles (docs/style-*.jpg).

Each picture is one seeded sample sheet as captured (scanned, or photographed
by a phone): the whole sheet on the left, a part of it at full size on the
right, where the style's hard case shows.

    .venv/bin/python tools/style_pictures.py            # all, into docs/
    .venv/bin/python tools/style_pictures.py icons      # one
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

from pipeline.render.styles import SAMPLES, sample_sheet

DOCS = Path(__file__).resolve().parents[1] / "docs"
HEIGHT = 420  # of each picture
DETAIL = 320  # width of the full-size part
SEED = 1


def picture(name: str) -> np.ndarray:
    """The sample ``name`` captured: the whole sheet beside a full-size detail."""
    rendered, scan = sample_sheet(name, seed=SEED).make()
    image = scan.image
    h, w = image.shape[:2]
    scale = HEIGHT / h
    whole = cv2.resize(image, (round(w * scale), HEIGHT), interpolation=cv2.INTER_AREA)
    # The detail: around the centre of the hex field, as captured.
    grid = rendered.grid
    centres = np.array([grid.center(x) for x in grid.hexes()])
    cx, cy = scan.to_scan(*centres.mean(axis=0, keepdims=True).T)
    x0 = int(np.clip(cx[0] - DETAIL / 2, 0, w - DETAIL))
    y0 = int(np.clip(cy[0] - HEIGHT / 2, 0, h - HEIGHT))
    detail = image[y0: y0 + HEIGHT, x0: x0 + DETAIL]
    gap = np.full((HEIGHT, 6, 3), 255, np.uint8)
    return np.concatenate([whole, gap, detail], axis=1)


def main(names: list[str]) -> None:
    for name in names or SAMPLES:
        out = DOCS / f"style-{name}.jpg"
        image = cv2.cvtColor(picture(name), cv2.COLOR_RGB2BGR)
        cv2.imwrite(str(out), image, [cv2.IMWRITE_JPEG_QUALITY, 82])
        print(f"wrote {out.relative_to(DOCS.parent)}")


if __name__ == "__main__":
    main(sys.argv[1:])
