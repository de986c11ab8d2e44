"""The printed terrain key, found by its labels: ``--key auto``.

A map sheet's key shows each terrain as a swatch with its name beside it. A builder
can give the swatches as pixel boxes (``--key woods=x,y,w,h``); ``--key auto`` finds
them instead: every mark of about a hex's size outside the hex field is a candidate
swatch, the words printed just right of it are read by Tesseract (an OCR engine,
through ``pytesseract``), and a candidate whose words are a terrain's name
(``all_sea`` matches "All sea"; a letter misread is forgiven) is that terrain's swatch.
The boxes then teach the reading exactly as ``--key`` boxes do.

What is not found is said, one line a terrain, so the builder can give that swatch by
hand. Reading only the short strip beside each candidate, rather than the whole sheet,
is what lets a blurred scan's small labels be read, and keeps the terrain-effects
table's words (no swatch beside them) and the map's names out of it.
"""

from __future__ import annotations

import difflib
import re
import shutil
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.gridfit import GridFit
from pipeline.errors import BocageError

__all__ = ["KeySwatch", "find_key", "match_label", "paper_outside", "swatches"]

Box = tuple[float, float, float, float]
U8 = NDArray[np.uint8]

# How alike a printed label and a terrain name must be (difflib's ratio): one letter
# misread in a five-letter word passes, "Hills" for "hill" passes, "Lake" for "Marsh" not.
_ALIKE = 0.8
# A swatch is a mark of about a hex at map scale: its box's sides between these shares
# of the hex pitch (centre to centre).
_SWATCH_SIZE = (0.5, 1.6)
# A swatch's outline, filled, covers at least this share of its box (a hexagon: 3/4).
_SOLID = 0.5
# Lab distance from the paper from which a pixel is printed.
_PAPER_DISTANCE = 18.0
# How far right of its swatch a label may run, in hex pitches.
_LABEL_REACH = 2.5
# The height (px) a label's strip is enlarged to before it is read.
_LETTERS = 48.0


@dataclass(frozen=True)
class KeySwatch:
    """A terrain's swatch found in the printed key, and the label that named it."""

    terrain: str
    box: Box
    label: str
    label_box: Box

    def option(self) -> str:
        """The swatch as the ``--key`` option that gives it by hand."""
        return f"{self.terrain}=" + ",".join(f"{v:g}" for v in self.box)


def _normal(text: str) -> str:
    return re.sub(r"[^a-z]+", " ", text.lower()).strip()


def match_label(name: str, phrase: str) -> bool:
    """Whether a printed phrase is the label of terrain ``name``.

    >>> match_label("all_sea", "All Sea"), match_label("woods", "Wocds")
    (True, True)
    >>> match_label("lake", "Marsh")
    False
    >>> match_label("hills", "Hill"), match_label("city", "City:"), match_label("rough", "Road")
    (True, True, False)
    """
    a, b = _normal(name), _normal(phrase)
    if not a or not b:
        return False
    return a == b or difflib.SequenceMatcher(None, a, b).ratio() >= _ALIKE


def _field_mask(fit: GridFit, shape: tuple[int, int], pitch: float) -> U8:
    """The hex field: a disc over every hex of the fitted grid, corners included."""
    mask = np.zeros(shape, np.uint8)
    for x, y in fit.centres():
        cv2.circle(mask, (int(round(x)), int(round(y))), int(pitch * 0.62), 255, -1)
    return mask


