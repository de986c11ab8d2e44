"""June '44: The Struggle for Normandy, 1944 (001_2c092b02feae28f3.txt).

Divisions and brigades, two units a hex plus a brigade or regiment, a ZOC that
stops every unit and is left for free, the Caen Canal that only roads cross,
German movement cut by the weather, Allied air interdiction, and supply traced
to friendly beaches (Allies) or to the south and east map edges and Cherbourg
(Germans): every one of these rules is a table the game's profile holds
(``maps/june44/rules.json``), so the system adds no procedure to the kernel.
Readings of unclear rules follow RULINGS.md (J44-1..5); the others are noted
on the profile entries they concern.
"""

from __future__ import annotations

from typing import ClassVar

from pipeline.model.folder import RULES_FILE
from pipeline.rules.kernel import KERNEL_READS, Kernel
from pipeline.rules.systems.base import REPOSITORY

__all__ = ["June44"]


class June44(Kernel):
    """001: June '44 rules, all of them said by the profile."""

    name = "june44"
    title = "June '44: The Struggle for Normandy, 1944"
    rulebook = "001_2c092b02feae28f3.txt"
    code = "001"
    reads = KERNEL_READS
    reference = REPOSITORY / "maps" / "june44" / RULES_FILE
    overrides: ClassVar[dict[str, str]] = {}
