"""``bocage vassal build``: a game folder, board images and counter images -> a ``.vmod``.

What the module holds (reference ``vassal-format.md`` §10):

* one map whose boards carry a ``HexGrid`` naming every hex as printed
  (:mod:`pipeline.vassal.grid`; rotated scans are resampled first);
* a palette grouped by side, then by formation or arrival turn, one slot per
  unit with a gpid derived from its id, and the game's markers;
* an at-start stack on every hex where the scenario (or the manifest's
  ``setup_hex``) puts units or markers, at VASSAL's point of that hex;
* prototypes (``Unit``, ``Marker``, one per side), the game's die, a turn
  tracker, the player sides, and the game data as ``bocage/game.json``
  linked from the Help menu.

Counter images are ``<counters>/<slug>-front.png`` and ``-back.png``
(:func:`pipeline.vassal.images.counter_image_names`). The same inputs give the
same bytes: ``dateSaved`` comes from ``date_saved``, ``SOURCE_DATE_EPOCH`` or
else 0, never the clock.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import stat
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from pipeline import __version__
from pipeline.errors import DataError, ImageError, ModuleError
from pipeline.hexgrid import Hex, Layout
from pipeline.imagefile import open_image
from pipeline.model import GameFolder, MapData, MarkerSpec, UnitSpec
from pipeline.model.folder import companion_counters
from pipeline.pngwrite import png_bytes
from pipeline.progress import Told
from pipeline.vassal.archive import write_vmod
from pipeline.vassal.board import prepare_board
from pipeline.vassal.buildfile import (
    BoardPlan,
    ModulePlan,
    SlotPlan,
    StackPlan,
    build_file_xml,
    moduledata_xml,
)
from pipeline.vassal.game import GameInputs, load_game_inputs
from pipeline.vassal.grid import vassal_grid
from pipeline.vassal.images import check_slugs, counter_image_names, image_slug
from pipeline.vassal.pieces import (
    MARKER_PROTOTYPE,
    UNIT_PROTOTYPE,
    Faces,
    GpidAllocator,
    marker_name,
    marker_piece,
    prototypes,
    side_definition,
    side_label,
    side_prototype,
    unit_piece,
)
from pipeline.workers import map_in_processes

__all__ = ["BuildReport", "build_module", "parse_board_args"]

GAME_JSON = "bocage/game.json"


@dataclass(frozen=True)
class BuildReport:
    """What a build made.

    Attributes
    ----------
    path
        The module written.
    warnings
        One line each: things built anyway that deserve a look.
    notes
        What was done that a user should know (a resampled board).
    counts
        Units, markers, set-up stacks, boards, images.
    """

    path: Path
    warnings: tuple[str, ...]
    notes: tuple[str, ...]
    counts: dict[str, int]


@dataclass(frozen=True)
class _Board:
    name: str
    image_name: str
    data: bytes
    width: int
    height: int
    plan: BoardPlan


def parse_board_args(args: Sequence[str], board_names: Sequence[str]) -> dict[str, Path]:
    """``--board`` values to board name -> image path.

    ``PATH`` is allowed for a single-board map; ``NAME=PATH`` names the board.
    """
    out: dict[str, Path] = {}
    for arg in args:
        name, sep, path = arg.partition("=")
        if sep and name in board_names:
            out[name] = Path(path)
        elif len(board_names) == 1:
            out[board_names[0]] = Path(arg)
        else:
            raise DataError(None, "--board", f"'{arg}': with several boards write NAME=PATH"
                            f" (boards: {', '.join(board_names)})")
    return out


# -- boards ------------------------------------------------------------------------------


def _boards(inputs: GameInputs, images: Mapping[str, Path],
            layouts: Sequence[Layout | None] = ()) -> tuple[list[_Board], list[str], list[str]]:
    boards: list[_Board] = []
    warnings: list[str] = []
    notes: list[str] = []
    grids = inputs.map_data.grids()
    map_file = inputs.map_file
    for i, board in enumerate(inputs.map_data.boards):
        grid = grids[board.name]
        if i < len(layouts) and layouts[i] is not None:
            grid = dataclasses.replace(grid, layout=layouts[i])
        if grid.layout is None:
            raise DataError(map_file, f"boards[{i}].grid.layout", f"board '{board.name}' has no"
                            " pixel layout (dx, dy, x0, y0) on its image; measure it (or"
                            " calibrate the scan) before building a module")
        path = images.get(board.name)
        if path is None and board.image:
            path = _game_file(inputs.folder, board.image, map_file, f"boards[{i}].image")
        if path is None:
            raise DataError(map_file, f"boards[{i}].image", f"board '{board.name}' has no image:"
                            f" give one with --board {board.name}=PATH")
        image = prepare_board(path, grid.layout)
        warnings += image.warnings
        if image.resampled:
            notes.append(f"board '{board.name}': the grid layout is rotated or sheared, so the"
                         f" image was resampled to an axis-aligned {image.width}x{image.height}"
                         f" px copy (dx {image.layout.dx:.3f}, dy {image.layout.dy:.3f})")
        plan = vassal_grid(dataclasses.replace(grid, layout=image.layout),
                           image.width, image.height)
        image_name = f"board-{image_slug(board.name)}{image.suffix}"
        boards.append(_Board(board.name, image_name, image.data, image.width, image.height,
                             BoardPlan(board.name, image_name, plan)))
    slots = board_slots(inputs.map_data)
    if slots is not None:
        boards = [dataclasses.replace(b, plan=dataclasses.replace(b.plan, slot=slots[b.name]))
                  for b in boards]
        notes.append("boards laid out as map.json places them: " + ", ".join(
            f"{name} in column {c + 1}, row {r + 1}" for name, (c, r) in slots.items()))
    return boards, warnings, notes


def _game_file(folder: Path, name: str, map_file: Path, where: str) -> Path:
    """A file map.json names, which must be inside the game folder.

    A downloaded game folder must not be able to pack a builder's other files
    into a module (``"image": "../../private.png"``); a board elsewhere is
    given on the command line, where the builder names it.
    """
    root = Path(os.path.realpath(folder))
    path = Path(os.path.realpath(folder / name))
    if not path.is_relative_to(root):
        raise DataError(map_file, where, f"'{name}' is outside the game folder; give the board"
                        " image with --board NAME=PATH")
    return path


def board_slots(map_data: MapData) -> dict[str, tuple[int, int]] | None:
    """Each board's (column, row) in VASSAL's board layout, from where map.json places
    the boards on one lattice (``boards[].placement``): boards whose first hex lies a
    board's width east of the first board's go one column right, and so on. ``None``
    when the boards are not placed, or do not fall one to a cell."""
    joined = map_data.joined_grid()
    if joined is None:
        return None
    first = joined.parts[0][0]
    slots: dict[str, tuple[int, int]] = {}
    for board, (grid, (dq, dr)) in zip(map_data.boards, joined.parts, strict=True):
        origin = grid.from_offset(0, 0)
        col, row = first.offset(Hex(origin.q + dq, origin.r + dr))
        slots[board.name] = (round(col / first.cols), round(row / first.rows))
    left = min(c for c, _ in slots.values())
    top = min(r for _, r in slots.values())
    slots = {name: (c - left, r - top) for name, (c, r) in slots.items()}
    if len(set(slots.values())) < len(slots) or any(
            ch in name for name in slots for ch in "\t/\\"):
        return None
    return slots


# -- counter images ------------------------------------------------------------------------


def _folder_file(folder: Path, name: str, what: str) -> Path | None:
    """``folder/name`` if it is a regular file there, ``None`` if there is none.

    A symbolic link is refused rather than followed: what goes into a module
    is what the builder put in the folder, never a file a link points at.
    """
    path = folder / name
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ImageError(path, f"cannot read image ({exc.strerror or exc})") from None
    if stat.S_ISLNK(mode):
        raise ImageError(path, f"is a symbolic link; {what} are read only from regular files"
                         " in their folder (copy the file in)")
    if not stat.S_ISREG(mode):
        raise ImageError(path, f"is not a regular file; {what} are PNG files")
    return path


def _png_face(path: Path, what: str) -> tuple[bytes, int, int]:
    """A PNG's bytes and size, checked by decoding it whole (no image is packed unread)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ImageError(path, f"cannot read image ({exc.strerror or exc})") from None
    image = open_image(data, path)
    if image.format != "PNG":
        raise ImageError(path, f"{what} must be PNG, this is {image.format or 'not PNG'}")
    return data, image.width, image.height


