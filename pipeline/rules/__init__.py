"""The shared rules validator: movement, zones of control, stacking, supply, LOS.

One engine, four rulebooks: what a table can say comes from the terrain chart
or rules profile; what is a procedure lives in one module per rule system
(:mod:`pipeline.rules.systems`), each rule citing its rulebook and section.

Each name is imported from its module when first asked for (PEP 562), so a question
(``bocage rules supply``) does not import the scenario cases' reader and runner.
"""

import typing as _typing

from pipeline.lazy import exports as _exports

if _typing.TYPE_CHECKING:  # the same names as the table below, for type checkers
    from pipeline.rules.cases import Case, case_from_data
    from pipeline.rules.engine import Engine
    from pipeline.rules.errors import RulesError
    from pipeline.rules.movement import Move, MoveQuery, PathCheck, Reach
    from pipeline.rules.scenarios import CaseResult, load_cases, run_case, run_cases
    from pipeline.rules.situation import Chart, GameMap, Marker, Situation, Unit
    from pipeline.rules.systems.base import SupplyAnswer
    from pipeline.rules.verdict import Verdict

#: Each public module of the package and the names it gives the package.
_SOURCES: dict[str, tuple[str, ...]] = {
    "pipeline.rules.cases": ("Case", "case_from_data"),
    "pipeline.rules.engine": ("Engine",),
    "pipeline.rules.errors": ("RulesError",),
    "pipeline.rules.movement": ("Move", "MoveQuery", "PathCheck", "Reach"),
    "pipeline.rules.scenarios": ("CaseResult", "load_cases", "run_case", "run_cases"),
    "pipeline.rules.situation": ("Chart", "GameMap", "Marker", "Situation", "Unit"),
    "pipeline.rules.systems.base": ("SupplyAnswer",),
    "pipeline.rules.verdict": ("Verdict",),
}

__all__ = [
    "Case",
    "CaseResult",
    "Chart",
    "Engine",
    "GameMap",
    "Marker",
    "Move",
    "MoveQuery",
    "PathCheck",
    "Reach",
    "RulesError",
    "Situation",
    "SupplyAnswer",
    "Unit",
    "Verdict",
    "case_from_data",
    "load_cases",
    "run_case",
    "run_cases",
]


if not _typing.TYPE_CHECKING:  # type checkers take the imports above, and no others
    __getattr__, __dir__ = _exports(__name__, _SOURCES)
