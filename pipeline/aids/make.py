"""Every play aid a game folder has the data for, written as a set: :func:`make_aids`.
"""

from __future__ import annotations

import io
from pathlib import Path

from pipeline.aids.cite import Rulebook
from pipeline.aids.crt import crt_pages
from pipeline.aids.maptiles import DEFAULT_HEX_SIZE, map_tile_pages
from pipeline.aids.oob import oob_pages
from pipeline.aids.page import Page, pages_pdf, pages_png
from pipeline.aids.quickref import quickref_pages
from pipeline.aids.tec import tec_pages
from pipeline.aids.track import track_pages
from pipeline.files import atomic_folder
from pipeline.model.folder import CRT_FILE, MAP_FILE, RULES_FILE, GameFolder
from pipeline.model.mapdata import MapData
from pipeline.pdf import DocumentInfo
from pipeline.progress import Told

__all__ = ["AID_STEMS", "is_aid_file", "make_aids"]

AID_STEMS = ("crt", "tec", "quickref", "track", "oob", "map")
"""The names :func:`make_aids` writes start with these (``track-NAME.pdf``, ``map-A.png``)."""


def is_aid_file(name: str) -> bool:
    """Whether a file name is one :func:`make_aids` writes (an aids folder is replaced as a
    set of these; other files in it are kept).

    >>> is_aid_file("tec.png"), is_aid_file("track-campaign.pdf"), is_aid_file("notes.txt")
    (True, True, False)
    """
    stem, dot, suffix = name.rpartition(".")
    return bool(dot) and suffix in ("pdf", "png") and any(
        stem == s or stem.startswith(f"{s}-") for s in AID_STEMS)


def _png_bytes(pages: list[Page], dpi: float) -> bytes:
    buffer = io.BytesIO()
    pages_png(pages, dpi).save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()


def make_aids(game_dir: str | Path | GameFolder, out_dir: str | Path, paper: str = "letter", *,
              hex_size: float = DEFAULT_HEX_SIZE, map_dpi: float = 150.0,
              png_dpi: float = 100.0,
              progress: Told | None = None) -> list[Path]:
    """Write the play aids of the game in ``game_dir`` to ``out_dir``; return the files.

    Parameters
    ----------
    game_dir
        A game folder (or its :class:`~pipeline.model.GameFolder`); ``crt.json``,
        ``rules.json`` and ``map.json`` are each used when present (a folder with none
        of them raises :class:`DataError`).
    out_dir
        Created if missing; ``crt.pdf/png``, ``tec.pdf/png``, ``quickref.pdf/png``
        (the rules the validator applies, from the profile), ``track.pdf/png`` and
        ``oob.pdf/png`` (from ``scenario.json``; ``track-NAME``/``oob-NAME`` from
        ``scenario_NAME.json`` or any other scenario document ``NAME.json`` of the
        folder; the OOB only with a unit manifest, ``units.csv``
        there or in ``counters/<game>``), ``map.pdf`` and ``map-BOARD.png`` are
        written there, replacing the aids of an earlier run as a set (other files
        in the folder are kept); on any error the folder is left as it was.
    paper
        ``letter`` or ``a4``.
    hex_size, map_dpi
        Printed hex width across the flats in inches, and pixels per inch of the map.
    png_dpi
        Pixels per inch of the chart PNGs.
    progress
        Told ``(done, total, aid)`` as each aid is drawn.
    """
    game = GameFolder.of(game_dir)
    out = Path(out_dir)
    found = game.require_any((CRT_FILE, RULES_FILE, MAP_FILE), stage="play aids")
    map_data: MapData | None = game.map_data() if MAP_FILE in found else None
    rules = game.rules_if_any()
    # Every aid cites the rulebook by the game's title when the profile gives one.
    book = Rulebook.of(rules) if rules is not None else None
    jobs: list[tuple[str, list[Page], str]] = []
    if CRT_FILE in found:
        table = game.crt()
        jobs.append(("crt", crt_pages(table, paper, book), table.title))
    if rules is not None:
        jobs.append(("tec", tec_pages(rules, paper, map_data, book),
                     f"Terrain Effects Chart ({rules.game})"))
        quickref = quickref_pages(rules, paper)
        if quickref:
            jobs.append(("quickref", quickref, f"Quick Reference ({rules.game})"))
    manifest = game.units_if_any()
    for path, scenario in game.scenarios():
        suffix = path.stem.removeprefix("scenario").lstrip("_")
        suffix = f"-{suffix}" if suffix else ""
        jobs.append((f"track{suffix}", track_pages(scenario, manifest, paper, book=book),
                     f"Turn Record Track: {scenario.name}"))
        if manifest is not None and scenario.units():
            jobs.append((f"oob{suffix}", oob_pages(scenario, manifest, paper, book=book),
                         f"Order of Battle: {scenario.name}"))
    written: list[Path] = []
    # The metadata says which game an aid serves (the map's title, else the rules' game).
    game_title = map_data.title if map_data is not None else (
        rules.game if rules is not None else game.name)

    def info(title: str) -> DocumentInfo:
        return DocumentInfo(title, f"{title}: a play aid for {game_title}, printed by bocage"
                            f" from {game.path}", author=f"bocage, for {game_title}")

    # All or nothing: the aids of an earlier run are replaced as a set (atomic_folder).
    tell = progress or (lambda done, total, what: None)
    total = len(jobs) + (map_data is not None)
    with atomic_folder(out, owns=is_aid_file) as folder:
        for done, (name, pages, title) in enumerate(jobs):
            tell(done, total, name)
            written.append(folder.write(f"{name}.pdf", pages_pdf(pages, info(title))))
            written.append(folder.write(f"{name}.png", _png_bytes(pages, png_dpi)))
        if map_data is not None:
            tell(len(jobs), total, "map")
            pages, images = map_tile_pages(map_data, paper, hex_size=hex_size, dpi=map_dpi)
            written.append(folder.write("map.pdf", pages_pdf(pages,
                                                             info(f"{map_data.title} (map)"))))
            for board, image in images.items():
                buffer = io.BytesIO()
                image.save(buffer, format="PNG")
                written.append(folder.write(f"map-{board}.png", buffer.getvalue()))
        tell(total, total, "done")
    return written
