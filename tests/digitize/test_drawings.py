"""A new label draws only what is new: the examples' drawings kept between reads, and the
light held while the builder's examples only grow by a few (the studio's label update)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from pipeline.digitize import legend_from_map
from pipeline.digitize.augment import Augmenter, augment, plan
from pipeline.digitize.classify import Teaching, TerrainReader
from pipeline.digitize.drawings import DrawingMemo, described_drawings
from pipeline.digitize.patches import HexFrame
from pipeline.hexgrid import Orientation
from pipeline.model import MapData
from pipeline.render import RenderStyle, printed_colours

FRAME = HexFrame(Orientation.FLAT, 24)


def _patches(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    patches = rng.integers(0, 256, (n, 24, 24, 3), dtype=np.uint8)
    labels = np.arange(n) % 3
    keys = np.arange(n) * 7 + 100
    return patches, labels, keys


def test_a_new_example_moves_only_the_copies_that_pick_it():
    """Consistent hashing: with one more example, an old copy takes another terrain over
    part of it from the same example as before, or from the new one."""
    _, labels, keys = _patches(12)
    augmenter = Augmenter(copies=30, seed=4)
    before = plan(labels[:11], keys[:11], augmenter)
    after = plan(labels, keys, augmenter)
    moved = before != after[:11]
    assert np.all(after[:11][moved] == 11)
    assert 0 < moved.sum() < 0.25 * moved.size  # some copies take the newcomer, most keep
    assert np.all(after[:, :] != np.arange(12)[:, None])  # never an example over itself
    taken = after[after >= 0]
    assert np.all(labels[taken] != np.repeat(labels, 30).reshape(12, 30)[after >= 0])


def test_kept_drawings_are_the_drawings_made_afresh():
    patches, labels, keys = _patches(9)
    augmenter = Augmenter(copies=6, seed=2)
    memo = DrawingMemo()
    described_drawings(patches[:8], labels[:8], keys[:8], FRAME, FRAME.inside, augmenter, memo)
    drawn = memo.drawn
    kept, lab = described_drawings(patches, labels, keys, FRAME, FRAME.inside, augmenter, memo)
    fresh, lab2 = described_drawings(patches, labels, keys, FRAME, FRAME.inside, augmenter)
    assert np.array_equal(kept.values, fresh.values)
    assert np.array_equal(lab, lab2)
    # The new example's own seven rows, and the few old copies that now pick it.
    assert 7 <= memo.drawn - drawn < 7 + 8
    # The same drawings as augment() makes, in its order.
    images, lab3 = augment(patches, labels, FRAME, augmenter, keys)
    assert len(images) == len(fresh.values) and np.array_equal(lab3, lab)


def test_a_changed_patch_is_drawn_again():
    patches, labels, keys = _patches(4)
    augmenter = Augmenter(copies=3)
    memo = DrawingMemo()
    described_drawings(patches, labels, keys, FRAME, FRAME.inside, augmenter, memo)
    drawn = memo.drawn
    brighter = patches.copy()
    brighter[0] = np.minimum(brighter[0].astype(int) + 20, 255).astype(np.uint8)
    described_drawings(brighter, labels, keys, FRAME, FRAME.inside, augmenter, memo)
    assert memo.drawn - drawn >= 4  # example 0 and its three copies at least


def test_the_memo_starts_again_past_its_limit():
    patches, labels, keys = _patches(4)
    memo = DrawingMemo(limit=10)
    out, _ = described_drawings(patches, labels, keys, FRAME, FRAME.inside,
                                Augmenter(copies=3), memo)
    assert len(memo) == 16 or len(memo) <= 10
    again, _ = described_drawings(patches, labels, keys, FRAME, FRAME.inside,
                                  Augmenter(copies=3), memo)
    assert np.array_equal(out.values, again.values)


def test_a_label_keeps_the_light_and_draws_only_its_own(demo_scanned: Any, demo: MapData):
    """On the demo scan: a fourth woods sample measures the light again on the last
    reading, finds it has not moved, and draws a few hundred copies, not thousands; the
    reading is a fresh reader's, bar a handful of hexes. A light that moved (a tolerance
    below zero says every light has) describes the hexes again."""
    legend = legend_from_map(demo, colours=printed_colours(demo, RenderStyle(hex_size=48.0)))
    fit = demo_scanned.result.fit
    grid = fit.grid
    woods = [grid.id(h) for h, t in demo_scanned.result.terrain.items()
             if t.terrain[0] == "woods" and t.confidence >= 0.9][:4]
    reader = TerrainReader(demo_scanned.scan.image, fit, legend)
    reader.read(Teaching(samples={"woods": woods[:3]}))
    assert (reader.light_checks, reader.lights) == (1, 1)
    drawn = reader.drawings.drawn
    held = reader.read(Teaching(samples={"woods": woods}))
    assert reader.light_checks == 2
    assert reader.light_moved <= reader.light_tolerance and reader.lights == 1
    assert 0 < reader.drawings.drawn - drawn < 0.2 * drawn
    fresh = TerrainReader(demo_scanned.scan.image, fit, legend).read(
        Teaching(samples={"woods": woods}))
    same = np.mean([held.terrain[h].terrain[0] == fresh.terrain[h].terrain[0]
                    for h in grid.hexes()])
    assert same >= 0.99, same
    strict = TerrainReader(demo_scanned.scan.image, fit, legend, light_tolerance=-1.0)
    strict.read(Teaching(samples={"woods": woods[:3]}))
    strict.read(Teaching(samples={"woods": woods}))
    assert (strict.light_checks, strict.lights) == (2, 2)


def _toy_map(seed: int = 3) -> tuple[Any, Any, Any]:
    """Sixty hexes of three colours, noisy, with two examples of each: descriptors of every
    hex, the examples and the learner's settings (small, for speed)."""
    from pipeline.digitize.describe import describe
    from pipeline.digitize.learn import Examples, Learner
    from pipeline.digitize.patches import lab_patches

    rng = np.random.default_rng(seed)
    truth = np.arange(60) % 3
    colours = np.array([[200, 190, 150], [60, 120, 50], [90, 90, 200]], np.float64)
    noise = rng.normal(0, 25, (60, 24, 24, 3))
    patches = np.clip(colours[truth][:, None, None, :] + noise, 0, 255).astype(np.uint8)
    hexes = np.array([0, 3, 1, 4, 2, 5])
    examples = Examples(patches[hexes], truth[hexes], hexes)
    return (describe(lab_patches(patches), FRAME, FRAME.inside), examples,
            Learner(trees=12, members=3, copies=4, rounds=1, jobs=2))


