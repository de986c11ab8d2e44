"""pydantic's errors in a map maker's words: a dotted place and a plain message."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pipeline.model.base import Color, Invalid, Model, Name
from pipeline.model.translate import describe, format_path, to_data_error


class Leaf(Model):
    size: int = Field(ge=1)
    share: float = Field(0.5, ge=0, le=1)
    colour: Color | None = None
    flag: bool = False
    tags: list[str] = Field([], min_length=0, max_length=2)


class Root(Model):
    name: str = Field(min_length=1)
    way: Literal["north", "south"] = "north"
    leaves: list[Leaf] = []
    table: dict[Name, Leaf] = {}
    edges: dict[Literal["north", "south"], int] = {}


def message(data: object, model: type[BaseModel] = Root) -> str:
    with pytest.raises(ValidationError) as info:
        model.model_validate(data)
    return str(to_data_error(info.value, "f.json", model))


def test_paths_use_dots_for_keys_and_brackets_for_indexes():
    assert format_path(("hexes", "0421", "terrain", 1)) == "hexes.0421.terrain[1]"
    assert format_path(("boards", 0, "grid", "cols")) == "boards[0].grid.cols"
    assert format_path(()) == ""


def test_values_are_described_in_json_words():
    assert [describe(v) for v in ("abc", None, True, 3, 1.5, {}, [])] == [
        "'abc'", "null", "true", "3", "1.5", "an object", "a list"]
    assert describe("x" * 100).endswith("...'") and len(describe("x" * 100)) == 42


def test_text_where_a_whole_number_belongs():
    assert message({"name": "n", "leaves": [{"size": "abc"}]}) == (
        "f.json: leaves[0].size: expected a whole number, got 'abc'")


def test_a_fraction_where_a_whole_number_belongs():
    assert message({"name": "n", "leaves": [{"size": 1.5}]}) == (
        "f.json: leaves[0].size: expected a whole number, got 1.5")


def test_text_where_a_number_belongs_and_bounds():
    assert message({"name": "n", "leaves": [{"size": 1, "share": "half"}]}) == (
        "f.json: leaves[0].share: expected a number, got 'half'")
    assert message({"name": "n", "leaves": [{"size": 1, "share": 1.5}]}) == (
        "f.json: leaves[0].share: must be <= 1, got 1.5")
    assert message({"name": "n", "leaves": [{"size": 0}]}) == (
        "f.json: leaves[0].size: must be >= 1, got 0")


def test_strict_booleans_and_strings():
    assert message({"name": "n", "leaves": [{"size": 1, "flag": "yes"}]}) == (
        "f.json: leaves[0].flag: expected true or false, got 'yes'")
    assert message({"name": 5}) == "f.json: name: expected a string, got 5"
    assert message({"name": ""}) == "f.json: name: must not be empty"


def test_missing_and_unknown_keys_name_the_key_with_a_suggestion():
    assert message({}) == "f.json: missing required key 'name'"
    assert message({"name": "n", "leaves": [{"size": 1, "colur": "#ffffff"}]}) == (
        "f.json: leaves[0]: unknown key 'colur' (did you mean 'colour'?)")
    assert message({"name": "n", "table": {"a": {"size": 1, "sise": 2}}}) == (
        "f.json: table.a: unknown key 'sise' (did you mean 'size'?)")


def test_choices_are_listed_with_a_suggestion():
    assert message({"name": "n", "way": "nroth"}) == (
        "f.json: way: expected one of 'north', 'south', got 'nroth' (did you mean 'north'?)")


def test_bad_dict_keys_are_named():
    assert message({"name": "n", "edges": {"nrth": 1}}) == (
        "f.json: edges: unknown key 'nrth' (did you mean 'north'?) (one of 'north', 'south')")
    assert message({"name": "n", "table": {"Big": {"size": 1}}}).startswith(
        "f.json: table: bad key 'Big': expected a lower-case name")


def test_patterns_are_described_not_shown():
    assert message({"name": "n", "leaves": [{"size": 1, "colour": "red"}]}) == (
        "f.json: leaves[0].colour: expected a colour written '#rrggbb', got 'red'")


def test_wrong_container_types():
    assert message({"name": "n", "leaves": {"size": 1}}) == (
        "f.json: leaves: expected a list, got an object")
    assert message({"name": "n", "leaves": [3]}) == "f.json: leaves[0]: expected an object, got 3"
    assert message({"name": "n", "leaves": [{"size": 1, "tags": ["a", "b", "c"]}]}) == (
        "f.json: leaves[0].tags: needs at most 2 items, got 3")
    assert message([]) == "f.json: expected an object, got a list"


class Checked(Model):
    items: list[int]

    def model_post_init(self, context: object) -> None:
        if self.items and self.items[0] < 0:
            raise Invalid(("items", 0), "must not be negative")


def test_located_semantic_errors_extend_the_place():
    assert message({"items": [-1]}, Checked) == "f.json: items[0]: must not be negative"


class Plain(BaseModel):
    model_config = ConfigDict(strict=False)
    x: int


def test_unforeseen_errors_still_get_a_located_line():
    text = message({"x": [1]}, Plain)
    assert text.startswith("f.json: x: ")
