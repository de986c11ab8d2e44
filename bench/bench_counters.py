"""Counter rendering and sheet speed, as ratios to same-run baselines.

* 300 unit faces at 5/8 in, 300 dpi (188 px), a mix of types, sizes, sides and
  reduced backs, against Pillow filling as many plain squares of the same size
  (the least any renderer must do). Target: >= 100 counters a second on one core.
  Symbols are cached per kind and size, as in a real manifest run; the cold row
  clears that cache first.
* the same 300 faces encoded as PNG, against encoding 300 plain squares;
* a 300-counter duplex PDF (Letter, 3 mm bleed: render with bleed, place, write),
  against reportlab placing 300 distinct plain images of the same pixel size.
"""

from __future__ import annotations

import io
import itertools

from PIL import Image
from reportlab import rl_config
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from pipeline.counters import RenderOptions, SheetOptions, render_unit, write_sheet_pdf
from pipeline.counters.measure import MM
from pipeline.counters.symbols import icon_image, size_mark_image, symbol_image
from pipeline.model.manifest import UnitManifest, UnitSpec

try:  # run through bench/run.py, or directly as a script
    from run import Row, format_table, median_time
except ImportError:  # pragma: no cover - imported as bench.bench_counters
    from bench.run import Row, format_table, median_time

COUNT = 300
TYPES = ("infantry", "armor", "mechanized", "artillery", "parachute", "anti_tank", "recon",
         "headquarters", "engineer", "anti_aircraft")
SIZES = ("regiment", "battalion", "division", "brigade", "company", "kampfgruppe")
SIDES = (("allied", "US"), ("german", "German"), ("allied", "British"))


def manifest(count: int = COUNT) -> list[UnitSpec]:
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


def _render_all(units: list[UnitSpec], options: RenderOptions) -> list[Image.Image]:
    return [render_unit(u, options, back=i % 2 == 1) for i, u in enumerate(units)]


def _clear_caches() -> None:
    for cached in (symbol_image, size_mark_image, icon_image):
        cached.cache_clear()


def _png_all(images: list[Image.Image]) -> None:
    for image in images:
        image.save(io.BytesIO(), "PNG", dpi=(300, 300))


def _plain_pdf(images: list[Image.Image], side_pt: float) -> None:
    rl_config.useA85 = 0  # images stored binary, as sheet_pdf does
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
    units = manifest()
    options = RenderOptions()
    side = options.side_px

    warm = median_time(lambda: _render_all(units, options), repeat=5)

    def cold() -> None:
        _clear_caches()
        _render_all(units, options)

    cold_time = median_time(cold, repeat=3)
    squares = median_time(lambda: [Image.new("RGB", (side, side), (164, 184, 109))
                                   for _ in range(COUNT)], repeat=5)
    faces = _render_all(units, options)
    plain = [Image.new("RGB", (side, side), (i % 256, 90, 90)) for i in range(COUNT)]
    png = median_time(lambda: _png_all(faces), repeat=3)
    png_plain = median_time(lambda: _png_all(plain), repeat=3)

    sheet = SheetOptions(paper="letter", bleed=3 * MM)
    bleed_opts = RenderOptions(bleed=sheet.bleed)
    table = UnitManifest("bench", tuple(units))
    pdf = median_time(lambda: write_sheet_pdf(table, None, "/dev/null", sheet, bleed_opts),
                      repeat=3)
    bled = side + 2 * bleed_opts.bleed_px
    plain_bled = [Image.new("RGB", (bled, bled), (i % 256, 90, 90)) for i in range(COUNT)]
    pdf_plain = median_time(lambda: _plain_pdf(plain_bled, 45.0), repeat=3)

    return [
        Row(f"render {COUNT} faces 188px ({COUNT / warm:.0f}/s)", warm,
            f"{COUNT} Image.new squares", squares),
        Row(f"render {COUNT} faces, cold cache ({COUNT / cold_time:.0f}/s)", cold_time,
            f"{COUNT} Image.new squares", squares),
        Row(f"PNG-encode {COUNT} faces", png, f"PNG-encode {COUNT} squares", png_plain),
        Row(f"{COUNT}-counter duplex PDF, 3 mm bleed", pdf,
            f"reportlab {COUNT} plain images", pdf_plain),
    ]


if __name__ == "__main__":
    print(format_table("counters", main()))
