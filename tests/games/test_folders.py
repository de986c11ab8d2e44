"""Each seed game's folder checks (`bocage check maps/<game>`), is canonical JSON that fits
its schema, and says in its README what the rulebook gives and what a builder must supply."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipeline.model import check_game_dir, dumps, load_file
from pipeline.model.schema import schema_for
from tests.model.jsonschema_lite import errors

from .conftest import GAMES, ROOT, RULEBOOKS, counters, load, maps

# A machine path (an absolute path of two or more parts) must never appear in data.
ABSOLUTE_PATH = re.compile(r"(?<![\w.])/(?:[A-Za-z0-9_.-]+/)+")

JSON_FILES = sorted(p for game in (*GAMES, "demo") for p in maps(game).glob("*.json")
                    if game != "demo" or p.name == "facts.json")


def test_bocage_check_passes_on_every_game_folder(game):
    results = check_game_dir(maps(game))
    kinds = [r.kind for r in results]
    assert kinds[-1] == "game"
    assert {"map", "rules", "crt", "facts", "position"} <= set(kinds)
    assert results[-1].warnings == ()
    # The companion counters folder was used for the cross-checks.
    assert results[-1].counts["units_checked"] > 0


def test_the_counters_folders_check_alone(game):
    kinds = [r.kind for r in check_game_dir(counters(game))]
    assert kinds == ["markers", "units", "game"]


def test_the_demo_folder_still_checks_with_its_facts():
    results = check_game_dir(ROOT / "maps" / "demo")
    assert ("facts.json", "facts") in [(Path(r.path).name, r.kind) for r in results]
    assert results[-1].warnings == ()


@pytest.mark.parametrize("path", JSON_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_json_files_are_canonical_and_fit_their_schema(path):
    kind, doc = load_file(path)
    assert path.read_text(encoding="utf-8") == dumps(doc), "not in save_json's canonical form"
    assert errors(schema_for(kind), load(path)) == []


@pytest.mark.parametrize("path", JSON_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_citations_name_the_rulebook_not_a_path(path):
    text = path.read_text(encoding="utf-8")
    assert not ABSOLUTE_PATH.search(text) and "seeds/" not in text
    game = path.parent.name
    if game != "demo" and load(path)["kind"] != "position":  # positions are invented moments
        assert RULEBOOKS[game] in text


def test_only_positions_are_illustrative(game):
    for path in maps(game).glob("*.json"):
        data = load(path)
        if "illustrative" in data:
            assert data["illustrative"] is (data["kind"] == "position"), path.name


def test_readme_says_what_is_known_and_what_is_missing(game):
    text = (maps(game) / "README.md").read_text(encoding="utf-8")
    assert RULEBOOKS[game] in text
    for heading in ("## Known from", "## Left null or empty", "## A builder must still supply"):
        assert heading in text, heading
    for path in maps(game).glob("*.json"):
        assert f"`{path.name}`" in text, f"README does not list {path.name}"