def _pitch(fit: GridFit) -> float:
    """The distance between neighbouring hex centres on the scan (px), at the field's middle."""
    grid = fit.grid
    hexes = grid.hexes()
    middle = hexes[len(hexes) // 2]
    pairs = [(middle, n) for n in (grid.neighbour(middle, d) for d in range(6))
             if grid.contains(n)]
    if not pairs:
        raise BocageError("--key auto needs a grid of two hexes or more")
    centres = fit.centres([h for pair in pairs for h in pair]).reshape(-1, 2, 2)
    return float(np.median(np.linalg.norm(centres[:, 0] - centres[:, 1], axis=1)))


def paper_outside(pixels: U8, field: U8) -> U8:
    """The paper's colour around the hex field (the median of what lies outside it)."""
    outside = pixels[field == 0]
    paper: U8 = np.median(outside if len(outside) else pixels.reshape(-1, 3),
                          axis=0).astype(np.uint8)
    return paper


def swatches(pixels: U8, fit: GridFit) -> list[Box]:
    """The marks outside the hex field that could be key swatches, top to bottom.

    A swatch is a shape of about a hex at map scale (a fill, or an outline around
    bare paper for a terrain printed as paper), solid once its holes are filled: what
    differs from the paper around the field, closed into pieces, each piece's
    outline filled. A turn track's boxes pass too; no terrain's name is beside them.
    """
    pitch = _pitch(fit)
    field = _field_mask(fit, pixels.shape[:2], pitch)
    lab = cv2.cvtColor(pixels, cv2.COLOR_RGB2LAB).astype(np.float32)
    paper = paper_outside(pixels, field).reshape(1, 1, 3)
    ground = cv2.cvtColor(paper, cv2.COLOR_RGB2LAB).astype(np.float32)[0, 0]
    differs = (np.linalg.norm(lab - ground, axis=2) > _PAPER_DISTANCE).astype(np.uint8)
    differs[cv2.dilate(field, np.ones((5, 5), np.uint8)) > 0] = 0
    k = max(3, int(pitch * 0.08) | 1)
    closed = cv2.morphologyEx(differs, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    contours, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    lo, hi = (v * pitch for v in _SWATCH_SIZE)
    out = []
    for contour in contours:
        x, y, w, h = cv2.boundingRect(contour)
        if lo <= w <= hi and lo <= h <= hi and cv2.contourArea(contour) >= _SOLID * w * h:
            out.append((float(x), float(y), float(w), float(h)))
    return sorted(out, key=lambda b: (b[1], b[0]))


def _label_strip(pixels: U8, box: Box, others: Sequence[Box], pitch: float
                 ) -> U8 | None:
    """The grey picture of the words printed just right of a swatch, or ``None``."""
    x, y, w, h = box
    x0 = int(x + w + 0.05 * pitch)
    x1 = min(pixels.shape[1], int(x + w + _LABEL_REACH * pitch))
    for ox, oy, _, _ in others:  # the key's next column starts where its swatch does
        if x < ox < x1 and abs(oy - y) < h:
            x1 = int(ox) - 2
    if x1 - x0 < 4:
        return None
    grey = cv2.cvtColor(pixels[int(y):int(y + h), x0:x1], cv2.COLOR_RGB2GRAY)
    ink = grey < np.median(grey) - 50
    cols = np.flatnonzero(ink.any(axis=0))
    if not len(cols):
        return None
    end = int(cols[0])
    for c in cols[1:]:  # the first run of letters: a word gap is narrower than this
        if c - end > 0.4 * pitch:
            break
        end = int(c)
    rows = np.flatnonzero(ink[:, cols[0]:end + 1].any(axis=1))
    strip: U8 = np.asarray(grey[max(0, rows[0] - 3):rows[-1] + 4,
                                max(0, int(cols[0]) - 3):end + 4], np.uint8)
    return strip


def _read_line(strip: U8) -> Iterator[str]:
    """What Tesseract reads in a strip, tried as grey, then sharpened (a blurred scan's
    small letters), then sharpened as one word; the caller stops at a name it knows."""
    import pytesseract

    scale = max(1.0, _LETTERS / strip.shape[0])
    big = cv2.resize(strip, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    sharp = cv2.addWeighted(big, 1.8, cv2.GaussianBlur(big, (0, 0), 3), -0.8, 0)
    paper = int(np.median(strip))
    for img, psm in ((big, 7), (sharp, 7), (sharp, 8)):
        framed = cv2.copyMakeBorder(img, 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=paper)
        yield str(pytesseract.image_to_string(framed, config=f"--psm {psm}")).strip()


def _need_tesseract() -> None:
    try:
        import pytesseract  # noqa: F401
    except ImportError:  # pragma: no cover - a dependency of the package
        raise BocageError("--key auto needs the pytesseract package") from None
    if shutil.which("tesseract") is None:
        raise BocageError("--key auto reads the key's labels with the Tesseract OCR program,"
                          " which is not installed (Debian/Ubuntu: apt-get install"
                          " tesseract-ocr; or give each swatch with --key TERRAIN=X,Y,W,H)")


def find_key(pixels: U8, fit: GridFit, terrain: Sequence[str], *, source: str | None = None,
             warn: Callable[[str], None] | None = None) -> list[KeySwatch]:
    """Each terrain's swatch in the printed key, found by the label beside it.

    Parameters
    ----------
    pixels
        The scan (RGB).
    fit
        The grid located on it (the key is looked for outside its hexes, at its scale).
    terrain
        The legend's terrain names.
    source
        The scan's name, for messages.
    warn
        Told, one line each, of a terrain whose swatch was not found.

    Raises
    ------
    BocageError
        The Tesseract program is not installed.
    """
    _need_tesseract()
    pitch = _pitch(fit)
    boxes = swatches(pixels, fit)
    found: dict[str, KeySwatch] = {}
    for box in boxes:
        strip = _label_strip(pixels, box, boxes, pitch)
        if strip is None:
            continue
        for text in _read_line(strip):
            names = [n for n in terrain if n not in found and match_label(n, text)]
            if names:
                x, y, w, h = box
                inset = min(w, h) / 6  # the swatch's inside, away from its outline
                inner = (round(x + inset, 1), round(y + inset, 1),
                         round(w - 2 * inset, 1), round(h - 2 * inset, 1))
                found[names[0]] = KeySwatch(names[0], inner, text, box)
                break
    if warn is not None and not boxes:
        warn(f"{source or 'scan'}: --key auto: no mark of a swatch's size outside the hex"
             " field (is there a printed key on this sheet?); give the terrain with --sample"
             " TERRAIN=HEX or --key TERRAIN=X,Y,W,H")
    elif warn is not None:
        for name in terrain:
            if name not in found:
                warn(f"{source or 'scan'}: --key auto: {name}: no swatch labelled so beside"
                     f" the hex field ({len(boxes)} swatch-sized marks read); give it with"
                     f" --key {name}=X,Y,W,H or --sample {name}=HEX")
    return [found[n] for n in terrain if n in found]
