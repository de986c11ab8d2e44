"""One validation run: screen, lint, diff against a digitized map, check the facts.

This is the library's entry point for ``bocage validate``: it reads the files,
runs every stage that has its input and returns one :class:`Validation` with
all findings in report order. A map scan (``--scan``) is digitized first by
:mod:`pipeline.digitize` (:func:`digitize_hook`).

Every slip of the typed file is a finding of the same run (:mod:`~pipeline.validate.rawjson`
for keys typed twice, :mod:`~pipeline.validate.screen` for unknown names, ids off the
grid and hexsides between hexes that are not neighbours): one run, one report. Such a
file still does not load for the other commands (:attr:`Validation.loads` says so).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.errors import BocageError, DataError
from pipeline.model import Facts, GameFolder, MapData, load_facts, load_map
from pipeline.model.folder import FACTS_FILE, MAP_FILE
from pipeline.validate.accepted import apply_accepted, read_accepted, sidecar_of
from pipeline.validate.diff import MapDiff, diff_maps
from pipeline.validate.facts import check_facts
from pipeline.validate.findings import Finding, count_by, sort_findings
from pipeline.validate.lint import lint_map
from pipeline.validate.rawjson import read_raw, read_raw_file
from pipeline.validate.roles import Roles, roles_for
from pipeline.validate.screen import screen_document
from pipeline.validate.sides import transpositions

if TYPE_CHECKING:
    from pipeline.hexgrid import HexGrid

__all__ = ["Validation", "digitize_hook", "typed_grid", "validate_data", "validate_files",
           "validate_folder", "validate_text"]


@dataclass(frozen=True)
class Validation:
    """The result of one run: the map as loaded, its findings and the diff statistics."""

    the_map: MapData
    findings: list[Finding]
    roles: Roles
    diff: MapDiff | None = None
    inputs: dict[str, str] = field(default_factory=dict)
    hidden: list[Finding] = field(default_factory=list)  # marked as checked by a person
    reference: MapData | None = None  # the map diffed with (a scan's reading)

    @property
    def has_errors(self) -> bool:
        """Whether any finding is an error (``bocage validate`` exits 1)."""
        return any(f.severity == "error" for f in self.findings)

    @property
    def loads(self) -> bool:
        """Whether the file loads for the other commands (no slip the screen let through)."""
        return not any(f.source == "screen" for f in self.findings)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``--json`` (deterministic)."""
        out: dict[str, Any] = {
            "inputs": dict(sorted(self.inputs.items())),
            "ok": not self.has_errors,
            "loads": self.loads,
            "counts": {"severity": count_by(self.findings, "severity"),
                       "kind": count_by(self.findings, "kind")},
            "findings": [f.to_dict() for f in self.findings],
        }
        if self.diff is not None:
            out["diff"] = self.diff.to_dict()
        if self.the_map.lint_off:
            out["lint_off"] = dict(sorted(self.the_map.lint_off.items()))
        if self.hidden:
            out["checked"] = [{"kind": f.kind, "where": f.where} for f in self.hidden]
        return out


def _transposed(found: list[Finding]) -> list[Finding]:
    """A hex typed twice and its transposition not at all: one finding saying so."""
    twice = {f.where: f for f in found if f.kind == "duplicate_key" and f.hexes}
    missing = {f.where: f for f in found if f.kind == "missing_hex"}
    merged: dict[str, Finding] = {}
    for key, dup in twice.items():
        meant = next((m for m in transpositions(key) if m in missing), None)
        if meant is None or meant in merged:
            continue
        merged[meant] = Finding(
            "error", "transposed_id", key,
            f"{key} is typed twice and {meant} not at all: is one of the entries for {key}"
            f" meant for {meant}? (the ids differ by two swapped digits; {dup.message})",
            hexes=(key, meant), source="screen")
    gone = {id(twice[f.where]) for f in merged.values()} | {id(missing[m]) for m in merged}
    return [f for f in found if id(f) not in gone] + list(merged.values())


def _unreadable(exc: DataError, slips: list[Finding]) -> DataError:
    """The load error of a document whose raw slips (a ``NaN`` nulled) may be its cause."""
    numbers = [f for f in slips if f.kind == "not_a_number"]
    if not numbers:
        return exc
    return DataError(exc.file, "", f"invalid JSON ({numbers[0].message}); without it,"
                     f" {exc.path + ': ' if exc.path else ''}{exc.message}")


def validate_data(data: Any, *, file: str = "<map>", against: MapData | None = None,
                  facts: Facts | None = None,
                  roles: Mapping[str, Iterable[str]] | None = None,
                  slips: Iterable[Finding] = ()) -> Validation:
    """Validate a parsed map document.

    Parameters
    ----------
    data
        The map document as parsed JSON (unknown names are findings, not errors).
    file
        Name used in messages.
    against
        A digitized (or reference) map of the same grid to diff with.
    facts
        The rulebook's facts to check.
    roles
        Overrides of the vocabulary roles (see :func:`pipeline.validate.roles.roles_for`).
    slips
        Findings of the raw pass over the text (:func:`~pipeline.validate.rawjson.read_raw`).

    Raises
    ------
    BocageError
        Bad input: a document that does not load, maps of different grids.
    """
    slips = list(slips)
    try:
        the_map, found = screen_document(data, file)
    except DataError as exc:
        raise _unreadable(exc, slips) from None
    found = slips + found
    chosen = roles_for(the_map, roles)
    found = _transposed(found + lint_map(the_map, chosen))
    diff = diff_maps(the_map, against, roles=chosen) if against is not None else None
    if diff is not None:
        found += diff.findings
    if facts is not None:
        found += check_facts(facts, the_map)
    return Validation(the_map, sort_findings(found), chosen, diff, {"map": file},
                      reference=against)