def _face_bytes(path: Path) -> bytes:
    """A counter face's bytes, read here; the pool that sizes the pieces decodes each whole
    (:func:`_piece_png`), so no image is packed unread."""
    try:
        return path.read_bytes()
    except OSError as exc:
        raise ImageError(path, f"cannot read image ({exc.strerror or exc})") from None


@dataclass(frozen=True)
class _Counter:
    faces: Faces
    # The PNG bytes put in the module, by image name (as read, or resized to the piece size).
    images: tuple[tuple[str, bytes], ...]
    width: int
    height: int
    # The file each image was read from, for messages (the images' order).
    paths: tuple[str, ...]


def _counter(directory: Path, item_id: str) -> _Counter | None:
    front, back = counter_image_names(item_id)
    front_path = _folder_file(directory, front, "counter images")
    if front_path is None:
        return None
    images = [(front, _face_bytes(front_path))]
    paths = [str(front_path)]
    back_path = _folder_file(directory, back, "counter images")
    if back_path is not None:
        images.append((back, _face_bytes(back_path)))
        paths.append(str(back_path))
    return _Counter(Faces(front, back if back_path is not None else None), tuple(images),
                    0, 0, tuple(paths))


# A printed counter covers most of a hex (a 1/2" or 5/8" counter on a 5/8"-3/4" hex):
# pieces are sized to this fraction of the hex's flat-to-flat size unless told.
PIECE_FRACTION = 0.85


