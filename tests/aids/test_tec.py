"""The Terrain Effects Chart aid: costs per unit class, hexsides, roads, combat, swatches."""

from __future__ import annotations

import re

from pipeline.aids.page import Rect, pages_pdf, pages_png
from pipeline.aids.tec import format_combat, format_cost, tec_pages
from pipeline.model import load_map, load_rules

from .conftest import MAPS, pdf_text


def _chart(tmp_path, game, paper="letter"):
    rules = load_rules(MAPS / game / "rules.json")
    data = load_map(MAPS / game / "map.json")
    pages = tec_pages(rules, paper, data)
    path = tmp_path / f"{game}-tec.pdf"
    path.write_bytes(pages_pdf(pages, "tec"))
    return rules, data, pages, pdf_text(path)


def _row(text, name):
    m = re.search(rf"^\s*{re.escape(name)}(?: \[\d+\])?\s+(.*)$", text, re.M)
    assert m, name
    return m.group(1).split()


def test_demo_costs_per_unit_class_and_combat_lines(tmp_path):
    _rules, _, _, text = _chart(tmp_path, "demo")
    assert _row(text, "marsh")[:2] == ["2", "4"]
    assert _row(text, "woods")[:3] == ["2", "3", "CRT"]
    assert _row(text, "village")[:3] == ["+1", "+1", "?"]
    assert _row(text, "all_sea")[:3] == ["P", "P", "?"]
    assert _row(text, "road")[:2] == ["0.5", "0.5"]
    assert "defence ×2" in text  # fortification, 000 §8.2.3
    assert "CRT line: Woods, Bridge, Canal, Ditch" in text


def test_null_costs_print_as_question_marks_with_the_note(tmp_path):
    rules, _, _, text = _chart(tmp_path, "cobra", "a4")
    assert _row(text, "dives_river")[:2] == ["?", "P"]
    assert _row(text, "town")[:4] == ["?", "?", "-1", "column"]
    assert _row(text, "bocage")[:4] == ["+0", "+0", "-2", "columns"]
    for name, rule in rules.terrain.items():
        cells = _row(text, name)[:2]
        assert cells == [format_cost(rule.move, c) for c in rules.unit_classes]
    assert "(003_de9c41aeffe9bb98.txt §5.7.4)" in text


def test_swatches_are_the_map_colours(tmp_path):
    _, data, pages, _ = _chart(tmp_path, "demo")
    image = pages_png(pages[:1], dpi=72, gap=0)
    fills = {item.fill: item for item in pages[0].items
             if isinstance(item, Rect) and item.w == 22.0 and item.fill is not None}
    for name in ("woods", "marsh", "all_sea"):
        hexa = data.terrain_types[name].color
        rgb = tuple(int(hexa[i:i + 2], 16) for i in (1, 3, 5))
        rect = fills[rgb]
        assert image.getpixel((round(rect.x + rect.w / 2), round(rect.y + rect.h / 2))) == rgb


def test_format_combat_reads_every_kind_of_effect():
    rules = load_rules(MAPS / "june44" / "rules.json")
    assert format_combat(rules.terrain["city"].combat) == "+3 modifier"
    assert format_combat(rules.terrain["clear"].combat) == "?"
