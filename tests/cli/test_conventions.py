"""Every command keeps the command-line conventions the README lists (Inputs and outputs).

The commands are walked from the root group, so a new command is held to them as soon
as it is registered; what ``--quiet`` prints is checked by running the rules commands,
where the exit code is the answer.
"""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from pipeline.cli import cli
from pipeline.cli.paths import OutputPath, RenamedOption
from tests.vassal.conftest import make_game

ROOT = Path(__file__).resolve().parents[2]
# A server: it prints the address it serves and nothing else, so it has neither.
NO_QUIET_OR_JSON = {"studio"}


def _leaves(group: click.Group, path: tuple[str, ...] = ()
            ) -> list[tuple[str, click.Command]]:
    ctx = click.Context(group)
    out = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None, name
        if isinstance(command, click.Group):
            out += _leaves(command, (*path, name))
        else:
            out.append((" ".join((*path, name)), command))
    return out


COMMANDS = _leaves(cli)


def _options(command: click.Command) -> set[str]:
    return {o for p in command.params if isinstance(p, click.Option) for o in p.opts}


def test_the_walk_finds_every_command():
    names = {n for n, _ in COMMANDS}
    assert {"digitize", "rules check-move", "vassal inspect", "counters sheet"} <= names
    assert len(names) >= 20


@pytest.mark.parametrize("name,command", COMMANDS, ids=[n for n, _ in COMMANDS])
def test_every_command_has_help_quiet_and_json(name: str, command: click.Command):
    opts = _options(command)
    code, out, _ = run(*name.split(), "-h")
    assert code == 0 and out.startswith(f"Usage: bocage {name} "), out[:80]
    if name in NO_QUIET_OR_JSON:
        assert "--quiet" not in opts and "--json" not in opts
        return
    assert {"-q", "--quiet"} <= opts, name
    assert "--json" in opts, name


def _outputs(command: click.Command) -> list[click.Option]:
    return [p for p in command.params if isinstance(p, click.Option)
            and isinstance(p.type, OutputPath)]


@pytest.mark.parametrize("name,command", COMMANDS, ids=[n for n, _ in COMMANDS])
def test_the_one_file_is_o_output_and_the_folder_out_dir(name: str, command: click.Command):
    """A folder a command fills is ``--out-dir``; the one file it writes, ``-o/--output``;
    what it writes beside its answer has a name of its own (never ``--out`` or ``-o``)."""
    for option in _outputs(command):
        shown = option.shown() if isinstance(option, RenamedOption) else option.opts
        if option.type.kind == "folder":
            assert shown == ["--out-dir"], (name, shown)
        elif "-o" in option.opts:
            assert shown == ["-o", "--output"], (name, shown)
        else:
            assert not {"--out", "--output", "--pdf"} & set(shown), (name, shown)
    files = [o for o in _outputs(command) if "-o" in o.opts]
    assert len(files) <= 1 and not (files and any(o.type.kind == "folder"
                                                  for o in _outputs(command))), name
    code, out, _ = run(*name.split(), "-h")
    assert code == 0 and "--out " not in out and "--pdf " not in out, name


@pytest.mark.parametrize("args,param", [
    (["counters", "render", "u.csv", "--out", "faces"], "out"),
    (["aids", "game", "--out", "aids"], "out"),
    (["vassal", "build", "game", "--out", "m.vmod"], "out"),
    (["counters", "sheet", "u.csv", "--pdf", "s.pdf"], "pdf"),
    (["digitize", "scan.png", "-l", "map.json", "--out", "m.json"], "out"),
])
def test_the_names_before_the_rule_are_still_read(args: list[str], param: str):
    group: click.Command = cli
    words = list(args)
    ctx = click.Context(cli)
    while isinstance(group, click.Group):
        found = group.get_command(ctx, words.pop(0))
        assert found is not None
        group = found
    parsed = group.make_context(args[0], words)
    assert parsed.params[param] == Path(args[-1])


def run(*args: object) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args], prog_name="bocage")
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("name,command", COMMANDS, ids=[n for n, _ in COMMANDS])
def test_every_command_has_verbose(name: str, command: click.Command):
    assert {"-v", "--verbose"} <= _options(command), name


def test_verbose_tells_what_was_read_and_written_and_only_when_asked(game: Path,
                                                                    tmp_path: Path):
    picture = tmp_path / "moves.png"
    args = ("rules", "moves", game, "-p", game / "position.json", "-u", "914/352",
            "--picture", picture)
    code, out, err = run(*args, "-v")
    assert code == 0
    told = err.splitlines()
    assert f"bocage: read {game / 'position.json'}" in told
    assert f"bocage: wrote {picture}" in told
    assert "914/352" in out  # the answer is where it was, on standard output
    code, out, err = run(*args)  # the next run does not inherit -v
    assert code == 0 and not [line for line in err.splitlines() if line.startswith("bocage: ")]


