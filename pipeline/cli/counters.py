"""``bocage counters``: counter images and printable counter sheets from manifests."""

from __future__ import annotations

from pathlib import Path

import click

from pipeline.cli.options import (
    HELP,
    Length,
    Number,
    Offset,
    OneLineErrorsGroup,
    emit_json,
    json_option,
    progress_bar,
    quiet_option,
)
from pipeline.cli.paths import InputPath, OutputPath, out_dir_option, output_option
from pipeline.counters.measure import (
    BLEEDS,
    COUNTER_SIZES,
    MARGINS,
    MAX_OFFSET,
    format_length,
    parse_length,
    parse_offset,
)
from pipeline.counters.names import is_counter_file
from pipeline.counters.render import DPI_RANGE, RenderOptions, write_manifests
from pipeline.counters.style import (
    VALUE_LAYOUTS,
    CounterStyle,
    complete_sides,
    game_style,
    load_style,
)
from pipeline.errors import DataError
from pipeline.model.manifest import MarkerManifest, UnitManifest, load_manifest

__all__ = ["counters"]


MANIFESTS = click.argument("manifests", nargs=-1, required=True, type=InputPath())
STYLE = click.option("--style", type=InputPath(),
                     help="Style JSON laid over the default colours, symbols and templates"
                          " [default: style.json beside the manifests, if any].")
SIZE = click.option("--size", default="5/8in", show_default=True, type=Length(COUNTER_SIZES),
                    help="Counter side: 5/8in, 16mm, 0.5in ...")
DPI = click.option("--dpi", type=Number(*DPI_RANGE), default=300.0,
                   show_default=True, help="Pixels per inch of the images.")
VALUES = click.option("--values", type=click.Choice(VALUE_LAYOUTS),
                      help="What the bottom band prints (default: the style's, auto).")


@click.group(cls=OneLineErrorsGroup, context_settings=HELP)
def counters() -> None:
    """Render counters from unit and marker manifests, and print counter sheets.

    MANIFESTS are CSV files: a unit manifest (units.csv), a marker manifest
    (markers.csv), or one of each; which is which is read from the header.
    Values the manifest leaves empty print as '?'.
    """


def load_manifests(paths: tuple[Path, ...], style: CounterStyle | None = None
                   ) -> tuple[UnitManifest | None, MarkerManifest | None]:
    """Read each manifest by the kind its header says; at most one of each kind.

    Unit types the style draws (and the style beside a manifest declares) are accepted.
    """
    extra = set(style.symbols) if style is not None else set()
    units: UnitManifest | None = None
    markers: MarkerManifest | None = None
    for path in paths:
        manifest = load_manifest(path, unit_types=extra)
        if isinstance(manifest, UnitManifest):
            if units is not None:
                raise DataError(path, "", f"a second unit manifest (the first is {units.file});"
                                " give one units.csv")
            units = manifest
        else:
            if markers is not None:
                raise DataError(path, "", f"a second marker manifest (the first is"
                                f" {markers.file}); give one markers.csv")
            markers = manifest
    if not (units or markers):
        raise DataError(", ".join(str(p) for p in paths), "", "no units or markers below the"
                        " header: nothing to draw")
    return units, markers


def _prepare(manifests: tuple[Path, ...], style: Path | None, size: str, dpi: float,
             values: str | None, bleed: float = 0.0
             ) -> tuple[UnitManifest | None, MarkerManifest | None, RenderOptions]:
    """The manifests and the options to draw them with; one warning line a side without colour."""
    chosen = load_style(style if style is not None else game_style(manifests))
    units, markers = load_manifests(manifests, chosen)
    chosen, warnings = complete_sides(chosen, units, markers)
    for warning in warnings:
        click.echo(f"bocage: warning: {warning}", err=True)
    return units, markers, RenderOptions(parse_length(size, "--size"), dpi, bleed, chosen,
                                         values)


@counters.command()
@MANIFESTS
@STYLE
@SIZE
@DPI
@VALUES
@out_dir_option("Folder for the images (made if missing).", owns=is_counter_file)
@click.option("--contact", type=OutputPath(stream=True, binary=True),
              help="Contact sheet PNG ('-': standard output) [default:"
              " OUT_DIR/contact-sheet.png].")
@click.option("--jobs", type=click.IntRange(min=1, max=256), metavar="N",
              help="Worker processes drawing the faces [default: one a core].")
