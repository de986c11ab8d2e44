"""Learn what each terrain looks like on *this* map, from a few examples, and read every hex.

The way ilastik or QGIS's semi-automatic classification learn from a few labelled regions:

1. the examples a builder gives (sample hexes, swatches of the printed key, hexes checked
   in a corrected map) are drawn again with what is not terrain added to them
   (:mod:`~pipeline.digitize.augment`), so a road or a name over a hex does not change
   what it is;
2. every patch is described (:mod:`~pipeline.digitize.describe`) and the descriptors are
   scaled by the spread over *all* the map's hexes, so the scale is this scan's;
3. an extremely randomised forest (scikit-learn's ``ExtraTreesClassifier``) learns from the
   examples; then it learns again with the hexes it is surest of added as examples of what
   it read them as (self-training), which carries the examples' look across the sheet,
   its paper and its light;
4. every hex gets a probability per terrain.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from sklearn.preprocessing import RobustScaler
from sklearn.tree import ExtraTreeClassifier

from pipeline.digitize.augment import RGB, Augmenter, light_spread
from pipeline.digitize.describe import GROUPS, Descriptors
from pipeline.digitize.drawings import DrawingMemo, described_drawings
from pipeline.digitize.patches import HexFrame
from pipeline.workers import threads_for

__all__ = [
    "Examples",
    "Learner",
    "Reading",
    "drawings_per_example",
    "drawn_examples",
    "drawn_lazily",
    "learn_terrain",
    "suggest",
]

_CANDIDATES = 1500  # hexes weighed for a suggestion: the most doubtful

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]
I64 = NDArray[np.int64]
U8 = NDArray[np.uint8]
BoolMap = NDArray[np.bool_]


@dataclass(frozen=True)
class Examples:
    """Labelled patches: what the builder showed of each terrain.

    Attributes
    ----------
    patches
        ``(k, size, size, 3)`` RGB patches in the hex frame.
    labels
        Index into the terrain names of each patch.
    hexes
        Index of the map hex each patch is, or -1 for a patch from elsewhere (the key).
    """

    patches: U8
    labels: I64
    hexes: I64

    def __len__(self) -> int:
        return len(self.labels)

    @staticmethod
    def join(parts: Sequence[Examples]) -> Examples:
        """Several sets of examples as one."""
        parts = [p for p in parts if len(p)]
        if not parts:
            raise ValueError("no examples")
        return Examples(np.concatenate([p.patches for p in parts]),
                        np.concatenate([p.labels for p in parts]),
                        np.concatenate([p.hexes for p in parts]))


@dataclass(frozen=True)
class Learner:
    """How the terrain learner works (the defaults are what the benches are measured with).

    Attributes
    ----------
    trees
        Trees in all (shared among the members).
    members
        Learners averaged, each taught from its own drawings of the examples.
    copies
        New drawings of each example (:class:`~pipeline.digitize.augment.Augmenter`).
    per_terrain
        Each terrain is drawn about as often as this many examples of it would be: a
        terrain shown by forty hexes gets fewer copies of each than one shown by three
        (forty hexes of the map already vary as the sheet does).
    budget
        At most about this many drawings in all: many examples get fewer copies each.
    rounds
        Self-training rounds after the first fit.
    sure
        Probability from which a hex read in one round is an example in the next.
    keep
        At most this share of the hexes read as one terrain become examples of it.
    features
        Share of the descriptors each split of a tree draws from (scikit-learn's
        ``max_features``).
    seed
        Seed of every random choice (same inputs, same reading).
    jobs
        Cores the forests are grown and applied on (-1: every core): the members on
        threads of their own, each forest on its share of the cores. The reading does not
        depend on it: each tree's seed is drawn before the trees are shared out, and the
        trees' answers are added up in their own order, the members' in theirs.
    """

    trees: int = 60
    members: int = 3
    copies: int = 30
    per_terrain: int = 3
    budget: int = 1500
    rounds: int = 2
    sure: float = 0.6
    keep: float = 0.5
    features: float = 0.3
    seed: int = 0
    jobs: int = -1


@dataclass(frozen=True)
class Reading:
    """What the learner read: a probability per hex and terrain.

    Attributes
    ----------
    names
        The terrain names, in the order of the columns.
    probability
        ``(n, terrains)``, each row summing to 1.
    features
        The hexes' descriptors as the learner saw them (scaled), ``(n, d)``.
    """

    names: tuple[str, ...]
    probability: F64
    features: F64 | None = None

    @property
    def main(self) -> I64:
        """Index of each hex's most probable terrain."""
        out: I64 = np.argmax(self.probability, axis=1)
        return out

    @property
    def confidence(self) -> F64:
        """The main terrain's probability."""
        out: F64 = np.max(self.probability, axis=1)
        return out


