"""The two invented example games (maps/examples/): written only as data, answered by the
kernel alone, each with a scenario suite derived from its one-page RULES.md."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pipeline.cli import cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = {"ridge": "RIDGE", "ironroads": "IRON"}


def folder(game: str) -> Path:
    return ROOT / "maps" / "examples" / game


@pytest.mark.parametrize("game", EXAMPLES)
def test_the_scenario_suite_passes_through_bocage_rules_test(game):
    suite = folder(game) / "cases" / "scenarios.json"
    result = CliRunner().invoke(cli, ["rules", "test", str(suite), "--json"])
    report = json.loads(result.stdout)
    assert result.exit_code == 0, [c for c in report["cases"] if not c["passed"]]
    assert report["failed"] == 0 and report["passed"] >= 25


@pytest.mark.parametrize("game", EXAMPLES)
def test_every_case_cites_a_section_of_the_game_s_own_summary(game):
    summary = (folder(game) / "RULES.md").read_text(encoding="utf-8")
    sections = set(re.findall(r"^(\d+\.\d+) ", summary, flags=re.M))
    cases = json.loads((folder(game) / "cases" / "scenarios.json").read_text(encoding="utf-8"))
    for case in cases:
        assert case["system"] == "generic" and case["profile"] == "../rules.json", case["id"]
        assert case["rules"] and set(case["rules"]) <= sections, case["id"]
        for answer in [case["expect"], *case["expect"].get("units", {}).values(),
                       *case["expect"].get("not_reachable", {}).values()]:
            if isinstance(answer, dict) and "rule" in answer:
                assert answer["rule"] in sections, case["id"]


@pytest.mark.parametrize("game", EXAMPLES)
def test_the_folder_checks_and_its_answers_cite_only_its_own_summary(game):
    runner = CliRunner()
    where = folder(game)
    check = runner.invoke(cli, ["check", str(where)])
    assert check.exit_code == 0, check.output
    supply = runner.invoke(cli, ["rules", "supply", str(where), "-p", str(where / "position.json"),
                                 "--json"])
    answers = json.loads(supply.stdout)
    assert answers and all(a["rule"].startswith(f"{EXAMPLES[game]} §")
                           for a in answers.values())


def test_a_per_class_road_rate_is_read_on_a_game_folder():
    """Iron Roads 2.4: along a road a motor unit pays ½ MP and a leg unit 1 (the game
    folder's chart keeps the profile's per-class rates, as a case's does)."""
    where = folder("ironroads")
    runner = CliRunner()
    costs = {}
    for unit in ("R2", "R1"):
        result = runner.invoke(cli, ["rules", "moves", str(where), "-p",
                                     str(where / "position.json"), "-u", unit, "--json"])
        assert result.exit_code == 0, result.output
        costs[unit] = json.loads(result.stdout)["reachable"]
    assert costs["R2"]["0302"] == 0.5  # R2 (motor) from 0202 along the road
    assert costs["R1"]["0402"] == 1  # R1 (leg) from 0302 along the road
