"""Counter speed, as ratios to baselines timed in the same run, pair by pair (A B A B).

* ``bocage counters render`` on 2,021 units (4,042 faces at 5/8 in, 300 dpi,
  188 px), the whole command in its own process, against the same count of
  minimal Pillow counters (the background, a framed box with an X, the size
  mark, the two ids and the values, in the same fonts) encoded with Pillow's
  default PNG settings and written one file each, also in a process of its
  own. Goal (issue 18): at least 1,000 faces a second on 2 cores.
* the same laid-out faces painted in this process (one core), against the
  minimal counter drawn in this process;
* a 300-counter duplex PDF (Letter, 3 mm bleed), vector art, against
  reportlab placing 300 distinct plain images of the same pixel size.

``BENCH_COUNTERS_UNITS`` and ``BENCH_PAIRS`` change the size and the number of
pairs. CPU time counts this process and its children (the command's workers).

Each run writes a folder of its own, and the folders are removed after the last
pair, not before each run: on a file system without a journal (ext4 here),
creating a file within half a minute of the removal of thousands near it scans
every recently freed inode (ext4's ``recently_deleted``), which made a run that
followed the removal of the previous run's 4,000 faces pay seconds of kernel
time in opening its files, the command and the baseline alike. For the same
reason the work folder is in the checkout's ``build/`` (where outputs go), not
in ``/tmp``, where every test run makes and removes its files: creating a file
there cost 0.6-0.8 ms against 0.03 ms in ``build/`` at the same moment. Runs of
the bench less than a minute apart still see the previous one's removal.
"""

from __future__ import annotations

import csv
import io
import itertools
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont
from reportlab import rl_config
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from pipeline.counters import RenderOptions, SheetOptions, write_sheet_pdf
from pipeline.counters.measure import MM
from pipeline.counters.raster import Painter
from pipeline.counters.render import CounterArt, draw_manifests
from pipeline.counters.typeset import FONT_DIR, FONTS
from pipeline.model.manifest import UnitManifest, UnitSpec, load_units

try:  # run through bench/run.py, or directly as a script
    from pairs import interleaved
    from run import Row, format_table
except ImportError:  # pragma: no cover - imported as bench.bench_counters
    from bench.pairs import interleaved
    from bench.run import Row, format_table

HERE = Path(__file__).resolve().parent
UNITS = int(os.environ.get("BENCH_COUNTERS_UNITS", "2021"))
PAIRS = int(os.environ.get("BENCH_PAIRS", "3"))
TYPES = ("infantry", "armor", "mechanized", "artillery", "parachute", "anti_tank", "recon",
         "headquarters", "engineer", "anti_aircraft")
SIZES = ("regiment", "battalion", "division", "brigade", "company", "kampfgruppe")
SIDES = (("allied", "US"), ("german", "German"), ("allied", "British"))
COLUMNS = ("id", "side", "nationality", "type", "size", "class", "attack", "defence",
           "movement", "back_attack", "back_defence", "back_movement", "setup_hex")


def manifest(count: int) -> list[UnitSpec]:
    """``count`` units cycling through types, sizes and sides, values filled in (invented)."""
    units = []
    for i, unit_type, size, (side, nation) in zip(
            range(count), itertools.cycle(TYPES), itertools.cycle(SIZES),
            itertools.cycle(SIDES), strict=False):
        units.append(UnitSpec(id=f"{100 + i}/{i % 30}", side=side, nationality=nation,
                              type=unit_type, size=size, unit_class="mobile" if i % 4 else "leg",
                              attack=i % 9 + 1, defence=i % 7 + 1, movement=i % 6 + 3,
                              back_attack=i % 4 + 1, back_defence=i % 3 + 1,
                              back_movement=i % 6 + 3, setup_hex=f"{1000 + i}"))
    return units


