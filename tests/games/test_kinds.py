"""The two kinds added for the game folders, `crt` and `facts`: loaded by kind, checked with
located one-line errors, and published as schemas."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from pipeline.errors import BocageError
from pipeline.model import (
    check_file,
    crt_from_data,
    facts_from_data,
    load_file,
)
from pipeline.model.schema import SCHEMA_MODELS, schema_for

from .conftest import load, maps

CRT = load(maps("omaha") / "crt.json")
FACTS = load(maps("omaha") / "facts.json")


def message(func) -> str:
    with pytest.raises(BocageError) as info:
        func()
    return str(info.value)


@pytest.mark.parametrize(("name", "kind"), [("crt.json", "crt"), ("facts.json", "facts")])
def test_files_are_told_apart_by_kind(name, kind):
    path = maps("omaha") / name
    assert load_file(path)[0] == kind
    assert check_file(path).kind == kind


def test_check_summaries():
    assert check_file(maps("omaha") / "crt.json").counts == {
        "columns": 12, "lines": 7, "die_rolls": 6, "cells_given": 72, "cells": 72}
    assert check_file(maps("omaha") / "facts.json").summary == (
        "11 facts (hex_name 6, hex_terrain 3, map_edge 1, river_course 1)")


def test_schemas_are_published_for_both_kinds():
    assert {"crt", "facts"} <= set(SCHEMA_MODELS)
    assert schema_for("crt")["properties"]["kind"]["const"] == "crt"
    assert schema_for("facts")["properties"]["kind"]["const"] == "facts"


def _crt(edit) -> str:
    data = copy.deepcopy(CRT)
    edit(data)
    return message(lambda: crt_from_data(data, "crt.json"))


def test_crt_unknown_result_is_located():
    def edit(d):
        d["results"][2]["cells"][4] = "D9"
    assert _crt(edit).startswith("crt.json: results[2].cells[4]: result 'D9' is not in result_key")


def test_crt_row_of_the_wrong_width_is_located():
    def edit(d):
        d["results"][0]["cells"].pop()
    assert _crt(edit) == "crt.json: results[0].cells: 11 cells for 12 columns"


def test_crt_headings_run_left_to_right():
    def edit(d):
        d["lines"][0]["headings"][1]["column"] = 5
    assert "headings must run left to right" in _crt(edit)


def test_crt_heading_must_name_a_column():
    def edit(d):
        d["lines"][0]["headings"][-1]["column"] = 13
    assert _crt(edit) == "crt.json: lines[0].headings[6].column: no column has index 13"


def test_crt_line_without_headings_needs_a_note():
    def edit(d):
        del d["lines"][5]["note"]
    assert "lines[5].headings: headings are null" in _crt(edit)


def test_crt_wrong_kind():
    def edit(d):
        d["kind"] = "map"
    assert _crt(edit) == "crt.json: kind: expected one of 'crt', got 'map'"


def _facts(edit) -> str:
    data = copy.deepcopy(FACTS)
    edit(data)
    return message(lambda: facts_from_data(data, "facts.json"))


def test_fact_needs_what_its_claim_needs():
    def edit(d):
        del d["facts"][0]["terrain"]
    assert _facts(edit) == "facts.json: facts[0].terrain: a 'hex_terrain' fact needs \"terrain\""


def test_fact_refuses_what_its_claim_does_not_use():
    def edit(d):
        d["facts"][1]["terrain"] = "beach"
    assert _facts(edit) == "facts.json: facts[1].terrain: a 'hex_name' fact has no \"terrain\""


def test_fact_needs_a_citation():
    def edit(d):
        d["facts"][0]["cite"] = ""
    assert _facts(edit) == "facts.json: facts[0].cite: must not be empty"


def test_fact_ids_are_unique():
    def edit(d):
        d["facts"][1]["id"] = d["facts"][0]["id"]
    assert "facts[1].id: fact id 'omaha-beach-terrain' is already used by facts[0]" in _facts(edit)


def test_unknown_claim_suggests_the_right_one():
    def edit(d):
        d["facts"][0]["claim"] = "hex_terain"
    assert "did you mean 'hex_terrain'" in _facts(edit)


def test_a_broken_facts_file_in_a_game_folder_is_one_located_line(tmp_path: Path):
    folder = tmp_path / "maps" / "omaha"
    folder.mkdir(parents=True)
    (folder / "facts.json").write_text(json.dumps({"kind": "facts", "game": "g", "source": "s",
                                                   "facts": [{"id": "x", "claim": "river_course",
                                                              "hexes": ["0101"], "feature": "river",
                                                              "cite": "c"}]}))
    assert message(lambda: check_file(folder / "facts.json")) == (
        f"{folder / 'facts.json'}: facts[0].hexes: a river course needs at least its first and"
        " last hex")