def learn_terrain(names: Sequence[str], descriptors: Descriptors, examples: Examples,
                  frame: HexFrame, mask: BoolMap, *, across: Sequence[RGB] = (),
                  along: Sequence[RGB] = (), learner: Learner = Learner(),
                  spread: tuple[float, float, float] | None = None,
                  memo: DrawingMemo | None = None,
                  drawn: Iterable[tuple[Descriptors, I64]] | None = None) -> Reading:
    """Read every hex's terrain, having learnt each from the examples.

    Parameters
    ----------
    names
        Terrain names; ``examples.labels`` index into them.
    descriptors
        Every map hex's descriptors (:func:`~pipeline.digitize.describe.describe`).
    examples
        The labelled patches.
    frame, mask
        The patch frame and the pixels that may show terrain (as for ``descriptors``).
    across, along
        Colours of the lines printed through hexes (roads, railways) and along hexsides
        (rivers, bars), drawn over the examples so the learner looks past them.
    learner
        The learner's settings.
    spread
        How much the light varies between examples of one terrain
        (:func:`~pipeline.digitize.augment.light_spread` of the examples, by default).
    memo
        Described drawings kept from earlier reads with the same frame and mask: only
        the drawings it lacks are made (:mod:`~pipeline.digitize.drawings`). Each example
        is drawn :func:`drawings_per_example` times, the first copies of the same
        drawings whatever their number, so a read with more examples uses an earlier
        read's drawings.
    drawn
        The examples' drawings, described, with their labels, a set a member
        (:func:`drawn_examples`), when the caller makes them; sets drawn as they are asked
        for (:func:`drawn_lazily`) are drawn while the members before grow their forests.
    """
    if drawn is None:
        drawn = drawn_lazily(examples, frame, mask, across=across, along=along,
                             learner=learner, spread=spread, memo=memo)
    scaler = RobustScaler(quantile_range=(10.0, 90.0)).fit(descriptors.take(GROUPS))
    x_all = scaler.transform(descriptors.take(GROUPS))
    # The trees split on 32-bit numbers: converted once here, not by every tree at every
    # fit and prediction (each check and copy was a millisecond, a few hundred a reading).
    x32 = np.ascontiguousarray(x_all, np.float32)
    # Several members, each taught from its own drawings of the examples: what one set of
    # drawings happens to show (and one forest happens to split on) averages out.
    n_classes = len(names)
    taught = (_scaled(scaler, d, labels) for d, labels in drawn)
    probability, kept = _ensemble(taught, x32, n_classes, learner)
    own = examples.hexes[examples.hexes >= 0]
    for _ in range(learner.rounds):
        chosen = _surest(probability, learner, exclude=own)
        read = np.argmax(probability[chosen], axis=1)
        probability, _ = _ensemble([(np.vstack([x, x32[chosen]]), np.concatenate([y, read]))
                                    for x, y in kept], x32, n_classes, learner)
    # The builder's own examples are what they were said to be.
    probability[own] = np.eye(n_classes)[examples.labels[examples.hexes >= 0]]
    return Reading(tuple(names), probability, x_all)


def drawn_examples(examples: Examples, frame: HexFrame, mask: BoolMap, *,
                   across: Sequence[RGB] = (), along: Sequence[RGB] = (),
                   learner: Learner = Learner(),
                   spread: tuple[float, float, float] | None = None,
                   memo: DrawingMemo | None = None) -> list[tuple[Descriptors, I64]]:
    """The examples drawn again for each member of the learner, described, with labels.

    The parameters are :func:`learn_terrain`'s. All the sets at once, as a list;
    :func:`drawn_lazily` makes each as it is asked for.

    Examples
    --------
    >>> from pipeline.hexgrid import Orientation
    >>> frame = HexFrame(Orientation.FLAT, 16)
    >>> pats = np.full((2, 16, 16, 3), 200, np.uint8); pats[1] = 60
    >>> ex = Examples(pats, np.array([0, 1]), np.array([3, 4]))
    >>> sets = drawn_examples(ex, frame, frame.inside, learner=Learner(members=2, copies=3))
    >>> [(len(d.values), labels.tolist()) for d, labels in sets][0]
    (8, [0, 0, 0, 0, 1, 1, 1, 1])
    """
    return list(drawn_lazily(examples, frame, mask, across=across, along=along,
                             learner=learner, spread=spread, memo=memo))