@json_option
@quiet_option
def render(manifests: tuple[Path, ...], style: Path | None, size: str, dpi: float,
           values: str | None, out: Path, contact: Path | None, jobs: int | None,
           as_json: bool, quiet: bool) -> None:
    """Draw the front and back of every counter as PNG images.

    Writes OUT_DIR/<slug>-front.png and OUT_DIR/<slug>-back.png for each unit and marker
    (the slug is the id in lower-case letters and digits, other runs of
    characters one '-': 914/352 -> 914-352), the names the VASSAL export reads,
    and a contact sheet of them all. Nothing is written unless every row renders.
    Faces are drawn on every core (--jobs).

    The style (--style, else style.json beside the manifests) sets the colours
    of each side and nationality, may add unit types drawn from SVG or PNG
    files ("symbols") and may draw counters from SVG templates whose {column}
    fields the manifest fills ("templates"). A side with no colour is drawn in
    one of its own, with a warning.

    \b
    Example:
      bocage counters render counters/demo/units.csv counters/demo/markers.csv \\
          --out-dir build/demo/counters/
    """
    units, markers, options = _prepare(manifests, style, size, dpi, values)
    count = len(units or ()) + len(markers or ())
    title = (f"{', '.join(str(p) for p in manifests)}: {count} counters,"
             f" {format_length(options.size)} at {dpi:g} dpi")
    # Drawn on every core, written as they come; the folder is swapped in whole at the end.
    with progress_bar("drawing counters", not (quiet or as_json)) as told:
        files = write_manifests(units, markers, out, options, title=title,
                                contact_path=contact, jobs=jobs, progress=told)
    if as_json:
        emit_json({"counters": count, "size_px": options.side_px, "dpi": dpi,
                   "files": [str(f) for f in files]})
    elif not quiet:
        click.echo(f"wrote {len(files)} images of {count} counters"
                   f" ({options.side_px} px, {format_length(options.size)} at {dpi:g} dpi)"
                   f" to {out} (contact sheet: {files[-1]})")


@counters.command()
@MANIFESTS
@STYLE
@SIZE
@DPI
@VALUES
@click.option("--paper", type=click.Choice(["letter", "a4"]), default="letter",
              show_default=True, help="Paper, portrait.")
@click.option("--duplex", type=click.Choice(["long", "short"]), default="long",
              show_default=True, help="The edge the printer turns the sheet on.")
@click.option("--bleed", default="3mm", show_default=True, type=Length(BLEEDS),
              help="Face colour printed past each cut line.")
@click.option("--back-offset", default="0mm,0mm", show_default=True,
              type=Offset((-MAX_OFFSET, MAX_OFFSET)),
              help="Shift of every back as x,y (right, down) to correct a printer's register.")
@click.option("--margin", default="0.5in", show_default=True, type=Length(MARGINS),
              help="Clear space at each paper edge (cut marks stand inside it).")
@output_option("The PDF to write ('-': standard output).", stream=True, binary=True, name="pdf",
               former=("--pdf",))
@json_option
@quiet_option
def sheet(manifests: tuple[Path, ...], style: Path | None, size: str, dpi: float,
          values: str | None, paper: str, duplex: str, bleed: str, back_offset: str,
          margin: str, pdf: Path, as_json: bool, quiet: bool) -> None:
    """Lay counters out on duplex sheets for printing and cutting, as one PDF.

    Pages alternate fronts and backs; each back lands behind its front when the
    sheet is turned on the --duplex edge. Counters are vector art at exact size
    (fonts embedded) with a bleed around each and cut marks outside the bleed;
    the TrimBox and BleedBox of each page say where to cut, for a print shop. A
    unit or marker is printed as many times as its count. The PDF's title
    names the game (the map.json of maps/<game> for counters/<game>).

    \b
    Example:
      bocage counters sheet counters/demo/units.csv counters/demo/markers.csv \\
          --paper a4 --duplex long --bleed 3mm -o build/demo/counters.pdf
    """
    # The sheets (and the game folders they read a title from) only for this command.
    from pipeline.counters.sheet import SheetOptions, sheet_info, write_sheet_pdf

    bleed_in = parse_length(bleed, "--bleed")
    options = SheetOptions(
        paper=paper, duplex="short" if duplex == "short" else "long",
        size=parse_length(size, "--size"), bleed=bleed_in,
        back_offset=parse_offset(back_offset, "--back-offset"),
        margin=parse_length(margin, "--margin"),
    )
    units, markers, render_options = _prepare(manifests, style, size, dpi, values, bleed_in)
    info = sheet_info(manifests, options)
    with progress_bar("printing sheets", not (quiet or as_json)) as told:
        plan = write_sheet_pdf(units, markers, pdf, options, render_options, title=info.title,
                               info=info, progress=told)
    placed = len(plan.placements) // 2
    if as_json:
        emit_json({"pdf": str(pdf), "pages": plan.pages, "counters": placed,
                   "columns": plan.columns, "rows": plan.rows})
    elif not quiet:
        sheets = plan.pages // 2
        click.echo(f"wrote {pdf}: {placed} counters on {sheets} duplex"
                   f" sheet{'s' if sheets != 1 else ''}"
                   f" ({plan.pages} pages, {paper}, {plan.columns} x {plan.rows} a sheet,"
                   f" turn on the {duplex} edge)")
