"""Rules answers drawn over the map: checked by the colours at known places."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
from click.testing import CliRunner
from PIL import Image

from pipeline.cli import cli
from pipeline.model import load_map
from pipeline.render import RenderStyle, render_map
from pipeline.render.answers import PictureStyle, moves_picture, supply_picture
from pipeline.rules import Engine
from pipeline.rules.game import load_game
from pipeline.rules.systems.base import SupplyAnswer

SIZE = 40.0


def _left_of_centre(grid, h) -> tuple[int, int]:
    # Left inside the hex, clear of the centred cost, unit disc, label and hex id.
    x, y = grid.center(h)
    return round(x - 0.36 * SIZE), round(y)


def _setup(game: Path):
    engine = Engine(load_game(game, game / "position.json"))
    data = load_map(game / "map.json")
    base = render_map(data, RenderStyle(hex_size=SIZE, ids=True, supersample=1))
    return engine, data, base


def test_moves_picture_tints_every_reachable_hex_and_nothing_far_away(game):
    """The reachable set of 914/352 (000 §5.2-§6.1) is tinted; a hex no move reaches is
    drawn exactly as the plain map; the caption band sits below the map."""
    engine, data, base = _setup(game)
    reach = engine.reachable("914/352")
    picture = np.asarray(moves_picture(data, engine.situation, reach, "914/352",
                                       PictureStyle(hex_size=SIZE), crop=False))
    height, width = base.image.shape[:2]
    assert picture.shape[1] == width and picture.shape[0] > height
    assert reach.costs
    for h in reach.costs:
        x, y = _left_of_centre(base.grid, h)
        plain, drawn = base.image[y, x].astype(int), picture[y, x].astype(int)
        assert np.abs(plain - drawn).sum() > 40, engine.name(h)
        assert drawn[0] >= drawn[2], "the tint is warm (yellow to orange)"
    far = [h for h in engine.grid.hexes()
           if all(engine.grid.distance(h, r) > 2 for r in [reach.start, *reach.costs])]
    assert far
    for h in far[:50]:
        x, y = _left_of_centre(base.grid, h)
        assert (picture[y, x] == base.image[y, x]).all(), engine.name(h)


def test_moves_picture_is_cropped_to_the_answer(game):
    """By default the picture shows the reach and a margin, not the whole map: every
    reachable hex's centre is inside it and the map's far corner hexes are not."""
    engine, data, base = _setup(game)
    reach = engine.reachable("914/352")
    whole = moves_picture(data, engine.situation, reach, "914/352", PictureStyle(SIZE),
                          crop=False)
    cropped = moves_picture(data, engine.situation, reach, "914/352", PictureStyle(SIZE))
    assert cropped.width < whole.width and cropped.height < whole.height
    xs = [base.grid.center(h)[0] for h in [reach.start, *reach.costs]]
    ys = [base.grid.center(h)[1] for h in [reach.start, *reach.costs]]
    assert max(xs) - min(xs) < cropped.width and max(ys) - min(ys) < cropped.height


def test_supply_picture_colours_units_by_their_answer(game):
    """000 §12.0 answers: an in-supply unit's disc is green, an out-of-supply one red (one
    answer is turned to out of supply here, as a cut-off unit would be)."""
    engine, data, base = _setup(game)
    answers = dict(engine.supply())
    alone = [u for u in engine.situation.units
             if u.hex is not None and len(engine.situation.units_in(u.hex)) == 1]
    cut = alone[0].id
    answers[cut] = SupplyAnswer(False, "000 §12.0", "cut off for the test")
    picture = np.asarray(supply_picture(data, engine.situation, answers,
                                        PictureStyle(hex_size=SIZE)))
    for unit in alone:
        x, y = base.grid.center(unit.hex)
        r, g, b = picture[round(y - 0.1 * SIZE), round(x)].astype(int)
        if answers[unit.id].in_supply:
            assert g > r + 60, (unit.id, (r, g, b))
        else:
            assert r > g + 60, (unit.id, (r, g, b))
    assert sum(a.in_supply for a in answers.values()) >= 2


def test_cli_writes_the_picture_and_keeps_stdout_for_the_answer(game, tmp_path):
    out = tmp_path / "pictures" / "moves.png"
    result = CliRunner().invoke(cli, ["rules", "moves", str(game), "-p",
                                      str(game / "position.json"), "-u", "914/352",
                                      "--picture", str(out), "--json"], prog_name="bocage")
    assert result.exit_code == 0, result.output
    assert result.stdout.lstrip().startswith("{")
    assert f"picture: {out}" in result.stderr
    image = Image.open(io.BytesIO(out.read_bytes()))
    assert image.format == "PNG" and image.width > 300 and image.height > 300


def test_cli_picture_into_an_unwritable_place_is_one_line(game, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = CliRunner().invoke(cli, ["rules", "supply", str(game), "-p",
                                      str(game / "position.json"), "--picture",
                                      str(blocker / "supply.png")], prog_name="bocage")
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bocage: ") and "supply.png" in lines[0]
    assert not (blocker / "supply.png").exists()
