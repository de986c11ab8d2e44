"""One map being checked in the studio: the scan, bocage's reading, and a person's word.

A :class:`Workspace` opens a game folder (its ``map.json``, and ``facts.json`` when
there is one) and a scan of the map. The reading is the digitizer's
(:mod:`~pipeline.studio.reading`); a person's edits (:mod:`~pipeline.studio.edits`)
override it and teach it: every hex given a terrain is an example the next reading
learns from. What is saved is the map document with

* the grid where the scan shows it (the fitted layout),
* every hex's terrain with its ``provenance``: ``read`` by the digitizer (with its
  shares and confidence), ``labelled`` (a person confirmed the reading) or
  ``corrected`` (a person changed it),
* every hexside's features, ``read`` or ``corrected``,

and everything else the folder's map.json said (names, elevations, hex features,
locations, edges) kept as it was.

Opening a map.json again brings the person's word back: labelled and corrected hexes
and hexsides are re-applied, a layout saved for this scan places the grid as it was
left, and the saved hexsides stand in for the reading (a hexside a person cleared has
no entry, so reading it again would bring the feature back) until the grid is moved.
Hexes a person typed by hand (no provenance) are not overwritten silently: their
disagreements with the reading are listed as findings (validate's diff), and the
previous map.json is kept as ``map.json.bak`` on every save.

Every change is checked against the version the page last saw, so two tabs on one map
never undo each other's work blindly: the second is told the map changed and shown
it. Saving is checked the same way against the file on disk.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pipeline.digitize import (
    Digitization,
    GridFit,
    HexTerrain,
    Legend,
    encode_png,
    geojson,
    geojson_text,
    legend_from_map,
    load_scan,
    overlay,
)
from pipeline.digitize.gridfile import grid_from_spec
from pipeline.errors import BocageError, DataError, GridError, ImageError
from pipeline.files import write_bytes_atomic, write_text_atomic
from pipeline.hexgrid import Hex, HexGrid, Hexside
from pipeline.model import (
    Facts,
    GameFolder,
    MapData,
    dumps,
    load_facts,
    map_from_data,
    read_json,
)
from pipeline.model.folder import FACTS_FILE, MAP_FILE
from pipeline.studio.document import (
    HexValue,
    SideValue,
    build_document,
    is_typed,
    person_word,
    saved_hexsides,
)
from pipeline.studio.edits import Edit, EditLog, Overrides, Point, TerrainWord
from pipeline.studio.guard import inside
from pipeline.studio.reading import ScanReader, locate_grid, saved_grid
from pipeline.validate import Finding, diff_maps, sort_findings, validate_data

__all__ = ["BACKUP_SUFFIX", "EditConflict", "Workspace"]

BACKUP_SUFFIX = ".bak"
SCANS = (".jpg", ".jpeg", ".png", ".tif", ".tiff")


class EditConflict(BocageError):
    """A change made against a map that has changed since the page last saw it."""


@dataclass(frozen=True)
class _State:
    """What the current reading and edits make, computed once per version."""

    document: MapData
    findings: list[Finding]


class Workspace:
    """A map, its scan and the edits made to it, shared by every tab of one studio.

    Parameters
    ----------
    folder
        The game folder; its ``map.json`` gives the grid, the vocabulary and the
        printed colours, and is what :meth:`save` writes.
    scan
        The scan; by default the image the map's first board names (relative to the
        folder).
    anchors
        Hex id -> pixel centre on the scan, pinned from the start (for a scan whose grid
        the digitizer cannot find alone).

    Raises
    ------
    DataError, ImageError
        A folder without a map.json, a map that does not load, no scan or an
        unreadable one.
    """

    def __init__(self, folder: Path, scan: Path | None = None,
                 anchors: Mapping[str, Point] | None = None) -> None:
        self.folder = folder.resolve()
        game = GameFolder(folder)  # as given: messages name it so
        game.require(MAP_FILE, stage="the studio")
        self.map_path = game.map_file
        self._disk = _fingerprint(self.map_path)
        self.opened = map_from_data(read_json(self.map_path), str(self.map_path))
        facts_path = self.folder / FACTS_FILE  # the folder resolved: the facts stay with it
        self.facts: Facts | None = load_facts(facts_path) if facts_path.is_file() else None
        board = self.opened.boards[0]
        self.scan_path = self._scan_path(scan, board.image)
        self.pixels: NDArray[np.uint8] = load_scan(self.scan_path)
        self.legend: Legend = legend_from_map(self.opened, str(self.map_path))
        self.reader = ScanReader(self.pixels, self.legend, source=self.source)
        # The grid as the board states it; its layout only when saved for this scan.
        same_scan = board.image is not None and (self.folder / board.image).resolve() == (
            self.scan_path)
        layout = board.grid.layout if same_scan else None
        self.grid: HexGrid = grid_from_spec(board.grid.model_copy(update={"layout": None}),
                                            str(self.map_path))
        self._saved_layout = (grid_from_spec(board.grid, str(self.map_path))
                              if layout is not None else None)
        self.typed: MapData | None = self.opened if is_typed(self.opened, self.grid) else None
        word = person_word(self.opened, self.grid)
        if anchors:
            word = replace(word, anchors=dict(anchors))
        self.log = EditLog(word)
        self._saved_sides = (saved_hexsides(self.opened, self.grid) if layout is not None
                             else None)
        self.version = 0
        self.saved_version = 0
        self._lock = threading.RLock()
        self._fits: dict[tuple[tuple[str, Point], ...], GridFit] = {}
        self._reading: Digitization | None = None
        self._state: tuple[int, _State] | None = None

    # -- opening --------------------------------------------------------------------

    def _scan_path(self, scan: Path | None, image: str | None) -> Path:
        if scan is None and image is not None:
            scan = inside(self.folder, image)
        if scan is None:
            found = sorted(p for p in self.folder.glob("scan.*") if p.suffix.lower() in SCANS)
            if len(found) != 1:
                raise ImageError(str(self.map_path), "the map's board names no scan image and"
                                 " the folder has no one scan.jpg or scan.png: give one with"
                                 " --scan SCAN")
            scan = found[0]
        if not scan.is_file():
            raise ImageError(str(scan), "no such file")
        return scan.resolve()

    @property
    def source(self) -> str:
        """The scan's file name (what the map document records)."""
        return self.scan_path.name

    def reading(self) -> Digitization:
        """The digitizer's reading under the current anchors and labels (made once).

        Raises
        ------
        DataError
            There is nothing to learn from yet (:meth:`unread`).
        """
        with self._lock:
            if self._reading is None:
                self._reading = self._read(self.log.overrides)
            return self._reading

    def unread(self) -> str | None:
        """Why the scan has no reading yet (a terrain with no printed colour and no hex
        a person gave it), or ``None`` when it has one. Labels can still be given: they
        are what the learner waits for."""
        with self._lock:
            try:
                self.reading()
            except DataError as exc:
                return str(exc)
            return None

    def _fit(self, anchors: dict[str, Point]) -> GridFit:
        """The grid for a set of pinned anchors (none: as found or as saved)."""
        key = tuple(sorted(anchors.items()))
        fit = self._fits.get(key)
        if fit is not None:
            return fit
        if not anchors:
            fit = (saved_grid(self._saved_layout) if self._saved_layout is not None
                   else locate_grid(self.pixels, self.grid, source=self.source))
        else:
            fit = locate_grid(self.pixels, self.grid, self._anchor_points(anchors),
                              source=self.source)
        self._fits[key] = fit
        return fit

    def _anchor_points(self, pinned: dict[str, Point]) -> dict[str, Point]:
        """The anchors handed to the digitizer for a person's pinned hexes.

        One pinned hex moves the whole grid with it: the other handles follow by the
        same shift, so the grid keeps its size and angle. Two or more are used alone.
        """
        if len(pinned) > 1:
            return dict(pinned)
        (hex_id, (x, y)), = pinned.items()
        start = self._fit({})
        here = start.centres([self.grid.hex(hex_id)])[0]
        dx, dy = x - float(here[0]), y - float(here[1])
        out = {}
        for other in self.handles():
            cx, cy = start.centres([self.grid.hex(other)])[0]
            out[other] = (float(cx) + dx, float(cy) + dy)
        out[hex_id] = (x, y)
        return out

    def handles(self) -> list[str]:
        """The hexes shown as draggable anchors: the map's four corner hexes."""
        g = self.grid
        corners = [(0, 0), (g.cols - 1, 0), (0, g.rows - 1), (g.cols - 1, g.rows - 1)]
        out: list[str] = []
        for col, row in corners:
            h = g.from_offset(col, row)
            if g.contains(h) and g.id(h) not in out:
                out.append(g.id(h))
        return out

    def _read_if_taught(self, overrides: Overrides) -> Digitization | None:
        """The reading an edit leads to, or ``None`` where the learner would lack an
        example of a terrain (the page then says so, and takes labels until it has one);
        a grid the scan contradicts raises."""
        try:
            return self._read(overrides)
        except DataError:
            return None

    def _read(self, overrides: Overrides) -> Digitization:
        fit = self._fit(overrides.anchors)
        return self.reader.read(fit, overrides.labels(), overrides.corrections())

    # -- what the page shows -------------------------------------------------------

    def fit(self) -> GridFit:
        """The grid on the scan as it stands (the one the reading is made on)."""
        with self._lock:
            return self._fit(self.log.overrides.anchors)

    def state(self) -> _State:
        """The document and its findings for the current version (computed once)."""
        with self._lock:
            if self._state is not None and self._state[0] == self.version:
                return self._state[1]
            data = self.document_data()
            # validate loads the document itself: its map is the document (loaded once).
            result = validate_data(data, file=str(self.map_path), facts=self.facts)
            found = list(result.findings)
            if self.typed is not None:
                found += diff_maps(self.typed, result.the_map).findings
            state = _State(result.the_map, sort_findings(found))
            self._state = (self.version, state)
            return state

    def hex_values(self) -> dict[str, HexValue]:
        """Hex id -> (terrain, confidence, provenance) as the document will say."""
        reading = self.reading()
        grid = reading.fit.grid
        out: dict[str, HexValue] = {}
        person = self.log.overrides.terrain
        for h, t in reading.terrain.items():
            hex_id = grid.id(h)
            if hex_id in person:
                terrain, provenance = person[hex_id]
                out[hex_id] = ((terrain,), None, provenance)
            else:
                out[hex_id] = (t.terrain, t.confidence, "read")
        return out

    def hexside_values(self) -> dict[str, SideValue]:
        """Hexside id -> (features, provenance) for every hexside that has features."""
        out = {k: (v, "read") for k, v in self._baseline_sides().items()}
        for key, features in self.log.overrides.hexsides.items():
            if features:
                out[key] = (features, "corrected")
            else:
                out.pop(key, None)
        return out

    def _baseline_sides(self) -> dict[str, tuple[str, ...]]:
        """The hexsides as read: saved ones while the grid is as saved, else the reader's."""
        if self._saved_sides is not None and not self.log.overrides.anchors:
            return dict(self._saved_sides)
        reading = self.reading()
        grid = reading.fit.grid
        return {grid.hexside_id(s): tuple(sorted(f)) for s, f in reading.hexsides.items() if f}

    def suggestions(self) -> list[str]:
        """The hexes to label next, best first: those whose label would help the
        reading most (the digitizer's ``--suggest``), none a person has given a terrain."""
        reading = self.reading()
        grid = reading.fit.grid
        person = self.log.overrides.terrain
        return [i for i in map(grid.id, reading.suggestions) if i not in person]

    # -- the document ----------------------------------------------------------------

    def document(self) -> MapData:
        """The map document the current reading and edits make (checked as it loads)."""
        return map_from_data(self.document_data(), str(self.map_path))

    def document_data(self) -> dict[str, Any]:
        """The map document as plain JSON data."""
        reading = self.reading()
        image = (self.scan_path.relative_to(self.folder).as_posix()
                 if self.scan_path.is_relative_to(self.folder) else None)
        return build_document(self.opened, reading, self.hex_values(), self.hexside_values(),
                              image=image)

    # -- edits -------------------------------------------------------------------------

    def _change(self, version: int, make: Callable[[], Edit | None]) -> None:
        """Make an edit against ``version``, reading again before anything changes."""
        with self._lock:
            self._check_version(version)
            edit = make()
            if edit is None:
                return
            overrides = self.log.overrides.with_value(edit.kind, edit.key, edit.after)
            reading = self._read_if_taught(overrides)  # raises before anything changes
            self.log.apply(edit)
            self._reading = reading
            self.version += 1

    def _check_version(self, version: int) -> None:
        if version != self.version:
            raise EditConflict(f"the map changed (in another tab?) since this page saw it"
                               f" (version {version}, now {self.version}); the page now shows"
                               " the map as it is: make the change again")

    def set_terrain(self, hex_id: str, terrain: str | None, version: int) -> None:
        """Give a hex its terrain (``None``: back to the reading); the reading learns it.

        Raises
        ------
        DataError
            A hex that is not on the map, a terrain the map does not know.
        EditConflict
            ``version`` is not the current one.
        """
        def make() -> Edit | None:
            self._require_hex(hex_id)
            before = self.log.overrides.terrain.get(hex_id)
            after: TerrainWord | None = None
            if terrain is not None:
                if terrain not in self.legend.terrain:
                    known = ", ".join(self.legend.terrain)
                    raise DataError(str(self.map_path), f"hexes.{hex_id}", f"unknown terrain"
                                    f" '{terrain}' (this map knows: {known})")
                after = (terrain, "labelled" if self._read_as(hex_id) == terrain
                         else "corrected")
            return None if before == after else Edit("terrain", hex_id, before, after)

        self._change(version, make)

    def _read_as(self, hex_id: str) -> str | None:
        """The hex's main terrain as read, or ``None`` while the scan has no reading (the
        label may be what the learner needs to make one)."""
        try:
            reading = self.reading()
        except DataError:
            return None
        return reading.terrain[reading.fit.grid.hex(hex_id)].terrain[0]

    def toggle_hexside(self, hex_id: str, direction: str | int, feature: str,
                       version: int) -> str:
        """Add a feature to a hexside, or take it away; returns the hexside's id.

        Raises
        ------
        DataError
            A hex not on the map, an unknown direction or feature.
        EditConflict
            ``version`` is not the current one.
        """
        found: list[str] = []

        def make() -> Edit:
            h = self._require_hex(hex_id)
            if feature not in self.legend.features:
                known = ", ".join(self.legend.features) or "none"
                raise DataError(str(self.map_path), "hexsides", f"unknown hexside feature"
                                f" '{feature}' (this map knows: {known})")
            try:
                side = self.grid.hexside_at(h, direction)
            except GridError as exc:
                raise DataError(str(self.map_path), "hexsides", str(exc)) from None
            key = self.grid.hexside_id(side)
            found.append(key)
            before = self.log.overrides.hexsides.get(key)
            now = set(self.hexside_values().get(key, ((), ""))[0])
            now ^= {feature}
            after: tuple[str, ...] | None = tuple(sorted(now))
            if after == self._baseline_sides().get(key, ()):
                after = None  # back to what was read
            return Edit("hexside", key, before, after)

        self._change(version, make)
        return found[0]

    def move_anchor(self, hex_id: str, x: float, y: float, version: int) -> None:
        """Pin a hex's centre where a person put it; the grid is fitted again.

        Raises
        ------
        GridError
            Anchors the digitizer cannot fit a grid through (the grid is left as it was).
        EditConflict
            ``version`` is not the current one.
        """
        def make() -> Edit:
            self._require_hex(hex_id)
            before = dict(self.log.overrides.anchors)
            return Edit("anchors", "", before, {**before, hex_id: (float(x), float(y))})

        self._change(version, make)

    def undo(self, version: int) -> Edit | None:
        """Take back the last edit (the reading follows)."""
        return self._step(version, self.log.can_undo, self.log.undo)

    def redo(self, version: int) -> Edit | None:
        """Make the last undone edit again."""
        return self._step(version, self.log.can_redo, self.log.redo)

    def _step(self, version: int, edit: Edit | None, step: Callable[[], Edit | None]
              ) -> Edit | None:
        with self._lock:
            self._check_version(version)
            if edit is None:
                return None
            value = edit.before if step == self.log.undo else edit.after
            overrides = self.log.overrides.with_value(edit.kind, edit.key, value)
            reading = self._read_if_taught(overrides)
            step()
            self._reading = reading
            self.version += 1
            return edit

    def _require_hex(self, hex_id: str) -> Hex:
        if not self.grid.has_id(hex_id):
            raise DataError(str(self.map_path), f"hexes.{hex_id}", f"hex '{hex_id}' is not on"
                            f" the map ({self.grid.describe_extent()})")
        return self.grid.hex(hex_id)

    # -- files -------------------------------------------------------------------------

    def save(self, version: int) -> Path:
        """Write map.json atomically, the previous one kept as ``map.json.bak``.

        Raises
        ------
        EditConflict
            ``version`` is not the current one, or map.json changed on disk since it
            was opened or last saved (another program wrote it).
        """
        with self._lock:
            self._check_version(version)
            if _fingerprint(self.map_path) != self._disk:
                raise EditConflict(f"{self.map_path}: changed on disk since the studio opened"
                                   " it; nothing was written (restart the studio to see the"
                                   " file as it is now)")
            text = dumps(self.document())
            if self.map_path.exists():
                write_bytes_atomic(self.map_path.with_name(MAP_FILE + BACKUP_SUFFIX),
                                   self.map_path.read_bytes())
            write_text_atomic(self.map_path, text)
            self._disk = _fingerprint(self.map_path)
            self.saved_version = self.version
            return self.map_path

    def export(self, geojson_name: str = "map.geojson", overlay_name: str = "overlay.png",
               version: int | None = None) -> list[Path]:
        """Write the GeoJSON and the overlay picture of the map as it stands (in the folder).

        Raises
        ------
        DataError
            A name outside the game folder, or one that would overwrite map.json or the scan.
        """
        with self._lock:
            if version is not None:
                self._check_version(version)
            targets = [self._export_target(n) for n in (geojson_name, overlay_name)]
            if targets[0] == targets[1]:
                raise DataError(geojson_name, "", "the GeoJSON and the overlay need two names")
            reading = self.reading()
            terrain, sides = self._edited(reading)
            edited = replace(reading, map=self.document(), terrain=terrain, hexsides=sides)
            # The digitizer's two GIS layers: hexes in the file named, hexsides beside it
            # (NAME.hexsides.geojson), as `bocage digitize --geojson` writes them.
            layers = geojson(edited, self.source)
            sides_path = targets[0].with_name(targets[0].stem + ".hexsides.geojson")
            files: dict[Path, bytes] = {
                targets[0]: geojson_text(layers["hexes"]).encode(),
                sides_path: geojson_text(layers["hexsides"]).encode(),
                targets[1]: encode_png(overlay(self.pixels, reading.fit, terrain, sides,
                                               reading.legend), str(targets[1])),
            }
        for path, data in files.items():
            write_bytes_atomic(path, data)
        return list(files)

    def _export_target(self, name: str) -> Path:
        target = inside(self.folder, name)
        if target in (self.folder / MAP_FILE, self.scan_path,
                      self.folder / (MAP_FILE + BACKUP_SUFFIX)):
            raise DataError(name, "", "would overwrite the map or the scan; choose another name")
        return target

    def _edited(self, reading: Digitization
                ) -> tuple[dict[Hex, HexTerrain], dict[Hexside, tuple[str, ...]]]:
        """The reading with the person's edits in, as the digitizer's outputs take it."""
        grid = reading.fit.grid
        terrain = dict(reading.terrain)
        for hex_id, (name, _) in self.log.overrides.terrain.items():
            h = grid.hex(hex_id)
            terrain[h] = HexTerrain((name,), {name: 1.0}, 1.0, terrain[h].colour, {name: 1.0})
        sides = {grid.parse_hexside(k): f for k, (f, _) in self.hexside_values().items()}
        return terrain, sides

    def status(self) -> dict[str, Any]:
        """Version, unsaved changes, undo and redo, for the page."""
        undo, redo = self.log.can_undo, self.log.can_redo
        return {"version": self.version, "unsaved": self.version != self.saved_version,
                "undo": undo.describe() if undo else None,
                "redo": redo.describe() if redo else None}


def _fingerprint(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return None
