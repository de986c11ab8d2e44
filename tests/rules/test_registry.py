"""Rule systems are registered, not listed: the ``bocage.rules`` entry points are the one list.

A toy plugin is installed the way a real one is (a distribution's metadata with an entry
point, here a ``.dist-info`` folder on the import path) and answers ``bocage rules moves``
without any file of the repository being edited.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from pipeline.cli import cli
from pipeline.model import rules_from_data
from pipeline.model.schema import schema_for
from pipeline.model.systems import system_ids
from pipeline.rules import case_from_data
from pipeline.rules.errors import RulesError
from pipeline.rules.kernel import Kernel
from pipeline.rules.registry import reference_profile, registry, spec_for, system_for

from .folders import rules_doc, write_game

TOY = textwrap.dedent('''
    """A toy rule system for bocage's registry test."""

    from pipeline.rules.kernel import KERNEL_READS, Kernel


    class Toy(Kernel):
        """Every step costs one MP, whatever the terrain (TOY.md §9)."""

        name = "toy"
        title = "a toy system: every step costs one MP"
        rulebook = "TOY.md"
        code = "TOY"
        reads = KERNEL_READS
        overrides = {"step_cost": "9"}

        def step_cost(self, engine, unit_class, frm, to):
            """TOY.md §9: every step costs one MP."""
            return 1.0
''')


@pytest.fixture
def toy_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A distribution ``toy-rules`` registering the system ``toy``, on the import path."""
    site = tmp_path / "site"
    (site / "toy_rules").mkdir(parents=True)
    (site / "toy_rules" / "__init__.py").write_text(TOY)
    info = site / "toy_rules-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-rules\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[bocage.rules]\ntoy = toy_rules:Toy\n")
    monkeypatch.syspath_prepend(str(site))
    return site


def _moves(game: Path) -> dict[str, float]:
    result = CliRunner().invoke(cli, ["rules", "moves", str(game), "-p",
                                      str(game / "position.json"), "-u", "A", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["reachable"]


def test_a_plugin_system_answers_bocage_rules_moves(toy_plugin, tmp_path):
    units = [{"id": "A", "side": "blue", "class": "foot", "movement": 3}]
    woods = {h: ["woods"] for h in ("0302", "0304", "0202", "0203", "0402", "0403")}
    kernel = write_game(tmp_path / "kernel", rules_doc(), units, {"A": "0303"}, woods)
    toy = write_game(tmp_path / "toy", rules_doc("toy"), units, {"A": "0303"}, woods)
    assert "toy" in registry() and "toy" in system_ids()
    assert set(_moves(kernel).values()) == {3}  # woods all round: 3 MP, once
    reach = _moves(toy)
    assert reach["0302"] == 1 and reach["0301"] == 2 and max(reach.values()) == 3
    spec = spec_for("toy")
    assert (spec.rulebook, spec.code, spec.overrides) == ("TOY.md", "TOY", {"step_cost": "9"})


def test_the_schema_enum_and_the_case_reader_know_a_plugin(toy_plugin):
    assert "toy" in schema_for("rules")["properties"]["system"]["enum"]
    profile = rules_doc("toy")
    case = case_from_data({"system": "toy", "profile": profile, "map": {"cols": 2, "rows": 1},
                           "units": [], "state": {}, "query": {}, "expect": {}})
    assert case.situation.system == "toy"


def test_without_the_plugin_the_system_is_unknown_and_refused_by_name():
    assert "toy" not in registry()
    with pytest.raises(Exception, match="unknown rule system 'toy'"):
        rules_from_data(rules_doc("toy"), "rules.json")
    with pytest.raises(RulesError, match="unknown rule system 'toy'"):
        system_for("toy")


def test_generic_or_no_system_is_the_kernel_alone():
    doc = rules_doc()
    del doc["system"]
    assert rules_from_data(doc, "r").system == "generic"
    assert type(system_for("generic")) is Kernel and reference_profile("generic") is None


def test_the_seed_systems_are_registered_with_their_rulebooks_and_profiles():
    seeds = {name: spec for name, spec in registry().items() if spec.reference is not None}
    assert sorted(seeds) == ["cobra", "fm_omaha", "june44", "tactical"]
    for name, spec in seeds.items():
        profile = reference_profile(name)
        assert profile is not None and profile.system == name
        assert spec.rulebook.startswith(spec.code) and spec.rulebook in profile.source
        assert spec.reads, name


def test_a_misregistered_class_is_refused(tmp_path, monkeypatch):
    site = tmp_path / "site"
    (site / "bad_rules").mkdir(parents=True)
    (site / "bad_rules" / "__init__.py").write_text(
        "from pipeline.rules.kernel import Kernel\n\nclass Bad(Kernel):\n    name = 'other'\n")
    info = site / "bad_rules-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: bad-rules\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[bocage.rules]\nbad = bad_rules:Bad\n")
    monkeypatch.syspath_prepend(str(site))
    with pytest.raises(RulesError, match=r"registered for bad_rules.Bad, whose id is 'other'"):
        registry()


@pytest.mark.parametrize("name", sorted(n for n in registry() if n != "generic"))
def test_a_system_overrides_only_the_kernel_hooks_it_declares(name):
    """Each seed system keeps only its true procedures, declared with their sections: every
    kernel method it redefines is in ``overrides``, every declared one is redefined, and its
    docstring says the rule in words."""
    spec = spec_for(name)
    cls = spec.factory
    redefined = {n for n, v in vars(cls).items() if callable(v) and not n.startswith("_")
                 and hasattr(Kernel, n)}
    assert redefined == set(spec.overrides), name
    for hook, section in spec.overrides.items():
        doc = " ".join((getattr(cls, hook).__doc__ or "").split())
        # A numbered section is cited as such; a heading's paragraph is quoted.
        quoted = section.split(": ", 1)[1] if ": " in section else f"§{section}"
        assert quoted in doc, (hook, quoted)


def test_no_seed_system_holds_a_published_number():
    """ARCHITECTURE.md: the rules package holds no published number; a system's code names
    sections, never the numbers of a table (those are the profiles')."""
    import ast
    import inspect

    for name in sorted(n for n in registry() if n != "generic"):
        tree = ast.parse(inspect.getsource(inspect.getmodule(spec_for(name).factory)))
        numbers = [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
                   and isinstance(node.value, int | float) and not isinstance(node.value, bool)
                   and node.value not in (0, 1)]
        assert numbers == [], (name, numbers)
