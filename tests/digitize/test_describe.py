"""Hex descriptors: what they say of a patch, and the same numbers on any number of threads."""

from __future__ import annotations

import numpy as np

from pipeline.digitize.describe import GROUPS, Descriptors, describe
from pipeline.digitize.patches import HexFrame, furniture, lab_patches
from pipeline.digitize.shares import cell_descriptors
from pipeline.hexgrid import Orientation
from tests.digitize.test_unlined import bench_patches


def test_flat_fills_differ_in_colour_and_not_in_texture():
    frame = HexFrame(Orientation.FLAT, 32)
    patches = np.zeros((2, 32, 32, 3), np.uint8)
    patches[0], patches[1] = (200, 190, 150), (40, 90, 40)
    d = describe(lab_patches(patches), frame, frame.inside)
    assert tuple(d.groups) == GROUPS
    colour, texture = d.values[:, d.groups["colour"]], d.values[:, d.groups["texture"]]
    assert colour[0, 6] > colour[1, 6] + 30  # the median L*: a pale fill against a dark one
    assert np.allclose(texture, 0.0)  # no gradient in a flat fill


def test_threads_describe_the_same_numbers():
    # A map drawn by others, 704 hexes: three blocks of hexes on two threads.
    patches, frame, *_ = bench_patches("halftone")
    lab = lab_patches(patches)
    mask = frame.inside & ~furniture(lab, frame)
    one = describe(lab, frame, mask)
    two = describe(lab, frame, mask, jobs=2)
    assert one.groups == two.groups and one.values.shape == (len(patches), one.values.shape[1])
    assert np.array_equal(one.values, two.values)
    cells_one, area_one = cell_descriptors(lab, frame, mask)
    cells_two, area_two = cell_descriptors(lab, frame, mask, jobs=2)
    assert np.array_equal(cells_one, cells_two) and np.array_equal(area_one, area_two)
    assert abs(area_one.sum() - 1.0) < 1e-12 and cells_one.shape[:2] == (len(patches), 7)


def test_descriptors_stack_in_order():
    a = Descriptors(np.zeros((2, 3)), {"colour": slice(0, 3)})
    b = Descriptors(np.ones((1, 3)), {"colour": slice(0, 3)})
    stacked = Descriptors.stack([a, b])
    assert stacked.values[:, 0].tolist() == [0.0, 0.0, 1.0] and stacked.groups == a.groups
