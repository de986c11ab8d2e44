"""The digitizer's confidence bands, and the severity they give a disagreement.

Calibrated on the foreign bench (README, "Reading a map drawn by someone else"): of the
hexes read at 0.9 or more, 100% are right; from 0.7, 98.9%; from 0.5, 94.6%; below, 66%.
A disagreement with a reading is an error where the reading was always right, a warning
where it nearly always is, a check below (one in twenty wrong is too many to call the
typist wrong). Both the hex comparison (:mod:`~pipeline.validate.hexdiff`) and the
hexside one (:mod:`~pipeline.validate.sidediff`) judge by them.

>>> band_severity(0.95, SURE), band_severity(0.8, SURE), band_severity(0.5, SURE)
('error', 'warning', 'check')
>>> at_most("error", "warning"), at_least("check", "warning")
('warning', 'warning')
"""

from __future__ import annotations

from pipeline.validate.findings import Severity

__all__ = ["HALF", "HINTED", "LIKELY", "OPINION", "SUPPORTED", "SURE", "UNLIKELY", "at_least",
           "at_most", "band_severity"]

# From here a disagreement is an error; from LIKELY, a warning (the calibration above).
SURE = 0.9
LIKELY = 0.7
# A typed terrain that covers this share of the hex in the reading is supported by it:
# the typist named one of the hex's two terrains (the key's, the printer's choice).
SUPPORTED = 0.25
# Below SURE a reading is wrong about once in a hundred hexes: on a map of a thousand,
# that is ten alarms on a correct map. Where such a reading still sees the typed terrain
# in the hex (a twentieth of it or more), the typist's word is as likely as the reading's.
HINTED = 0.05
# From here a reading has an opinion of the hex: a typed terrain it sees none of in the
# hex (no share at all) is an alarm. Well below, its main terrain is more often wrong than
# right and the area shares built on it may leave out the hex's true terrain (icons,
# learner seed 0: woods read as forest at 0.29 and as marsh at 0.33, with no woods in
# either's shares). Measured on the eleven bench maps: at 0.4 rather than 0.5 no correct
# map has a false alarm more (learner seeds 0-2), and of 300 terrain slips a map fewer
# are missed (dense 7 -> 5, the foreign photo 4 -> 1, own photo 44 -> 42; the others
# as at 0.5): dense's city typed clear, read 100% city at 0.45, is named. At 0.3 the
# foreign icons map, learner seed 0, raises one (2019).
OPINION = 0.4
# A typed terrain the reading gives less than this chance of being the hex's main terrain
# (its class probabilities, ``probabilities`` of a digitized hex) contradicts it even
# where its area shares see some of it (up to :data:`HALF`). On the eleven bench maps (six
# foreign, five of bocage's own; learner seeds 0-2) no correct map gets a false alarm more
# from 0.02 up to 0.08, and at 0.09 the foreign icons map does (learner seed 1); of 300
# terrain slips a map (learner seed 0), 0.07 names more than 0.02 on the foreign icons
# (266 -> 278), halftone (288 -> 289) and own icons (264 -> 280), the others as many: a
# forest typed on a clear hex the classifier gives forest 6% (icons 2807, read 44% clear /
# 32% woods / 16% forest) is named.
UNLIKELY = 0.07
# A typed terrain the area shares see over half the hex is the reading's own main terrain
# by area: the classifier's odds against it are the reading in two minds, not a verdict
# (foreign photo 1506: hills read 98% by area, clear by the classifier at 0.91, hills
# given 6%).
HALF = 0.5

_ORDER: tuple[Severity, ...] = ("check", "warning", "error")


def band_severity(confidence: float | None, sure: float, likely: float = LIKELY) -> Severity:
    """The severity of a disagreement with a reading of ``confidence``: an error from
    ``sure``, a warning from ``likely``, a check below; an error where the reference gives
    no confidence (a map made by hand is taken at its word)."""
    if confidence is None or confidence >= sure:
        return "error"
    return "warning" if confidence >= likely else "check"


def at_most(severity: Severity, cap: Severity) -> Severity:
    """``severity``, or ``cap`` where it is more serious."""
    return severity if _ORDER.index(severity) <= _ORDER.index(cap) else cap


def at_least(severity: Severity, floor: Severity) -> Severity:
    """``severity``, or ``floor`` where it is less serious."""
    return severity if _ORDER.index(severity) >= _ORDER.index(floor) else floor
