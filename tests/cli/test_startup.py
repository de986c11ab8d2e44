"""The root command starts at once: subcommands and their libraries load only when they run.

Issue 18 (fast start): ``bocage --help`` and ``bocage --version`` import none of the heavy
libraries; the listing they print comes from :data:`pipeline.cli.COMMANDS`, held here to
each command's own help.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from pipeline.cli import COMMANDS, cli

HEAVY = ("cv2", "numpy", "sklearn", "reportlab", "shapely", "lxml", "PIL", "pydantic",
         "scipy", "pipeline.digitize", "pipeline.counters", "pipeline.model")

_PROBE = """
import json, sys
from pipeline.cli import cli
try:
    cli(sys.argv[1:], prog_name="bocage")
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)))
"""


def _loaded(*args: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", _PROBE, *args], check=True,
                         capture_output=True, text=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize("args", [["--help"], ["--version"], []])
def test_the_root_command_imports_no_heavy_library(args: list[str]) -> None:
    loaded = _loaded(*args)
    heavy = sorted(m for m in loaded if m.split(".")[0] in HEAVY or m in HEAVY)
    assert heavy == []


@pytest.mark.slow
def test_a_subcommand_loads_what_it_needs() -> None:
    # The probe is honest: running a subcommand does import its libraries.
    loaded = _loaded("digitize", "--help")
    assert "pipeline.digitize" in loaded and "cv2" in loaded


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_listed_line_is_the_commands_own_help(name: str) -> None:
    command = cli.get_command(click.Context(cli), name)
    assert isinstance(command, click.Command)
    assert command.name == name
    assert COMMANDS[name][1] == command.get_short_help_str(limit=300)


def test_the_listing_names_every_command_in_pipeline_order() -> None:
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    listed = result.output.split("Commands:")[1].split()
    positions = [listed.index(name) for name in COMMANDS]
    assert positions == sorted(positions)
    assert "Check data files and game folders against their schemas." in result.output


def test_an_unknown_command_is_one_usage_error() -> None:
    result = CliRunner().invoke(cli, ["digitise"])
    assert result.exit_code == 2
    assert "digitise" in result.output


@functools.cache
def _supply_on_the_demo() -> frozenset[str]:
    """What `bocage rules supply maps/demo --position maps/demo/position.json` imports."""
    demo = Path(__file__).resolve().parents[2] / "maps" / "demo"
    loaded = _loaded("rules", "supply", str(demo), "--position", str(demo / "position.json"))
    assert "pipeline.rules.supply" in loaded  # the probe ran the question
    return frozenset(loaded)


def test_a_rules_question_loads_no_drawing_and_no_vassal_reader() -> None:
    # Issue 18: `rules supply` on the demo answers in a fraction of a second, so what only
    # --picture (drawing) or --vsav (the VASSAL reader) needs is imported when asked for.
    loaded = _supply_on_the_demo()
    assert not {"pipeline.render", "pipeline.vassal", "reportlab", "cv2", "lxml"} & loaded


def test_a_rules_question_loads_no_array_or_geometry_library() -> None:
    # Hex ids, neighbours and hexsides are plain Python: NumPy and Shapely (a third of the
    # question's time) are imported by the grid's pixel methods alone (pipeline.hexgrid).
    loaded = _supply_on_the_demo()
    assert "pipeline.hexgrid.grid" in loaded
    assert sorted({"numpy", "shapely", "scipy", "PIL"} & loaded) == []


def test_a_rules_question_reads_only_the_kinds_of_document_it_needs() -> None:
    # The game folder loads a kind of document's classes when it first reads one: the map,
    # the rules profile, the units and the position, never the CRT, the facts, the
    # scenarios, nor the folder check and the schemas.
    loaded = _supply_on_the_demo()
    read = {"pipeline.model.mapdata", "pipeline.model.rulesprofile",
            "pipeline.model.manifest", "pipeline.model.position"}
    assert read <= loaded
    assert sorted({"pipeline.model.crt", "pipeline.model.facts", "pipeline.model.scenario",
                   "pipeline.model.check", "pipeline.model.schema"} & loaded) == []


def test_a_rules_question_loads_no_scenario_cases() -> None:
    # pipeline.rules gives each name from its module when first asked for: the scenario
    # cases' reader and runner are `rules test`'s alone.
    loaded = _supply_on_the_demo()
    assert "pipeline.rules.engine" in loaded
    assert sorted({"pipeline.rules.cases", "pipeline.rules.scenarios"} & loaded) == []


def test_a_command_that_swaps_no_folder_loads_no_c_binding() -> None:
    # ctypes (the C library's folder swap and file-system flush, pipeline.files) is
    # imported by the writers of whole folders when they swap one in.
    assert "ctypes" not in _supply_on_the_demo()


def test_counter_faces_load_no_map_sheet_or_image_library() -> None:
    # Drawing faces reads manifests and a style: not the map's classes (numpy, shapely),
    # the game folders, the PDF sheets or OpenCV (pipeline.lazy).
    loaded = _loaded("counters", "render", "--help")
    assert "pipeline.counters.render" in loaded
    assert sorted({"numpy", "shapely", "cv2", "reportlab", "lxml", "pipeline.model.mapdata",
                   "pipeline.model.folder", "pipeline.counters.sheet"} & loaded) == []
