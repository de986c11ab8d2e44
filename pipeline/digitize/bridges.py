"""Bridges: a mark where a line crossing a hexside meets a line along it, learned from the map.

Maps draw bridges many ways: a solid bar, two brackets either side of the
road, a gap in the river between brackets, brackets with a white casing. So
no shape is assumed. A bridge is looked for only where something crosses the
hexside (a road, a railroad, see :mod:`~pipeline.digitize.crossings`), and
its shape is learned from the map itself:

* the middle of each such crossing is read in the path's frame (across the
  hexside, from a's centre to b's, and beside the path), as how much of the
  bridge's colour each point holds;
* the crossings where a line runs along the hexside too (a river, read over
  the hexside's ends, where no bridge hides it) are the candidates; what they
  add to the crossings without one (the road, the grid line, printed at every
  crossing), the median of the half that add most, is the bridge as this map
  draws it over each kind of crossing line (a bridge spans its road, and
  roads differ in width);
  given an example hexside (``"example": ["0705", "0706"]`` in the legend's
  bridge entry), that hexside's reading is used instead;
* each candidate's reading is projected on that shape: a bridge scores about
  1, a crossing without one about 0. The shape is learned again from the
  candidates that score well, and the candidates scored again.

A bridge is a crossing too: the line that crosses it is recorded with it (see
:mod:`~pipeline.digitize.hexsides`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.colours import INK, to_lab
from pipeline.digitize.legend import Legend
from pipeline.digitize.linereader import LineColours, LineReader
from pipeline.digitize.sidegeometry import SideGeometry

__all__ = ["Bridges", "read_bridges"]

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]
I64 = NDArray[np.int64]
B = NDArray[np.bool_]

_U = np.linspace(0.36, 0.64, 15)  # across the hexside, as shares of the way between centres
_V = np.linspace(-0.2, 0.2, 21)  # beside the path, in hex widths
_INK_LIKE = 15.0  # Lab distance under which a bridge's colour is the ink's
_SCORE = 0.3  # projection on the learned shape from which a candidate is a bridge
_SHAPE_LEAST = 0.2  # strength a learned shape must add somewhere to be one


@dataclass(frozen=True)
class Bridges:
    """Bridges found.

    Attributes
    ----------
    score
        Per hexside and mark feature (``(n, marks)``), the candidate's projection
        on the learned shape (about 1 for a bridge; 0 where none was looked for).
    names
        The mark features.
    """

    score: F64
    names: list[str]

    def found(self, name: str) -> B:
        """Which hexsides have bridge ``name``."""
        out: B = self.score[:, self.names.index(name)] >= _SCORE
        return out


def read_bridges(reader: LineReader, geo: SideGeometry, legend: Legend, marks: list[str],
                 crossing: I64, along: B, examples: dict[str, int] | None = None) -> Bridges:
    """Bridges on the hexsides of ``geo``.

    Parameters
    ----------
    reader, geo, legend
        The pixel reader, the hexsides and the legend.
    marks
        The mark features (bridges) to look for.
    crossing
        Per hexside, which line crosses it (-1 for none).
    along
        Per hexside, whether a line runs along its ends (the river a bridge spans).
    examples
        Mark name -> the index of a hexside that shows one.
    """
    n = len(geo.sides)
    score = np.zeros((n, len(marks)))
    rows = np.nonzero(crossing >= 0)[0]
    if not marks or not len(rows):
        return Bridges(score, marks)
    others = [f for f in legend.features if f not in marks]
    colours = LineColours(legend, [*marks, *others])
    for k, name in enumerate(marks):
        extra = [] if examples is None or name not in examples else [examples[name]]
        pick = np.concatenate([rows, np.array(extra, np.int64)])
        patch = _patches(reader, geo, legend, colours, name, pick)
        example = patch[len(rows):]
        patch = patch[: len(rows)]
        candidate = along[rows]
        score[rows, k] = np.where(candidate, _scores(patch, candidate, example, crossing[rows]),
                                  0.0)
    return Bridges(score, marks)


def _patches(reader: LineReader, geo: SideGeometry, legend: Legend, colours: LineColours,
             name: str, rows: I64) -> F64:
    """How much of ``name``'s colour each point over the middle of hexsides ``rows`` holds."""
    sub = geo.subset(rows)
    read = reader.read(sub.on_path(_U, _V), _U < 0.5, 1, colours, rows=rows)
    own = [i for i, o in enumerate(colours.owners) if o == name]
    lab = to_lab(np.array(legend.features[name].colours, float))
    ink = to_lab(np.array([legend.ink], float))
    if float(np.linalg.norm(lab[:, None] - ink[None], axis=-1).min()) < _INK_LIKE:
        own += [i for i, o in enumerate(colours.owners) if o == INK]
    out: F64 = np.where(np.isin(read.label, own), read.strength, 0.0).astype(np.float64)
    return out


def _scores(patch: F64, candidate: B, example: F64, line: I64) -> F64:
    """Each patch projected on the bridge shape learned from the candidates (or the example).

    The shape is what candidates add to a plain crossing, their median (a few
    candidates may be no bridges: a line along the hexside misread); a bridge
    spans its road, so each crossing line (a road, a railroad) has its own
    shape where it has candidates enough. The shape is then learned again
    from the candidates that fit it.
    """
    if not candidate.any():
        return np.zeros(len(patch))
    plain = patch[~candidate].mean(axis=0) if (~candidate).any() else np.zeros(patch.shape[1:])
    added = patch - plain
    if len(example):
        return _project(added, example.mean(axis=0) - plain)
    score = np.zeros(len(patch))
    common = _seed(added, candidate)
    for k in np.unique(line):
        mine = line == k
        own = candidate & mine
        first = _project(added, _seed(added, own) if own.sum() >= 2 else common)
        good = own & (first >= _SCORE)
        if good.sum() >= 2:
            first = _project(added, np.median(added[good], axis=0))
        score[mine] = first[mine]
    return score


def _seed(added: F64, candidate: B) -> F64:
    """A first bridge shape: the median of the candidates adding the most of its colour.

    The better half of them: where most crossings along a line are bridges
    these are bridges, and where a few are (a road over a ditch is a candidate
    too, when the legend does not say what bridges span) the bridges are
    among them.
    """
    mass = np.clip(added[candidate], 0.0, None).sum(axis=(1, 2))
    top = added[candidate][mass >= np.median(mass)]
    out: F64 = np.median(top, axis=0)
    return out


def _project(added: F64, shape: F64) -> F64:
    """Readings projected on the (positive part of the) shape, 1 for the shape itself."""
    shape = np.clip(shape, 0.0, None)
    if float(shape.max(initial=0.0)) < _SHAPE_LEAST:
        return np.zeros(len(added))
    norm = float((shape * shape).sum())
    out: F64 = (added * shape).sum(axis=(1, 2)) / norm
    return out