def typed_grid(data: Any, file: str | Path = "<map>") -> HexGrid | None:
    """The first board's grid of a typed map, layout and all, even when its hexes have slips.

    ``None`` when the document has no readable grid (the strict load then says why).
    """
    from pipeline.digitize.gridfile import grid_from_spec
    from pipeline.model.documents import validate_document
    from pipeline.model.mapdata import GridSpec

    try:
        spec = validate_document(GridSpec, data["boards"][0]["grid"], file)
        return grid_from_spec(spec, str(file))
    except (BocageError, KeyError, IndexError, TypeError):
        return None


def digitize_hook(scan: Path, legend: Path | None, hand: Path | None = None, *,
                  grid: HexGrid | None = None, **reading: Any) -> MapData:
    """Digitize a map scan for ``--scan``, on the hand-entered map's grid unless told another.

    The numbering of the scan's hexes must be the hand map's for a diff to mean
    anything, so its grid (orientation, numbering, extent, and the layout map.json
    keeps, which calibration starts from) is handed to the digitizer, exactly as
    ``bocage digitize --grid map.json`` would. ``reading`` are the other options of
    :func:`pipeline.digitize.digitize_scan` (``size``, ``anchors``, ``samples``,
    ``key``, ``checked``), as ``bocage digitize`` takes them.

    Raises
    ------
    BocageError
        No legend, an unreadable scan, a grid the scan does not show.
    """
    from pipeline.digitize import digitize_scan

    if legend is None:
        raise BocageError(f"{scan}: --scan needs --legend LEGEND.json")
    if grid is None and hand is not None and reading.get("size") is None:
        grid = typed_grid(read_raw_file(hand)[0], hand)
    # How sure the reading is that lines are not where it read none: a line typed too
    # many is named by it.
    return digitize_scan(scan, legend, grid=grid, source=str(scan),
                         **{"absence": True, **reading}).map


def validate_text(text: str, *, file: str = "<map>", against: MapData | None = None,
                  facts: Facts | None = None,
                  roles: Mapping[str, Iterable[str]] | None = None) -> Validation:
    """Validate a typed map's text: every slip a finding, then :func:`validate_data`.

    Examples
    --------
    >>> from pathlib import Path
    >>> from pipeline.model import GameFolder
    >>> demo = GameFolder(Path(__file__).resolve().parents[2] / "maps" / "demo")
    >>> text = demo.map_file.read_text()
    >>> text = text.replace('"hexes": {', '"hexes": {"1718": {"terrain": ["woods"]},', 1)
    >>> result = validate_text(text, file="typed.json")
    >>> [(f.kind, f.where) for f in result.findings if f.source == "screen"], result.loads
    ([('duplicate_key', '1718')], False)
    """
    data, slips = read_raw(text, file)
    return validate_data(data, file=file, against=against, facts=facts, roles=roles,
                         slips=slips)


def validate_folder(folder: str | Path | GameFolder, *, against: Path | None = None,
                    facts: Path | None = None, **options: Any) -> Validation:
    """Validate a game folder's map against its own facts (:func:`validate_files` on the
    folder's ``map.json``, with its ``facts.json`` unless ``facts`` names other facts).

    >>> from pathlib import Path
    >>> result = validate_folder(Path(__file__).resolve().parents[2] / "maps" / "demo")
    >>> result.has_errors, result.inputs["facts"].endswith("facts.json")
    (False, True)
    """
    game = GameFolder.of(folder)
    game.require(MAP_FILE, stage="validation")
    if facts is None and game.has(FACTS_FILE):
        facts = game.facts_file
    return validate_files(game.map_file, against=against, facts=facts, **options)


def validate_files(map_path: Path, *, against: Path | None = None, facts: Path | None = None,
                   scan: Path | None = None, legend: Path | None = None,
                   roles: Mapping[str, Iterable[str]] | None = None,
                   reading: Mapping[str, Any] | None = None,
                   checked: Path | None = None) -> Validation:
    """Read the files and validate (see :func:`validate_data`).

    ``reading`` are the options of :func:`digitize_hook` for ``scan`` (the grid, the
    size, anchors and examples, as ``bocage digitize`` takes them). The findings a
    person marked as checked (``checked``, by default ``MAP.checked.json`` beside the
    map when there is one: :mod:`~pipeline.validate.accepted`) are hidden.
    """
    if scan is not None and against is not None:
        raise BocageError("give --against or --scan, not both")
    reference = load_map(against) if against is not None else None
    if scan is not None:
        reference = digitize_hook(scan, legend, map_path, **(reading or {}))
    known = load_facts(facts) if facts is not None else None
    data, slips = read_raw_file(map_path)
    result = validate_data(data, file=str(map_path), against=reference, facts=known,
                           roles=roles, slips=slips)
    inputs = {"map": str(map_path)}
    inputs |= {k: str(v) for k, v in (("against", against), ("facts", facts), ("scan", scan))
               if v is not None}
    side = checked if checked is not None else sidecar_of(map_path)
    findings, hidden = result.findings, list[Finding]()
    if checked is not None or side.is_file():
        findings, hidden = apply_accepted(findings, read_accepted(side))
        inputs["checked"] = str(side)
    return Validation(result.the_map, findings, result.roles, result.diff, inputs, hidden,
                      reference)
