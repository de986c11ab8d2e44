"""The truth document: the foreign bench's format, exact, and scored 100% by its own scorer."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from pipeline.render.styles import SAMPLES, sample_sheet
from pipeline.render.truth import FRACTION, TRACE, truth_document
from tests.needs import missing

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module", params=SAMPLES)
def truth(request):  # type: ignore[no-untyped-def]
    sheet = sample_sheet(request.param, seed=3)
    rendered, scan = sheet.make()
    return sheet, rendered, scan, truth_document(rendered, scan)


@pytest.mark.slow
def test_centres_are_the_captures_exact_transform_of_the_printed_ones(truth):
    _, rendered, scan, doc = truth
    grid = rendered.grid
    for h in grid.hexes()[::7]:
        x, y = grid.center(h)
        u, v = scan.to_scan(np.array([x]), np.array([y]))
        assert doc["centers_px"][grid.id(h)] == [float(u[0]), float(v[0])]
    assert doc["hex_count"] == len(doc["hexes"]) == len(doc["centers_px"])
    json.dumps(doc)  # plain JSON all through


def test_hexes_carry_main_terrain_shares_and_features(truth):
    sheet, rendered, _, doc = truth
    grid = rendered.grid
    for hex_id, entry in doc["hexes"].items():
        h = grid.hex(hex_id)
        assert entry["terrain"] == sheet.data.terrain_of(hex_id)[0]
        shares = rendered.shares[h]
        assert entry["fractions"] == {t: round(v, 6) for t, v in shares.items() if v > FRACTION}
        assert set(entry["fractions_all"]) == {t for t, v in shares.items() if v >= TRACE}
        given = sheet.data.hexes.get(hex_id)
        assert entry.get("features", []) == (sorted(given.features) if given else [])


def test_hexsides_are_those_inside_the_map_with_their_bridges(truth):
    _, rendered, _, doc = truth
    grid = rendered.grid
    inside = {tuple(sorted((grid.id(s.a), grid.id(s.b)))): f for s, f in rendered.hexsides.items()
              if f and grid.contains(s.a) and grid.contains(s.b)}
    listed = {tuple(e["hexes"]): frozenset(e["features"]) for e in doc["hexsides"]}
    assert listed == inside


def test_panels_and_labels_map_onto_the_capture(truth):
    _, rendered, scan, doc = truth
    height, width = scan.image.shape[:2]
    for box in [*doc["key_px"].values(), *doc["panels_px"].values(),
                *(lab["box_px"] for lab in doc["labels"])]:
        x, y, w, h = box
        assert -1 <= x and x + w <= width + 1 and -1 <= y and y + h <= height + 1
    assert len(doc["labels"]) == len(rendered.labels)


def foreign_scorer() -> ModuleType | None:
    env = os.environ.get("BOCAGE_FOREIGN")
    folders = [Path(env)] if env else []
    folders += [p / "shared" / "bench" / "foreign" for p in ROOT.parents]
    for folder in folders:
        if (folder / "score.py").is_file():
            spec = importlib.util.spec_from_file_location("foreign_score", folder / "score.py")
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module
    return None


def test_the_foreign_scorer_reads_our_truth_and_scores_it_perfect(truth):
    scorer = foreign_scorer()
    if scorer is None:
        missing("the foreign bench's score.py (../shared/bench/foreign beside the repository,"
                " or $BOCAGE_FOREIGN)")
    *_, doc = truth
    score = scorer.score(doc, doc)
    assert score["hex_count"]["ids_match"] and score["terrain"]["accuracy"] == 1.0
    assert score["hexsides"]["micro"]["f1"] == 1.0 and score["hexsides"]["invalid_pairs"] == []
    assert score["centres"]["max_px"] == 0.0
