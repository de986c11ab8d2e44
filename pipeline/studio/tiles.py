"""A deep-zoom pyramid of a scan: the tiles the studio's map viewer asks for.

The viewer (OpenSeadragon) shows a big scan by fetching only the square tiles of the
level of detail it is looking at, the Deep Zoom layout: level ``max_level`` is the scan
itself, each level below is half the size of the one above (rounded up), down to 1 x 1
pixel; a tile is ``tile_size`` pixels square plus ``overlap`` pixels shared with each
neighbour. Levels are made when first asked for, each by halving the one above: each
pixel is the mean of a 2 x 2 block (:func:`halve`), and tiles are encoded as JPEG when
asked for and kept, so the first view of a 70-Mpx scan costs one pass of halvings and a
few dozen small JPEGs, never a tile set written to disk.

>>> import numpy as np
>>> pyramid = Pyramid(np.zeros((600, 1000, 3), np.uint8))
>>> pyramid.max_level, pyramid.level_size(pyramid.max_level - 1), pyramid.tiles(10)
(10, (500, 300), (4, 3))
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from pipeline.errors import ImageError

__all__ = ["TILE_OVERLAP", "TILE_SIZE", "Pyramid", "halve"]

U8 = NDArray[np.uint8]

TILE_SIZE = 254  # with the overlap on both sides a tile is at most 256 px
TILE_OVERLAP = 1
_QUALITY = 88
_KEPT = 2048  # encoded tiles kept in memory (about 40 MB of JPEG at most)


class Pyramid:
    """The Deep Zoom levels of one RGB image, made and encoded on demand.

    Parameters
    ----------
    image
        The scan, RGB ``uint8`` ``(height, width, 3)``; it is kept, not copied.
    tile_size, overlap
        The Deep Zoom tiling (what the viewer is told in :meth:`describe`).
    """

    def __init__(self, image: U8, *, tile_size: int = TILE_SIZE,
                 overlap: int = TILE_OVERLAP) -> None:
        self.height, self.width = int(image.shape[0]), int(image.shape[1])
        self.tile_size = tile_size
        self.overlap = overlap
        self.max_level = max(0, math.ceil(math.log2(max(self.width, self.height))))
        self._levels: dict[int, U8] = {self.max_level: image}
        self._tiles: OrderedDict[tuple[int, int, int], bytes] = OrderedDict()
        self._lock = threading.Lock()

    def describe(self) -> dict[str, Any]:
        """What the viewer needs to build its tile source (plain data for JSON)."""
        return {"width": self.width, "height": self.height, "tileSize": self.tile_size,
                "tileOverlap": self.overlap, "maxLevel": self.max_level, "format": "jpg"}

    def level_size(self, level: int) -> tuple[int, int]:
        """Width and height of a level, in pixels."""
        scale = 2 ** (self.max_level - level)
        return max(1, math.ceil(self.width / scale)), max(1, math.ceil(self.height / scale))

    def tiles(self, level: int) -> tuple[int, int]:
        """How many tile columns and rows a level has."""
        w, h = self.level_size(level)
        return math.ceil(w / self.tile_size), math.ceil(h / self.tile_size)

    def tile(self, level: int, col: int, row: int) -> bytes:
        """The JPEG bytes of one tile.

        Raises
        ------
        ImageError
            For a level or tile the pyramid does not have.
        """
        if not 0 <= level <= self.max_level:
            raise ImageError(None, f"no level {level} (levels 0 to {self.max_level})")
        cols, rows = self.tiles(level)
        if not (0 <= col < cols and 0 <= row < rows):
            raise ImageError(None, f"no tile {col}_{row} at level {level}"
                             f" ({cols} x {rows} tiles)")
        key = (level, col, row)
        with self._lock:
            cached = self._tiles.get(key)
            if cached is not None:
                self._tiles.move_to_end(key)
                return cached
        pixels = self.level(level)
        ts, ov = self.tile_size, self.overlap
        x0, y0 = max(0, col * ts - ov), max(0, row * ts - ov)
        x1 = min(pixels.shape[1], (col + 1) * ts + ov)
        y1 = min(pixels.shape[0], (row + 1) * ts + ov)
        bgr = cv2.cvtColor(np.ascontiguousarray(pixels[y0:y1, x0:x1]), cv2.COLOR_RGB2BGR)
        ok, data = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, _QUALITY])
        if not ok:  # pragma: no cover - OpenCV encodes any uint8 RGB image
            raise ImageError(None, "could not encode a tile as JPEG")
        encoded = bytes(data.tobytes())
        with self._lock:
            self._tiles[key] = encoded
            if len(self._tiles) > _KEPT:
                self._tiles.popitem(last=False)
        return encoded

    def level(self, level: int) -> U8:
        """The pixels of one level (made by halving the level above it, once)."""
        with self._lock:
            made = self._levels.get(level)
            if made is not None:
                return made
            above = min(k for k in self._levels if k > level)
            pixels = self._levels[above]
            for k in range(above - 1, level - 1, -1):
                pixels = halve(pixels)
                self._levels[k] = pixels
            return pixels


def halve(pixels: U8) -> U8:
    """An image half the size (rounded up): the mean of each 2 x 2 block of pixels.

    OpenCV's bilinear resize at exactly half samples midway between pixel pairs, which is
    that mean, several times faster than its area resampling on a 70-Mpx scan. An odd
    last row or column is halved along its length only.

    >>> halve(np.array([[[0], [2], [7]], [[4], [6], [9]]], np.uint8)[..., [0, 0, 0]])[..., 0]
    array([[3, 8]], dtype=uint8)
    """
    h, w = pixels.shape[:2]
    hh, hw = h // 2, w // 2
    out = np.empty((h - hh, w - hw, pixels.shape[2]), np.uint8)
    if hh and hw:
        out[:hh, :hw] = cv2.resize(pixels[:2 * hh, :2 * hw], (hw, hh),
                                   interpolation=cv2.INTER_LINEAR)
    if w % 2 and hh:
        out[:hh, hw] = cv2.resize(pixels[:2 * hh, w - 1:], (1, hh),
                                  interpolation=cv2.INTER_LINEAR).reshape(hh, -1)
    if h % 2 and hw:
        out[hh, :hw] = cv2.resize(pixels[h - 1:, :2 * hw], (hw, 1),
                                  interpolation=cv2.INTER_LINEAR).reshape(hw, -1)
    if h % 2 and w % 2:
        out[hh, hw] = pixels[h - 1, w - 1]
    return out
