"""Terrain per hex: learnt from the builder's examples on this map, with shares and confidence.

Every hex is resampled into a patch in its own frame (:mod:`~pipeline.digitize.patches`),
described (:mod:`~pipeline.digitize.describe`) and read by a learner taught from examples
(:mod:`~pipeline.digitize.learn`). The examples come from what the builder gives
(:class:`Teaching`):

* sample hexes (``--sample woods=0412,0415``);
* swatches of the printed terrain key, as pixel boxes (``--key woods=x,y,w,h``);
* the hexes marked checked in a corrected map of the same scan;
* for a terrain given only by its printed colour in the legend, the hexes that colour
  names surely (:mod:`~pipeline.digitize.vote`).

A terrain that has neither examples nor a colour is an error naming it; a terrain found
in no hex, or in nearly every hex, is a warning.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

import cv2
import numpy as np
from numpy.typing import NDArray

from pipeline.digitize.augment import light_spread
from pipeline.digitize.describe import Descriptors, describe
from pipeline.digitize.drawings import DrawingMemo
from pipeline.digitize.gridfit import GridFit, hex_units
from pipeline.digitize.learn import (
    Examples,
    Learner,
    Reading,
    drawn_lazily,
    learn_terrain,
    suggest,
)
from pipeline.digitize.legend import RGB, Legend
from pipeline.digitize.light import Light, fit_light
from pipeline.digitize.patches import (
    HexFrame,
    furniture,
    hex_patches,
    image_scale,
    lab_patches,
    reduce,
)
from pipeline.digitize.shares import area_shares, cell_descriptors
from pipeline.digitize.unlined import paint_out_lines
from pipeline.digitize.vote import Votes, paper_samples, vote_terrain
from pipeline.errors import DataError, did_you_mean
from pipeline.hexgrid import Hex
from pipeline.workers import begun, map_blocks, threads_for

__all__ = [
    "SECONDARY",
    "Box",
    "Classification",
    "HexTerrain",
    "Teaching",
    "TerrainReader",
    "check_box",
    "classify_hexes",
    "learned_legend",
]

F64 = NDArray[np.float64]
I64 = NDArray[np.int64]
U8 = NDArray[np.uint8]
Box = tuple[float, float, float, float]
Warn = Callable[[str], None]

SECONDARY = 0.06  # share of a hex at which a second terrain is reported
_VOTED_SURE = 0.5  # a legend colour's reading from which a hex is an example
_VOTED_MAX = 40  # examples taken per terrain from the legend colours
_EVERYWHERE = 0.97  # share of hexes beyond which a terrain is "nearly every hex"
_LIGHT_SURE = 0.7  # a hex read at least this surely tells the light where it is
_LIGHT_REACH = 1.5  # the light is smoothed over about this many hex widths
_BLOCK = 256  # hexes lit and described at a time
_LIGHT_BLOCK = 256  # hexes whose light is smoothed at a time
_PAPER_LIGHT = 25.0  # L* from which a sample outside the grid may be paper
_PAPER_CHROMA = 25.0  # and at most this far from grey


@dataclass(frozen=True)
class HexTerrain:
    """What one hex shows.

    Attributes
    ----------
    terrain
        The main terrain first, then any other covering at least 6% of it.
    fractions
        Share of the hex per terrain (those above 1%).
    confidence
        How sure the main terrain is (0 a guess, 1 certain).
    colour
        The hex's typical colour, light corrected (RGB 0-255): the background hexside
        lines are read against.
    probabilities
        Each terrain's probability of being the hex's main terrain (those of 1% or more),
        as the classifier gives it: ``confidence`` is the main terrain's. None for a hex
        taken as an example (its terrain is the example's word). A typed terrain the
        reading gives almost no chance contradicts it even where it covers part of the hex
        (:mod:`pipeline.validate.diff`).
    """

    terrain: tuple[str, ...]
    fractions: dict[str, float]
    confidence: float
    colour: tuple[float, float, float]
    probabilities: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Teaching:
    """What the builder shows the digitizer of each terrain on this scan.

    Attributes
    ----------
    samples
        Terrain -> printed ids of hexes that show it (``--sample woods=0412``).
    key
        Terrain -> pixel boxes ``(x, y, width, height)`` of its swatch in the printed key.
    checked
        Printed hex id -> terrain, from a corrected map of the same scan.
    """

    samples: Mapping[str, Sequence[str]] = field(default_factory=dict)
    key: Mapping[str, Sequence[Box]] = field(default_factory=dict)
    checked: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Classification:
    """A reading of every hex, and what it was read from.

    Attributes
    ----------
    terrain
        Hex -> what it shows.
    light
        The light the colours were corrected for.
    reading
        The learner's probabilities, in ``hexes`` order.
    hexes
        The map's hexes, in the order of ``reading``.
    """

    terrain: dict[Hex, HexTerrain]
    light: Light
    reading: Reading
    hexes: list[Hex]

    def suggest(self, count: int, exclude: Sequence[Hex] = ()) -> list[Hex]:
        """The ``count`` hexes whose label would help the reading most (:func:`suggest`)."""
        index = {h: i for i, h in enumerate(self.hexes)}
        whole = np.array([max(self.terrain[h].fractions.values(), default=1.0)
                          for h in self.hexes])
        picked = suggest(self.reading, count, [index[h] for h in exclude if h in index],
                         whole)
        return [self.hexes[i] for i in picked]


class TerrainReader:
    """A scan's hexes prepared once, read again for each set of examples.

    Preparing (resampling every hex, describing it, reading the legend's colours, finding
    the paper) is most of the work; :meth:`read` then learns from the examples and reads
    every hex, which is what a new label asks for.

    Parameters
    ----------
    image
        The scan (RGB).
    fit
        The grid on it.
    legend
        The terrain names (and printed colours, where known) and feature colours.
    learner
        The learner's settings.
    source
        The scan's name, for messages.
    light_tolerance
        The light is measured again at each read, on the last read's reading; one that
        moved less than this (in log gain, anywhere on the map) is kept, and so is what
        was described and drawn under it.
    """

    def __init__(self, image: U8, fit: GridFit, legend: Legend, *,
                 learner: Learner = Learner(), source: str | None = None,
                 light_tolerance: float = 0.01) -> None:
        self.image, self.fit, self.legend = image, fit, legend
        self.learner, self.source = learner, source
        # Where the legend prints every terrain's colour, every read starts from the colour
        # votes, which read the scan alone: begun now, on a core that cutting out and
        # painting the hexes below leaves idle.
        self._votes_soon = (begun(vote_terrain, image, fit, legend)
                            if not legend.unsampled() else None)
        self.names = tuple(legend.terrain)
        self.hexes = fit.grid.hexes()
        self.frame = HexFrame(fit.grid.orientation)
        self.reduced = reduce(image, image_scale(fit, self.frame.size))
        # The hexes as printed, for the area each terrain covers (a road's strip is the
        # ground it is drawn over there), and with the roads and railways painted out,
        # for what the learner sees: a line across a hex is not its terrain.
        self.jobs = threads_for(learner.jobs)
        self.plain = hex_patches(image, fit, self.hexes, self.frame, self.reduced)
        lab = lab_patches(self.plain)
        self.patches = paint_out_lines(self.plain, self.frame, _stroke_colours(legend),
                                       _inks(legend), jobs=self.jobs, lab=lab)
        # Only the hexes a line was painted out of look different in Lab now.
        self.painted = (self.patches != self.plain).any(axis=(1, 2, 3))
        painted = np.nonzero(self.painted)[0]
        lab[painted] = lab_patches(self.patches[painted])
        self.mask = frame_mask = self.frame.inside & ~furniture(lab, self.frame)
        self.colours = _typical_colours(self.patches, frame_mask)
        self.centres = fit.centres(self.hexes)
        self.paper = _paper(image, fit)
        self.lines = {"across": _line_colours(legend, "across"),
                      "along": _line_colours(legend, "along")}
        self._votes: tuple[Votes, Light] | None = None
        self._lit: _Lit | None = None
        self.light_tolerance = light_tolerance
        self._last: Reading | None = None  # the last read's reading
        self.light_checks = 0  # times the light was measured (every read)
        self.lights = 0  # lights read under (a light measured again may be kept)
        self.light_moved = 0.0  # how far the light last measured again had moved
        self.drawings = DrawingMemo()

    @cached_property
    def descriptors(self) -> Descriptors:
        """The hexes described as the scan shows them, for a first reading of the light."""
        return describe(lab_patches(self.patches), self.frame, self.mask, jobs=self.jobs)

    def read(self, teaching: Teaching | None = None, *, warn: Warn | None = None
             ) -> Classification:
        """Learn from the examples and read every hex.

        ``warn`` is told each warning (a terrain found nowhere or everywhere), one line each.
        The light is measured again on the last read's reading and kept if it moved less
        than ``light_tolerance`` (:class:`_Lit`): a label in the studio does not draw every
        example again.
        """
        teaching = teaching or Teaching()
        given = _given(self, teaching)
        voted, light, votes = self._voted(given)
        examples = Examples.join([given, voted])
        gains, kept = self._light(examples)
        examples = replace(examples, patches=_divide(examples.patches,
                                                     gains[_nearest(examples)]))
        spread = kept.spread if kept else light_spread(examples.patches, examples.labels,
                                                       self.mask)
        # The hexes are described, then the examples drawn: drawing is mostly Python and
        # holds the interpreter, so describing on other threads meanwhile only made both
        # wait for it (no faster on two cores, measured); the forests, which let go of
        # it, grow while the next member's examples are drawn (``learn_terrain``).
        kept = kept or _Lit(gains, *self._lit_by(gains), spread)
        drawn = self._drawn(examples, self.learner, spread)
        lit = self._lit = kept
        reading = learn_terrain(self.names, lit.descriptors, examples, self.frame, self.mask,
                                learner=self.learner, drawn=drawn)
        self._last = reading
        shares = area_shares(*lit.cells, reading)
        if votes is not None and not self.legend.unsampled():
            shares = _with_printed_shares(shares, votes.share, self.legend)
        if light is None:
            light = _interior_light(self.fit, self.hexes, self.colours, reading,
                                    self.image.shape[1], self.image.shape[0])
        gain = light.gain(self.centres[:, 0], self.centres[:, 1])
        terrain = _results(self.hexes, reading, shares, self.colours / gain,
                           examples.hexes[examples.hexes >= 0])
        _warn_extremes(self.names, terrain, warn, self.legend.source)
        return Classification(terrain, light, reading, self.hexes)

    def _light(self, examples: Examples) -> tuple[F64, _Lit | None]:
        """Each hex's light to read under, and the last read's :class:`_Lit` if it still holds.

        The light is measured on a first, quick reading (the colour votes, where the legend
        prints every terrain's colour), then on the last read's reading, and kept if it
        moved less than ``light_tolerance``.
        """
        lit = self._lit
        self.light_checks += 1
        if lit is None or self._last is None:
            return self._first_gains(examples), None
        # What the last read found is a better reading to measure the light on than a first,
        # quick one; where the light has not moved, what was drawn under it still holds.
        gains = _hex_gains(self.colours, self.centres, self._last.main,
                           self._last.confidence, self.fit.hex_width, self.paper, self.jobs)
        self.light_moved = float(np.abs(np.log(gains / lit.gains)).max())
        if self.light_moved <= self.light_tolerance:
            return lit.gains, lit
        return gains, None

    def _first_gains(self, examples: Examples) -> F64:
        """Each hex's light, from a first reading of the hexes as the scan shows them."""
        if not self.legend.unsampled():
            # Every terrain's printed colour is known: the colour votes are that reading
            # (each hex named by the colour most of its pixels show), with no learner.
            votes, _ = self._vote()
            return _hex_gains(self.colours, self.centres, votes.main, votes.confidence,
                              self.fit.hex_width, self.paper, self.jobs)
        # The first reading only measures each hex's light: one member and no
        # self-training see enough for that, at a third of the work.
        first = replace(self.learner, rounds=0, members=1)
        descriptors, drawn = self.descriptors, self._drawn(examples, first)
        reading = learn_terrain(self.names, descriptors, examples, self.frame, self.mask,
                                learner=first, drawn=drawn)
        return _hex_gains(self.colours, self.centres, reading.main, reading.confidence,
                          self.fit.hex_width, self.paper, self.jobs)

    def _drawn(self, examples: Examples, learner: Learner,
               spread: tuple[float, float, float] | None = None
               ) -> Iterator[tuple[Descriptors, I64]]:
        """The examples drawn again for each member of ``learner``, described, a member's
        set as it is asked for (the forests of the members before grow meanwhile)."""
        return drawn_lazily(examples, self.frame, self.mask, across=self.lines["across"],
                            along=self.lines["along"], learner=learner, spread=spread,
                            memo=self.drawings)

    def _vote(self) -> tuple[Votes, Light]:
        """The hexes read by the legend's printed colours (once a scan), and the light."""
        if self._votes is None:
            self._votes = (self._votes_soon.result() if self._votes_soon is not None
                           else vote_terrain(self.image, self.fit, self.legend))
        return self._votes

    def _lit_by(self, gains: F64) -> tuple[Descriptors, tuple[F64, F64]]:
        """The hexes described, and cut into cells, with each hex's light taken out: the
        shadow, the glare, the yellowing."""

        def block(s: slice) -> tuple[Descriptors, tuple[F64, F64]]:
            lab = lab_patches(_divide(self.patches[s], gains[s]))
            # The hexes as printed differ from those painted only where a line was
            # painted out: only those are lit and converted again.
            plain = lab.copy()
            again = np.nonzero(self.painted[s])[0]
            plain[again] = lab_patches(_divide(self.plain[s][again], gains[s][again]))
            return (describe(lab, self.frame, self.mask),
                    cell_descriptors(plain, self.frame, self.mask))

        # A block of hexes lit, described and cut into cells at a time, on every thread.
        parts = map_blocks(block, len(self.patches), _BLOCK, jobs=self.jobs)
        self.lights += 1
        return (Descriptors.stack([d for d, _ in parts]),
                (np.concatenate([c for _, (c, _) in parts]), parts[0][1][1]))

    def _voted(self, given: Examples) -> tuple[Examples, Light | None, Votes | None]:
        """Examples from the legend's printed colours, for terrains the builder did not show."""
        names, legend = self.names, self.legend
        shown = set(given.labels.tolist())
        missing = [n for n in legend.unsampled() if names.index(n) not in shown]
        if missing:
            n = missing[0]
            raise DataError(legend.source, f"terrain.{n}", "no colour and no example: give its"
                            f" colour in the legend, or show it (--sample {n}=HEX or --key"
                            f" {n}=X,Y,W,H)")
        wanted = [i for i, n in enumerate(names) if i not in shown]
        if not wanted:
            return Examples(np.zeros((0,) + self.patches.shape[1:], np.uint8),
                            np.zeros(0, np.int64), np.zeros(0, np.int64)), None, None
        votes, light = self._vote()
        taken: list[int] = []
        labels: list[int] = []
        for i in wanted:
            these = np.nonzero((votes.main == i) & (votes.confidence >= _VOTED_SURE))[0]
            these = these[np.argsort(-votes.confidence[these], kind="stable")][:_VOTED_MAX]
            taken += these.tolist()
            labels += [i] * len(these)
        return (Examples(self.patches[taken], np.array(labels, np.int64),
                         np.array(taken, np.int64)), light, votes)


@dataclass(frozen=True)
class _Lit:
    """A light measured on the map, and the hexes described with it taken out.

    The light comes from a reading (each hex against its terrain's typical colour): a
    first, quick one, then each read's for the next. Where it has not moved (a label
    changes few hexes' readings), the hexes described under it and the drawings of the
    examples (:mod:`~pipeline.digitize.drawings`, known by their patches) are used again.
    """

    gains: F64
    descriptors: Descriptors
    cells: tuple[F64, F64]
    spread: tuple[float, float, float]


def classify_hexes(image: U8, fit: GridFit, legend: Legend, teaching: Teaching | None = None,
                   *, learner: Learner = Learner(), source: str | None = None,
                   warn: Warn | None = None) -> Classification:
    """Terrain of every hex of the fitted grid, learnt from the examples.

    One :class:`TerrainReader` prepared and read once; see there for the parameters.
    """
    return TerrainReader(image, fit, legend, learner=learner, source=source).read(
        teaching, warn=warn)


def _given(reader: TerrainReader, teaching: Teaching) -> Examples:
    """The builder's own examples as labelled patches."""
    grid, names, legend, source = reader.fit.grid, reader.names, reader.legend, reader.source
    index = {h: i for i, h in enumerate(reader.hexes)}
    rows: list[tuple[int, int]] = []  # (hex index, label)
    for terrain, ids in teaching.samples.items():
        label = _label(names, terrain, "--sample", legend.source)
        for hex_id in ids:
            if not grid.has_id(hex_id):
                raise DataError(source, "--sample", f"hex '{hex_id}' is not on the map"
                                f" ({grid.describe_extent()}): --sample {terrain}={hex_id}")
            rows.append((index[grid.hex(hex_id)], label))
    for hex_id, terrain in teaching.checked.items():
        if grid.has_id(hex_id):
            rows.append((index[grid.hex(hex_id)], _label(names, terrain, "checked",
                                                         legend.source)))
    keyed = [(box, _label(names, terrain, "--key", legend.source))
             for terrain, boxes in teaching.key.items() for box in boxes]
    own = Examples(reader.patches[[i for i, _ in rows]],
                   np.array([c for _, c in rows], np.int64),
                   np.array([i for i, _ in rows], np.int64))
    if not keyed:
        return own
    swatches = np.stack([_swatch(reader, box) for box, _ in keyed])
    key = Examples(swatches, np.array([c for _, c in keyed], np.int64),
                   np.full(len(keyed), -1, np.int64))
    return Examples.join([own, key])


def _label(names: tuple[str, ...], terrain: str, where: str, legend: str | None) -> int:
    if terrain not in names:
        raise DataError(legend, f"terrain.{terrain}", f"{where} names terrain '{terrain}', which"
                        f" the legend does not have{did_you_mean(terrain, names)}")
    return names.index(terrain)


def check_box(box: Box, size: tuple[int, int], source: str | None) -> None:
    """Refuse a key box ``(x, y, w, h)`` not inside an image of ``size`` (width, height).

    >>> check_box((10, 10, 50, 40), (100, 100), "scan.png")
    >>> check_box((80, 10, 50, 40), (100, 100), "scan.png")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pipeline.errors.DataError: scan.png: --key: the box 80,10,50,40 is not inside the image ...
    """
    x, y, w, h = box
    width, height = size
    if w <= 0 or h <= 0 or x < 0 or y < 0 or x + w > width or y + h > height:
        raise DataError(source, "--key", f"the box {x:g},{y:g},{w:g},{h:g} is not inside"
                        f" the image ({width} x {height} px)")


def _swatch(reader: TerrainReader, box: Box) -> U8:
    """A key swatch resampled into the hex frame, at the map's own hex scale."""
    fit, frame = reader.fit, reader.frame
    height, width = reader.image.shape[:2]
    check_box(box, (width, height), reader.source)
    x, y, w, h = box
    centre = np.array([x + w / 2, y + h / 2])
    uv = np.linalg.lstsq(fit.jacobian((0.0, 0.0)), centre - fit.to_pixel(np.zeros((1, 2)))[0],
                         rcond=None)[0]
    jac = fit.jacobian((float(uv[0]), float(uv[1])))
    offsets = frame.pitch_offsets() @ jac.T  # pixels from the swatch's centre
    small, f = reader.reduced
    xy = (centre + offsets) * f + (f - 1) / 2
    mx = xy[:, 0].astype(np.float32).reshape(frame.size, frame.size)
    my = xy[:, 1].astype(np.float32).reshape(frame.size, frame.size)
    out: U8 = np.asarray(cv2.remap(small, mx, my, cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE), np.uint8)
    return out


def _line_colours(legend: Legend, kind: str) -> tuple[RGB, ...]:
    """The ink's colour and the colours of the legend's features of one kind."""
    out = list(_inks(legend))
    for feature in legend.features.values():
        if feature.kind == kind and feature.shape == "line":
            out += list(feature.colours)
    return tuple(dict.fromkeys(out))


def _inks(legend: Legend) -> tuple[RGB, ...]:
    """The legend's ink and printer's black: the grid's, the ids' and the icons' colours."""
    return (legend.ink, (20, 20, 20))


def _stroke_colours(legend: Legend) -> tuple[RGB, ...]:
    """The colours of the legend's lines across hexes (roads, railways), casings included."""
    out: list[RGB] = []
    for feature in legend.features.values():
        if feature.kind == "across" and feature.shape == "line":
            out += list(feature.colours) + list(feature.casing)
    return tuple(dict.fromkeys(out))


def _paper(image: U8, fit: GridFit) -> tuple[F64, F64]:
    """Blank paper just outside the grid, where there is some: positions and colours.

    Only samples that look like paper (light and nearly grey) count: a dark frame around a
    map printed edge to edge, or the table a sheet lies on, is not paper.
    """
    px, py, colours = paper_samples(image, fit, darker=True)
    if not len(px):
        return np.zeros((0, 2)), np.zeros((0, 3))
    lab = lab_patches(np.clip(colours, 0, 255).astype(np.uint8).reshape(-1, 1, 1, 3))
    lab = lab.reshape(-1, 3)
    light = (lab[:, 0] >= _PAPER_LIGHT) & (np.hypot(lab[:, 1], lab[:, 2]) <= _PAPER_CHROMA)
    return np.stack([px, py], axis=-1)[light], colours[light]


def _hex_gains(colours: F64, centres: F64, main: I64, conf: F64, hex_width: float,
               paper: tuple[F64, F64], jobs: int = 1) -> F64:
    """Each hex's light, ``(n, 3)``: how its surely read neighbours differ from their terrain.

    A hex read surely is compared with the typical colour of its terrain (over the whole
    map), and blank paper just outside the grid with the paper's typical colour; the ratios,
    smoothed over a few hexes around each hex (in log), are the light falling there.
    Terrains are compared only with themselves, so a wood next to a field changes nothing;
    a shadow, a glare or a yellowed corner does.
    """
    sure = conf >= _LIGHT_SURE
    n = len(colours)
    paper_xy, paper_rgb = paper
    if sure.sum() < 8:
        return np.ones((n, 3))
    typical = np.zeros_like(colours)
    for c in np.unique(main[sure]):
        these = sure & (main == c)
        typical[these] = np.median(colours[these], axis=0)
    observed = np.vstack([colours[sure], paper_rgb])
    expected = np.vstack([typical[sure], np.broadcast_to(
        np.median(paper_rgb, axis=0) if len(paper_rgb) else np.ones(3), paper_rgb.shape)])
    where = np.vstack([centres[sure], paper_xy])
    logs = np.log(np.maximum(observed, 1.0) / np.maximum(expected, 1.0))
    logs = np.clip(logs, -1.6, 1.6)
    scale = 2 * (_LIGHT_REACH * hex_width) ** 2

    def smoothed(s: slice) -> F64:
        block = centres[s]
        d2 = ((block[:, None, 0] - where[None, :, 0]) ** 2
              + (block[:, None, 1] - where[None, :, 1]) ** 2)
        w = np.exp(-d2 / scale)
        part: F64 = (w @ logs) / np.maximum(w.sum(axis=1), 1e-9)[:, None]
        return part

    # A few hundred hexes at a time (on ``jobs`` threads): the weights of every hex against
    # every sample are tens of megabytes on a large map, which cost more to ask for than
    # to compute. Every sample counts, however far: the reading follows the light to the
    # last rounding (a light left out beyond four spreads moved a few hexes of the foreign
    # photo map).
    out: F64 = np.exp(np.concatenate(map_blocks(smoothed, n, _LIGHT_BLOCK, jobs=jobs)))
    return out


def _divide(patches: U8, gains: F64) -> U8:
    inverse = (1.0 / gains).astype(np.float32)[:, None, None, :]
    out: U8 = np.clip(patches * inverse, 0, 255).astype(np.uint8)
    return out


def _nearest(examples: Examples) -> I64:
    """The map hex of each example (for a key swatch, hex 0: the key is not on the map)."""
    out: I64 = np.where(examples.hexes >= 0, examples.hexes, 0)
    return out


def _typical_colours(patches: U8, mask: NDArray[np.bool_]) -> F64:
    # The bytes themselves: the median of two middle bytes is their mean in floats anyway.
    out: F64 = np.median(patches[:, mask, :], axis=1)
    return out


def _interior_light(fit: GridFit, hexes: list[Hex], colours: F64, reading: Reading, width: int,
                    height: int) -> Light:
    """The light from the hexes themselves: each sure hex against its terrain's typical colour.

    No paper outside the map is needed, so maps printed edge to edge, in a dark frame or
    photographed on a table are lit right.
    """
    main, conf = reading.main, reading.confidence
    sure = conf >= 0.8
    if sure.sum() < 8:
        return Light.flat(width, height)
    reference = np.zeros_like(colours)
    for c in np.unique(main[sure]):
        these = sure & (main == c)
        reference[these] = np.median(colours[these], axis=0)
    xy = fit.to_pixel(hex_units(hexes, fit.grid.orientation))
    return fit_light(xy[sure, 0], xy[sure, 1], colours[sure], reference[sure], width, height)


def _warn_extremes(names: Sequence[str], terrain: Mapping[Hex, HexTerrain], warn: Warn | None,
                   legend: str | None) -> None:
    """Warn of a terrain found in no hex (not even as a share), or as nearly every hex's."""
    if warn is None:
        return
    main = Counter(t.terrain[0] for t in terrain.values())
    anywhere = Counter(n for t in terrain.values() for n in t.terrain)
    total = len(terrain)
    where = f"{legend}: " if legend else ""
    for name in names:
        if not anywhere[name]:
            warn(f"{where}terrain '{name}' was found in no hex; check its examples or drop it")
        elif total > 20 and main[name] >= _EVERYWHERE * total:
            warn(f"{where}terrain '{name}' was found in {main[name]} of {total} hexes; are the"
                 " other terrains' examples right?")


def _with_printed_shares(shares: F64, printed: F64, legend: Legend) -> F64:
    """Shares with those the legend's printed colours show where they show more.

    A terrain printed as a small symbol inside another (a village's dot in a field) covers
    too little of any cell to be seen there; its colour's pixel share says how much. Only
    when every terrain has its printed colour: otherwise the pixels of a terrain without
    one vote for whichever colour is nearest.
    """
    coloured = np.array([bool(c) for c in legend.terrain.values()])
    out = shares.copy()
    out[:, coloured] = np.maximum(out[:, coloured], printed[:, coloured])
    out /= out.sum(axis=1, keepdims=True)
    return out


def _results(hexes: list[Hex], reading: Reading, shares: F64, colours: F64,
             examples: I64) -> dict[Hex, HexTerrain]:
    """Each hex's terrain; ``examples`` (their indices) are read as their examples say,
    and have no classifier's probabilities."""
    names = reading.names
    main = reading.main.tolist()
    confidence = reading.confidence.tolist()
    probability = reading.probability.tolist()
    taught = set(examples.tolist())
    order = np.argsort(-shares, axis=1, kind="stable").tolist()
    out = {}
    for i, (h, colour) in enumerate(zip(hexes, np.clip(colours, 0, 255).tolist(), strict=True)):
        row = shares[i]
        others = [j for j in order[i] if j != main[i] and row[j] >= SECONDARY]
        terrain = (names[main[i]], *(names[j] for j in others))
        fractions = {names[j]: round(float(row[j]), 3) for j in order[i] if row[j] >= 0.01}
        chances = {} if i in taught else {names[j]: round(p, 3)
                                          for j, p in enumerate(probability[i]) if p >= 0.01}
        out[h] = HexTerrain(terrain, fractions, round(confidence[i], 3),
                            (round(colour[0], 1), round(colour[1], 1), round(colour[2], 1)),
                            chances)
    return out


def learned_legend(legend: Legend, terrain: Mapping[Hex, HexTerrain]) -> Legend:
    """The legend with a colour for every terrain it had none for: its hexes' typical colour.

    The colour is the median of the hexes read surely (confidence 0.8 or more) as that
    terrain, or of all of them if none is sure; a terrain read nowhere keeps none.
    """
    for name, colours in legend.terrain.items():
        if colours:
            continue
        mine = [t for t in terrain.values() if t.terrain[0] == name]
        sure = [t for t in mine if t.confidence >= 0.8] or mine
        if sure:
            med = np.median(np.array([t.colour for t in sure]), axis=0)
            legend = legend.with_colours(name, ((int(round(med[0])), int(round(med[1])),
                                                 int(round(med[2]))),))
    return legend
