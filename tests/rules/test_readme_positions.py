"""The README's example of many positions on one map runs and prints what it says."""

from __future__ import annotations

import contextlib
import io
import re
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _example() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("**Many positions of one game.**")
    block = re.search(r"```python\n(.*?)```", text[start:], re.S)
    assert block, "README: the many-positions example has no python block"
    return textwrap.dedent(block.group(1))


def test_the_readme_example_of_many_positions_prints_what_it_says(
        monkeypatch: pytest.MonkeyPatch) -> None:
    code = _example()
    # The comment on the print line says what the loop prints: "2021 18 hexes, 1921 26, ..."
    said = re.search(r"# (\d{4}) (\d+) hexes((?:, \d{4} \d+)*)", code)
    assert said, "the example's print line says nothing to check"
    expected = [f"{said.group(1)} {said.group(2)} hexes"] + [
        f"{h} {n} hexes" for h, n in re.findall(r", (\d{4}) (\d+)", said.group(3))]
    monkeypatch.chdir(ROOT)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    assert out.getvalue().splitlines() == expected


def test_the_example_answers_as_each_position_on_a_map_of_its_own() -> None:
    # The map's kept costs and rows change no answer: each position on a fresh copy of
    # the map (nothing kept) reaches the same hexes for the same MP.
    import dataclasses

    from pipeline.rules import Engine
    from pipeline.rules.game import load_game

    game = load_game(ROOT / "maps" / "demo", ROOT / "maps" / "demo" / "position.json")
    unit = game.unit("914/352")
    seen = []
    for h in ("2021", "1921", "2121"):
        moved = tuple(dataclasses.replace(u, hex=game.map.grid.hex(h)) if u is unit else u
                      for u in game.units)
        kept = Engine(game.with_position(moved)).reachable(unit.id)
        alone = dataclasses.replace(game.with_position(moved), map=dataclasses.replace(game.map))
        fresh = Engine(alone).reachable(unit.id)
        assert kept.costs == fresh.costs and kept.paths == fresh.paths, h
        seen.append(len(kept.costs))
    if len(set(seen)) == 1:
        pytest.fail(f"the three positions reach alike ({seen}): the example shows nothing")