def drawn_lazily(examples: Examples, frame: HexFrame, mask: BoolMap, *,
                 across: Sequence[RGB] = (), along: Sequence[RGB] = (),
                 learner: Learner = Learner(),
                 spread: tuple[float, float, float] | None = None,
                 memo: DrawingMemo | None = None) -> Iterator[tuple[Descriptors, I64]]:
    """:func:`drawn_examples`, each member's set drawn when it is asked for: given to
    :func:`learn_terrain`, a member's forest grows while the next member's set is drawn.

    >>> from pipeline.hexgrid import Orientation
    >>> frame = HexFrame(Orientation.FLAT, 16)
    >>> ex = Examples(np.full((1, 16, 16, 3), 90, np.uint8), np.array([0]), np.array([3]))
    >>> sets = drawn_lazily(ex, frame, frame.inside, learner=Learner(members=2, copies=3))
    >>> len(next(sets)[1]), len(next(sets)[1]), next(sets, None)
    (4, 4, None)
    """
    counts = drawings_per_example(learner, examples.labels)
    if spread is None:
        spread = light_spread(examples.patches, examples.labels, mask)
    # Key swatches (no map hex) are named after their place in the list, past every hex.
    keys = np.where(examples.hexes >= 0, examples.hexes,
                    1_000_000 + np.arange(len(examples.hexes)))
    for member in range(learner.members):
        augmenter = Augmenter(copies=learner.copies,
                              across=tuple(across) or Augmenter().across,
                              along=tuple(along) or Augmenter().along, spread=spread,
                              seed=learner.seed + member)
        yield described_drawings(examples.patches, examples.labels, keys, frame, mask,
                                 augmenter, memo, counts, threads_for(learner.jobs))


