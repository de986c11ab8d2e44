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
"""

from __future__ import annotations

from typing import Literal

import numpy as np

__all__ = ["CALIBRATION", "Kind", "confidence"]

Kind = Literal["along", "across", "mark"]

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
