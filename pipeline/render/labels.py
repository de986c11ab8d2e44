"""Printed words that are not hex ids: town and place names, realm names, titles.

A digitizer that reads ids must not read these, and one that reads terrain
must not take their ink for terrain: they are distractors, so the renderer
records each one's text and box (:class:`Label`). Names are invented from
syllables by a seeded generator; italic is drawn by shearing upright glyphs of
the shipped fonts (the package ships no italic face).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw

from pipeline.counters.typeset import FontName, font
from pipeline.render.canvas import Canvas

__all__ = ["Label", "draw_label", "invent_names"]

RGB = tuple[int, int, int]
Point = tuple[float, float]

_ONSETS = ("b", "br", "c", "d", "dr", "f", "g", "gr", "h", "k", "l", "m", "n", "p", "r", "s",
           "st", "t", "th", "v", "w")
_VOWELS = ("a", "e", "i", "o", "u", "ai", "ea", "ou")
_CODAS = ("", "", "n", "r", "l", "s", "m", "rn", "ll", "nd", "st", "x")
_SHEAR = 0.22  # italic slant: x moves by this times the height above the baseline


@dataclass(frozen=True)
class Label:
    """One printed word or phrase.

    Attributes
    ----------
    text
        What it says.
    kind
        ``"name"`` (beside a hex feature), ``"place"``, ``"realm"``, ``"title"``,
        ``"key"``, ``"track"`` or ``"table"``.
    box
        ``(x, y, width, height)`` of its ink in output pixels.
    """

    text: str
    kind: str
    box: tuple[float, float, float, float]


def invent_names(rng: np.random.Generator, count: int) -> list[str]:
    """``count`` distinct invented place names (two or three syllables).

    >>> invent_names(np.random.default_rng(3), 3) == invent_names(np.random.default_rng(3), 3)
    True
    """
    names: list[str] = []
    while len(names) < count:
        parts = [str(rng.choice(_ONSETS)) + str(rng.choice(_VOWELS))
                 for _ in range(int(rng.integers(2, 4)))]
        name = ("".join(parts) + str(rng.choice(_CODAS))).capitalize()
        if name not in names and len(name) <= 10:
            names.append(name)
    return names


def draw_label(canvas: Canvas, text: str, at: Point, size: float, colour: RGB, *,
               kind: str, italic: bool = False, tracking: float = 0.0, alpha: float = 1.0,
               anchor: str = "lm", face: FontName = "condensed") -> Label:
    """Print ``text`` and say where its ink went.

    Parameters
    ----------
    canvas
        Where to print.
    text
        The words.
    at
        Anchor point in output pixels.
    size
        Font size (em) in output pixels.
    colour
        Ink colour.
    kind
        What the label is (see :class:`Label`).
    italic
        Slant the glyphs.
    tracking
        Extra space between letters, as a share of the size (spaced capitals).
    alpha
        Ink opacity (below 1, the map shows through, as blended realm names do).
    anchor
        Pillow text anchor of ``at`` (``"lm"``: left, middle; ``"mm"``: centred).
    face
        One of the shipped fonts.

    Examples
    --------
    >>> c = Canvas(120, 40, 2, (255, 255, 255), unit=40.0)
    >>> label = draw_label(c, "Vella", (10.0, 20.0), 16.0, (0, 0, 0), kind="place")
    >>> label.box[0] >= 9.0 and label.box[2] > 20
    True
    """
    k = canvas.k
    typeface = font(face, max(1, round(size * k)))
    gap = tracking * size * k
    widths = [typeface.getlength(ch) for ch in text]
    total = sum(widths) + gap * max(0, len(text) - 1)
    ascent, descent = typeface.getmetrics()
    pad = round(size * k)
    mask = Image.new("L", (int(total) + 2 * pad, ascent + descent + 2 * pad), 0)
    draw = ImageDraw.Draw(mask)
    x = float(pad)
    for ch, w in zip(text, widths, strict=True):
        draw.text((x, pad), ch, fill=255, font=typeface)
        x += w + gap
    if italic:
        base = pad + ascent
        mask = mask.transform(mask.size, Image.Transform.AFFINE,
                              (1, _SHEAR, -_SHEAR * base, 0, 1, 0), Image.Resampling.BILINEAR)
    if alpha < 1:
        mask = mask.point(lambda v: round(v * alpha))
    ax, ay = canvas.ss(at)
    left = {"l": ax - pad, "m": ax - pad - total / 2, "r": ax - pad - total}[anchor[0]]
    top = {"m": ay - pad - (ascent + descent) / 2, "t": ay - pad,
           "s": ay - pad - ascent}[anchor[1]]
    ox, oy = round(left), round(top)
    canvas.image.paste(colour, (ox, oy, ox + mask.width, oy + mask.height), mask)
    ink = mask.getbbox() or (0, 0, 0, 0)
    x0, y0 = (ox + ink[0]) / k - 0.5, (oy + ink[1]) / k - 0.5
    return Label(text, kind, (x0, y0, (ink[2] - ink[0]) / k, (ink[3] - ink[1]) / k))
