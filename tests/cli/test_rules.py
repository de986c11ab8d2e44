"""bocage rules: answers by content, exit codes, the documented --json shapes."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from pipeline.cli import cli

ROOT = Path(__file__).resolve().parents[2]
FM_CASES = ROOT / "tests" / "rules" / "scenarios" / "fm_omaha.json"



def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args], prog_name="bocage")
    return result.exit_code, result.stdout, result.stderr


def test_rules_test_json_counts_and_cases():
    code, out, _ = run("rules", "test", FM_CASES, "--json")
    doc = json.loads(out)
    cases = json.loads(FM_CASES.read_text())
    assert code == 0
    assert doc["passed"] == len(cases) and doc["failed"] == 0
    assert [c["id"] for c in doc["cases"]] == [c["id"] for c in cases]
    assert set(doc["cases"][0]) >= {"id", "passed", "expected", "actual"}


def test_rules_test_counts_an_unanswerable_case_as_failed(tmp_path):
    case = json.loads(FM_CASES.read_text())[0]
    case["query"] = {"kind": "los", "from": "0101", "to": "0303"}  # F&M has no LOS rules
    case["expect"] = {"clear": True}
    path = tmp_path / "cases.json"
    path.write_text(json.dumps([case]))
    code, out, _ = run("rules", "test", path, "--json")
    doc = json.loads(out)
    assert code == 1 and doc == {**doc, "passed": 0, "failed": 1}
    assert "cannot answer" in doc["cases"][0]["problems"][0]


def test_moves_and_check_move_agree(game):
    pos = game / "position.json"
    code, out, _ = run("rules", "moves", game, "-p", pos, "-u", "914/352", "--json")
    assert code == 0
    doc = json.loads(out)
    target, cost = next(iter(doc["reachable"].items()))
    path = ",".join(doc["paths"][target])
    code, out, _ = run("rules", "check-move", game, "-p", pos, "-u", "914/352",
                       "--path", path, "--json")
    assert code == 0 and json.loads(out)["cost"] == cost


def test_check_move_illegal_step_exits_1_and_names_rule(game):
    pos = game / "position.json"
    # 916/352 (leg) stands in 2218; the beach 2318 beside it is in the ZOC of the
    # Rangers in 2417, so the unit must stop there (000 §6.1) and cannot go on.
    code, out, _ = run("rules", "check-move", game, "-p", pos, "-u", "916/352",
                       "--path", "2218,2318,2418")
    assert code == 1
    assert out.strip() == ("illegal at 2418: 916/352 entered the ZOC of 2 Rgr in 2318 and must"
                           " stop (000 §6.1)")


def test_unknown_unit_is_one_line_and_exit_2(game):
    code, _, err = run("rules", "moves", game, "-p", game / "position.json", "-u", "nobody")
    assert code == 2
    assert err.strip().count("\n") == 0 and "unknown unit 'nobody'" in err


def test_stacking_and_supply_report_every_unit(game):
    pos = game / "position.json"
    code, out, _ = run("rules", "stacking", game, "-p", pos, "--json")
    doc = json.loads(out)
    assert code == 0 and all(v["legal"] for v in doc.values())
    code, out, _ = run("rules", "supply", game, "-p", pos, "--json")
    doc = json.loads(out)
    assert code == 0 and doc["2 Rgr"]["in_supply"] is True
    assert doc["2 Rgr"]["rule"] == "000 §12.0 Exception"


def test_los_on_a_game_without_los_rules_is_bad_input(game):
    code, _, err = run("rules", "los", game, "--from", "0101", "--to", "0303")
    assert code == 2 and "no line-of-sight rules" in err


def test_rules_explain_prints_the_rules_of_the_game_with_its_own_citations():
    """A builder reads what the validator will apply: for the invented Ridge Line, its own
    summary's sections and nothing of a seed game; for Omaha, its Rangers (000 §11.2.3)."""
    runner = CliRunner()
    result = runner.invoke(cli, ["rules", "explain", "maps/examples/ridge", "--json"])
    assert result.exit_code == 0, result.output
    lines = json.loads(result.stdout)
    assert {line["topic"] for line in lines} == {"Movement", "Zones of control", "Stacking",
                                                  "Supply"}
    assert all(line["rule"] is None or line["rule"].startswith("RIDGE §") for line in lines)
    by_key = {line["key"]: line for line in lines}
    assert by_key["zoc.enter"]["rule"] == "RIDGE §3.3" and "stop" in by_key["zoc.enter"]["text"]
    assert "Ranger" not in result.stdout and "000" not in result.stdout
    text = runner.invoke(cli, ["rules", "explain", "maps/omaha"])
    assert text.exit_code == 0 and "Zones of control" in text.stdout
    assert "Ranger" in text.stdout and "000 §" in text.stdout


def test_check_move_overrun_flag_enters_the_enemy_hex_as_the_profile_says(tmp_path):
    """--overrun checks the path as an overrun: the enemy hex is entered at its terrain plus
    overrun.cost and the move goes on; without it the enemy hex is barred (the toy profile's
    TOY.md sections are cited, never a seed rulebook's)."""
    from tests.rules.folders import rules_doc, write_game

    doc = rules_doc(overrun={"cost": {"extra_mp": 2, "cite": "TOY.md §7"},
                             "zoc": {"cite": "TOY.md §7.1"}, "cite": "TOY.md §7"})
    doc["movement"]["enemy_hexes"] = {"cite": "TOY.md §2.1"}
    game = write_game(tmp_path / "toy", doc, [
        {"id": "A", "side": "blue", "class": "foot", "movement": 6},
        {"id": "R", "side": "red", "class": "foot", "movement": 3}], {"A": "0101", "R": "0301"},
        rows=1)
    args = ["rules", "check-move", game, "-p", game / "position.json", "-u", "A",
            "--path", "0101,0201,0301,0401"]
    code, out, _ = run(*args, "--overrun", "--json")
    assert code == 0 and json.loads(out)["cost"] == 1 + (2 + 1) + 1
    code, out, _ = run(*args)
    assert code == 1 and out.strip() == ("illegal at 0301: A entered the ZOC of R in 0201 and"
                                         " must stop (TOY §3)")
