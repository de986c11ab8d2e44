"""``bocage vassal import``: a module bocage did not build, as a game-folder skeleton.

What a module says becomes the folder's data, and nothing is guessed silently:

* each board's image (``board-<slug>.<ext>``), and each board's hex grid as a
  map.json board whose grid names every hex exactly as VASSAL does: the
  VASSAL grid (:mod:`pipeline.vassal.location`; hex grids, sideways ones,
  offset origins, stagger, descending numbers, a board prefix in
  ``locationFormat``, the background grid of a ``ZonedGrid``) is turned into
  bocage's numbering and pixel layout, then proved: for every hex whose centre
  lies on the board, bocage's id is VASSAL's name of that point and bocage's
  centre is within 1 px of VASSAL's. Hexes a zone names otherwise are
  excluded. The terrain is not in a module: every hex is ``clear`` until the
  board is digitized (``bocage digitize --grid map.json``);
* the palette as manifests: a piece with a side (its ``Side`` property, or
  the palette tab it sits in) is a unit of ``units.csv``, any other is a
  marker of ``markers.csv`` (kind ``other``); each one's front image, and its
  back where a two-level Layer flips it, as ``<slug>-front.png`` and
  ``-back.png`` (the names ``vassal build`` reads). Properties a bocage module
  writes (``UnitId``, ``Type``, ``Movement``...) are read back; a unit whose
  type the module does not say gets ``infantry`` as a stand-in, said in its
  notes and in the report.

A bare build file (no images) gives the same folder without images, and a
warning. The folder is written beside its target and renamed into place, so a
failed import leaves nothing; an existing non-empty folder is refused.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.errors import DataError, GridError, ModuleError
from pipeline.files import atomic_folder
from pipeline.hexgrid import HexGrid, Layout, Numbering, Orientation
from pipeline.hexgrid.numbering import STAGGERS
from pipeline.model import UNIT_SIZES, UNIT_TYPES, map_from_data
from pipeline.model.folder import MAP_FILE, MARKERS_FILE, UNITS_FILE
from pipeline.model.manifest import markers_from_text, units_from_text
from pipeline.vassal.images import counter_image_names, image_slug
from pipeline.vassal.location import Grid, VassalHexGrid, VassalZonedGrid, format_parts
from pipeline.vassal.pictures import MAX_IMAGE_BYTES, module_image
from pipeline.vassal.read import Board, Module, PieceSlot, expand_traits, read_module
from pipeline.vassal.save import side_name
from pipeline.vassal.traits import PieceView, view_piece

__all__ = ["ImportReport", "import_grid", "import_module"]

TOLERANCE = 1.0  # px between bocage's centre of a hex and VASSAL's
UNIT_COLUMNS = ("id", "name", "side", "nationality", "type", "size", "formation", "class",
                "attack", "defence", "range", "movement", "strength", "back_attack",
                "back_defence", "back_range", "back_movement", "back_strength", "steps",
                "flags", "setup_hex", "arrival_turn", "notes")
MARKER_COLUMNS = ("id", "kind", "side", "value", "count", "icon", "label", "notes")
MARKER_KINDS = ("support_fire", "naval_support_fire", "beachhead", "game_turn", "supply_points",
                "step_loss", "out_of_supply", "air_points", "naval_points", "delay", "control",
                "other")
# Unit properties a bocage module writes (pipeline.vassal.pieces), by manifest column.
PROPERTIES = {"nationality": "Nationality", "formation": "Formation", "attack": "Attack",
              "defence": "Defence", "range": "Range", "movement": "Movement",
              "strength": "Strength", "back_attack": "BackAttack",
              "back_defence": "BackDefence", "back_range": "BackRange",
              "back_movement": "BackMovement", "back_strength": "BackStrength",
              "steps": "Steps", "arrival_turn": "ArrivalTurn"}
NOT_SIDES = ("marker", "card", "counter", "token", "chit", "misc", "other")


@dataclass(frozen=True)
class ImportReport:
    """What an import wrote: the folder, counts, and one line per thing to look at."""

    folder: Path
    counts: dict[str, int]
    warnings: tuple[str, ...] = ()
    grids: tuple[dict[str, Any], ...] = ()


# -- grids ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Hex:
    name: str
    x: float  # VASSAL's exact (un-truncated) centre, board pixels
    y: float
    point: tuple[int, int]  # VASSAL's own (truncated) centre


def _board_hexes(grid: VassalHexGrid, board: Board) -> tuple[list[_Hex], int]:
    """Hexes whose centre is on the board and whose name VASSAL takes from this grid, and
    how many others a zone names otherwise."""
    along, across = (board.height, board.width) if grid.sideways else (board.width,
                                                                      board.height)
    hexes: list[_Hex] = []
    zoned = 0
    first = math.floor(-grid.x0 / grid.dx) - 1
    for col in range(first, math.ceil((along - grid.x0) / grid.dx) + 2):
        for row in range(math.floor(-grid.y0 / grid.dy) - 2,
                         math.ceil((across - grid.y0) / grid.dy) + 2):
            u = grid.x0 + col * grid.dx
            v = grid.y0 + row * grid.dy + (grid.dy / 2 if col % 2 else 0.0)
            x, y = (v, u) if grid.sideways else (u, v)
            if not (0 <= x < board.width and 0 <= y < board.height):
                continue
            name = grid.location_name(*grid.snap(round(x), round(y)))
            if board.name_at(*grid.snap(round(x), round(y))) != name:
                zoned += 1
                continue
            point = grid.location_point(name)
            if point is not None:
                hexes.append(_Hex(name, x, y, point))
    return hexes, zoned


def _prefix(location_format: str) -> str | None:
    """The text before ``$gridLocation$`` when that is all the format holds, else ``None``."""
    parts = list(format_parts(location_format))
    props = [t for t, is_prop in parts if is_prop]
    if props != ["gridLocation"] or parts[-1] != ("gridLocation", True):
        return None
    return "".join(t for t, is_prop in parts[:-1])


def _printed(grid: VassalHexGrid, name: str) -> tuple[int, int] | None:
    """Printed (column, row) of a VASSAL name: for sideways grids VASSAL's column part
    is the printed row."""
    parsed = grid.numbering.parse_location(name)
    if parsed is None:
        return None
    return (parsed[1], parsed[0]) if grid.sideways else parsed


def _axis(values: list[int]) -> tuple[int, bool] | None:
    """(first number, descending) of printed numbers met along an axis in pixel order."""
    if len(set(values)) == 1:
        return values[0], False
    ascending = values[-1] > values[0]
    return (min(values), False) if ascending else (max(values), True)


def import_grid(grid: VassalHexGrid, board: Board) -> tuple[dict[str, Any], int]:
    """A bocage grid (map.json ``grid``) naming every on-board hex as VASSAL does.

    Returns the grid and the number of hexes left out because a zone names them.

    Raises
    ------
    GridError
        The numbering cannot be expressed in bocage (letters, a format with more than
        a prefix, numbers of unequal width without a separator), or no hex is on the
        board, or the proof fails (naming the hex).
    """
    n = grid.numbering
    if n.h_type != "N" or n.v_type != "N":
        raise GridError("alphabetic hex numbering: bocage ids are numbers")
    prefix = _prefix(n.location_format)
    if prefix is None:
        raise GridError(f"locationFormat {n.location_format!r} is more than a prefix and"
                        " $gridLocation$")
    hexes, zoned = _board_hexes(grid, board)
    if not hexes:
        raise GridError("no hex of the grid has its centre on the board")
    printed = {h.name: _printed(grid, h.name) for h in hexes}
    if any(p is None for p in printed.values()):
        raise GridError("a hex name VASSAL gives does not read back through its own format")
    # Hexes VASSAL numbers below zero (beyond the printed map's first line) have no
    # printed id in bocage: they stay out of the map.
    hexes = [h for h in hexes if min(printed[h.name] or (-1,)) >= 0]
    if not hexes:
        raise GridError("every hex on the board has a negative number")
    horizontal = sorted(hexes, key=lambda h: (h.x, h.y))
    vertical = sorted(hexes, key=lambda h: (h.y, h.x))
    cols = _axis([printed[h.name][0] for h in horizontal])  # type: ignore[index]
    rows = _axis([printed[h.name][1] for h in vertical])  # type: ignore[index]
    assert cols is not None and rows is not None
    sideways = grid.sideways
    c_digits, r_digits = (n.v_leading + 1, n.h_leading + 1) if sideways else (
        n.h_leading + 1, n.v_leading + 1)
    row_first = (n.first == "H") if sideways else (n.first == "V")
    orientation = Orientation.POINTY if sideways else Orientation.FLAT
    problems = []
    for stagger in STAGGERS[orientation]:
        try:
            numbering = Numbering(first_col=cols[0], first_row=rows[0], col_digits=c_digits,
                                  row_digits=r_digits, stagger=stagger, prefix=prefix,
                                  separator=n.sep, descending_cols=cols[1],
                                  descending_rows=rows[1], row_first=row_first)
            found = _fit(grid, numbering, orientation, hexes, printed)  # type: ignore[arg-type]
        except GridError as exc:
            problems.append(f"{stagger}: {exc}")
            continue
        if found is not None:
            return found, zoned
    raise GridError("no bocage numbering names these hexes as VASSAL does ("
                    + "; ".join(problems[:2]) + ")")


def _fit(grid: VassalHexGrid, numbering: Numbering, orientation: Orientation,
         hexes: list[_Hex], printed: dict[str, tuple[int, int]]) -> dict[str, Any] | None:
    lattice = {h.name: numbering.to_lattice(*printed[h.name]) for h in hexes}
    cols = max(c for c, _ in lattice.values()) + 1
    rows = max(r for _, r in lattice.values()) + 1
    if min(min(c, r) for c, r in lattice.values()) < 0:
        return None
    dx, dy = (grid.dy, grid.dx) if grid.sideways else (grid.dx, grid.dy)
    probe = HexGrid(orientation, numbering, cols=cols, rows=rows,
                    layout=Layout(dx=dx, dy=dy, x0=0.0, y0=0.0))
    assert probe.layout is not None
    offsets = []
    for h in hexes:
        px, py = probe.layout.center(probe.hex(h.name), orientation)
        offsets.append((h.x - px, h.y - py))
    x0, y0 = offsets[0]
    if any(abs(ox - x0) > 1e-6 or abs(oy - y0) > 1e-6 for ox, oy in offsets):
        return None  # this stagger puts some hexes elsewhere
    layout = Layout(dx=dx, dy=dy, x0=round(x0, 6), y0=round(y0, 6))
    names = {h.name for h in hexes}
    exclude = sorted(numbering.format(*numbering.from_lattice(c, r)) for c in range(cols)
                     for r in range(rows)
                     if numbering.format(*numbering.from_lattice(c, r)) not in names)
    found = HexGrid(orientation, numbering, cols=cols, rows=rows, exclude=frozenset(exclude),
                    layout=layout)
    for h in hexes:  # the proof: same id, same centre (VASSAL truncates to whole pixels)
        cx, cy = layout.center(found.hex(h.name), orientation)
        if max(abs(cx - h.point[0]), abs(cy - h.point[1])) > TOLERANCE + 1e-9:
            raise GridError(f"hex {h.name}: bocage's centre ({cx:.1f},{cy:.1f}) is not"
                            f" VASSAL's {h.point}")
    spec: dict[str, Any] = {
        "orientation": orientation.value, "cols": cols, "rows": rows,
        "numbering": {k: v for k, v in {
            "stagger": numbering.stagger, "first_col": numbering.first_col,
            "first_row": numbering.first_row, "col_digits": numbering.col_digits,
            "row_digits": numbering.row_digits, "prefix": numbering.prefix,
            "separator": numbering.separator, "descending_cols": numbering.descending_cols,
            "descending_rows": numbering.descending_rows,
            "row_first": numbering.row_first}.items()
            if k == "stagger" or (v is not False and v != "")},
        "layout": {"dx": dx, "dy": dy, "x0": layout.x0, "y0": layout.y0},
    }
    if exclude:
        spec["exclude"] = exclude
    return spec


def _hex_grid(grid: Grid | None) -> VassalHexGrid | None:
    if isinstance(grid, VassalHexGrid):
        return grid
    if isinstance(grid, VassalZonedGrid) and isinstance(grid.background, VassalHexGrid):
        return grid.background
    return None


# -- pieces -------------------------------------------------------------------------------


@dataclass
class _Writer:
    """The folder being written, and what goes into the report."""

    root: Path
    module: Module
    warnings: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    missing_images: set[str] = field(default_factory=set)
    slugs: set[str] = field(default_factory=set)

    def count(self, what: str, n: int = 1) -> None:
        self.counts[what] = self.counts.get(what, 0) + n

    def image(self, name: str | None, target: str, png: bool) -> bool:
        """Copy ``images/NAME`` to ``target`` (as PNG when ``png``); False if absent."""
        source = self.module.source
        entry = f"images/{name}"
        if not name or name.startswith("/") or entry not in source.entries:
            if name:
                self.missing_images.add(name)
            return False
        data = source.read_entry(entry, MAX_IMAGE_BYTES)
        if png:
            # bocage's one image reader: a bomb is refused in one line, not copied.
            picture = module_image(source, entry, data)
            if picture is None:
                self.missing_images.add(name)
                return False
            out = io.BytesIO()
            picture.convert("RGBA").save(out, "PNG")
            data = out.getvalue()
        (self.root / target).write_bytes(data)
        return True

    def unique(self, wanted: str) -> str:
        """An id whose image slug no other piece has (``NAME``, ``NAME 2``, ...)."""
        item, n = wanted, 1
        while image_slug(item) in self.slugs:
            n += 1
            item = f"{wanted} {n}"
        self.slugs.add(image_slug(item))
        return item


def _side(view: PieceView, slot: PieceSlot) -> tuple[str | None, str]:
    if view.properties.get("Side"):
        return side_name(view.properties["Side"]), "its Side property"
    tabs = [t for t in slot.palette.split(" / ") if t]
    tab = tabs[1] if len(tabs) > 1 else (tabs[0] if tabs else "")
    if tab and not any(word in tab.lower() for word in NOT_SIDES):
        return side_name(tab), f"its palette tab '{tab}'"
    return None, ""


def _type(view: PieceView) -> tuple[str, bool]:
    given = view.properties.get("Type", "")
    if given in UNIT_TYPES:
        return given, True
    return "infantry", False


def _faces(view: PieceView) -> tuple[str | None, str | None]:
    layer = next((la for la in view.layers if la.levels >= 2 and la.images[1]), None)
    front = view.image or (layer.images[0] if layer is not None else None) or None
    return front, layer.images[1] if layer is not None else None


def _pieces(writer: _Writer) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    units: list[dict[str, str]] = []
    markers: list[dict[str, str]] = []
    stand_ins = 0
    prototypes = writer.module.prototypes
    for slot in writer.module.palette():
        if slot.card:
            continue
        try:
            view = view_piece(expand_traits(slot.text, prototypes))
        except ModuleError:
            writer.warnings.append(f"line {slot.line}: piece '{slot.entry_name}' does not decode:"
                                   " left out")
            continue
        props = view.properties
        name = view.basic_name or slot.entry_name
        side, side_from = _side(view, slot)
        marker_id = props.get("MarkerId")
        item = writer.unique(props.get("UnitId") or marker_id or name or f"piece {slot.line}")
        front, back = _faces(view)
        front_file, back_file = counter_image_names(item)
        has_front = writer.image(front, front_file, png=True)
        if has_front and back:
            writer.image(back, back_file, png=True)
        if marker_id is not None or side is None:
            kind = props.get("MarkerKind", "other")
            markers.append({"id": item, "kind": kind if kind in MARKER_KINDS else "other",
                            "side": side or "", "label": name,
                            "notes": f"from the palette ({slot.palette or 'no tab'})"})
            continue
        unit_type, known = _type(view)
        stand_ins += not known
        row = {"id": item, "name": name, "side": side, "type": unit_type,
               "size": props.get("Size", "") if props.get("Size") in UNIT_SIZES else "",
               "notes": f"from the palette ({slot.palette}); side from {side_from}"
               + ("" if known else "; type not given by the module: 'infantry' stands in"
                  " until the counter is read")}
        for column, prop in PROPERTIES.items():
            if re.fullmatch(r"\d+(\.\d+)?", props.get(prop, "")) or (
                    column in ("nationality", "formation") and props.get(prop)):
                row[column] = props[prop]
        units.append(row)
    if stand_ins:
        writer.warnings.append(f"{stand_ins} unit(s) have no type the module gives: 'infantry'"
                               " stands in (see their notes)")
    return units, markers


def _csv(path: Path, columns: tuple[str, ...], rows: list[dict[str, str]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=list(columns), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


# -- the folder -----------------------------------------------------------------------------


def _boards(writer: _Writer) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    boards: list[dict[str, Any]] = []
    report: list[dict[str, Any]] = []
    for the_map in writer.module.maps:
        if the_map.kind == "WidgetMap":
            continue
        for board in the_map.boards:
            grid = _hex_grid(board.grid)
            if grid is None:
                continue
            image = None
            if board.image:
                suffix = Path(board.image).suffix.lower() or ".png"
                image = f"board-{image_slug(board.name or 'board')}{suffix}"
                if not writer.image(board.image, image, png=False):
                    image = None
            try:
                spec, zoned = import_grid(grid, board)
            except GridError as exc:
                writer.warnings.append(f"board '{board.name}' of map '{the_map.name}': its hex"
                                       f" grid is not imported: {exc}")
                continue
            if board.size_from != "image":
                writer.warnings.append(f"board '{board.name}': no image to measure, so the"
                                       f" grid's extent ({spec['cols']}x{spec['rows']}) comes"
                                       f" from a {board.width}x{board.height} px estimate")
            if zoned:
                writer.warnings.append(f"board '{board.name}': {zoned} hex(es) whose centre a"
                                       " zone names otherwise are excluded")
            entry: dict[str, Any] = {"name": board.name or f"board {len(boards) + 1}",
                                     "grid": spec,
                                     "note": f"imported from VASSAL map '{the_map.name}'"}
            if image:
                entry["image"] = image
            boards.append(entry)
            hexes = spec["cols"] * spec["rows"] - len(spec.get("exclude", []))
            report.append({"map": the_map.name, "board": entry["name"], "hexes": hexes,
                           "excluded_by_zones": zoned, "cols": spec["cols"],
                           "rows": spec["rows"]})
    return boards, report


def _map_document(module: Module, game: str, boards: list[dict[str, Any]]) -> dict[str, Any]:
    version = f" version {module.version}" if module.version else ""
    return {
        "kind": "map", "game": game, "title": module.name or game, "illustrative": False,
        "notes": "Imported by bocage vassal import: the grids are the module's, numbered as"
                 " VASSAL numbers them; terrain is not in a module, so every hex is clear"
                 " until the board is digitized.",
        "source": f"VASSAL module '{module.name}'{version}",
        "boards": boards,
        "terrain_types": {"clear": {"note": "every hex until the board is digitized"}},
    }


def _game_id(module: Module) -> str:
    name = side_name(module.name) or "game"
    return name[:40].rstrip("_")


def _target(out: Path) -> None:
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise DataError(out, "", "already exists and is not an empty folder: give a new"
                        " folder for the import")


def import_module(module: str | Path, out: str | Path) -> ImportReport:
    """Write a game-folder skeleton from a module (see the module docstring).

    Parameters
    ----------
    module
        A ``.vmod`` (or a bare build file: no images then).
    out
        The folder to create (it must not exist, or be empty).

    Raises
    ------
    BocageError
        An unsafe or broken module, an existing folder, or data bocage refuses (one
        located line); nothing is left behind.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "buildFile.xml").write_text('<VASSAL.build.GameModule name="m">'
    ...     '<VASSAL.build.module.PieceWindow><VASSAL.build.widget.TabWidget entryName="P">'
    ...     '<VASSAL.build.widget.PanelWidget entryName="Blue"><VASSAL.build.widget.PieceSlot'
    ...     ' entryName="1st">+/null/piece;;;a.png;1st/null;0;0;1;0</VASSAL.build.widget.'
    ...     'PieceSlot></VASSAL.build.widget.PanelWidget></VASSAL.build.widget.TabWidget>'
    ...     '</VASSAL.build.module.PieceWindow></VASSAL.build.GameModule>')
    >>> report = import_module(folder / "buildFile.xml", folder / "game")
    >>> report.counts["units"], (folder / "game" / "units.csv").read_text().splitlines()[1][:17]
    (1, '1st,1st,blue,,inf')
    """
    target = Path(out)
    _target(target)
    # The folder appears whole or not at all (pipeline.files.atomic_folder).
    with atomic_folder(target) as folder:
        work = folder.staging
        with read_module(module) as read:
            writer = _Writer(work, read)
            boards, grids = _boards(writer)
            units, markers = _pieces(writer)
            game = _game_id(read)
        if boards:
            document = _map_document(read, game, boards)
            map_from_data(document, str(target / MAP_FILE))  # refuses what check would
            (work / MAP_FILE).write_text(json.dumps(document, indent=2, ensure_ascii=False)
                                           + "\n", encoding="utf-8")
        else:
            writer.warnings.append("no board has a hex grid bocage can read: no map.json"
                                   " written (the manifests and images are)")
        _csv(work / UNITS_FILE, UNIT_COLUMNS, units)
        _csv(work / MARKERS_FILE, MARKER_COLUMNS, markers)
        units_from_text((work / UNITS_FILE).read_text(encoding="utf-8"),
                        str(target / UNITS_FILE))
        markers_from_text((work / MARKERS_FILE).read_text(encoding="utf-8"),
                          str(target / MARKERS_FILE))
        if writer.missing_images:
            where = "a bare build file has no images" if not read.source.is_archive else (
                "not in the archive")
            writer.warnings.append(f"{len(writer.missing_images)} image(s) referenced but"
                                   f" not copied ({where}): e.g."
                                   f" {sorted(writer.missing_images)[0]}")
    counts = {"boards": len(boards), "units": len(units), "markers": len(markers),
              "images": sum(1 for f in target.iterdir() if f.suffix.lower() in (
                  ".png", ".jpg", ".jpeg", ".gif", ".svg"))}
    return ImportReport(target, counts, tuple(writer.warnings), tuple(grids))
