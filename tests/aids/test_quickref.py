"""The quick reference aid: lines read from the rules systems' docstrings, with sections."""

from __future__ import annotations

import inspect
import re

import pytest

from pipeline.aids import make_aids
from pipeline.aids.page import pages_pdf
from pipeline.aids.quickref import TOPICS, first_sentence, quickref_lines, quickref_pages
from pipeline.rules.systems import system_for

from .conftest import MAPS, pdf_text


@pytest.mark.parametrize("system", ["fm_omaha", "june44", "cobra"])
def test_every_line_carries_a_section_of_the_system_source(tmp_path, system):
    cls = type(system_for(system))
    source = inspect.getsource(inspect.getmodule(cls))
    lines = quickref_lines(system)
    assert {x.topic for x in lines} == set(TOPICS) - {"Line of sight"}  # 002 only
    path = tmp_path / "quickref.pdf"
    path.write_bytes(pages_pdf(quickref_pages(system, system), "quickref"))
    text = pdf_text(path)
    flat = " ".join(text.split())
    for line in lines:
        assert line.rule.startswith(f"{cls.code} §")
        assert line.sections
        for section in line.sections:
            assert f"§{section}" in source, (line.method, section)
            assert f"§{section}" in text
        doc = inspect.getdoc(getattr(cls, line.method))
        assert doc is not None
        plain = re.sub(r":\w+:`~?([^`]+)`", r"\1", first_sentence(doc)).replace("``", "")
        sentence = " ".join(plain.split())
        assert line.text[1:] in sentence  # the paper says what the code's docstring says
        assert line.text[:40] in flat


def test_fm_omaha_lines():
    lines = {x.method: x for x in quickref_lines("fm_omaha")}
    assert lines["exerts_zoc"].rule == "000 §6.0"
    assert lines["exerts_zoc"].text.startswith("Units marked with a black hexagon exert no ZOC")
    assert lines["stacking"].topic == "Stacking"
    assert lines["stacking"].sections == ["5.3", "11.2.1", "11.2.4"]
    assert lines["supply"].topic == "Supply"


def test_the_tactical_sheet_cites_the_paragraphs_its_code_cites(tmp_path):
    """002 has no section numbers: each line carries the paragraph openings that the
    method's own code cites in its answers, and the sheet is made with the other aids."""
    import pipeline.rules.systems.tactical as tactical

    lines = quickref_lines("tactical")
    assert {x.topic for x in lines} == {"Movement", "Stacking", "Line of sight"}
    constants = {v for v in vars(tactical).values() if isinstance(v, str)}
    for line in lines:
        assert line.rule.startswith("002 §")
        paragraphs = [p.strip().lstrip("§") for p in line.rule[4:].split(";")]
        assert paragraphs and set(paragraphs) <= constants, line.rule
        source = inspect.getsource(getattr(tactical.Tactical, line.method))
        assert all(any(f"self.cite({name}" in source for name, value in vars(tactical).items()
                       if value == p) for p in paragraphs)
    by_method = {x.method: x for x in lines}
    assert "The stacking limit at all times is 4 units per hex" in by_method["stacking"].rule
    assert "LOS is always obstructed by 2 hilltop hex sides" in by_method["los"].rule
    names = {p.name for p in make_aids(MAPS / "tactical", tmp_path, map_dpi=12)}
    assert {"quickref.pdf", "quickref.png"} <= names
    text = " ".join(pdf_text(tmp_path / "quickref.pdf").split())
    assert "Line of sight" in text and "hilltop hex sides" in text and "elevation" in text