def piece_size_for(boards: Sequence[_Board]) -> int:
    """The side of a piece image in board pixels: :data:`PIECE_FRACTION` of the smallest
    hex across its flats (VASSAL draws pieces at their image size)."""
    # VASSAL's dy is the pitch along its columns: the flat-to-flat size, sideways or not.
    return max(8, round(PIECE_FRACTION * min(b.plan.grid.grid.dy for b in boards)))


def _piece_png(job: tuple[str, bytes, int]) -> tuple[bytes, int, int]:
    """One face, read from its file (which must still hold the bytes of SHA-256 ``digest``),
    decoded whole (a PNG, or :class:`ImageError` naming its file), scaled so its longer side
    is ``side`` px and encoded as PNG (run in a worker).

    The worker reads the file itself: sending every face's bytes down the pool's pipes
    cost the main process a fifth of a 2,000-piece build. A face already at that size, or
    every face when ``side`` is 0, is kept byte for byte.
    """
    name, digest, side = job
    data = _face_bytes(Path(name))
    if hashlib.sha256(data).digest() != digest:
        raise ImageError(name, "the file changed while the module was built: build again")
    face = open_image(data, name)
    if face.format != "PNG":
        raise ImageError(name, f"counter images must be PNG, this is {face.format or 'not PNG'}")
    if side == 0 or max(face.size) == side:
        return data, face.width, face.height
    factor = side / max(face.size)
    size = (max(1, round(face.width * factor)), max(1, round(face.height * factor)))
    mode = "RGBA" if face.mode in ("RGBA", "LA", "P", "PA") else "RGB"
    loaded = face if face.mode == mode else face.convert(mode)
    # reducing_gap: a box reduction to about twice the size first, then Lanczos: the
    # same look (Pillow's measure), a third less work on a counter face.
    scaled = loaded.resize(size, Image.Resampling.LANCZOS, reducing_gap=2.0)
    return png_bytes(scaled, name=name), size[0], size[1]


def _sized_all(counters: Sequence[_Counter], side: int,
               jobs: int | None = None) -> list[_Counter]:
    """Every counter's faces checked and at ``side`` px (0: as they are): each distinct image
    decoded, scaled and encoded once, in worker processes
    (:func:`pipeline.workers.map_in_processes`)."""
    # Identical faces (a marker's two sides, copies of one picture) are scaled once.
    unique: dict[bytes, str] = {}
    for counter in counters:
        for (_, data), path in zip(counter.images, counter.paths, strict=True):
            unique.setdefault(hashlib.sha256(data).digest(), path)
    keys = list(unique)
    scaled = dict(zip(keys, map_in_processes(
        _piece_png, [(unique[k], k, side) for k in keys], jobs=jobs, chunk=16), strict=True))
    done = []
    for counter in counters:
        images = []
        width = height = 0
        for image_name, data in counter.images:
            png, w, h = scaled[hashlib.sha256(data).digest()]
            images.append((image_name, png))
            width, height = (width, height) if width else (w, h)
        done.append(dataclasses.replace(counter, width=width, height=height,
                                        images=tuple(images)))
    return done


