"""Citations as a player reads them: the game's title and the section, not a file name.

The data cites its rulebook by file name (``000_3d79f68a6e3e33eb.txt §6.1``),
and its notes often by the file's three-digit code (``000 §5.4``), as the
project names its sources. A printed aid is read by players, who know the
game by its title: a :class:`Rulebook` holds the rulebook's file name and the
title the rules profile gives (``title``), and :meth:`Rulebook.cite` rewrites
a text's citations of that rulebook. Citations of other rulebooks, and every
word that is not a citation, are left as they are.

>>> book = Rulebook("000_3d79f68a6e3e33eb.txt", "D-Day Omaha Beach")
>>> book.cite("000_3d79f68a6e3e33eb.txt §6.1; see (000 §5.4) and 003 §10.3")
'D-Day Omaha Beach §6.1; see (D-Day Omaha Beach §5.4) and 003 §10.3'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.model.rulesprofile import RulesProfile

__all__ = ["Rulebook", "cite_text"]

_FILE = re.compile(r"\b(?P<code>\d{3})_[0-9a-f]+\.txt\b")


@dataclass(frozen=True)
class Rulebook:
    """A rulebook as the data names it (``file``) and as players do (``title``)."""

    file: str
    title: str

    @classmethod
    def of(cls, rules: RulesProfile) -> Rulebook | None:
        """The rulebook a profile cites in its ``source``, with the profile's ``title``;
        ``None`` when the profile gives no title (citations then print as the data has
        them) or its source names no rulebook file.

        >>> from pathlib import Path
        >>> from pipeline.model import load_rules
        >>> root = Path(__file__).resolve().parents[2]
        >>> Rulebook.of(load_rules(root / "maps" / "demo" / "rules.json"))
        Rulebook(file='000_3d79f68a6e3e33eb.txt', title='D-Day Omaha Beach')
        """
        found = _FILE.search(rules.source)
        if not rules.title.strip() or found is None:
            return None
        return cls(found.group(0), rules.title.strip())

    def cite(self, text: str) -> str:
        """``text`` with this rulebook's file name, and its code before a section, as the title.

        >>> Rulebook("000_3d79f68a6e3e33eb.txt", "D-Day Omaha Beach").cite("Source: 000 §§9-12")
        'Source: D-Day Omaha Beach §§9-12'
        """
        code = self.file[:3]
        text = re.sub(rf"\b{re.escape(self.file)}", self.title, text)
        return re.sub(rf"(?<![\w.]){re.escape(code)}(?= §)", self.title, text)


def cite_text(text: str, book: Rulebook | None) -> str:
    """``text`` as printed for ``book`` (unchanged without one).

    >>> cite_text("000 §6.1", None)
    '000 §6.1'
    """
    return book.cite(text) if book is not None else text
