"""``bocage demo``: every stage on the sample game bocage ships, as the commands a user types.

The sample (:mod:`pipeline.bundle`) is copied into the demo folder, then each
step runs as its own ``bocage`` process in that folder, exactly the command
line it prints, so a user can run any step again by hand. Nothing here needs
a shell, ``make`` or a checkout: the same steps run from a wheel on any OS.
The folder is made beside the old one and swapped in whole when every step
has run (:func:`pipeline.files.atomic_folder`), so a failed or interrupted
demo leaves the old folder as it was.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import click

from pipeline.bundle import bundled_files
from pipeline.cli.options import HELP, OneLineErrors, emit_json, json_option, quiet_option
from pipeline.cli.paths import OutputPath
from pipeline.errors import DataError
from pipeline.files import atomic_folder
from pipeline.model.folder import FACTS_FILE, MAP_FILE, UNITS_FILE

__all__ = ["DEFAULT_FOLDER", "OUTPUTS", "SAMPLE", "Stage", "Step", "demo", "is_demo_file",
           "stages"]

DEFAULT_FOLDER = "bocage-demo"
SAMPLE = "sample"
"""The sample game's folder inside the demo folder, laid out as the repository
(``maps/demo``, ``counters/demo``, ``schemas``)."""

_GAME = f"{SAMPLE}/maps/demo"
_UNITS = f"{SAMPLE}/counters/demo/{UNITS_FILE}"
_MARKERS = f"{SAMPLE}/counters/demo/markers.csv"

OUTPUTS = {
    SAMPLE: "the sample game, to read and edit (maps/demo, counters/demo, schemas)",
    "digitized.json": "the scan read back into map data",
    "overlay.png": "that reading drawn over the scan",
    "digitized.gpkg": "the same hexes and hexsides as two GIS layers",
    "digitized.jpg": "a copy of the scan for a GIS, which the layers lie on",
    "digitized.jgw": "its world file, which places it under the layers",
    "validation.html": "the hand-entered map checked against the scan and the rulebook",
    "counters": "every counter face as PNG, and a contact sheet",
    "counters.pdf": "duplex counter sheets with bleed and cut marks",
    "aids": "play aids: terrain effects chart, turn track, order of battle, quick"
            " reference, the map in tiles",
    "demo.vmod": "a VASSAL module on the scan, numbered like the printed map",
    "module-preview.png": "the module's map as VASSAL opens it",
    "moves.png": "where the 914th Infantry Regiment can go",
    "supply.png": "who is in supply",
}
"""What the demo folder holds when the demo is done, by name."""


@dataclass(frozen=True)
class Step:
    """One command of the demo: ``bocage`` and ``args`` (paths inside the demo folder).

    ``ok`` are the exit codes that let the demo go on (``validate`` exits 1 when it
    has findings, which the report shows).
    """

    args: tuple[str, ...]
    ok: tuple[int, ...] = (0,)

    def line(self) -> str:
        """The command as a user types it in the demo folder."""
        return " ".join(["bocage", *self.args])


@dataclass(frozen=True)
class Stage:
    """A numbered stage of the demo: what it shows, and its commands."""

    title: str
    steps: tuple[Step, ...]
    note: str = ""


def stages(paper: str = "letter") -> tuple[Stage, ...]:
    """The demo's stages in order, the sheets and aids printed on ``paper``.

    >>> [s.title.split(":")[0] for s in stages()][:3]
    ['check', 'digitize', 'validate']
    """
    return (
        Stage("check: the sample data loads and agrees with itself",
              (Step(("check", _GAME, f"{SAMPLE}/counters/demo")),)),
        Stage("digitize: read the scan back into map data (grid, terrain, hexsides)",
              (Step(("digitize", f"{_GAME}/scan.jpg", "--legend", f"{_GAME}/{MAP_FILE}",
                     "--grid", f"{_GAME}/{MAP_FILE}", "-o", "digitized.json", "--overlay",
                     "overlay.png", "--gis", "digitized.gpkg")),)),
        Stage("validate: the hand-entered map against the scan and the rulebook's facts",
              (Step(("validate", f"{_GAME}/{MAP_FILE}", "--against", "digitized.json", "--facts",
                     f"{_GAME}/{FACTS_FILE}", "--report", "validation.html", "--quiet"),
                    ok=(0, 1)),),
              note="exit 1 means findings, shown in the report; the demo goes on"),
        Stage("counters: one PNG per face, a contact sheet, and a duplex sheet PDF",
              (Step(("counters", "render", _UNITS, _MARKERS, "--out-dir", "counters")),
               Step(("counters", "sheet", _UNITS, _MARKERS, "--paper", paper, "-o",
                     "counters.pdf")))),
        Stage("play aids: charts, turn track, order of battle, quick reference, map tiles",
              (Step(("aids", _GAME, "--paper", paper, "--out-dir", "aids")),)),
        Stage("VASSAL: a module on the scan, numbered like the printed map, and its check",
              (Step(("vassal", "build", _GAME, "--board", f"{_GAME}/scan.jpg", "--grid",
                     "digitized.json", "--counters", "counters", "--charts", "aids", "-o",
                     "demo.vmod")),
               Step(("vassal", "check", "demo.vmod")),
               Step(("vassal", "preview", "demo.vmod", "-o", "module-preview.png")))),
        Stage("rules: where can the 914th Infantry Regiment go, and who is in supply?",
              (Step(("rules", "moves", _GAME, "-p", f"{_GAME}/position.json", "-u", "914/352",
                     "--picture", "moves.png")),
               Step(("rules", "supply", _GAME, "-p", f"{_GAME}/position.json", "--picture",
                     "supply.png")))),
    )


def is_demo_file(name: str) -> bool:
    """Whether a name in the demo folder is one the demo makes (replaced as a set).

    >>> is_demo_file("demo.vmod"), is_demo_file("sample"), is_demo_file("notes.txt")
    (True, True, False)
    """
    return name in OUTPUTS


def _copy_sample(staging: Path) -> int:
    files = bundled_files()
    for name, entry in files.items():
        target = staging / SAMPLE / Path(*name.split("/"))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(entry.read_bytes())
    return len(files)


def _run(step: Step, folder: Path, show: bool) -> int:
    """Run one step as its own process in ``folder``; its exit code."""
    if show:
        click.echo(f"$ {step.line()}")
    sys.stdout.flush()
    # -P: the demo folder is the child's working folder, never a place to import from.
    command = [sys.executable, "-P", "-m", "pipeline.cli", *step.args]
    done = subprocess.run(command, cwd=folder, stdout=None if show else subprocess.DEVNULL,
                          check=False)
    return done.returncode


@click.command(cls=OneLineErrors, context_settings=HELP,
               short_help="Run every stage on the bundled sample game.")
@click.argument("folder", metavar="[DIR]", required=False, default=DEFAULT_FOLDER,
                type=OutputPath("folder", owns=is_demo_file))
@click.option("--paper", type=click.Choice(["letter", "a4"]), default="letter",
              show_default=True, help="Paper of the counter sheets and play aids.")
@json_option
@quiet_option
def demo(folder: Path, paper: str, as_json: bool, quiet: bool) -> None:
    """Run every stage of bocage on the sample game it ships, into DIR (default: bocage-demo).

    The sample, an illustrative Omaha sector (map, rules profile, scenario, facts,
    counters and a simulated scan of the printed map), is copied to DIR/sample/.
    Then each stage runs as the command it prints, in DIR: check the data,
    digitize the scan, validate the map, render counters and sheets, print the
    play aids, build and check a VASSAL module, and answer two rules questions.
    To run a step again, go to DIR and type its command.

    DIR is made whole or not at all: it is swapped in when every step has run,
    keeping any other file in it; if a step fails DIR is left as it was.

    \b
    Examples:
      bocage demo
      bocage demo build/demo --paper a4
    """
    show = not (quiet or as_json)
    ran: list[dict[str, object]] = []
    with atomic_folder(folder, owns=is_demo_file) as writer:
        count = _copy_sample(writer.staging)
        if show:
            click.echo(f"bocage demo: the sample game ({count} files) is in {folder}/{SAMPLE}/;"
                       f" each command below runs in {folder}/")
        for number, stage in enumerate(stages(paper), 1):
            if show:
                click.echo(f"== {number}. {stage.title} ==")
                if stage.note:
                    click.echo(f"   ({stage.note})")
            for step in stage.steps:
                code = _run(step, writer.staging, show)
                ran.append({"command": step.line(), "exit": code})
                if code not in step.ok:
                    raise DataError(folder, "", f"step {number} failed: '{step.line()}' exited"
                                    f" {code}; the folder is left as it was")
    if as_json:
        emit_json({"folder": str(folder), "steps": ran, "outputs": sorted(OUTPUTS)})
    elif show:
        click.echo(f"== done: the outputs are in {folder}/ ==")
        width = max(len(name) for name in OUTPUTS) + 1
        for name, what in OUTPUTS.items():
            shown = f"{name}/" if (folder / name).is_dir() else name
            click.echo(f"   {shown:<{width}} {what}")
