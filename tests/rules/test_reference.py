"""The rules.json reference: every key documented from the model, the README's copy current,
the guide's example profile complete and the one the README shows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipeline.cli.docs import (
    EXAMPLE_END,
    EXAMPLE_PROFILE,
    EXAMPLE_START,
    RULES_END,
    RULES_START,
    example_profile,
    rules_reference,
)
from pipeline.model import load_rules
from pipeline.model.rulesprofile import UnitSelector
from pipeline.rules import Engine
from pipeline.rules.game import load_game
from pipeline.rules.profilecheck import _given, check_profile_keys
from pipeline.rules.reference import DOCUMENTATION_KEYS, SELECTOR, rules_keys

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PROFILES = sorted(p for p in (ROOT / "maps").rglob("rules.json"))


def _block(start: str, end: str) -> str:
    text = README.read_text(encoding="utf-8")
    block = re.search(re.escape(start) + r"(.*?)" + re.escape(end), text, re.DOTALL)
    assert block, f"README has no block {start}"
    return block.group(1).strip()


def test_the_readme_key_reference_is_the_generated_one():
    assert _block(RULES_START, RULES_END) == rules_reference().strip(), \
        "run `make docs` to refresh README"


def test_the_readme_example_is_the_example_games_profile():
    assert _block(EXAMPLE_START, EXAMPLE_END) == example_profile().strip(), \
        "run `make docs` to refresh README"


def test_every_key_has_a_type_and_a_meaning():
    keys = rules_keys()
    assert len({k.key for k in keys}) == len(keys)
    missing = [k.key for k in keys if not k.meaning.strip() or not k.kind]
    assert missing == [], "describe these fields in pipeline/model/rulesprofile.py"
    assert all(k.readers for k in keys), [k.key for k in keys if not k.readers]


@pytest.mark.parametrize("path", PROFILES, ids=lambda p: str(p.parent.relative_to(ROOT)))
def test_every_key_a_game_gives_is_in_the_reference(path):
    """A key a profile gives that the reference lacks would be undocumented."""
    documented = {k.pattern for k in rules_keys()}
    selectors = {k.pattern + (".*" if k.kind.endswith("by name") else "")
                 for k in rules_keys() if "unit selector" in k.kind}
    selector_keys = set(UnitSelector.model_fields)
    for place, pattern in _given(load_rules(path), "", ""):
        head, _, last = pattern.rpartition(".")
        assert (pattern in documented or last in DOCUMENTATION_KEYS or last == "notes"
                or (head in selectors and last in selector_keys)), (place, pattern)


def test_readers_are_the_systems_that_apply_the_key():
    keys = {k.key: k for k in rules_keys()}
    assert keys["los.bars.*.level"].readers == ("tactical",)
    assert keys["terrain.*.entry_roll"].readers == ("tactical",)
    assert "tactical" not in keys["overrun.cost.extra_mp"].readers
    assert "tactical" in keys["overrun.only_into.terrain"].readers
    assert keys["zoc.enter.stop"].readers == ("cobra", "fm_omaha", "generic", "june44",
                                              "tactical")
    assert keys[f"{SELECTOR}.flags"].kind == "list of names"
    assert keys["stacking.limit"].default == "required"
    assert keys["zoc.enter.extra_mp"].kind == "number" and keys["zoc.enter.extra_mp"].default == "0"


def test_the_example_profile_is_complete_and_answers():
    """The guide's profile needs nothing else: it checks, and its game answers a move and
    supply citing its own summary."""
    profile = load_rules(EXAMPLE_PROFILE)
    check_profile_keys(profile)
    folder = EXAMPLE_PROFILE.parent
    engine = Engine(load_game(folder, folder / "position.json"))
    reach = engine.reachable("N1")
    assert reach.costs and all(v.rule is None or v.rule.startswith("RIDGE §")
                               for v in reach.refused.values())
    assert all(a.rule is None or a.rule.startswith("RIDGE §") for a in engine.supply().values())
