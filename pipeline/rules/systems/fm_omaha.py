"""Fire & Movement system with the Omaha exclusive rules (000_3d79f68a6e3e33eb.txt).

Regiments, one unit a hex (three on beach landing hexes), ZOC rules that differ
for leg and mobile units (§6.0, §6.1 and its Exception), road ½ MP and trail
1 MP, the Mobile Movement Phase, inclement weather, a bridge assumed between
two city hexes (§10.1), a unit that has left a beach landing hex and never
stacks again (§11.2.1), where reinforcements land (§11.2.4), and supply traced
to beachhead markers (§12.0): every one of these rules is a table the game's
profile holds (``maps/omaha/rules.json``), so the system adds no procedure to
the kernel. Readings of unclear rules follow RULINGS.md (F&M-1..7) and are
noted on the profile entries they concern.
"""

from __future__ import annotations

from typing import ClassVar

from pipeline.model.folder import RULES_FILE
from pipeline.rules.kernel import KERNEL_READS, Kernel
from pipeline.rules.systems.base import REPOSITORY

__all__ = ["FireAndMovement"]


class FireAndMovement(Kernel):
    """000: Fire & Movement system rules + D-Day Omaha Beach exclusive rules, all of them
    said by the profile."""

    name = "fm_omaha"
    title = "Fire & Movement system with the D-Day Omaha Beach exclusive rules"
    rulebook = "000_3d79f68a6e3e33eb.txt"
    code = "000"
    reads = KERNEL_READS
    reference = REPOSITORY / "maps" / "omaha" / RULES_FILE
    overrides: ClassVar[dict[str, str]] = {}
