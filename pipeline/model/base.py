"""What every model shares: strict, closed, immutable records, and located errors.

Every document bocage reads is validated by a subclass of :class:`Model`:

* ``extra="forbid"``: a misspelt key is an error, never silently ignored;
* ``strict=True``: JSON ``"3"`` is not the number 3 and ``1`` is not ``true``
  (hand-edited files get these wrong, and lax coercion would hide it);
* ``frozen=True``: loaded data is a value; change it with ``model_copy``;
* no NaN or infinity (they are not JSON and break every comparison);
* ``defer_build=True``: a class's validator is built when a document is first
  validated as it, so a command builds only the validators of the kinds it reads
  (one for a whole rules profile, not one for each of its classes).

Checks that need the whole document (a terrain name against the map's own
vocabulary, a hex id against the grid) raise :class:`Invalid`, which carries
the place inside the document so the message can name it.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "Cite",
    "Color",
    "Invalid",
    "Model",
    "Name",
    "Note",
    "Path",
    "Place",
]

# One step into a document: a key of an object or an index of a list.
Place = str | int
Path = tuple[Place, ...]


class Model(BaseModel):
    """Base of every bocage data class (see the module docstring for why)."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        frozen=True,
        allow_inf_nan=False,
        validate_default=False,
        defer_build=True,
    )


class Invalid(ValueError):
    """A semantic error at a place inside a document.

    Raised inside validators; pydantic keeps the exception in the error's
    context and :mod:`pipeline.model.translate` appends ``path`` to the
    location pydantic reports, so the message names the exact place.

    Parameters
    ----------
    path
        Keys and list indexes below the validated object, e.g.
        ``("hexes", "0421", "terrain", 1)``.
    message
        What is wrong and, where possible, how to fix it.
    """

    def __init__(self, path: Path, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


# Shared annotated types. Patterns double as documentation in the schemas.
COLOR_PATTERN = r"^#[0-9a-fA-F]{6}$"
NAME_PATTERN = r"^[a-z][a-z0-9_]*$"
SIGNED_NUMBER_PATTERN = r"^[+-]?\d+(\.\d+)?$"

Color = Annotated[str, Field(pattern=COLOR_PATTERN, description="'#rrggbb'")]
"""A colour written ``#rrggbb``."""

Name = Annotated[str, Field(pattern=NAME_PATTERN, description="a lower-case identifier")]
"""A lower-case identifier such as ``allied`` or ``all_sea``."""

Cite = Annotated[
    str,
    Field(description="rulebook file name and section, e.g. '000_3d79f68a6e3e33eb.txt §5.4'"),
]
Note = Annotated[str, Field(description="free text for people")]