def test_a_reading_is_the_same_whether_its_members_are_drawn_first_or_as_they_are_grown():
    """learn_terrain begins each member's forest as that member's drawings arrive (drawn
    lazily, so the forests grow while the next member is drawn); the reading is the one
    made from the same drawings all made first, to the bit."""
    from pipeline.digitize.learn import drawn_examples, drawn_lazily, learn_terrain

    descriptors, examples, learner = _toy_map()
    names = ("clear", "woods", "sea")
    first = learn_terrain(names, descriptors, examples, FRAME, FRAME.inside, learner=learner,
                          drawn=drawn_examples(examples, FRAME, FRAME.inside, learner=learner))
    lazily = learn_terrain(names, descriptors, examples, FRAME, FRAME.inside, learner=learner,
                           drawn=drawn_lazily(examples, FRAME, FRAME.inside, learner=learner))
    assert np.array_equal(first.probability, lazily.probability)
    assert (first.main == np.arange(60) % 3).mean() > 0.9  # and it reads the toy map


def test_a_set_of_drawings_short_of_the_members_is_refused():
    from pipeline.digitize.learn import drawn_examples, learn_terrain

    descriptors, examples, learner = _toy_map()
    two = drawn_examples(examples, FRAME, FRAME.inside, learner=learner)[:2]
    with pytest.raises(ValueError, match="2 sets of examples for 3 members"):
        learn_terrain(("clear", "woods", "sea"), descriptors, examples, FRAME, FRAME.inside,
                      learner=learner, drawn=two)
