"""Reading JSON with one clear line per problem; writing it deterministically and atomically."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from pipeline.errors import DataError
from pipeline.model import dumps, load_map, load_position, load_rules, load_scenario, save_json
from pipeline.model.documents import document_kind, parse_json, read_text

from .conftest import DEMO_MAP, DEMO_POSITION, DEMO_RULES, DEMO_SCENARIO, error_of


def write(tmp_path: Path, text: str | bytes, name: str = "map.json") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_missing_file_is_one_line(tmp_path):
    path = tmp_path / "nope.json"
    assert error_of(lambda: load_map(path)) == f"{path}: no such file"


def test_a_folder_is_not_a_file(tmp_path):
    assert error_of(lambda: load_map(tmp_path)) == f"{tmp_path}: is a folder, not a file"


def test_bytes_that_are_not_utf8_are_named(tmp_path):
    path = write(tmp_path, b'{"kind": "map", "title": "caf\xe9"}')
    assert error_of(lambda: load_map(path)) == (
        f"{path}: not UTF-8 text (byte 0xe9 at offset 29); save the file as UTF-8")


def test_a_byte_order_mark_is_allowed(tmp_path):
    path = write(tmp_path, b"\xef\xbb\xbf" + DEMO_MAP.read_bytes())
    assert load_map(path).game == "omaha"


def test_truncated_json_names_line_and_column(tmp_path):
    text = DEMO_MAP.read_text(encoding="utf-8")
    path = write(tmp_path, text[:200])
    message = error_of(lambda: load_map(path))
    assert message.startswith(f"{path}: line 6 column ")
    assert "invalid JSON (Unterminated string" in message


def test_empty_file_is_invalid_json(tmp_path):
    path = write(tmp_path, "")
    assert error_of(lambda: load_map(path)) == (
        f"{path}: line 1 column 1: invalid JSON (Expecting value)")


def test_nan_is_not_json(tmp_path):
    path = write(tmp_path, '{"kind": "map", "x": NaN}')
    assert error_of(lambda: load_map(path)) == f"{path}: invalid JSON (NaN is not valid JSON)"


def test_a_key_given_twice_is_named_with_its_place():
    text = '{"kind": "map", "hexes": {"0421": {"terrain": ["city"]}, "0421": {"terrain": []}}}'
    assert error_of(lambda: parse_json(text, "m.json")) == (
        "m.json: hexes: key '0421' is given twice; keep one")


def test_deep_nesting_is_an_error_not_a_crash():
    text = "[" * 100_000 + "]" * 100_000
    assert error_of(lambda: parse_json(text, "deep.json")) == (
        "deep.json: invalid JSON (nested more than 64 deep)")


def test_nesting_is_bounded_below_the_parser_limit_with_its_place():
    assert parse_json('{"a":' * 64 + "1" + "}" * 64, "ok.json") is not None
    text = '{"a":' * 65 + "1" + "}" * 65
    assert error_of(lambda: parse_json(text, "deep.json")) == (
        "deep.json: " + ".".join(["a"] * 64) + ": nested more than 64 deep")


@pytest.mark.parametrize(("text", "expected"), [
    ('{"x": NaN}', "m.json: invalid JSON (NaN is not valid JSON)"),
    ('{"x": -Infinity}', "m.json: invalid JSON (-Infinity is not valid JSON)"),
    ('{"x": 1e400}', "m.json: invalid JSON (the number 1e400 is too large)"),
    ('{"x": ' + "9" * 5000 + "}", "m.json: invalid JSON (a number with too many digits)"),
    ('{"name": "9\\u00002"}', ("m.json: name: the text holds the control character U+0000;"
     " remove it")),
    ('{"units": [{"id": "\\ud800"}]}', ("m.json: units[0].id: the text holds the control"
     " character U+D800; remove it")),
    ('{"a\\u0007b": 1}', "m.json: a key holds the control character U+0007; remove it"),
])
def test_what_pythons_parser_lets_through_is_refused(text, expected):
    assert error_of(lambda: parse_json(text, "m.json")) == expected


def test_tabs_and_line_ends_in_text_are_kept():
    assert parse_json('{"notes": "a\\tb\\nc\\r"}', "m.json") == {"notes": "a\tb\nc\r"}


def test_a_file_over_the_size_limit_is_not_read(tmp_path):
    from pipeline.model.documents import read_text

    big = tmp_path / "big.json"
    big.write_bytes(b" " * 2048)
    assert error_of(lambda: read_text(big, limit=1024)).startswith(f"{big}: is over 0 MiB")


@pytest.mark.parametrize(("data", "expected"), [
    ([1, 2], "m.json: expected a JSON object at the top level, got a list"),
    ("map", "m.json: expected a JSON object at the top level, got 'map'"),
    ({"game": "x"}, ('m.json: no "kind" key at the top level'
                    " (one of 'crt', 'facts', 'map', 'position', 'rules', 'scenario')")),
    ({"kind": 3}, "m.json: kind: expected a string, got 3"),
    ({"kind": "mapp"}, ("m.json: kind: unknown kind 'mapp' (did you mean 'map'?)"
                       " (one of 'crt', 'facts', 'map', 'position', 'rules', 'scenario')")),
])
def test_the_top_level_is_checked_first(data, expected):
    assert error_of(lambda: document_kind(data, "m.json")) == expected


def test_loading_a_document_of_another_kind_says_so(tmp_path):
    path = write(tmp_path, DEMO_RULES.read_text(encoding="utf-8"))
    assert error_of(lambda: load_map(path)) == (
        f"{path}: kind: this is a 'rules' document, expected 'map'")


def test_read_text_reports_unreadable_files(tmp_path):
    path = write(tmp_path, "{}") / "inside.json"  # a real OSError, whoever runs the test
    assert error_of(lambda: read_text(path)) == f"{path}: cannot read file (Not a directory)"


# -- writing ------------------------------------------------------------------------


@pytest.mark.parametrize(("path", "loader"), [
    (DEMO_MAP, load_map), (DEMO_RULES, load_rules),
    (DEMO_SCENARIO, load_scenario), (DEMO_POSITION, load_position),
])
def test_the_demo_files_are_exactly_what_save_json_writes(path, loader):
    # The committed files are canonical: loading and saving changes no byte.
    assert dumps(loader(path)) == path.read_text(encoding="utf-8")


def test_dumps_sorts_mapping_keys_keeps_field_and_list_order():
    doc = load_map(DEMO_MAP)
    text = dumps(doc)
    data = json.loads(text)
    assert list(data)[:4] == ["kind", "game", "title", "illustrative"]
    assert list(data["hexes"]) == sorted(data["hexes"])
    assert list(data["terrain_types"]) == sorted(data["terrain_types"])
    assert data["locations"][0]["name"] == "Omaha Beach"  # list order kept
    assert text.endswith("}\n") and "\n  \"kind\": \"map\"," in text


def test_dumps_writes_numbers_as_json_numbers():
    rules = load_rules(DEMO_RULES)
    data = json.loads(dumps(rules))
    assert data["roads"]["road"]["rate"] == 0.5
    assert data["roads"]["trail"]["rate"] == 1 and '"rate": 1,' in dumps(rules)


def test_save_json_round_trips_and_leaves_no_temporary_file(tmp_path):
    doc = load_scenario(DEMO_SCENARIO)
    target = tmp_path / "scenario.json"
    save_json(doc, target)
    assert load_scenario(target) == doc
    assert [p.name for p in tmp_path.iterdir()] == ["scenario.json"]
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


def test_a_failed_save_leaves_the_old_file_whole(tmp_path, monkeypatch):
    target = tmp_path / "position.json"
    target.write_text("old", encoding="utf-8")

    def broken_replace(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    message = error_of(lambda: save_json(load_position(DEMO_POSITION), target))
    assert message == f"{target}: cannot write file (No space left on device)"
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["position.json"]


def test_save_makes_missing_folders(tmp_path):
    target = tmp_path / "no" / "such" / "map.json"
    save_json(load_map(DEMO_MAP), target)
    assert load_map(target) == load_map(DEMO_MAP)


def test_save_where_a_folder_cannot_be_made_is_one_line(tmp_path):
    (tmp_path / "file").write_text("not a folder")
    target = tmp_path / "file" / "map.json"
    with pytest.raises(DataError) as info:
        save_json(load_map(DEMO_MAP), target)
    assert str(info.value).startswith(f"{target}: cannot write file (")


def test_control_characters_from_the_file_never_break_the_line():
    from pipeline.model import map_from_data, units_from_text

    doc = json.loads(DEMO_MAP.read_text(encoding="utf-8"))
    doc["hexes"]["04\n21"] = {"terrain": ["clear"]}
    assert error_of(lambda: map_from_data(doc, "m.json")).startswith(
        "m.json: hexes.04\\n21: '04\\n21' is not a hex id of this map")
    assert error_of(lambda: units_from_text('id,side,type\na,allied,"ar\nmr"\n', "u.csv")) == (
        "u.csv:2: unknown unit type 'ar\\nmr' (did you mean 'armor'?)")
