"""Fuzzing every loader: whatever the input, it loads or raises one BocageError line.

Inputs are random JSON shapes, mutations of the valid demo files (a key
deleted, a value replaced by random JSON, an item duplicated), truncated
text, random bytes and random CSV. The property: the loader returns a model,
or raises :class:`BocageError` whose message starts with the file name and
is a single line. Any other exception is a bug.
"""

from __future__ import annotations

import copy
import csv
import io
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.errors import BocageError
from pipeline.model import (
    check_game_dir,
    load_file,
    map_from_data,
    markers_from_text,
    position_from_data,
    rules_from_data,
    scenario_from_data,
    units_from_text,
)
from pipeline.model.documents import parse_json

from .conftest import (
    COUNTERS,
    DEMO,
    DEMO_MAP,
    DEMO_MARKERS,
    DEMO_POSITION,
    DEMO_RULES,
    DEMO_SCENARIO,
    DEMO_UNITS,
    FUZZ,
    sample,
)

SCALARS = (st.none() | st.booleans() | st.integers(-10**6, 10**6)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=10)
           | st.sampled_from(["0421", "2417", "woods", "road", "leg", "allied", "+2", "P", ""]))
KEYS = st.text(max_size=8) | st.sampled_from(["0421", "04\n21", "2699", "colour", "Woods", "kind"])
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.text(max_size=8) | st.sampled_from(["kind", "hexes", "terrain", "hex", "unit"]),
        inner, max_size=4),
    max_leaves=12,
)

LOADERS: dict[Path, Callable[[Any, str], object]] = {
    DEMO_MAP: map_from_data,
    DEMO_RULES: rules_from_data,
    DEMO_SCENARIO: scenario_from_data,
    DEMO_POSITION: position_from_data,
}


def outcome(call: Callable[[], object], file: str) -> object | None:
    """Run a loader: a result, or ``None`` after checking the error is one located line."""
    try:
        return call()
    except BocageError as exc:
        message = str(exc)
        assert message.startswith(file), message
        assert "\n" not in message and "Traceback" not in message, message
        return None


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*prefix, key)
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield (*prefix, i)
            yield from _paths(item, (*prefix, i))


_PATHS = {path: list(_paths(sample(path))) for path in LOADERS}


@st.composite
def mutated(draw: st.DrawFn, source: Path) -> dict[str, Any]:
    """The demo document with one to three random edits."""
    doc = copy.deepcopy(sample(source))
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(_PATHS[source]))
        parent: Any = doc
        try:
            for key in where[:-1]:
                parent = parent[key]
            current = parent[where[-1]]
        except (KeyError, IndexError, TypeError):
            continue  # an earlier edit removed this place
        if not isinstance(parent, dict | list):
            continue  # an earlier edit turned a container into text (which indexes too)
        action = draw(st.sampled_from(["delete", "replace", "duplicate", "retype", "rename"]))
        if action == "rename" and isinstance(parent, dict):
            parent[draw(KEYS)] = parent.pop(where[-1])
        elif action == "delete":
            del parent[where[-1]]
        elif action == "replace":
            parent[where[-1]] = draw(JSON)
        elif action == "duplicate" and isinstance(parent, list):
            parent.append(copy.deepcopy(current))
        else:
            parent[where[-1]] = draw(st.sampled_from([str(current), [current], {"x": current},
                                                      None, -1, 10**9, 0.5]))
    return doc


@pytest.mark.slow
@pytest.mark.parametrize("source", sorted(LOADERS), ids=lambda p: p.name)
@FUZZ
@given(data=st.data())
def test_mutated_documents_load_or_fail_on_one_line(source, data):
    doc = data.draw(mutated(source))
    outcome(lambda: LOADERS[source](doc, "fuzz.json"), "fuzz.json")


@pytest.mark.slow
@pytest.mark.parametrize("source", sorted(LOADERS), ids=lambda p: p.name)
@FUZZ
@given(shape=JSON, kind=st.sampled_from(["map", "rules", "scenario", "position", None]))
def test_random_json_shapes_fail_on_one_line(source, shape, kind):
    if kind is not None and isinstance(shape, dict):
        shape = {**shape, "kind": kind}
    outcome(lambda: LOADERS[source](shape, "fuzz.json"), "fuzz.json")


@pytest.mark.parametrize("source", sorted(LOADERS), ids=lambda p: p.name)
@FUZZ
@given(data=st.data())
def test_truncated_text_fails_on_one_line(source, data):
    text = source.read_text(encoding="utf-8")
    cut = data.draw(st.integers(0, len(text)))
    outcome(lambda: LOADERS[source](parse_json(text[:cut], "fuzz.json"), "fuzz.json"), "fuzz.json")


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@FUZZ
@given(content=st.binary(max_size=300) | st.text(max_size=300).map(str.encode),
       name=st.sampled_from(["x.json", "x.csv", "x.txt", "x"]))
def test_random_files_fail_on_one_line(scratch, content, name):
    path = scratch / name
    path.write_bytes(content)
    outcome(lambda: load_file(path), str(path))


# -- CSV -----------------------------------------------------------------------------------

