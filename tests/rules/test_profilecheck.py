"""Nothing ignored, nothing guessed: a profile key its system does not read is refused with
its place, and a unit missing what the rules need is caught by ``bocage check``."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pipeline.cli import cli
from pipeline.errors import DataError
from pipeline.model import load_rules, rules_from_data
from pipeline.rules.game import load_game
from pipeline.rules.profilecheck import check_profile_keys, unread_keys
from pipeline.rules.registry import registry

from .folders import UNIT_COLUMNS, rules_doc, write_game

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", sorted(n for n, s in registry().items() if s.game))
def test_the_seed_profiles_give_only_keys_their_systems_read(name):
    profile = load_rules(ROOT / "maps" / str(registry()[name].game) / "rules.json")
    assert unread_keys(profile) == []


@pytest.mark.parametrize(("system", "section", "value", "place"), [
    ("generic", "los", {"corners_block": False}, "los.corners_block"),
    ("fm_omaha", "roads", {"road": {"rate": 1, "negated_by": {"units": 2}}},
     "roads.road.negated_by.units"),
    # The tactical aid's overruns are its own procedure: the kernel's overrun cost is not.
    ("tactical", "overrun", {"cost": {"extra_mp": 3, "cite": "TOY.md §8"}},
     "overrun.cost.extra_mp"),
    ("generic", "terrain", {"clear": {"move": 1, "note": "n",
                                      "entry_roll": {"classes": ["foot"], "succeeds": [1]}}},
     "terrain.clear.entry_roll.classes"),
])
def test_a_key_the_system_does_not_read_is_refused_with_its_place(system, section, value,
                                                                  place):
    doc = rules_doc(system)
    doc[section] = value
    profile = rules_from_data(doc, "maps/toy/rules.json")
    with pytest.raises(DataError) as err:
        check_profile_keys(profile)
    message = str(err.value)
    assert message.startswith(f"maps/toy/rules.json: {place}: the {system} rules do not read"
                              " this key: it would be ignored")
    readers = "the cobra, fm_omaha, generic, june44 rules read it" if system == "tactical" \
        else "the tactical rules read it"
    assert readers in message  # the systems that do read it are named


def test_bocage_check_and_rules_questions_refuse_an_ignored_key(tmp_path):
    doc = rules_doc()
    doc["los"] = {"corners_block": False}
    game = write_game(tmp_path / "toy", doc, [{"id": "A", "side": "blue", "class": "foot",
                                                "movement": 3}], {"A": "0303"})
    result = CliRunner().invoke(cli, ["check", str(game)])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        f"bocage: {game / 'rules.json'}: los.corners_block: the generic rules do not read this"
        " key: it would be ignored; the tactical rules read it (remove it, or name a system"
        " that reads it)")
    with pytest.raises(DataError, match=r"los\.corners_block: the generic rules do not read"):
        load_game(game, game / "position.json")


def test_a_case_profile_with_an_ignored_key_is_located():
    from pipeline.rules import case_from_data

    doc = rules_doc()
    doc["los"] = {"corners_block": False}
    with pytest.raises(DataError, match=r"cases\.json: \[2\]\.profile\.los\.corners_block: the"
                       " generic rules do not read"):
        case_from_data({"system": "generic", "profile": doc, "map": {"cols": 2, "rows": 1},
                        "units": [], "state": {}, "query": {}, "expect": {}}, "[2]",
                       "cases.json")


def _check(game: Path) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["check", str(game)])
    return result.exit_code, result.stderr.strip()


def test_a_unit_without_the_class_its_costs_need_is_caught_by_check(tmp_path):
    """The issue's unit with no class: costs per class made every question about it fail
    ('no movement cost for terrain woods ()') after check had passed the folder."""
    doc = rules_doc()
    doc["unit_classes"] = ["foot", "wheels"]
    doc["terrain"]["woods"]["move"] = {"foot": 2, "wheels": 4}
    game = write_game(tmp_path / "toy", doc, [{"id": "A", "side": "blue", "movement": 3}],
                      {"A": "0303"})
    code, err = _check(game)
    assert code == 2
    units = game / "units.csv"
    assert err == (f"bocage: {units}:2: unit 'A' has no class, which the rules need (the"
                   " profile has unit classes foot, wheels): give it one of foot, wheels")
    with units.open(newline="") as source:
        rows = list(csv.DictReader(source))
    rows[0]["class"] = "foot"
    with units.open("w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=UNIT_COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    assert _check(game)[0] == 0


def test_a_unit_without_an_ma_is_caught_unless_its_notes_say_why(tmp_path):
    game = write_game(tmp_path / "toy", rules_doc(),
                      [{"id": "A", "side": "blue", "class": "foot", "notes": ""}], {"A": "0303"})
    code, err = _check(game)
    assert code == 2 and err == (
        f"bocage: {game / 'units.csv'}:2: unit 'A' has no movement allowance, which every"
        " movement question needs: give it, or say in notes where it is printed")
    game = write_game(tmp_path / "noted", rules_doc(),
                      [{"id": "A", "side": "blue", "class": "foot",
                        "notes": "MA printed on the counter, not in the rulebook"}],
                      {"A": "0303"})
    assert _check(game)[0] == 0


def test_a_unit_without_a_size_where_stacking_counts_points(tmp_path):
    doc = rules_doc()
    doc["stacking"] = {"limit": 1, "counts": "points", "points": {"division": 1}}
    game = write_game(tmp_path / "toy", doc, [{"id": "A", "side": "blue", "class": "foot",
                                                "movement": 3, "notes": ""}], {"A": "0303"})
    code, err = _check(game)
    assert code == 2 and "unit 'A' has no size, and stacking counts points by size" in err
    assert json.loads((game / "rules.json").read_text())["stacking"]["counts"] == "points"
