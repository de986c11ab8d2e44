"""Validation of hand-entered terrain: diff, lint, and the rulebook's facts.

A typist's ``map.json`` is checked three ways, each giving
:class:`~pipeline.validate.findings.Finding` objects in one shape:

* :mod:`~pipeline.validate.diff`: hex by hex and hexside by hexside against a
  digitized map of the same grid, with the digitizer's confidence;
* :mod:`~pipeline.validate.lint` (and :mod:`~pipeline.validate.rawjson` and
  :mod:`~pipeline.validate.screen` for keys typed twice, names, ids and
  hexsides a strict load refuses): consistency of the map by itself;
* :mod:`~pipeline.validate.facts`: the claims of ``facts.json``, each finding
  citing its rulebook section.

:func:`validate_files` runs them all; :mod:`~pipeline.validate.report` writes
the HTML page, the text and the JSON; :mod:`~pipeline.validate.inject` is
the bench that types errors into a true map. Nothing here changes data.

>>> from pathlib import Path
>>> demo = Path(__file__).resolve().parents[2] / "maps" / "demo"
>>> result = validate_folder(demo)  # its map.json, against its facts.json
>>> result.has_errors, sorted({f.source for f in result.findings})
(False, ['lint'])
"""

from pipeline.validate.accepted import apply_accepted, read_accepted, sidecar_of
from pipeline.validate.diff import (
    Absence,
    Agreement,
    MapDiff,
    absence_confidence,
    diff_maps,
    feature_confidence,
    same_grid,
)
from pipeline.validate.facts import check_fact, check_facts
from pipeline.validate.findings import (
    SEVERITIES,
    Finding,
    Severity,
    cite_of,
    count_by,
    sort_findings,
)
from pipeline.validate.inject import ALARMS, KINDS, REASONS, Injected, Score, inject_errors, score
from pipeline.validate.lint import lint_map, switched_off
from pipeline.validate.picture import Picture, ScanView, draw_map, draw_scan
from pipeline.validate.rawjson import read_raw, read_raw_file
from pipeline.validate.report import html_report, text_report, write_html_report
from pipeline.validate.roles import ROLE_NAMES, Roles, parse_role_options, roles_for
from pipeline.validate.screen import screen_document, screen_file
from pipeline.validate.validation import (
    Validation,
    digitize_hook,
    typed_grid,
    validate_data,
    validate_files,
    validate_folder,
    validate_text,
)

__all__ = [
    "ALARMS",
    "KINDS",
    "REASONS",
    "ROLE_NAMES",
    "SEVERITIES",
    "Absence",
    "Agreement",
    "Finding",
    "Injected",
    "MapDiff",
    "Picture",
    "Roles",
    "ScanView",
    "Score",
    "Severity",
    "Validation",
    "absence_confidence",
    "apply_accepted",
    "check_fact",
    "check_facts",
    "cite_of",
    "count_by",
    "diff_maps",
    "digitize_hook",
    "draw_map",
    "draw_scan",
    "feature_confidence",
    "html_report",
    "inject_errors",
    "lint_map",
    "parse_role_options",
    "read_accepted",
    "read_raw",
    "read_raw_file",
    "roles_for",
    "same_grid",
    "score",
    "screen_document",
    "screen_file",
    "sidecar_of",
    "sort_findings",
    "switched_off",
    "text_report",
    "typed_grid",
    "validate_data",
    "validate_files",
    "validate_folder",
    "validate_text",
    "write_html_report",
]
