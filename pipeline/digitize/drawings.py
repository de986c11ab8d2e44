"""The examples' drawings, described, and kept between reads of one scan.

A learner is taught from each example drawn again many times
(:mod:`~pipeline.digitize.augment`); drawing and describing those copies is most of what
one reading costs. When a builder labels one more hex, every other example is the same
patch as before and, seeded by its key and copy number, draws the same copies; only the
new example's copies, and the few that now take it as the terrain over part of them, are
new. :class:`DrawingMemo` keeps the described copies so a new label draws only those.
"""

from __future__ import annotations

import hashlib

import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.augment import Augmenter, draw, planned
from pipeline.digitize.describe import Descriptors, describe
from pipeline.digitize.patches import HexFrame, lab_patches

__all__ = ["DrawingMemo", "described_drawings"]

U8 = NDArray[np.uint8]
I64 = NDArray[np.int64]
F64 = NDArray[np.float64]
BoolMap = NDArray[np.bool_]

# One described copy: the augmenter (None for the example as given), the example's key,
# label and copy number (-1: the example as given), and digests of its patch and of the
# patch drawn over part of it.
Key = tuple[Augmenter | None, int, int, int, bytes, bytes]


class DrawingMemo:
    """Described drawings of examples, for one patch frame and mask (one scan's reader).

    At most ``limit`` rows are kept; past it the memo starts again (a builder labels hundreds
    of hexes of a map, not thousands, so it seldom does).
    """

    def __init__(self, limit: int = 60_000) -> None:
        self.limit = limit
        self._rows: dict[Key, F64] = {}
        self.groups: dict[str, slice] | None = None
        self.drawn = 0  # copies drawn and described so far, for tests and benches

    def __len__(self) -> int:
        return len(self._rows)

    def get(self, key: Key) -> F64 | None:
        return self._rows.get(key)

    def put(self, keys: list[Key], values: F64, groups: dict[str, slice]) -> None:
        if len(self._rows) + len(keys) > self.limit:
            self._rows.clear()
        self._rows.update(zip(keys, values, strict=True))
        self.groups = groups
        self.drawn += len(keys)


def described_drawings(patches: U8, labels: I64, keys: I64, frame: HexFrame, mask: BoolMap,
                       augmenter: Augmenter, memo: DrawingMemo | None = None,
                       counts: I64 | None = None, jobs: int = 1) -> tuple[Descriptors, I64]:
    """Descriptors of the examples and their drawings, with labels, in :func:`augment`'s order.

    ``counts`` is how many of its copies each example is drawn with (at most
    ``augmenter.copies``, all of them by default): the first ones, the same drawings
    whatever the count. What ``memo`` holds is not drawn again; what is drawn is added to
    it. ``jobs`` threads describe the drawings.

    Examples
    --------
    >>> from pipeline.hexgrid import Orientation
    >>> frame = HexFrame(Orientation.FLAT, 16)
    >>> pats = np.full((2, 16, 16, 3), 200, np.uint8); pats[1] = 60
    >>> memo = DrawingMemo()
    >>> d, lab = described_drawings(pats, np.array([0, 1]), np.array([3, 4]), frame,
    ...                             frame.inside, Augmenter(copies=3), memo)
    >>> d.values.shape[0], lab.tolist(), memo.drawn
    (8, [0, 0, 0, 0, 1, 1, 1, 1], 8)
    >>> _ = described_drawings(pats, np.array([0, 1]), np.array([3, 4]), frame,
    ...                        frame.inside, Augmenter(copies=3), memo); memo.drawn
    8
    """
    memo = memo if memo is not None else DrawingMemo()
    counts = (np.full(len(labels), augmenter.copies, np.int64) if counts is None
              else np.minimum(counts, augmenter.copies))
    others, rngs = planned(labels, keys, augmenter, counts)
    digests = [hashlib.blake2b(p.tobytes(), digest_size=16).digest() for p in patches]
    rows: list[F64 | None] = []
    wanted: list[Key] = []
    missing: list[tuple[int, int, int]] = []  # (row, example, copy)
    for i in range(len(labels)):
        for copy in range(-1, int(counts[i])):
            other = int(others[i, copy]) if copy >= 0 else -1
            # The example as given is the same under any augmenter (every member's).
            key = (augmenter if copy >= 0 else None, int(keys[i]), int(labels[i]), copy,
                   digests[i], digests[other] if other >= 0 else b"")
            row = memo.get(key)
            if row is None:
                missing.append((len(rows), i, copy))
            rows.append(row)
            wanted.append(key)
    groups = memo.groups
    if missing:
        drawn = np.stack([patches[i] if copy < 0 else
                          draw(patches, labels, keys, i, copy, int(others[i, copy]), frame,
                               augmenter, rngs[i, copy]) for _, i, copy in missing])
        described = describe(lab_patches(drawn), frame, mask, jobs=jobs)
        groups = described.groups
        memo.put([wanted[r] for r, _, _ in missing], described.values, groups)
        for k, (r, _, _) in enumerate(missing):
            rows[r] = described.values[k]
    assert groups is not None  # there is at least one example, so one row was described once
    return (Descriptors(np.stack(rows), groups),  # type: ignore[arg-type]
            np.repeat(labels.astype(np.int64), counts + 1))
