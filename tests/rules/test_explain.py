"""bocage rules explain: every rule in words a builder can read, citing the game's own rules.

The lines are read as sentences: each begins with a capital and ends with a full stop,
names the sides as names ("Allied"), prints no placeholder of the profile ("$side") or
unknown number as a number ("not given MP"), and cites only the game's own rulebook.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipeline.model import load_rules
from pipeline.rules.explain import explain

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["omaha", "june44", "cobra", "tactical", "demo", "examples/ridge", "examples/ironroads"]
CODES = {"omaha": "000", "demo": "000", "june44": "001", "tactical": "002", "cobra": "003",
         "examples/ridge": "RIDGE", "examples/ironroads": "IRON"}


@pytest.mark.parametrize("game", GAMES)
def test_every_line_reads_as_a_sentence_citing_the_games_own_rulebook(game):
    profile = load_rules(ROOT / "maps" / game / "rules.json")
    lines = explain(profile)
    assert lines
    for line in lines:
        text = line.text
        assert text[:1].isupper() and text.endswith("."), text
        for slip in ("$side", "not given MP", " a a", " a e", " a i", " a o", "None", "  "):
            assert slip not in text, (slip, text)
        for side in profile.sides:
            assert not re.search(rf"(^|[^_\w]){side} (units|supply source)", text), text
        assert line.rule is None or line.rule.startswith(f"{CODES[game]} "), line
    keys = [line.key for line in lines]
    assert len(keys) == len(set(keys)), "one line a key"


def test_a_rule_with_several_exceptions_cites_each_where_it_is_written():
    """003 §7.1 says who exerts a ZOC; the HQ's exception is §9.2.2: each line its own."""
    lines = {x.key: x for x in explain(load_rules(ROOT / "maps" / "cobra" / "rules.json"))}
    assert lines["zoc.exerted_by"].rule == "003 §7.1"
    assert lines["zoc.not_exerted_by[0]"].rule == "003 §9.2.2"
    assert lines["zoc.not_exerted_by[0]"].text == "HQ units exert no ZOC."
    assert lines["movement.ma_modifiers[0]"].text == (
        "On turns 1 and 2, Allied units have half their MA, rounded up.")
    assert lines["overrun.not_on_turns"].rule == "003 §5.9.7"