def _counters(directory: Path, inputs: GameInputs) -> tuple[dict[str, _Counter],
                                                            dict[str, _Counter], list[str]]:
    markers = list(inputs.markers or [])
    check_slugs([u.id for u in inputs.units] + [m.id for m in markers], "unit/marker ids")
    units: dict[str, _Counter] = {}
    missing = []
    for unit in inputs.units:
        found = _counter(directory, unit.id)
        if found is None:
            missing.append(unit.id)
        else:
            units[unit.id] = found
    if missing:
        front = counter_image_names(missing[0])[0]
        raise ImageError(directory, f"no counter image for {len(missing)} of {len(inputs.units)}"
                         f" units, e.g. unit '{missing[0]}': expected {directory / front}"
                         " (render the counters, or give their folder with --counters)")
    warnings = []
    marker_images: dict[str, _Counter] = {}
    for spec in markers:
        found = _counter(directory, spec.id)
        if found is None:
            warnings.append(f"{directory}: no image for marker '{spec.id}' (expected"
                            f" {counter_image_names(spec.id)[0]}): left out of the module")
        else:
            marker_images[spec.id] = found
    return units, marker_images, warnings


# -- placements ---------------------------------------------------------------------------


@dataclass
class _Placements:
    """Where pieces start: hex -> unit ids and marker ids (with counts), in order."""

    units: dict[str, list[str]] = dataclasses.field(default_factory=dict)
    markers: dict[str, list[str]] = dataclasses.field(default_factory=dict)
    arrival: dict[str, int] = dataclasses.field(default_factory=dict)


def _placements(inputs: GameInputs, marker_ids: set[str]) -> tuple[_Placements, list[str]]:
    found = _Placements()
    warnings: list[str] = []
    the_map = inputs.map_data
    scenario = inputs.scenario
    placed: set[str] = set()
    where = str(inputs.scenario_file or inputs.folder)

    def require(path: str, hex_id: str) -> None:
        if not the_map.has_hex(hex_id):
            raise DataError(where, path, the_map.why_not_on_map(hex_id))

    if scenario is not None:
        for i, item in enumerate(scenario.setup):
            if inputs.units.get(item.unit) is None:
                raise DataError(where, f"setup[{i}].unit", f"unknown unit '{item.unit}'"
                                f" (not in {inputs.units.file})")
            require(f"setup[{i}].hex", item.hex)
            found.units.setdefault(item.hex, []).append(item.unit)
            placed.add(item.unit)
        for extra in scenario.reinforcements:
            found.arrival[extra.unit] = extra.turn
        for i, mark in enumerate(scenario.markers):
            require(f"markers[{i}].hex", mark.hex)
            if mark.marker not in marker_ids:
                warnings.append(f"{where}: markers[{i}]: marker '{mark.marker}' has no piece in"
                                " the module: not placed")
                continue
            found.markers.setdefault(mark.hex, []).extend([mark.marker] * mark.count)
    for unit in inputs.units:
        if unit.id not in placed and unit.id not in found.arrival and unit.setup_hex:
            if not the_map.has_hex(unit.setup_hex):
                line = inputs.units.line_of(unit.id) or 0
                raise DataError(f"{inputs.units.file}:{line}", "setup_hex",
                                the_map.why_not_on_map(unit.setup_hex))
            found.units.setdefault(unit.setup_hex, []).append(unit.id)
        if unit.id not in found.arrival and unit.arrival_turn is not None:
            found.arrival[unit.id] = unit.arrival_turn
    return found, warnings


# -- the plan ------------------------------------------------------------------------------


def _natural(text: str) -> tuple[Any, ...]:
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text))


