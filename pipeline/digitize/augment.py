"""More examples from few: what a terrain looks like with the things that are not terrain on it.

A builder labels three woods hexes; the map has two hundred, and some of them have a road
through them, a river along a side, a name, a border line, the edge of the next terrain.
A person knows these are not the terrain; a learner shown only the three clean examples
does not. Each example is therefore drawn again several times with such things added,
seeded, so the learner sees them and learns to look past them:

* a line through the hex from one hexside to another (a road, a railway with ticks, a
  cased road), in the colours of the legend's features that cross hexsides, or the ink's;
* a line along a hexside (a river, a bar, a coastline), in those of features along them;
* a dotted curve (a border) and a short word (a place name);
* another terrain over part of the hex, beyond a line that leaves the centre alone (the
  main terrain is what covers the centre);
* small shifts, turns and changes of light, blur and noise, as a scan gives them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.patches import HexFrame

__all__ = ["Augmenter", "augment", "draw", "light_spread", "plan", "planned"]

U8 = NDArray[np.uint8]
I64 = NDArray[np.int64]
RGB = tuple[int, int, int]

_SPLIT = 0.35  # share of drawings with another terrain over part of them
_THROUGH_STEPS = np.linspace(0, 1, 16)[:, None]  # points along a line through a hex
_SIDE_STEPS = np.linspace(0, 1, 12)[:, None]  # points along a line by a hexside
_DOTS = np.linspace(0, 1, 14)[:, None]  # the dots of a dotted curve
_WORDS = ("Ulm", "Tarvin", "Orrin", "Nesbit", "Caldor", "Marrow", "Pella", "Zell", "Arlon")


@dataclass(frozen=True)
class Augmenter:
    """How examples are drawn again.

    Attributes
    ----------
    copies
        New patches per example (the example itself is kept too).
    across
        Colours of lines drawn through hexes (the legend's roads and railways, the ink).
    along
        Colours of lines drawn along hexsides (the legend's rivers and bars, the ink).
    spread
        How much the light (per channel, as a log gain's standard deviation) may differ
        between two hexes of one terrain: :func:`light_spread` measures it on the examples.
    seed
        Seed of the random choices.
    """

    copies: int = 24
    across: tuple[RGB, ...] = ((30, 30, 30),)
    along: tuple[RGB, ...] = ((30, 30, 30),)
    spread: tuple[float, float, float] = (0.01, 0.01, 0.01)
    seed: int = 0


def augment(patches: U8, labels: I64, frame: HexFrame, augmenter: Augmenter,
            keys: I64 | None = None) -> tuple[U8, I64]:
    """The examples and their new drawings, with labels, ``(k * (copies + 1), size, size, 3)``.

    ``keys`` names each example (its hex, say). Each drawing is seeded by its example's
    key, label and copy number, and the other example whose terrain may be drawn over part
    of it is picked by consistent hashing (:func:`plan`): a new example changes only the
    few drawings that now pick it, so described drawings can be kept between reads
    (:mod:`~pipeline.digitize.drawings`).

    Examples
    --------
    >>> from pipeline.hexgrid import Orientation
    >>> frame = HexFrame(Orientation.FLAT, 16)
    >>> pats = np.full((2, 16, 16, 3), 200, np.uint8); pats[1] = 60
    >>> out, lab = augment(pats, np.array([0, 1]), frame, Augmenter(copies=3))
    >>> out.shape, lab.tolist()
    ((8, 16, 16, 3), [0, 0, 0, 0, 1, 1, 1, 1])
    """
    keys = np.arange(len(labels)) if keys is None else keys
    others, rngs = planned(labels, keys, augmenter)
    out, lab = [], []
    for i, (patch, label) in enumerate(zip(patches, labels, strict=True)):
        out.append(patch)
        out += [draw(patches, labels, keys, i, copy, int(others[i, copy]), frame, augmenter,
                     rngs[i, copy]) for copy in range(augmenter.copies)]
        lab += [int(label)] * (augmenter.copies + 1)
    return np.stack(out), np.array(lab, np.int64)


def plan(labels: I64, keys: I64, augmenter: Augmenter, counts: I64 | None = None) -> I64:
    """For each example and copy, the example drawn over part of it (-1: none), ``(k, copies)``.

    Each example has a place on a circle (seeded by its key and label); a copy that takes
    another terrain over part of it draws a point on the circle and takes the first
    example of another label at or past it. Adding an example moves only the points that
    now land on it. ``counts`` is how many of its copies each example is drawn with: the
    copies past it are not planned (-1), and the first ones are planned as they would be
    without it.

    >>> plan(np.array([0, 1]), np.array([5, 9]), Augmenter(copies=4)).tolist()
    [[-1, 1, -1, -1], [0, -1, 0, -1]]
    >>> plan(np.array([0, 1]), np.array([5, 9]), Augmenter(copies=4), np.array([2, 4])).tolist()
    [[-1, 1, -1, -1], [0, -1, 0, -1]]
    """
    return planned(labels, keys, augmenter, counts)[0]


def planned(labels: I64, keys: I64, augmenter: Augmenter, counts: I64 | None = None
          ) -> tuple[I64, dict[tuple[int, int], np.random.Generator]]:
    """:func:`plan`, and each planned copy's generator as the plan leaves it, for :func:`draw`
    (a generator is made once a copy, not again to draw it).

    >>> others, rngs = planned(np.array([0, 1]), np.array([5, 9]), Augmenter(copies=2))
    >>> others.tolist(), sorted(rngs)
    ([[-1, 1], [0, -1]], [(0, 0), (0, 1), (1, 0), (1, 1)])
    """
    places = np.array([_place(augmenter, int(k), int(c)) for k, c in zip(keys, labels,
                                                                          strict=True)])
    out = np.full((len(labels), augmenter.copies), -1, np.int64)
    # Each copy's choices come from a generator of its own (so a copy is the same whatever
    # the others): one generator made per copy drawn, never for copies left undrawn, and
    # handed on to draw it.
    counts = (np.full(len(labels), augmenter.copies) if counts is None
              else np.minimum(counts, augmenter.copies))
    rngs: dict[tuple[int, int], np.random.Generator] = {}
    for i, (key, label) in enumerate(zip(keys, labels, strict=True)):
        others = np.nonzero(labels != label)[0]
        for copy in range(int(counts[i])):
            rng = rngs[i, copy] = _copy_rng(augmenter, int(key), int(label), copy)
            split, point = rng.random() < _SPLIT, rng.random()
            if split and len(others):
                out[i, copy] = others[int(np.argmin((places[others] - point) % 1.0))]
    return out, rngs


def draw(patches: U8, labels: I64, keys: I64, i: int, copy: int, other: int, frame: HexFrame,
         augmenter: Augmenter, rng: np.random.Generator | None = None) -> U8:
    """Copy ``copy`` of example ``i``, with example ``other`` over part of it (-1: none).

    ``rng`` is the copy's generator as the plan left it (made afresh by default).
    """
    if rng is None:
        rng = _copy_rng(augmenter, int(keys[i]), int(labels[i]), copy)
        rng.random(), rng.random()  # the draws plan() made
    img = patches[i].copy()
    if other >= 0:
        img = _split(img, patches[other], frame, rng)
    for _ in range(int(rng.integers(0, 3))):
        kind = rng.random()
        if kind < 0.45:
            _through_line(img, frame, augmenter.across, rng)
        elif kind < 0.7:
            _side_line(img, frame, augmenter.along, rng)
        elif kind < 0.85:
            _dotted_curve(img, frame, rng)
        else:
            _word(img, frame, rng)
    return _scan_like(img, frame, augmenter.spread, rng)


def _copy_rng(augmenter: Augmenter, key: int, label: int, copy: int) -> np.random.Generator:
    return np.random.default_rng([augmenter.seed, key + 1, label, copy + 1])


def _place(augmenter: Augmenter, key: int, label: int) -> float:
    """An example's place on the circle of :func:`plan` (copy number 0 is not a copy's)."""
    return float(np.random.default_rng([augmenter.seed, key + 1, label, 0]).random())


def light_spread(patches: U8, labels: I64, mask: NDArray[np.bool_],
                 floor: float = 0.01) -> tuple[float, float, float]:
    """How much examples of one terrain differ in colour, per channel (log gain std).

    Examples of the same terrain taken across a sheet tell how much its light (or its
    underlying print) varies; examples drawn again vary as much. Pooled over terrains with
    two or more examples; ``floor`` when none has.

    >>> pats = np.full((4, 4, 4, 3), 100, np.uint8); pats[1] = 120
    >>> s = light_spread(pats, np.array([0, 0, 1, 1]), np.ones((4, 4), bool))
    >>> round(s[0], 3)
    0.091
    """
    med = np.median(patches[:, mask, :].astype(np.float64), axis=1)
    logs = np.log(np.maximum(med, 1.0))
    dev, count = np.zeros(3), 0
    for c in np.unique(labels):
        these = logs[labels == c]
        if len(these) >= 2:
            dev += ((these - these.mean(axis=0)) ** 2).sum(axis=0)
            count += len(these) - 1
    if not count:
        return floor, floor, floor
    std = np.maximum(np.sqrt(dev / count), floor)
    return float(std[0]), float(std[1]), float(std[2])


def _colour(colours: Sequence[RGB], rng: np.random.Generator) -> tuple[int, int, int]:
    c = colours[int(rng.integers(len(colours)))]
    return int(c[0]), int(c[1]), int(c[2])


def _through_line(img: U8, frame: HexFrame, colours: Sequence[RGB],
                  rng: np.random.Generator) -> None:
    """A road or railway from one hexside to another, straight through the centre or bent
    past it, solid, dashed, ticked or cased."""
    mids = frame.midpoints()
    a, b = rng.choice(6, 2, replace=False)
    centre = np.array([frame.size / 2 - 0.5] * 2)
    bend = centre + rng.normal(0, frame.size * (0.04 if rng.random() < 0.5 else 0.18), 2)
    t = _THROUGH_STEPS
    pts = (1 - t) ** 2 * mids[a] + 2 * t * (1 - t) * bend + t ** 2 * mids[b]
    width = max(1, round(frame.size * _between(rng, 0.03, 0.08)))
    colour = _colour(colours, rng)
    style = rng.random()
    if style < 0.2:  # cased: a light road with dark edges
        _polyline(img, pts, (20, 20, 20), width + 2)
        _polyline(img, pts, (235, 230, 215), width)
        return
    if style < 0.45:  # dashed, short or long dashes
        dash = _between(rng, 0.05, 0.14)
        starts = np.arange(0.0, 1.0, 2 * dash)
        ends = np.minimum(1.0, starts + dash)
        # Every dash's four points in one lookup, the dashes drawn in one call.
        dashes = _along(pts, np.linspace(starts, ends, 4).T.ravel()).reshape(-1, 4, 2)
        _polylines(img, dashes, colour, width)
        return
    _polyline(img, pts, colour, width)
    if style < 0.6:  # a railway's ticks
        starts = np.linspace(0.05, 0.95, 8)
        heads, tails = _along(pts, starts), _along(pts, np.minimum(1.0, starts + 0.01))
        d = tails - heads
        d /= np.hypot(d[:, 0], d[:, 1])[:, None] + 1e-9
        n = np.stack([-d[:, 1], d[:, 0]], axis=-1) * frame.size * 0.06
        _polylines(img, np.stack([heads - n, heads + n], axis=1), colour, 1)


def _side_line(img: U8, frame: HexFrame, colours: Sequence[RGB],
               rng: np.random.Generator) -> None:
    corners = frame.corners()
    i = int(rng.integers(6))
    a, b = corners[i], corners[(i + 1) % 6]
    centre = np.array([frame.size / 2 - 0.5] * 2)
    inward = _between(rng, 0.0, 0.12)
    a2, b2 = a + (centre - a) * inward, b + (centre - b) * inward
    t = _SIDE_STEPS
    pts = a2 + (b2 - a2) * t
    if rng.random() < 0.5:  # wavy
        d = (b2 - a2) / (np.hypot(*(b2 - a2)) + 1e-9)
        n = np.array([-d[1], d[0]])
        pts = pts + n * np.sin(t * math.pi * _between(rng, 2, 5)) * frame.size * 0.03
    colour = _colour(colours, rng)
    _polyline(img, pts, colour, max(1, round(frame.size * _between(rng, 0.03, 0.07))))


def _dotted_curve(img: U8, frame: HexFrame, rng: np.random.Generator) -> None:
    s = frame.size
    start, end = rng.uniform(0, s, 2), rng.uniform(0, s, 2)
    bend = rng.normal(0, s * 0.2, 2)
    colour = tuple(int(v) for v in rng.integers(60, 220, 3))
    # Every dot's centre at once (the same sums as one dot at a time), rounded half to even.
    t = _DOTS
    dots = np.rint((1 - t) ** 2 * start + 2 * t * (1 - t) * ((start + end) / 2 + bend)
                   + t ** 2 * end).astype(np.int64)
    for x, y in dots.tolist():
        cv2.circle(img, (x, y), max(1, s // 40), colour, -1)


def _word(img: U8, frame: HexFrame, rng: np.random.Generator) -> None:
    """A place name, small and dark, or part of a large faint region name."""
    s = frame.size
    word = _WORDS[int(rng.integers(len(_WORDS)))]
    if rng.random() < 0.5:
        scale = s / 100 * _between(rng, 0.5, 0.9)
        org = (int(_between(rng, 0.1, 0.4) * s), int(_between(rng, 0.55, 0.85) * s))
        shade = int(rng.integers(0, 70))
        cv2.putText(img, word, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (shade, shade, shade), 1,
                    cv2.LINE_AA)
        return
    layer = img.copy()
    scale = s / 40 * _between(rng, 0.6, 1.0)
    org = (int(_between(rng, -0.6, 0.2) * s), int(_between(rng, 0.4, 0.9) * s))
    colour = tuple(int(v) for v in rng.integers(60, 200, 3))
    cv2.putText(layer, word.upper(), org, cv2.FONT_HERSHEY_TRIPLEX, scale, colour,
                max(1, s // 16), cv2.LINE_AA)
    alpha = _between(rng, 0.4, 0.9)
    img[:] = np.asarray(np.round(img * (1 - alpha) + layer * alpha), np.uint8)


def _split(img: U8, other: U8, frame: HexFrame, rng: np.random.Generator) -> U8:
    angle = _between(rng, 0, 2 * math.pi)
    offset = _between(rng, 0.45, 0.95)
    x, y = frame.xy[..., 0], frame.xy[..., 1]
    beyond = (x * math.cos(angle) + y * math.sin(angle)) > offset
    out = img.copy()
    out[beyond] = other[beyond]
    return out


def _scan_like(img: U8, frame: HexFrame, spread: tuple[float, float, float],
               rng: np.random.Generator) -> U8:
    s = frame.size
    turn = rng.normal(0, 3.0)
    zoom = 1 + rng.normal(0, 0.03)
    m = np.asarray(cv2.getRotationMatrix2D((s / 2 - 0.5, s / 2 - 0.5), turn, zoom), np.float64)
    m[:, 2] += rng.normal(0, s * 0.02, 2)
    out = cv2.warpAffine(img, m, (s, s), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    gain = np.exp(rng.normal(0.0, 1.0, 3) * np.asarray(spread))
    f = out * gain.astype(np.float32)
    sigma = _between(rng, 0, 0.8)
    if sigma > 0.3:
        f = np.asarray(cv2.GaussianBlur(f, (0, 0), sigma), np.float32)
    noise = rng.standard_normal(f.shape)  # rng.normal(0, 2.0, ...)'s numbers, sooner
    noise *= 2.0
    f += noise.astype(np.float32)
    # Clipped by the two ufuncs: np.clip's own checks cost more than the clipping here.
    out8: U8 = np.minimum(np.maximum(f, 0, out=f), 255, out=f).astype(np.uint8)
    return out8


def _between(rng: np.random.Generator, low: float, high: float) -> float:
    """``rng.uniform(low, high)``: the same number from the same generator, without the
    argument checks that cost it five times the draw (thousands of drawings a reading).

    >>> a, b = np.random.default_rng(3), np.random.default_rng(3)
    >>> _between(a, 0.45, 0.95) == b.uniform(0.45, 0.95)
    True
    """
    return low + (high - low) * rng.random()


def _along(pts: NDArray[np.float64], t: float | NDArray[np.float64]) -> NDArray[np.float64]:
    """The point(s) a share ``t`` of the way along a polyline, by length."""
    run = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(pts, axis=0).T))])
    d = np.asarray(t, np.float64) * run[-1]
    out: NDArray[np.float64] = np.stack([np.interp(d, run, pts[:, 0]),
                                         np.interp(d, run, pts[:, 1])], axis=-1)
    return out


def _polyline(img: U8, pts: NDArray[np.float64], colour: tuple[int, int, int], width: int) -> None:
    _polylines(img, pts[None], colour, width)


def _polylines(img: U8, lines: NDArray[np.float64], colour: tuple[int, int, int],
               width: int) -> None:
    """Antialiased open polylines ``(lines, points, 2)`` at sub-pixel precision, drawn in
    order in one call (their points rounded in one go)."""
    shift = 4
    p = np.round(lines * (1 << shift)).astype(np.int32)
    cv2.polylines(img, list(p), False, colour, int(width), cv2.LINE_AA, shift)