CELL = st.text(max_size=8) | st.sampled_from(
    ["", "1", "-2", "x", "armor", "armr", "allied", "Allied", "mobile;hq", "mobil", "+3", '"', ",",
     "\n", "regiment", "0421"])
UNIT_NAMES = ["id", "name", "side", "type", "size", "class", "attack", "steps", "flags",
              "setup_hex"]
MARKER_NAMES = ["id", "kind", "side", "value", "count", "icon"]


def to_csv(rows: list[list[str]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


@st.composite
def random_csv(draw: st.DrawFn, names: list[str]) -> str:
    header = draw(st.lists(st.sampled_from(names) | st.text(max_size=6), min_size=0, max_size=8))
    width = draw(st.integers(0, 9))
    rows = draw(st.lists(st.lists(CELL, min_size=width, max_size=width), max_size=5))
    text = to_csv([header, *rows])
    return text if draw(st.booleans()) else text[: draw(st.integers(0, len(text)))]


@st.composite
def mutated_csv(draw: st.DrawFn, source: Path) -> str:
    rows = list(csv.reader(io.StringIO(source.read_text(encoding="utf-8"))))
    for _ in range(draw(st.integers(1, 3))):
        r = draw(st.integers(0, len(rows) - 1))
        if not rows[r]:
            continue
        c = draw(st.integers(0, len(rows[r]) - 1))
        action = draw(st.sampled_from(["replace", "delete", "duplicate_row"]))
        if action == "replace":
            rows[r][c] = draw(CELL)
        elif action == "delete":
            del rows[r][c]
        else:
            rows.append(list(rows[r]))
    return to_csv(rows)


@FUZZ
@given(text=random_csv(UNIT_NAMES) | mutated_csv(DEMO_UNITS))
def test_units_csv_loads_or_fails_on_one_line(text):
    outcome(lambda: units_from_text(text, "units.csv"), "units.csv:")


@FUZZ
@given(text=random_csv(MARKER_NAMES) | mutated_csv(DEMO_MARKERS))
def test_markers_csv_loads_or_fails_on_one_line(text):
    outcome(lambda: markers_from_text(text, "markers.csv"), "markers.csv:")


# -- a whole game folder: cross-references on mutated documents ---------------------------


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("game")
    for folder, target in ((DEMO, root / "maps" / "demo"), (COUNTERS, root / "counters" / "demo")):
        target.mkdir(parents=True)
        for item in folder.iterdir():
            if item.suffix in (".json", ".csv"):
                (target / item.name).write_bytes(item.read_bytes())
    return root / "maps" / "demo"


@pytest.mark.slow
@pytest.mark.parametrize("source", [DEMO_SCENARIO, DEMO_POSITION, DEMO_RULES],
                         ids=lambda p: p.name)
@settings(parent=FUZZ, max_examples=60)  # each example loads the whole folder
@given(data=st.data())
def test_cross_checks_on_mutated_documents_fail_on_one_line(game, source, data):
    doc = data.draw(mutated(source))
    target = game / source.name
    try:
        target.write_text(json.dumps(doc), encoding="utf-8")
        outcome(lambda: check_game_dir(game), str(game))
    finally:
        target.write_bytes(source.read_bytes())


# -- the readers themselves: JSON text and manifest files, as bytes arrive on disk ---------

NASTY = st.sampled_from(["NaN", "-Infinity", "1e400", "9" * 5000, '"\\u0000"', '"\\ud800"',
                         '"a\\u0007"', "[" * 70 + "]" * 70, '{"k": 1, "k": 2}', "\ufeff"])


@st.composite
def spliced_json(draw: st.DrawFn) -> str:
    """A demo document's text with a value the JSON reader must refuse spliced in."""
    text = DEMO_POSITION.read_text(encoding="utf-8")
    at = draw(st.sampled_from([i + 1 for i, ch in enumerate(text) if ch == ":"]))
    end = min((j for j in (text.find(",", at), text.find("\n", at)) if j > 0), default=at)
    return text[:at] + " " + draw(NASTY) + text[end:]


@FUZZ
@given(text=spliced_json() | st.text(max_size=200))
def test_json_text_with_what_python_lets_through_fails_on_one_line(text):
    result = outcome(lambda: parse_json(text, "fuzz.json"), "fuzz.json")
    if result is not None:  # what loads holds no value no output could carry
        dumped = json.dumps(result, allow_nan=False)  # raises on NaN or Infinity
        assert "\\u0000" not in dumped


@FUZZ
@given(content=st.binary(max_size=400) | mutated_csv(DEMO_UNITS).map(str.encode)
       | st.tuples(mutated_csv(DEMO_MARKERS), st.binary(max_size=8)).map(
           lambda pair: pair[0].encode() + pair[1]))
def test_manifest_files_read_row_by_row_load_or_fail_on_one_line(scratch, content):
    from pipeline.model.manifest import load_manifest

    path = scratch / "manifest.csv"
    path.write_bytes(content)
    manifest = outcome(lambda: load_manifest(path), str(path))
    if manifest is not None:  # a loaded manifest has no cell that could break a counter
        for row in manifest:
            assert "\\u0000" not in row.model_dump_json()
