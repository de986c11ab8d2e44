"""The turn record track aid: a track of boxes, one a turn, each arrival's counter in its box.

Checked on the layout both prints draw (boxes, texts, pictures in points), on the PDF's
text (poppler) and on the PNG's pixels.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from pipeline.aids import make_aids
from pipeline.aids.cite import Rulebook
from pipeline.aids.page import Page, Picture, Rect, Text, pages_pdf, pages_png
from pipeline.aids.track import BOXES_PER_ROW, track_pages, turn_boxes, turn_numbers, unit_label
from pipeline.counters.render import RenderOptions, render_unit
from pipeline.model import load_rules, load_scenario, load_units

from .conftest import MAPS, ROOT, pdf_text

GAMES = [("demo", "scenario.json"), ("omaha", "scenario.json"),
         ("omaha", "scenario_campaign.json"), ("june44", "scenario.json"),
         ("cobra", "scenario.json"), ("cobra", "scenario_cobra.json")]


def _inputs(game, name="scenario.json"):
    scenario = load_scenario(MAPS / game / name)
    units = load_units(ROOT / "counters" / game / "units.csv")
    return scenario, units, Rulebook.of(load_rules(MAPS / game / "rules.json"))


def _boxes(pages: list[Page]) -> list[tuple[int, int, Rect]]:
    """(page, turn, box) for each box of the track, in drawing order: a box is the outlined,
    unfilled rectangle whose header holds the turn number (14 pt bold)."""
    found = []
    for p, page in enumerate(pages):
        frames = [i for i in page.items if isinstance(i, Rect) and i.fill is None
                  and i.stroke is not None and i.width == 0.8]
        numbers = [t for t in page.items if isinstance(t, Text) and t.size == 14]
        for frame in frames:
            inside = [t for t in numbers if frame.x < t.x < frame.x + frame.w
                      and frame.y < t.y < frame.y + 24]
            assert len(inside) == 1, (p, frame)
            found.append((p, int(inside[0].text), frame))
    return found


def _inside(item, box: Rect) -> bool:
    return (box.x <= item.x and item.x + item.w <= box.x + box.w
            and box.y <= item.y and item.y + item.h <= box.y + box.h)


@pytest.mark.parametrize("game, name", GAMES, ids=[f"{g}/{n}" for g, n in GAMES])
def test_the_boxes_are_a_track_in_turn_order(game, name):
    scenario, units, book = _inputs(game, name)
    pages = track_pages(scenario, units, book=book)
    boxes = _boxes(pages)
    assert [turn for _, turn, _ in boxes] == turn_numbers(scenario)
    width = pages[0].width - 2 * 36.0
    rows: dict[tuple[int, float], list[Rect]] = {}
    for page, _, box in boxes:
        assert box.w == pytest.approx(width / BOXES_PER_ROW)
        rows.setdefault((page, box.y), []).append(box)
    for row in rows.values():
        assert len(row) <= BOXES_PER_ROW
        assert len({b.h for b in row}) == 1  # a row's boxes share their height
        for left, right in itertools.pairwise(row):
            assert right.x == pytest.approx(left.x + left.w)  # side by side, left to right
        assert row[0].x == pytest.approx(36.0)
    tops = list(rows)
    assert tops == sorted(tops)  # rows run down the pages
    assert all(len(row) == BOXES_PER_ROW for row in list(rows.values())[:-1])


@pytest.mark.parametrize("game, name", GAMES, ids=[f"{g}/{n}" for g, n in GAMES])
def test_each_arrival_is_its_counter_in_its_turns_box(game, name):
    scenario, units, book = _inputs(game, name)
    pages = track_pages(scenario, units, book=book)
    options = RenderOptions(size=24 / 72, dpi=150.0)
    faces = {}
    for spec in units:
        faces.setdefault(render_unit(spec, options).tobytes(), set()).add(spec.id)
    boxes = _boxes(pages)
    for page, turn, box in boxes:
        pictures = [i for i in pages[page].items if isinstance(i, Picture) and _inside(i, box)]
        drawn = [faces.get(p.image.tobytes(), {"?"}) for p in pictures]
        arriving = [r.unit for r in scenario.reinforcements if r.turn == turn]
        known = [u for u in arriving if units.get(u) is not None]
        assert len(drawn) == len(known), turn
        for ids, unit in zip(drawn, known, strict=True):
            assert unit in ids, (turn, unit)
        # The mark under each counter: 7 pt below it, on the rows of counters (36 pt apart).
        marks = [t.text for t in pages[page].items if isinstance(t, Text) and t.size == 6
                 and box.x < t.x < box.x + box.w and box.y + 24 < t.y < box.y + box.h
                 and round(t.y - box.y - 24 - 31, 6) % 36 == 0]
        for extra, mark in zip([r for r in scenario.reinforcements if r.turn == turn], marks,
                               strict=True):
            if extra.hex is not None:
                assert mark == extra.hex
            elif extra.edge is not None:
                assert mark == f"{extra.edge[0].upper()} edge"
            else:
                assert mark.startswith("[") and mark.endswith("]")
    every = [i for page in pages for i in page.items if isinstance(i, Picture)]
    assert len(every) == sum(units.get(r.unit) is not None for r in scenario.reinforcements)


def test_the_png_shows_the_counters_in_their_boxes_and_white_empty_boxes():
    scenario, units, book = _inputs("demo")
    pages = track_pages(scenario, units, book=book)
    dpi = 100.0
    image = np.asarray(pages_png(pages, dpi)).astype(float)
    s = dpi / 72
    pictures = [i for i in pages[0].items if isinstance(i, Picture)]
    assert len(pictures) == 7
    for picture in pictures:
        box = (round(picture.x * s), round(picture.y * s), round((picture.x + picture.w) * s),
               round((picture.y + picture.h) * s))
        drawn = image[box[1]:box[3], box[0]:box[2]]
        face = picture.image.convert("RGB").resize((drawn.shape[1], drawn.shape[0]))
        assert np.abs(drawn - np.asarray(face, float)).mean() < 12
    boxes = {turn: box for _, turn, box in _boxes(pages)}
    empty = boxes[9]  # no arrival, no note
    inner = image[round((empty.y + 26) * s):round((empty.y + empty.h - 3) * s),
                  round((empty.x + 3) * s):round((empty.x + empty.w - 3) * s)]
    assert inner.min() == 255


def test_notes_are_numbered_under_the_track_and_marked_in_their_box(tmp_path):
    scenario, units, book = _inputs("demo")
    pages = track_pages(scenario, units, book=book)
    path = tmp_path / "track.pdf"
    path.write_bytes(pages_pdf(pages, "track"))
    flat = " ".join(pdf_text(path).split())
    numbered = [b for b in turn_boxes(scenario, units) if b.notes]
    assert [b.turn for b in numbered] == [1, 2, 3, 17]
    for n, box in enumerate(numbered, 1):
        assert f"[{n}] GT {box.turn}: " in flat
        texts = [t for _, turn, frame in _boxes(pages) if turn == box.turn
                 for t in pages[0].items if isinstance(t, Text) and t.text == f"[{n}]"
                 and frame.x < t.x <= frame.x + frame.w and frame.y < t.y < frame.y + 24]
        assert texts, box.turn  # the number in the box's header
    assert "[4] GT 17: last turn: victory is checked (D-Day Omaha Beach §13.0)" in flat
    # The arrivals' own notes, one line for the units sharing one, with their citation.
    assert ("9/2 Infantry Regiment, 23/2 Infantry Regiment, 38/2 Infantry Regiment: any beach"
            " landing hex with a beachhead marker, at the end of the Allied Movement Phase"
            " (D-Day Omaha Beach §11.2.4)") in flat
    assert "Source: D-Day Omaha Beach §10.2, §11.0-§11.2" in flat
    assert "000_3d79f68a6e3e33eb.txt" not in flat and "000 §" not in flat


def test_without_a_manifest_arrivals_are_chips_with_their_ids():
    scenario = load_scenario(MAPS / "demo" / "scenario.json")
    pages = track_pages(scenario)
    assert not [i for i in pages[0].items if isinstance(i, Picture)]
    texts = pages[0].texts()
    for extra in scenario.reinforcements:
        assert extra.unit in texts
    assert "000_3d79f68a6e3e33eb.txt §10.2, §11.0-§11.2" in " ".join(texts)  # no book given


def test_unit_labels():
    units = load_units(ROOT / "counters" / "demo" / "units.csv")
    assert unit_label("Sch/30", units) == "Sch/30 Infantry Regiment"
    assert unit_label("914/352", units) == "914/352 914 Infantry Regiment"
    assert unit_label("nobody", units) == "nobody"


def test_dates_print(tmp_path):
    scenario = load_scenario(MAPS / "june44" / "scenario.json")
    path = tmp_path / "track.pdf"
    path.write_bytes(pages_pdf(track_pages(scenario), "track"))
    text = pdf_text(path)
    dated = [box for box in scenario.turns if box.date]
    assert dated
    for box in dated:
        assert box.date in text


def test_make_aids_writes_a_track_per_scenario(tmp_path):
    names = {p.name for p in make_aids(MAPS / "omaha", tmp_path, map_dpi=12)}
    assert {"track.pdf", "track.png", "track-campaign.pdf", "track-campaign.png"} <= names
    assert "Turn Record Track" in pdf_text(tmp_path / "track-campaign.pdf")