def _stderr_on_a_terminal(args: list[str]) -> tuple[int, str]:
    """Run bocage with standard error on a pseudo-terminal: (exit code, what it showed)."""
    master, slave = pty.openpty()
    done = subprocess.run([sys.executable, "-m", "pipeline.cli", *args], cwd=ROOT,
                          stdout=subprocess.DEVNULL, stderr=slave, check=False, timeout=300)
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the terminal's other end is closed: all is read
            break
        if not chunk:
            break
        shown += chunk
    os.close(master)
    return done.returncode, shown.decode("utf-8", "replace")


def test_a_long_step_shows_a_bar_on_a_terminal_and_never_in_a_pipe(tmp_path: Path):
    args = ["counters", "render", "counters/demo/units.csv", "--out-dir", str(tmp_path / "a")]
    code, shown = _stderr_on_a_terminal(args)
    assert code == 0
    assert "drawing counters" in shown and "100%" in shown, shown[-300:]
    code, shown = _stderr_on_a_terminal([*args, "-q"])
    assert code == 0 and "drawing counters" not in shown
    piped = subprocess.run([sys.executable, "-m", "pipeline.cli", *args], cwd=ROOT,
                           capture_output=True, text=True, check=False, timeout=300)
    assert piped.returncode == 0 and "drawing counters" not in piped.stderr
    code, shown = _stderr_on_a_terminal(["counters", "sheet", "counters/demo/units.csv", "-o",
                                         str(tmp_path / "s.pdf")])
    assert code == 0 and "printing sheets" in shown and "100%" in shown, shown[-300:]
    game = make_game(tmp_path / "g")
    code, shown = _stderr_on_a_terminal(["vassal", "build", str(game), "--board",
                                         str(game / "board.png"), "-o", str(tmp_path / "m.vmod")])
    assert code == 0 and "building the module" in shown and "packing" in shown, shown[-300:]


def test_quiet_rules_answers_by_exit_code_alone(game: Path):
    pos = game / "position.json"
    code, out, _ = run("rules", "check-move", game, "-p", pos, "-u", "916/352",
                       "--path", "2218,2318,2418", "-q")
    assert (code, out) == (1, "")  # illegal: 000 §6.1, the ZOC of 2 Rgr in 2318
    code, out, _ = run("rules", "check-move", game, "-p", pos, "-u", "916/352",
                       "--path", "2218,2318", "-q")
    assert (code, out) == (0, "")
    code, out, _ = run("rules", "stacking", game, "-p", pos, "--quiet")
    assert (code, out) == (0, "")
    code, out, _ = run("rules", "moves", game, "-p", pos, "-u", "914/352", "-q")
    assert (code, out) == (0, "")
    # --json is what a script asked for: it prints under --quiet too.
    code, out, _ = run("rules", "stacking", game, "-p", pos, "-q", "--json")
    assert code == 0 and all(v["legal"] for v in json.loads(out).values())


def test_quiet_rules_test_prints_only_its_failures(tmp_path: Path):
    cases = json.loads((ROOT / "tests" / "rules" / "scenarios" / "fm_omaha.json").read_text())
    bad = {**cases[0], "id": "made-to-fail", "query": {"kind": "los", "from": "0101",
                                                      "to": "0303"}, "expect": {"clear": True}}
    path = tmp_path / "cases.json"
    path.write_text(json.dumps([cases[0], bad]))
    code, out, _ = run("rules", "test", path, "-q")
    lines = out.splitlines()
    assert code == 1
    assert lines[0].startswith("FAIL  made-to-fail") and "cannot answer" in lines[1]
    assert cases[0]["id"] not in out and "passed" not in out


def test_shell_completion_as_the_readme_says():
    """The README's start-up line works: the script, then the completions it asks for."""
    env = {**os.environ, "_BOCAGE_COMPLETE": "bash_source"}
    script = subprocess.run([sys.executable, "-m", "pipeline.cli"], env=env, cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout
    assert "_bocage_completion" in script and "complete " in script
    env = {**os.environ, "_BOCAGE_COMPLETE": "bash_complete", "COMP_WORDS": "bocage ru",
           "COMP_CWORD": "1"}
    words = subprocess.run([sys.executable, "-m", "pipeline.cli"], env=env, cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout
    assert "plain,rules" in words.splitlines()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert 'eval "$(_BOCAGE_COMPLETE=bash_source bocage)"' in readme
