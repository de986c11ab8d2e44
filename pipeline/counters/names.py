"""Counter image file names: written by the counter renderer, read by the VASSAL export.

A unit's (or marker's) faces are PNG files in a counters directory, named from
its manifest id:

    <DIR>/<slug>-front.png   the face shown at the start (required)
    <DIR>/<slug>-back.png    the other face (optional: no back, no flip)

``slug`` (:func:`image_slug`) is the id folded to lower-case ASCII letters and
digits, every other run of characters one ``-``, none at either end:
``916/352`` -> ``916-352``, ``2 Rgr`` -> ``2-rgr``, ``Panzer-Lehr`` ->
``panzer-lehr``, ``Côte 192`` -> ``cote-192``; an id with no letter or digit is
``unit``. Lower case keeps names apart on case-blind file systems; two ids
that fold to the same slug are refused by :func:`check_slugs` rather than
sharing a picture. A VASSAL module stores the images under ``images/`` with
the same names.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from pipeline.errors import DataError

__all__ = ["check_slugs", "counter_image_names", "image_slug", "is_counter_file"]

_NOT_ALNUM = re.compile(r"[^a-z0-9]+")


def image_slug(unit_id: str) -> str:
    """The file-name stem of a unit or marker id (see the module docstring).

    >>> image_slug("916/352"), image_slug("2 Rgr"), image_slug("Côte 192"), image_slug("//")
    ('916-352', '2-rgr', 'cote-192', 'unit')
    """
    folded = unicodedata.normalize("NFKD", unit_id)
    ascii_only = folded.encode("ascii", "ignore").decode("ascii").lower()
    return _NOT_ALNUM.sub("-", ascii_only).strip("-") or "unit"


def counter_image_names(unit_id: str) -> tuple[str, str]:
    """``(front, back)`` PNG file names of a unit's (or marker's) counter faces.

    >>> counter_image_names("CCA/2")
    ('cca-2-front.png', 'cca-2-back.png')
    """
    slug = image_slug(unit_id)
    return f"{slug}-front.png", f"{slug}-back.png"


def is_counter_file(name: str) -> bool:
    """Whether a file name is one the counter renderer writes (a face, or the contact sheet).

    A counters folder is replaced as a set of these; other files in it are kept.

    >>> is_counter_file("914-352-front.png"), is_counter_file("units.csv")
    (True, False)
    """
    return name.endswith(("-front.png", "-back.png")) or name == "contact-sheet.png"


def check_slugs(ids: Iterable[str], what: str = "ids") -> None:
    """Refuse two ids whose image names would be the same file.

    Raises
    ------
    DataError
        Naming both ids and the shared slug.
    """
    seen: dict[str, str] = {}
    for item in ids:
        slug = image_slug(item)
        if slug in seen and seen[slug] != item:
            raise DataError(None, "", f"{what} '{seen[slug]}' and '{item}' would share the counter"
                            f" image names {slug}-front.png/-back.png; rename one of them")
        seen[slug] = item
