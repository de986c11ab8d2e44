"""Lengths as counter makers write them."""

from __future__ import annotations

import pytest

from pipeline.counters.measure import MM, PT, format_length, parse_length, parse_offset, pixels
from pipeline.errors import DataError


@pytest.mark.parametrize(("text", "inches"), [
    ("5/8in", 0.625), ("5/8 in", 0.625), ("0.625in", 0.625), ('1/2"', 0.5), ("16mm", 16 * MM),
    ("1.6cm", 16 * MM), ("45pt", 45 * PT), (".5in", 0.5), ("0", 0.0), ("3MM", 3 * MM),
])
def test_parse_length(text, inches):
    assert parse_length(text) == pytest.approx(inches)


@pytest.mark.parametrize("text", ["5/8", "abc", "3 furlongs", "1/0in", "-1mm", ""])
def test_bad_lengths(text):
    with pytest.raises(DataError, match="--size"):
        parse_length(text, "--size")


def test_offsets_and_pixels():
    assert parse_offset("1mm,-2mm") == pytest.approx((MM, -2 * MM))
    assert parse_offset("1pt") == pytest.approx((PT, PT))
    with pytest.raises(DataError):
        parse_offset("1mm,2mm,3mm")
    assert pixels(5 / 8, 300) == 188 and pixels(0.5, 150) == 75
    assert format_length(5 / 8) == "5/8 in" and format_length(3 * MM) == "3 mm"
