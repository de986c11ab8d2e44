"""The shared rules validator: movement, zones of control, stacking, supply, LOS.

One engine, four rulebooks: what a table can say comes from the terrain chart
or rules profile; what is a procedure lives in one module per rule system
(:mod:`pipeline.rules.systems`), each rule citing its rulebook and section.
"""

from pipeline.rules.cases import Case, case_from_data
from pipeline.rules.engine import Engine
from pipeline.rules.errors import RulesError
from pipeline.rules.movement import Move, MoveQuery, PathCheck, Reach
from pipeline.rules.scenarios import CaseResult, load_cases, run_case, run_cases
from pipeline.rules.situation import Chart, GameMap, Marker, Situation, Unit
from pipeline.rules.systems.base import SupplyAnswer
from pipeline.rules.verdict import Verdict

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
