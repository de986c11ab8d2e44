"""Name the colour of a pixel: the nearest legend colour in CIE Lab.

Lab is close to how people see colour differences, so "nearest" means what a
player would say. Besides the legend's terrain and feature colours the
palette knows their blends: the edge of a thin line is neither the line's
colour nor the fill's, and would otherwise be taken for a third colour (a
blurred grid line over a blue sea for a river, a red road's edge over clear
ground for a village). Blends are named after the line (the ink, the road),
so they never vote for a terrain.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray
from scipy.spatial import cKDTree

from pipeline.digitize.legend import RGB, Legend

__all__ = ["INK", "PAPER", "Palette", "to_lab"]

F32 = NDArray[np.float32]
I64 = NDArray[np.int64]

INK = "ink"
PAPER = "paper"
_BLENDS = (0.35, 0.65)  # shares of a thin line in the pixels along its edges


def to_lab(rgb: NDArray[np.floating] | NDArray[np.uint8]) -> F32:
    """Lab of RGB colours given as 0-255 values, shape ``(n, 3)``.

    >>> to_lab(np.array([[255, 255, 255]])).round(1).tolist()
    [[100.0, 0.0, 0.0]]
    """
    x = np.clip(np.asarray(rgb, np.float32) / 255.0, 0, 1).reshape(-1, 1, 3)
    return np.asarray(cv2.cvtColor(x, cv2.COLOR_RGB2Lab).reshape(-1, 3), dtype=np.float32)


@dataclass(frozen=True)
class Palette:
    """Reference colours and what each one means.

    Attributes
    ----------
    names
        Label names: the terrains, then the features, then ``"ink"`` and ``"paper"``.
    terrain_count
        How many of ``names`` are terrains (they come first).
    rgb, lab
        Reference colours, shape ``(m, 3)``.
    owner
        Index into ``names`` of each reference colour.
    """

    names: tuple[str, ...]
    terrain_count: int
    rgb: F32
    lab: F32
    owner: I64

    @classmethod
    def from_legend(cls, legend: Legend) -> Palette:
        """The palette of a legend whose terrains all have colours."""
        t, f = len(legend.terrain), len(legend.features)
        names = (*legend.terrain, *legend.features, INK, PAPER)
        ink, paper = t + f, t + f + 1
        refs: list[tuple[tuple[float, float, float], int]] = []
        for i, n in enumerate(legend.terrain):
            refs += [(_rgb(c), i) for c in legend.terrain[n]]
        lines = [(_rgb(legend.ink), ink)] + [(_rgb(c), t + j)
                                              for j, n in enumerate(legend.features)
                                              for c in legend.features[n].colours]
        refs += lines
        fills = [_rgb(c) for n in legend.terrain for c in legend.terrain[n]]
        paper_lab = to_lab(np.array([legend.paper], np.float32))
        fill_lab = to_lab(np.array(fills, np.float32)) if fills else np.zeros((0, 3), np.float32)
        # Blank paper is its own colour, unless a terrain is printed in (nearly) it.
        if not len(fill_lab) or float(np.min(np.linalg.norm(fill_lab - paper_lab, axis=1))) > 5:
            refs.append((_rgb(legend.paper), paper))
        for line, owner in lines:
            for c in [*fills, _rgb(legend.paper)]:
                refs += [(_blend(line, c, share), owner) for share in _BLENDS]
        rgb = np.array([c for c, _ in refs], np.float32)
        return cls(names, t, rgb, to_lab(rgb), np.array([o for _, o in refs], np.int64))

    def index(self, name: str) -> int:
        """Label index of a name."""
        return self.names.index(name)

    def label(self, rgb: NDArray[np.floating]) -> tuple[I64, F32, I64]:
        """Nearest reference of each colour ``(n, 3)``.

        Returns the label (index into :attr:`names`), the Lab distance, and the
        reference index.
        """
        lab = to_lab(rgb)
        # A k-d tree of the references (scipy's, searched on OpenCV's share of the cores):
        # a few hundred thousand colours against some 160 references in a fifth of the
        # time of the distances to every reference.
        dist, ref = cKDTree(self.lab).query(lab, workers=max(1, cv2.getNumThreads()))
        ref = np.asarray(ref, np.int64)
        return self.owner[ref], np.asarray(dist, np.float32), ref

    def terrain_names(self) -> Sequence[str]:
        """The terrain names, in legend order."""
        return self.names[: self.terrain_count]


def _rgb(c: RGB) -> tuple[float, float, float]:
    return float(c[0]), float(c[1]), float(c[2])


def _blend(a: tuple[float, float, float], b: tuple[float, float, float], t: float
           ) -> tuple[float, float, float]:
    return (a[0] * t + b[0] * (1 - t), a[1] * t + b[1] * (1 - t), a[2] * t + b[2] * (1 - t))
