"""A game folder: which files make a game, where each one is, and one way to load them.

A game folder is ``maps/<game>/``: its map (``map.json``), rules profile
(``rules.json``), combat results table (``crt.json``), the rulebook's facts
(``facts.json``), its scenarios and positions. The unit and marker manifests
(``units.csv``, ``markers.csv``) sit in the folder, in a folder given apart
(``--counters``), or in the companion ``counters/<game>/`` of the repository's
layout, looked for in that order. Every stage finds its files here and loads
them once (a :class:`GameFolder` keeps what it loaded), and a file a stage needs
and the folder lacks is refused in one wording::

    maps/x: not a game folder (no map.json)
    maps/x: not a game folder for the rules (no rules.json)

Each kind of document's classes (and what they import) are loaded when the folder
first reads a document of that kind: a rules question, which reads the map, the
rules profile and the unit manifest, builds no class of the CRT, the facts or the
scenarios.

The folder also says which game it is (:class:`Game`): one id (the name its
documents give, ``omaha``), its title, its rulebook's file, and the other names
the game goes by (the rule system its profile names, ``fm_omaha``, and the code
its answers cite the rulebook by, ``000``).

>>> from pathlib import Path
>>> omaha = GameFolder(Path(__file__).resolve().parents[2] / "maps" / "omaha")
>>> omaha.game.id, omaha.game.aliases, omaha.game.rulebook
('omaha', ('fm_omaha', '000'), '000_3d79f68a6e3e33eb.txt')
>>> omaha.units_file.parent.name, len(omaha.scenarios())
('omaha', 2)
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.errors import DataError

if TYPE_CHECKING:
    from pipeline.model.crt import CrtTable
    from pipeline.model.facts import Facts
    from pipeline.model.manifest import MarkerManifest, UnitManifest
    from pipeline.model.mapdata import MapData
    from pipeline.model.rulesprofile import RulesProfile
    from pipeline.model.scenario import Scenario

__all__ = ["CRT_FILE", "FACTS_FILE", "MAP_FILE", "MARKERS_FILE", "RULES_FILE", "UNITS_FILE",
           "Game", "GameFolder", "companion_counters", "companion_maps", "game_folders"]

MAP_FILE = "map.json"
"""The map: what makes a folder a game folder."""
RULES_FILE = "rules.json"
"""The rules profile."""
CRT_FILE = "crt.json"
"""The combat results table as printed."""
FACTS_FILE = "facts.json"
"""What the rulebook states about its map, each fact with its citation."""
UNITS_FILE = "units.csv"
"""The unit manifest: in the folder, in a folder given apart, or in ``counters/<game>``."""
MARKERS_FILE = "markers.csv"
"""The marker manifest, found where the unit manifest is."""

_NAMED = (MAP_FILE, RULES_FILE, CRT_FILE, FACTS_FILE)
_MANIFESTS = (UNITS_FILE, MARKERS_FILE)
_RULEBOOK = re.compile(r"[^\s,;()]+")


def companion_counters(directory: Path) -> Path | None:
    """``counters/<game>`` for ``maps/<game>`` (the repository layout), if it exists."""
    if directory.resolve().parent.name != "maps":
        return None
    # normpath, not resolve: messages keep the user's relative spelling (counters/demo).
    name = directory.resolve().name
    candidate = Path(os.path.normpath(directory / ".." / ".." / "counters" / name))
    return candidate if candidate.is_dir() else None


def companion_maps(directory: Path) -> Path | None:
    """``maps/<game>`` for ``counters/<game>`` (the repository layout), if it has a map."""
    if directory.resolve().parent.name != "counters":
        return None
    name = directory.resolve().name
    candidate = Path(os.path.normpath(directory / ".." / ".." / "maps" / name))
    return candidate if (candidate / MAP_FILE).is_file() else None


@dataclass(frozen=True)
class Game:
    """Which game a folder holds, by every name it goes by.

    Attributes
    ----------
    id
        The game's one id: the ``game`` its rules profile (else its map) gives.
    title
        The title players know it by (the profile's ``title``, else the map's).
    rulebook
        The rulebook's file, the first word of the profile's (else the map's) ``source``.
    system
        The rule system the profile names (``generic`` without a profile).
    code
        How answers cite the rulebook (the profile's ``cite_as``; empty when not given).
    """

    id: str
    title: str
    rulebook: str
    system: str
    code: str

    @property
    def aliases(self) -> tuple[str, ...]:
        """The other names of the game: its rule system and its rulebook's code.

        >>> Game("omaha", "D-Day Omaha Beach", "000_3d.txt", "fm_omaha", "000").aliases
        ('fm_omaha', '000')
        """
        names: list[str] = []
        for name in (self.system, self.code):
            if name and name not in ("generic", self.id) and name not in names:
                names.append(name)
        return tuple(names)

    def is_called(self, name: str) -> bool:
        """Whether ``name`` is the game's id or one of its aliases."""
        return name.casefold() in {n.casefold() for n in (self.id, *self.aliases)}


class GameFolder:
    """The files of one game folder, found and loaded in one place.

    Parameters
    ----------
    path
        The folder (``maps/<game>``), as the user spells it: messages name it so.
    counters
        A further folder holding the manifests (``--counters``), looked in after
        ``path`` and before the companion ``counters/<game>``.

    Raises
    ------
    DataError
        ``path`` is not a folder (one line: ``DIR: not a game folder (no such folder)``).
    """

    def __init__(self, path: str | Path, counters: str | Path | None = None) -> None:
        self.path = Path(path)
        if not self.path.is_dir():
            why = "no such folder" if not self.path.exists() else "not a folder"
            raise DataError(self.path, "", f"not a game folder ({why})")
        self.counters = Path(counters) if counters is not None else None
        self._map: MapData | None = None
        self._rules: RulesProfile | None = None
        self._units: UnitManifest | None = None
        self._markers: MarkerManifest | None = None
        self._scenarios: list[tuple[Path, Scenario]] | None = None

    @classmethod
    def of(cls, folder: str | Path | GameFolder, counters: str | Path | None = None
           ) -> GameFolder:
        """``folder`` as a :class:`GameFolder` (itself when it is one and no other
        ``counters`` folder is given; what it loaded is kept)."""
        if isinstance(folder, GameFolder):
            if counters is None or folder.counters == Path(counters):
                return folder
            return cls(folder.path, counters)
        return cls(folder, counters)

    def __repr__(self) -> str:
        return f"GameFolder({str(self.path)!r})"

    @property
    def name(self) -> str:
        """The folder's own name (``omaha`` for ``maps/omaha``)."""
        return self.path.resolve().name

    # -- where the files are -----------------------------------------------------------

    def file(self, name: str) -> Path:
        """Where the file ``name`` is, or would be: the manifests where they are found
        (the folder, the one given apart, ``counters/<game>``), the rest in the folder."""
        if name in _MANIFESTS:
            for place in (self.path, self.counters, companion_counters(self.path)):
                if place is not None and (place / name).is_file():
                    return place / name
        return self.path / name

    def has(self, name: str) -> bool:
        """Whether the folder has the file ``name`` (a manifest wherever it is found)."""
        return self.file(name).is_file()

    @property
    def map_file(self) -> Path:
        """``map.json``."""
        return self.file(MAP_FILE)

    @property
    def rules_file(self) -> Path:
        """``rules.json``."""
        return self.file(RULES_FILE)

    @property
    def crt_file(self) -> Path:
        """``crt.json``."""
        return self.file(CRT_FILE)

    @property
    def facts_file(self) -> Path:
        """``facts.json``."""
        return self.file(FACTS_FILE)

    @property
    def units_file(self) -> Path:
        """``units.csv`` where it is found (in the folder when it is nowhere)."""
        return self.file(UNITS_FILE)

    @property
    def markers_file(self) -> Path:
        """``markers.csv`` where it is found (in the folder when it is nowhere)."""
        return self.file(MARKERS_FILE)

    def data_files(self) -> list[Path]:
        """Every data file in the folder itself (``.json`` and ``.csv``), in name order;
        the counter style (``style.json``, the counters' settings) is not one."""
        from pipeline.model.manifest import STYLE_FILE

        return sorted(p for p in self.path.iterdir()
                      if p.is_file() and not p.name.startswith(".")
                      and p.suffix.lower() in (".json", ".csv") and p.name != STYLE_FILE)

    def require(self, *names: str, stage: str = "") -> None:
        """Refuse the folder, naming what it lacks, unless it has every file ``names``.

        ``stage`` says who needs them (``the rules``, ``a module``): the one wording of a
        folder that lacks a file is ``DIR: not a game folder[ for STAGE] (no FILE[, FILE])``.

        >>> import tempfile
        >>> with tempfile.TemporaryDirectory() as empty:
        ...     GameFolder(empty).require(MAP_FILE, RULES_FILE, stage="the rules")
        Traceback (most recent call last):
        pipeline.errors.DataError: ...: not a game folder for the rules (no map.json, rules.json)
        """
        lacking = [n for n in names if not self.has(n)]
        if lacking:
            raise self.not_a_game_folder(lacking, stage)

    def require_any(self, names: Iterable[str], stage: str) -> list[str]:
        """The files of ``names`` the folder has; refused as :meth:`require` says when it
        has none of them."""
        wanted = list(names)
        found = [n for n in wanted if self.has(n)]
        if not found:
            raise self.not_a_game_folder(wanted, stage, every=False)
        return found

    def not_a_game_folder(self, lacking: Iterable[str], stage: str = "", *,
                          every: bool = True) -> DataError:
        """The one error of a folder that lacks files a stage needs (see :meth:`require`)."""
        names = list(lacking)
        listed = ", ".join(names) if every or len(names) < 2 else (
            f"{', '.join(names[:-1])} or {names[-1]}")
        where = ""
        if all(n in _MANIFESTS for n in names):
            where = " here, in the counters folder given, or in counters/<game>" if (
                self.counters is not None) else " here or in counters/<game>"
        purpose = f" for {stage}" if stage else ""
        return DataError(self.path, "", f"not a game folder{purpose} (no {listed}{where})")

    # -- the documents, each loaded once -------------------------------------------------

    def map_data(self) -> MapData:
        """The map; a folder without one is not a game folder."""
        if self._map is None:
            self.require(MAP_FILE)
            from pipeline.model.mapdata import load_map

            self._map = load_map(self.map_file)
        return self._map

    def rules(self) -> RulesProfile:
        """The rules profile."""
        if self._rules is None:
            self.require(RULES_FILE)
            from pipeline.model.rulesprofile import load_rules

            self._rules = load_rules(self.rules_file)
        return self._rules

    def rules_if_any(self) -> RulesProfile | None:
        """The rules profile, or ``None`` when the folder has none."""
        return self.rules() if self.has(RULES_FILE) else None

    def crt(self) -> CrtTable:
        """The combat results table."""
        self.require(CRT_FILE)
        from pipeline.model.crt import load_crt

        return load_crt(self.crt_file)

    def facts(self) -> Facts:
        """The rulebook's facts about the map."""
        self.require(FACTS_FILE)
        from pipeline.model.facts import load_facts

        return load_facts(self.facts_file)

    def units(self) -> UnitManifest:
        """The unit manifest, where it is found."""
        if self._units is None:
            self.require(UNITS_FILE)
            from pipeline.model.manifest import load_units

            self._units = load_units(self.units_file)
        return self._units

    def units_if_any(self) -> UnitManifest | None:
        """The unit manifest, or ``None`` when there is none."""
        return self.units() if self.has(UNITS_FILE) else None

    def markers_if_any(self) -> MarkerManifest | None:
        """The marker manifest, or ``None`` when there is none."""
        if self._markers is None and self.has(MARKERS_FILE):
            from pipeline.model.manifest import load_markers

            self._markers = load_markers(self.markers_file)
        return self._markers

    def scenarios(self) -> list[tuple[Path, Scenario]]:
        """The folder's scenarios (its ``kind: "scenario"`` documents), in name order."""
        if self._scenarios is None:
            from pipeline.model.documents import parse_json, read_text
            from pipeline.model.manifest import STYLE_FILE
            from pipeline.model.scenario import scenario_from_data

            found = []
            for path in sorted(self.path.glob("*.json")):
                if path.name in _NAMED or path.name == STYLE_FILE or not path.is_file():
                    continue
                data = parse_json(read_text(path), path)
                # Other documents (positions, charts) are other stages' business.
                if isinstance(data, dict) and data.get("kind") == "scenario":
                    found.append((path, scenario_from_data(data, path)))
            self._scenarios = found
        return self._scenarios

    def scenario(self, wanted: str | None) -> tuple[Path, Scenario] | None:
        """A scenario by its file's stem, its file name or its name; ``None`` given, the
        only one (``None`` when there is none).

        Raises
        ------
        DataError
            Several scenarios and none chosen, or no scenario ``wanted``.
        """
        found = self.scenarios()
        if wanted is None:
            if len(found) > 1:
                names = ", ".join(f"'{p.stem}'" for p, _ in found)
                raise DataError(self.path, "", f"several scenarios ({names}): choose one"
                                " with --scenario")
            return found[0] if found else None
        for path, scenario in found:
            if wanted in (path.stem, path.name, scenario.name):
                return path, scenario
        names = ", ".join(f"'{p.stem}' ({s.name})" for p, s in found) or "none"
        raise DataError(self.path, "", f"no scenario '{wanted}' (this folder has: {names})")

    # -- which game ----------------------------------------------------------------------

    @property
    def game(self) -> Game:
        """Which game the folder holds (from its rules profile, else its map)."""
        rules = self.rules_if_any()
        the_map = self.map_data() if self.has(MAP_FILE) else None
        source = rules.source if rules is not None else (
            the_map.source if the_map is not None else "")
        first = _RULEBOOK.match(source.strip())
        return Game(
            id=rules.game if rules is not None else (
                the_map.game if the_map is not None else self.name),
            title=(rules.title if rules is not None else "") or (
                the_map.title if the_map is not None else "") or self.name,
            rulebook=first.group(0) if first is not None else "",
            system=rules.system if rules is not None else "generic",
            code=rules.cite_as if rules is not None else "")


def game_folders(root: str | Path) -> list[GameFolder]:
    """Every game folder under ``root`` (the folders holding a ``map.json``, at any depth),
    in path order.

    >>> from pathlib import Path
    >>> maps = Path(__file__).resolve().parents[2] / "maps"
    >>> [f.name for f in game_folders(maps)][:3]
    ['cobra', 'demo', 'ironroads']
    """
    return [GameFolder(p.parent) for p in sorted(Path(root).rglob(MAP_FILE)) if p.is_file()]
