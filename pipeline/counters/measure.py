"""Physical lengths as counter makers write them, and the paper sizes we print on.

Everything inside :mod:`pipeline.counters` measures in inches (the unit counter
sizes are sold in: 1/2", 5/8", 3/4"); people may write millimetres, centimetres
or points, and fractions: ``5/8in``, ``0.625 in``, ``16mm``, ``3mm``, ``45pt``.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Final

from pipeline.errors import DataError

__all__ = [
    "BLEEDS",
    "COUNTER_SIZES",
    "MARGINS",
    "MAX_FACE_PX",
    "MAX_OFFSET",
    "MM",
    "PAPERS",
    "PT",
    "check_length",
    "format_length",
    "parse_length",
    "parse_offset",
    "pixels",
]

MM: Final = 1 / 25.4
"""One millimetre in inches."""
PT: Final = 1 / 72
"""One PostScript point in inches (PDF user space unit)."""

# Units per inch: dividing by these keeps exact values exact (25.4 mm is 1.0 in, not 0.99...).
_PER_INCH: Final = {"in": 1.0, "inch": 1.0, '"': 1.0, "mm": 25.4, "cm": 2.54, "pt": 72.0}
_LENGTH = re.compile(r"\s*([+-]?\d+(?:\.\d*)?(?:/\d+)?|[+-]?\.\d+)\s*([a-z\"]*)\s*", re.I)

# What a counter maker can mean, in inches; anything outside is a slip (a missing
# unit, a pasted number) that would otherwise run out of memory or paper.
COUNTER_SIZES: Final = (0.25, 2.0)
"""The smallest and largest counter side drawn (printed counters are 1/2 to 1 1/8 in)."""
BLEEDS: Final = (0.0, 0.25)
"""Bleed around each counter (printers ask for 1/8 in, 3 mm)."""
MARGINS: Final = (0.0, 2.0)
"""Clear space at each paper edge."""
MAX_OFFSET: Final = 0.25
"""The largest shift of the backs either way (a printer is off by a millimetre or two)."""
MAX_FACE_PX: Final = 2400
"""Pixels on a side of one face, bleed included (1 in at 2400 dpi, 2 in at 1200)."""

PAPERS: Final = {
    "letter": (8.5, 11.0),
    "a4": (210 * MM, 297 * MM),
}
"""Paper name -> (width, height) in inches, portrait."""


def parse_length(text: str, what: str = "length", *, allow_negative: bool = False) -> float:
    """A written length in inches.

    Parameters
    ----------
    text
        A number (a fraction is fine) and a unit: ``in``, ``mm``, ``cm`` or ``pt``.
    what
        The option or key the text came from, for the message.
    allow_negative
        Whether ``-1mm`` is meaningful (offsets) or an error (sizes).

    Examples
    --------
    >>> parse_length("5/8in"), parse_length("25.4 mm"), parse_length("72pt"), parse_length("0")
    (0.625, 1.0, 1.0, 0.0)
    """
    match = _LENGTH.fullmatch(text)
    unit = match.group(2).lower() if match else ""
    if match is not None and not unit and float(Fraction(match.group(1))) == 0:
        return 0.0  # nought needs no unit
    if match is None or unit not in _PER_INCH:
        raise DataError(None, what, f"'{text}' is not a length; write a number and a unit"
                        " such as '5/8in', '16mm', '0.5cm' or '45pt'")
    number = match.group(1)
    try:
        value = float(Fraction(number))
    except ZeroDivisionError:
        raise DataError(None, what, f"'{text}' divides by zero") from None
    if value < 0 and not allow_negative:
        raise DataError(None, what, f"'{text}' is negative")
    return value / _PER_INCH[unit]


def parse_offset(text: str, what: str = "offset") -> tuple[float, float]:
    """An ``x,y`` pair of lengths in inches (one length means the same on both axes).

    >>> parse_offset("0.5mm,-1pt") == (0.5 / 25.4, -1 / 72)
    True
    """
    parts = text.split(",")
    if len(parts) == 1:
        value = parse_length(parts[0], what, allow_negative=True)
        return value, value
    if len(parts) != 2:
        raise DataError(None, what, f"'{text}' is not an offset; write 'x,y' such as '0.5mm,0mm'")
    return (parse_length(parts[0], what, allow_negative=True),
            parse_length(parts[1], what, allow_negative=True))


def check_length(value: float, what: str, limits: tuple[float, float]) -> float:
    """``value`` if it lies within ``limits`` (inches), else one :class:`DataError` line.

    >>> check_length(0.625, "--size", COUNTER_SIZES)
    0.625
    >>> check_length(20.0, "--bleed", BLEEDS)
    Traceback (most recent call last):
    ...
    pipeline.errors.DataError: --bleed: 20 in is out of range (0 in to 1/4 in)
    """
    low, high = limits
    if not low - 1e-9 <= value <= high + 1e-9:
        raise DataError(None, what, f"{format_length(value)} is out of range"
                        f" ({format_length(low)} to {format_length(high)})")
    return value


def pixels(inches: float, dpi: float) -> int:
    """How many whole pixels a length covers at ``dpi`` (at least one).

    >>> pixels(5 / 8, 300), pixels(0.001, 72)
    (188, 1)
    """
    return max(1, int(inches * dpi + 0.5))  # half up: 187.5 px -> 188, not banker's 188/187


def format_length(inches: float) -> str:
    """A length as people read it: common fractions of an inch, else millimetres.

    >>> format_length(0.625), format_length(3 * MM)
    ('5/8 in', '3 mm')
    """
    frac = Fraction(inches).limit_denominator(32)
    if abs(float(frac) - inches) < 1e-9 and frac.denominator in (1, 2, 4, 8, 16, 32):
        return f"{frac} in"
    mm = round(inches / MM, 2)
    return f"{mm:g} mm"