def _palette_groups(units: Sequence[UnitSpec], arrival: Mapping[str, int]
                    ) -> list[tuple[str, list[UnitSpec]]]:
    groups: dict[tuple[Any, ...], list[UnitSpec]] = defaultdict(list)
    for unit in units:
        if unit.id in arrival:
            groups[(1, arrival[unit.id], "")].append(unit)
        elif unit.formation:
            groups[(0, 0, unit.formation)].append(unit)
        else:
            groups[(2, 0, "")].append(unit)
    out = []
    for key in sorted(groups, key=lambda k: (k[0], k[1], _natural(k[2]))):
        kind, turn, formation = key
        label = f"Turn {turn}" if kind == 1 else (f"Formation {formation}" if kind == 0
                                                  else "Other units")
        out.append((label, groups[key]))
    return out


def _dice(text: str | None) -> tuple[int, int] | None:
    match = re.fullmatch(r"(\d+)d(\d+)", text or "")
    return (int(match.group(1)), int(match.group(2))) if match else None


def _date_saved(explicit: int | None) -> int:
    if explicit is not None:
        return explicit
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    if epoch.isdigit():
        return int(epoch) * 1000
    # Not the files' mtimes: a fresh clone would then change the module's
    # bytes although no input changed. 0 is VASSAL's "unknown" date.
    return 0


