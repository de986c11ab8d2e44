"""How sure a hexside feature's reading is: its evidence, calibrated on the bench.

Each reading comes with evidence of its own kind:

* a line **along** a hexside (a river, a bar): the share of the places along
  it that show the line (60% at least, or it is not read);
* a line **across** (a road, a railroad): the share of the weaker half's
  places that show it, times how clearly its ties told it from a line of the
  same colour drawn without (1 where no telling was needed);
* a **mark** (a bridge): its projection on the shape the map's bridges have
  (about 1 for a bridge).

Evidence is not a probability: a river seen at 70% of its places on a clean
print is surer than one seen at 90% through a halftone screen. Confidence is
the share of readings with that evidence that were right, measured on the
foreign-style bench (``python bench/foreign.py --side-calibration`` prints how right
the confidences are and the fit): the tables here are those measurements,
made monotone, so that of the readings reported at 0.9 or more, at least 90%
are right on the bench. Validation compares hand-entered hexsides against them.

The reader is asked the other way too: how sure is it that a line it did *not*
read is not there? Its evidence is the line's **trace** on the hexside, the
share of places showing the line's colour (along it, or on the half of the
path that shows most, see :mod:`~pipeline.digitize.crossings`). Nearly every
hexside carries no line, so the share of hexsides without one is near 1 at
any trace, which would tell a typist nothing; the confidence of absence is
the share right *at even odds* instead (:func:`absence`): what a trace says
where a typist's word that the line is there stands against the reading's.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "ABSENCE",
    "CALIBRATION",
    "UNSEEN",
    "Kind",
    "LineKind",
    "absence",
    "absences",
    "confidence",
]

Kind = Literal["along", "across", "mark"]
LineKind = Literal["along", "across"]

# Evidence -> share right on the foreign-style bench (the six maps read on the
# truth's grid; `python bench/foreign.py --side-calibration`), made monotone and rounded
# down; straight in between. Bridges are few (26): their table stays cautious.
CALIBRATION: dict[Kind, tuple[tuple[float, float], ...]] = {
    "along": ((0.6, 0.55), (0.7, 0.6), (0.8, 0.9), (0.9, 0.92), (1.0, 0.99)),
    "across": ((0.45, 0.7), (0.6, 0.75), (0.75, 0.95), (0.9, 0.98), (1.0, 0.99)),
    "mark": ((0.3, 0.6), (0.5, 0.75), (0.7, 0.85), (1.0, 0.95), (1.5, 0.99)),
}


def confidence(kind: Kind, evidence: float) -> float:
    """How sure a reading of ``kind`` with ``evidence`` is (0 to 1), from :data:`CALIBRATION`.

    >>> confidence("along", 1.0), confidence("along", 0.3)
    (0.99, 0.0)
    """
    table = CALIBRATION[kind]
    xs = [x for x, _ in table]
    if evidence < xs[0]:
        return 0.0
    return round(float(np.interp(evidence, xs, [y for _, y in table])), 3)


# Trace -> how sure the reading is that a line is *not* on a hexside, at even odds
# (see :func:`absence`), measured on the foreign-style bench (the six maps read on the
# truth's grid; `python bench/foreign.py --side-calibration`): each bin of traces at its
# upper end, made monotone and rounded down; straight in between. The least trace a
# hexside can leave is two places of ten along it, or of eight on a half of the path:
# the tables step there. No line the reader missed left no trace (none of the 13 to 16
# rivers and roads it missed in the runs measured; none either on the grid found), where
# 19 hexsides in 20 without one do; one more of each bin keeps a bin no miss fell in from
# reading as certain.
ABSENCE: dict[LineKind, tuple[tuple[float, float], ...]] = {
    "along": ((0.0, 0.9), (0.2, 0.02), (0.25, 0.02), (0.5, 0.01), (0.75, 0.0)),
    "across": ((0.0, 0.92), (0.25, 0.28), (0.5, 0.28), (0.75, 0.16), (1.0, 0.02)),
}
#: The confidence of absence where the ground would hide the line: no evidence either way.
UNSEEN = 0.5


def absence(kind: LineKind, trace: float) -> float:
    """How sure the reading is that a line of ``kind`` with ``trace`` is not there.

    ``trace`` is the share of places showing the line's colour where none was
    read: along a hexside, the places along it; across, the places on the
    path's half that shows most (see :mod:`~pipeline.digitize.crossings`); NaN
    where the ground would hide the line (:data:`UNSEEN`). The confidence is
    the share of such readings that were right on the bench *at even odds*:
    of hexsides equally likely to carry the line (a typist's word against the
    reading's), the share without it, from how often hexsides with and without
    the line that the reader did not read left that trace.

    >>> absence("across", 0.0), absence("across", 1.0), absence("across", float("nan"))
    (0.92, 0.02, 0.5)
    """
    return float(absences(kind, np.array([trace]))[0])


def absences(kind: LineKind, traces: NDArray[np.float64]) -> NDArray[np.float64]:
    """:func:`absence` of many traces at once (every hexside's, for one line).

    >>> absences("along", np.array([0.0, 0.25, np.nan])).tolist()
    [0.9, 0.02, 0.5]
    """
    table = ABSENCE[kind]
    # Rounded as Python rounds a float, as :func:`confidence` does.
    out = np.array([round(v, 3) for v in np.interp(traces, [x for x, _ in table],
                                                   [y for _, y in table]).tolist()])
    out[np.isnan(traces)] = UNSEEN  # the ground would hide the line
    return out