def drawings_per_example(learner: Learner, labels: I64) -> I64:
    """How many times each example (of terrain ``labels``) is drawn again.

    ``learner.copies``; fewer for the examples of a terrain that has more than
    ``learner.per_terrain`` of them (about as many drawings of it in all as that many
    would get), and for all of them when the whole would pass ``learner.budget``; at
    least two.

    >>> drawings_per_example(Learner(), np.array([0, 0, 0, 1])).tolist()
    [30, 30, 30, 30]
    >>> drawings_per_example(Learner(), np.array([0] * 9 + [1] * 3))[[0, -1]].tolist()
    [10, 30]
    >>> int(drawings_per_example(Learner(per_terrain=99), np.arange(300) % 3)[0])
    5
    """
    labels = np.asarray(labels, np.int64)
    if not len(labels):
        return np.zeros(0, np.int64)
    per_label = np.bincount(labels)[labels]
    budget = learner.budget // len(labels)
    each = np.minimum(learner.copies * learner.per_terrain // per_label, budget)
    out: I64 = np.maximum(2, np.minimum(learner.copies, each)).astype(np.int64)
    return out


def _scaled(scaler: RobustScaler, drawn: Descriptors, labels: I64) -> tuple[F32, I64]:
    return scaler.transform(drawn.take(GROUPS)).astype(np.float32), labels


def _ensemble(taught: Iterable[tuple[F32, I64]], x_all: F32, n_classes: int,
              learner: Learner) -> tuple[F64, list[tuple[F32, I64]]]:
    """The members' mean probabilities, each member a forest of its share of the trees,
    and the members' examples as they came.

    Each member's forest is begun on a thread of its own as soon as its examples come, so
    when they are drawn as they are asked for (:func:`drawn_lazily`: Python, holding the
    interpreter) the forests grow meanwhile (a tree is grown and applied without Python's
    lock). One pool for the whole ensemble, not one each time scikit-learn fits or a
    forest is applied, which cost a label in the studio about a third of a second.
    """
    members = learner.members
    trees = max(10, learner.trees // members)
    cores = threads_for(learner.jobs)
    inner = max(1, cores // members)
    kept: list[tuple[F32, I64]] = []
    with ThreadPoolExecutor(max_workers=min(members, cores)) as pool:
        parts = []
        for k, (x, y) in enumerate(taught):
            kept.append((x, y))
            parts.append(pool.submit(_fit_predict, x, y, x_all, n_classes, learner, trees,
                                     learner.seed + k, inner))
        if len(kept) != members:
            raise ValueError(f"{len(kept)} sets of examples for {members} members")
        # In the members' order, whichever finished first.
        out: F64 = np.mean([part.result() for part in parts], axis=0)
    return out, kept


def _fit_predict(x: F32, y: I64, x_all: F32, n_classes: int, learner: Learner, trees: int,
                 seed: int, jobs: int) -> F64:
    """An extremely randomised forest's probabilities: the trees scikit-learn's
    ``ExtraTreesClassifier(random_state=seed)`` grows, the same to the bit (each seeded in
    turn from the forest's seed, every example, no bootstrap), grown here one by one: the
    forest's per-tree set-up held the interpreter for about a millisecond a tree, a fifth
    of growing it, while the other members and the drawings waited for it."""
    seeds = np.random.RandomState(seed).randint(np.iinfo(np.int32).max, size=trees)

    def grown(tree_seed: int) -> F64:
        tree = ExtraTreeClassifier(min_samples_leaf=2, max_features=learner.features,
                                   random_state=int(tree_seed)).fit(x, y)
        # ``x_all`` is 32-bit and contiguous, as the trees take it: no check or copy each.
        proba = tree.predict_proba(x_all, check_input=False)
        out = np.zeros((len(x_all), n_classes))
        out[:, tree.classes_] = proba
        return out

    # Each tree's probabilities, summed in the trees' order: summed in whatever order
    # threads finish, the rounding, carried through the self-training rounds, moved a
    # map's reading by a hex or two from one run to the next on a loaded machine.
    if jobs == 1:
        each = [grown(s) for s in seeds]
    else:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            each = list(pool.map(grown, seeds))
    total: F64 = np.sum(each, axis=0) / len(each)
    return total


def _surest(probability: F64, learner: Learner, exclude: I64) -> I64:
    """The hexes read surely enough to teach the next round: per terrain, the surest share."""
    main = np.argmax(probability, axis=1)
    conf = np.max(probability, axis=1)
    banned = np.zeros(len(main), bool)
    banned[exclude] = True
    chosen: list[I64] = []
    for c in np.unique(main):
        these = np.nonzero((main == c) & ~banned)[0]
        these = these[np.argsort(-conf[these], kind="stable")]
        these = these[: max(3, int(learner.keep * len(these)))]
        chosen.append(these[conf[these] >= learner.sure])
    out: I64 = np.sort(np.concatenate(chosen)) if chosen else np.zeros(0, np.int64)
    return out


def suggest(reading: Reading, count: int, exclude: Sequence[int] = (),
            whole: F64 | None = None) -> list[int]:
    """The hexes whose label would most improve the reading, best first.

    A hex is worth asking about when the reading is unsure of it (a small margin between
    its two likeliest terrains) and when many hexes look like it (its label then settles
    them too: density over its nearest neighbours in descriptor space); each pick makes
    the hexes that look like it worth less, so the list covers different doubts rather
    than ten of one kind. ``whole`` (each hex's share of its main terrain, where known)
    favours hexes of one terrain: a hex half woods, half clear is doubtful too, but its
    label teaches the learner a mixed picture.

    Examples
    --------
    >>> p = np.array([[0.5, 0.5], [0.9, 0.1], [0.55, 0.45], [0.99, 0.01]])
    >>> x = np.array([[0.0], [5.0], [0.1], [9.0]])
    >>> suggest(Reading(("a", "b"), p, x), 2)
    [0, 1]
    """
    prob = reading.probability
    n = len(prob)
    if n == 0 or count <= 0:
        return []
    top = np.sort(prob, axis=1)
    doubt = 1.0 - (top[:, -1] - (top[:, -2] if prob.shape[1] > 1 else 0.0))
    x = reading.features if reading.features is not None else prob
    allowed = np.ones(n, bool)
    allowed[list(exclude)] = False
    # The most doubtful hexes are the candidates (bounded, so a huge map stays cheap).
    order = np.argsort(-doubt, kind="stable")
    candidates = order[allowed[order]][:_CANDIDATES]
    if not len(candidates):
        return []
    sq = (x ** 2).sum(axis=1)
    d2 = np.maximum(sq[candidates, None] + sq[None, :] - 2.0 * x[candidates] @ x.T, 0.0)
    k = min(10, n - 1)
    near = np.sort(d2, axis=1)[:, 1:k + 1] if k > 0 else np.zeros((len(candidates), 1))
    scale = float(np.median(near)) or 1.0
    density = np.exp(-near / scale).mean(axis=1)
    score = doubt[candidates] * density
    if whole is not None:
        score = score * np.asarray(whole, np.float64)[candidates] ** 2
    between = d2[:, candidates]
    keep = np.ones(len(candidates))
    picked: list[int] = []
    for _ in range(min(count, len(candidates))):
        best = int(np.argmax(score * keep))
        if keep[best] <= 0:
            break
        picked.append(int(candidates[best]))
        keep *= 1.0 - np.exp(-between[best] / scale)
        keep[best] = 0.0
    return picked