def _game_json(inputs: GameInputs, boards: Sequence[_Board], gpids: Mapping[str, int]) -> bytes:
    def plain(model: Any) -> Any:
        return model.model_dump(mode="json", by_alias=True, exclude_defaults=True)

    doc = {
        "kind": "vassal_module_data",
        "made_by": f"bocage {__version__}",
        "game": inputs.map_data.game,
        "map": plain(inputs.map_data),
        "rules": plain(inputs.rules) if inputs.rules is not None else None,
        "units": [plain(u) for u in inputs.units],
        "markers": [plain(m) for m in inputs.markers or []],
        "scenario": plain(inputs.scenario) if inputs.scenario is not None else None,
        "module": {
            "boards": {b.name: {"image": f"images/{b.image_name}", "width": b.width,
                                "height": b.height,
                                "hex_grid": b.plan.grid.hex_grid_attributes(),
                                "numbering": b.plan.grid.numbering_attributes()}
                       for b in boards},
            "gpids": dict(sorted(gpids.items())),
        },
    }
    return (json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


def _plan(inputs: GameInputs, boards: list[_Board], units_art: Mapping[str, _Counter],
          markers_art: Mapping[str, _Counter], placements: _Placements, *, name: str,
          version: str, date_saved: int) -> tuple[ModulePlan, dict[str, int], list[str]]:
    the_map = inputs.map_data
    markers: dict[str, MarkerSpec] = {m.id: m for m in inputs.markers or [] if m.id in markers_art}
    keys = [f"unit:{u.id}" for u in inputs.units] + [f"marker:{m}" for m in markers]
    for ids in placements.units.values():
        keys += [f"setup:{u}" for u in ids]
    for hex_id, ids in placements.markers.items():
        keys += [f"marker-setup:{m}@{hex_id}#{k}" for k, m in enumerate(ids)]
    gpids = GpidAllocator(keys)
    warnings: list[str] = []

    def unit_slot(unit: UnitSpec, key: str) -> SlotPlan:
        art = units_art[unit.id]
        gpid = gpids[key]
        piece = unit_piece(unit, art.faces, gpid, placements.arrival.get(unit.id))
        return SlotPlan(unit.name or unit.id, gpid, art.width, art.height, piece)

    def marker_slot(spec: MarkerSpec, key: str) -> SlotPlan:
        art = markers_art[spec.id]
        gpid = gpids[key]
        return SlotPlan(marker_name(spec), gpid, art.width, art.height,
                        marker_piece(spec, art.faces, gpid))

    palette = []
    for side in inputs.sides():
        side_units = [u for u in inputs.units if u.side == side]
        if side_units:
            groups = tuple((label, tuple(unit_slot(u, f"unit:{u.id}") for u in group))
                           for label, group in _palette_groups(side_units, placements.arrival))
            palette.append((side_label(side), groups))
    if markers:
        by_kind: dict[str, list[MarkerSpec]] = defaultdict(list)
        for spec in markers.values():
            by_kind[spec.kind].append(spec)
        palette.append(("Markers", tuple(
            (kind.replace("_", " ").capitalize(),
             tuple(marker_slot(s, f"marker:{s.id}") for s in specs))
            for kind, specs in by_kind.items())))

    plans = {b.name: b for b in boards}
    stacks = []
    for hex_id in sorted(set(placements.units) | set(placements.markers), key=_natural):
        board = the_map.board_for(hex_id)
        assert board is not None  # placements were checked against the map
        grid = plans[board.name].plan.grid.grid
        point = grid.location_point(hex_id)
        assert point is not None  # vassal_grid proved every hex
        on = plans[board.name]
        if not (0 <= point[0] < on.width and 0 <= point[1] < on.height):
            warnings.append(f"hex {hex_id}: its centre {point} lies outside board"
                            f" '{board.name}' ({plans[board.name].width}x"
                            f"{plans[board.name].height} px)")
        slots = [unit_slot(inputs.units.get(u) or _missing(u), f"setup:{u}")
                 for u in placements.units.get(hex_id, [])]
        slots += [marker_slot(markers[m], f"marker-setup:{m}@{hex_id}#{k}")
                  for k, m in enumerate(placements.markers.get(hex_id, []))]
        stacks.append(StackPlan(f"At start {hex_id}", board.name, hex_id, point[0], point[1],
                                tuple(slots)))

    protos = prototypes()
    prototype_list = [
        (UNIT_PROTOTYPE, "Every unit: flip report, mark when moved, delete",
         protos[UNIT_PROTOTYPE]),
        (MARKER_PROTOTYPE, "Every marker: delete", protos[MARKER_PROTOTYPE]),
    ]
    prototype_list += [(side_prototype(s), f"{side_label(s)} units: the Side property",
                        side_definition(s)) for s in inputs.sides()]
    scenario = inputs.scenario
    description = f"{the_map.title} (built by bocage from the '{the_map.game}' game data"
    description += f", scenario '{scenario.name}')" if scenario is not None else ")"
    plan = ModulePlan(
        name=name, version=version, description=description, date_saved=date_saved,
        sides=tuple(side_label(s) for s in inputs.sides()),
        boards=tuple(b.plan for b in boards), stacks=tuple(stacks),
        prototypes=tuple(prototype_list), palette=tuple(palette),
        next_gpid=gpids.next_free(),
        dice=_dice(inputs.rules.dice if inputs.rules is not None else None),
        turns=(scenario.first_turn, scenario.last_turn) if scenario is not None else (1, None),
        help_files=(("Game data (bocage JSON)", GAME_JSON),),
    )
    return plan, {k: gpids[k] for k in keys}, warnings


# Play aids in the order a player reaches for them, with their tab names.
_CHART_TITLES = (("crt", "Combat Results Table"), ("tec", "Terrain Effects Chart"),
                 ("quickref", "Quick Reference"), ("track", "Turn Record Track"),
                 ("oob", "Order of Battle"))


def _charts(folder: str | Path | None) -> list[tuple[str, str, bytes]]:
    """The play-aid PNGs of a ``bocage aids`` folder in reading order: title, name, bytes.

    Read like counter faces: regular files in the folder (a symbolic link is
    refused, not followed), each decoded whole as a PNG before it is packed.
    """
    if folder is None:
        return []
    root = Path(folder)
    if not root.is_dir():
        raise ModuleError(root, "no such folder of play aids (make it with bocage aids)")
    names = sorted(entry.name for entry in os.scandir(root))
    found: list[tuple[str, str, bytes]] = []
    for stem, title in _CHART_TITLES:
        for name in names:
            if not (name.startswith(stem) and name.endswith(".png")):
                continue
            path = _folder_file(root, name, "charts")
            assert path is not None  # listed a moment ago
            data = _png_face(path, "charts")[0]
            suffix = name[len(stem):-len(".png")].lstrip("-")
            found.append((f"{title} ({suffix})" if suffix else title, f"chart-{name}", data))
    return found


def _missing(unit_id: str) -> UnitSpec:
    raise ModuleError(None, f"unit '{unit_id}' vanished from the manifest")


def build_module(
    game_dir: str | Path | GameFolder,
    out: str | Path,
    *,
    boards: Mapping[str, Path] | None = None,
    counters: str | Path | None = None,
    scenario: str | None = None,
    date_saved: int | None = None,
    name: str | None = None,
    version: str = "1.0",
    layouts: Sequence[Layout | None] = (),
    charts: str | Path | None = None,
    piece_size: int | None = None,
    jobs: int | None = None,
    progress: Told | None = None,
) -> BuildReport:
    """Build a VASSAL module from a game folder (see the module docstring).

    Parameters
    ----------
    game_dir
        ``maps/<game>`` (map.json; rules, manifests and scenarios as found).
    out
        The ``.vmod`` to write (replaced atomically; nothing is left on failure).
    boards
        Board name -> image path; boards not given use ``image`` from map.json.
    counters
        Folder of counter PNGs (and possibly the manifests); default: the
        companion ``counters/<game>``.
    scenario
        Scenario file stem or name; default: the only one, if any.
    date_saved
        ``moduledata`` dateSaved (ms); default ``SOURCE_DATE_EPOCH``, else 0.
    name, version
        Module name (default: the map title) and version.
    layouts
        Pixel layouts of the boards on their images, in board order (e.g. from
        the digitizer's map.json); a board without one uses map.json's layout.
    charts
        A folder of play-aid PNGs made by ``bocage aids`` (``crt.png``,
        ``tec.png``, ``track.png``, ``oob.png``, ``quickref.png``, ...): each
        becomes a tab of the module's chart window.
    piece_size
        Side of the piece images in board pixels; default :data:`PIECE_FRACTION`
        of the hex across its flats; ``0`` keeps the counter images as rendered.
    jobs
        Worker processes scaling the pieces (default: every core; 1 works here).
    progress
        Told ``(done, 4, stage)`` as each stage starts (boards, pieces, set-up, packing).

    Raises
    ------
    BocageError
        One located line: missing board or counter images, no grid layout, a
        scenario hex not on the grid, a numbering VASSAL cannot express.
    """
    tell = progress or (lambda done, total, what: None)
    tell(0, 4, "boards")
    inputs = load_game_inputs(game_dir, counters, scenario)
    folder = Path(counters) if counters is not None else (
        companion_counters(inputs.folder) or Path(inputs.units.file).parent)
    board_list, warnings, notes = _boards(inputs, boards or {}, layouts)
    units_art, markers_art, more = _counters(folder, inputs)
    warnings += more
    side = piece_size if piece_size is not None else piece_size_for(board_list)
    # Every face is decoded (checked) in the pool, scaled there unless side is 0.
    tell(1, 4, "pieces")
    every = _sized_all([*units_art.values(), *markers_art.values()], side, jobs)
    units_art = dict(zip(units_art, every[:len(units_art)], strict=True))
    markers_art = dict(zip(markers_art, every[len(units_art):], strict=True))
    if side > 0:
        notes.append(f"pieces drawn {side} px a side ({PIECE_FRACTION:.0%} of the hex)"
                     if piece_size is None else f"pieces drawn {side} px a side")
    tell(2, 4, "set-up")
    placements, more = _placements(inputs, set(markers_art))
    warnings += more
    plan, gpids, more = _plan(inputs, board_list, units_art, markers_art, placements,
                              name=name or inputs.map_data.title, version=version,
                              date_saved=_date_saved(date_saved))
    warnings += more
    chart_files = _charts(charts)
    plan = dataclasses.replace(plan, charts=tuple((title, image_name)
                                                  for title, image_name, _ in chart_files))
    images: dict[str, bytes] = {b.image_name: b.data for b in board_list}
    images.update({image_name: data for _, image_name, data in chart_files})
    for art in [*units_art.values(), *markers_art.values()]:
        images.update(dict(art.images))
    entries = [("moduledata", moduledata_xml(plan)), ("buildFile.xml", build_file_xml(plan))]
    entries += [(f"images/{n}", images[n]) for n in sorted(images)]
    entries.append((GAME_JSON, _game_json(inputs, board_list, gpids)))
    tell(3, 4, "packing")
    path = write_vmod(out, entries)
    tell(4, 4, "done")
    counts = {"boards": len(board_list), "units": len(units_art), "markers": len(markers_art),
              "setup_stacks": len(plan.stacks), "images": len(images)}
    return BuildReport(path, tuple(warnings), tuple(notes), counts)