def write_manifest(path: Path, count: int) -> None:
    """The bench manifest as a units.csv."""
    with path.open("w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(COLUMNS)
        for unit in manifest(count):
            row = unit.model_dump(by_alias=True)
            out.writerow(["" if row[c] is None else row[c] for c in COLUMNS])


# -- the baseline: a minimal Pillow counter ------------------------------------------------


def minimal_counter(unit: UnitSpec, fonts: dict[str, ImageFont.FreeTypeFont],
                    back: bool) -> Image.Image:
    """A counter the simplest way: the box, its X, the size mark, two ids, the values."""
    side = 188
    image = Image.new("RGB", (side, side), (164, 184, 109))
    draw = ImageDraw.Draw(image)
    draw.rectangle((51, 47, 136, 103), fill=(226, 233, 201), outline=(0, 0, 0), width=2)
    draw.line((51, 47, 136, 103), fill=(0, 0, 0), width=2)
    draw.line((51, 103, 136, 47), fill=(0, 0, 0), width=2)
    draw.text((94, 40), "III", font=fonts["condensed"], fill=(0, 0, 0), anchor="ms")
    own, _, parent = unit.id.partition("/")
    draw.text((28, 82), own, font=fonts["condensed"], fill=(0, 0, 0), anchor="ms")
    draw.text((160, 82), parent, font=fonts["condensed"], fill=(0, 0, 0), anchor="ms")
    values = (unit.back_attack, unit.back_defence, unit.back_movement) if back else (
        unit.attack, unit.defence, unit.movement)
    draw.text((94, 160), "-".join(str(v) for v in values), font=fonts["bold"], fill=(0, 0, 0),
              anchor="ms")
    return image


def baseline_folder(units_csv: Path, out: Path) -> None:
    """Every face of the manifest as a minimal counter, PNG-encoded, one file each."""
    fonts = {"bold": ImageFont.truetype(str(FONT_DIR / FONTS["bold"]), 51),
             "condensed": ImageFont.truetype(str(FONT_DIR / FONTS["condensed"]), 30)}
    out.mkdir(parents=True, exist_ok=True)
    for n, unit in enumerate(load_units(units_csv)):
        for back in (False, True):
            minimal_counter(unit, fonts, back).save(out / f"{n}-{int(back)}.png", "PNG")


def _paint_all(art: list[CounterArt]) -> None:
    """Paint the faces as the command's workers do: a painter (its store of drawn text) for
    every 64 counters."""
    for start in range(0, len(art), 64):
        painter = Painter()
        for counter in art[start:start + 64]:
            painter.paint(counter.front)
            painter.paint(counter.back)


def _split(run: Callable[[], None], into: list[tuple[float, float]]) -> Callable[[], None]:
    """``run``, recording the user and system CPU seconds of the processes it starts.

    The command's system time is mostly making its 4,000 files, which on this file system
    depends on what was removed near them in the last half minute (see the docstring);
    its user time is the work of bocage itself.
    """
    def timed() -> None:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        run()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        into.append((after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime))
    return timed


def _command(units_csv: Path, out: Path) -> None:
    bocage = Path(sys.executable).with_name("bocage")
    subprocess.run([str(bocage), "counters", "render", str(units_csv), "--out-dir", str(out),
                    "--quiet"], check=True)


def _baseline_command(units_csv: Path, out: Path) -> None:
    subprocess.run([sys.executable, str(Path(__file__)), "--baseline", str(units_csv),
                    str(out)], check=True)


# -- the PDF baseline --------------------------------------------------------------------


def _plain_pdf(images: list[Image.Image], side_pt: float) -> None:
    rl_config.useA85 = 0  # images stored binary, as bocage's PDFs do
    canvas = Canvas(io.BytesIO(), pagesize=(612, 792), invariant=True)
    for n, image in enumerate(images):
        if n and n % 88 == 0:
            canvas.showPage()
        slot = n % 88
        canvas.drawImage(ImageReader(image), 36 + (slot % 8) * side_pt,
                         36 + (slot // 8) * side_pt, width=side_pt, height=side_pt)
    canvas.showPage()
    canvas.save()


def main() -> list[Row]:
    rows: list[Row] = []
    build = HERE.parent / "build"  # see the docstring: not /tmp
    work = Path(tempfile.mkdtemp(prefix="bocage-bench-", dir=build if build.is_dir() else None))
    try:
        units_csv = work / "units.csv"
        write_manifest(units_csv, UNITS)
        faces = 2 * UNITS
        runs = itertools.count()

        def fresh(kind: str) -> Path:
            return work / f"{kind}{next(runs)}"  # a new folder each run (see the docstring)

        ours_split: list[tuple[float, float]] = []
        theirs_split: list[tuple[float, float]] = []
        cli = interleaved(_split(lambda: _command(units_csv, fresh("ours")), ours_split),
                          _split(lambda: _baseline_command(units_csv, fresh("theirs")),
                                 theirs_split), pairs=PAIRS)
        wall, cpu = cli.median("task"), cli.median("task", 1)
        # The first run of each is the warm-up pair's (interleaved's default).
        user, kernel = (statistics.median(t[i] for t in ours_split[1:]) for i in (0, 1))
        rows.append(Row(f"counters render CLI, {faces:,} faces: {faces / wall:,.0f} faces/s"
                        f" wall, CPU {cpu:.2f} s ({cpu / faces * 1e3:.2f} ms a face: user"
                        f" {user:.2f} s, system {kernel:.2f} s; baseline"
                        f" {cli.median('baseline', 1):.2f} s, system"
                        f" {statistics.median(t[1] for t in theirs_split[1:]):.2f} s) (goal"
                        f" 1,000/s on 2 cores); ratio {cli.summary()}, CPU {cli.summary(1)}", wall,
                        f"{faces:,} minimal Pillow counters, PNG, files", cli.median("baseline")))

        units = manifest(300)
        table = UnitManifest("bench", tuple(units))
        art = draw_manifests(table, None, RenderOptions())
        fonts = {"bold": ImageFont.truetype(str(FONT_DIR / FONTS["bold"]), 51),
                 "condensed": ImageFont.truetype(str(FONT_DIR / FONTS["condensed"]), 30)}
        drawn = interleaved(lambda: _paint_all(art),
                            lambda: [(minimal_counter(u, fonts, False),
                                      minimal_counter(u, fonts, True)) for u in units],
                            pairs=max(PAIRS, 5))
        rows.append(Row(f"paint 600 faces, one core, ratio {drawn.summary(1)} CPU",
                        drawn.median("task"), "600 minimal Pillow counters",
                        drawn.median("baseline")))

        sheet = SheetOptions(paper="letter", bleed=3 * MM)
        bleed = RenderOptions(bleed=sheet.bleed)
        bled = bleed.side_px + 2 * bleed.bleed_px
        plain = [Image.new("RGB", (bled, bled), (i % 256, 90, 90)) for i in range(300)]
        pdf = interleaved(lambda: write_sheet_pdf(table, None, work / "sheet.pdf", sheet, bleed),
                          lambda: _plain_pdf(plain, 45.0), pairs=max(PAIRS, 5))
        rows.append(Row(f"300-counter duplex PDF, vector, 3 mm bleed, ratio {pdf.summary()}",
                        pdf.median("task"), "reportlab 300 plain images", pdf.median("baseline")))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return rows


if __name__ == "__main__":
    if sys.argv[1:2] == ["--baseline"]:
        baseline_folder(Path(sys.argv[2]), Path(sys.argv[3]))
    else:
        print(format_table("counters", main()))
