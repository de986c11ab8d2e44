"""What every PDF bocage writes with reportlab shares: fonts, metadata, binary images.

Every PDF is set in the DejaVu fonts shipped in ``pipeline/counters/fonts``,
registered with reportlab so each is embedded (as a subset); the canvas starts
in one of them, so no page names a font the file does not carry (reportlab's
own start font is Helvetica, which is never embedded). Its metadata says what
the document is and which game it serves (:class:`DocumentInfo`).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from reportlab import rl_config
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from pipeline.counters.typeset import FONT_DIR, FONTS, FontName

__all__ = ["PDF_FONTS", "DocumentInfo", "binary_images", "new_canvas", "pdf_font"]

PDF_FONTS: dict[str, str] = {
    "bold": "BocageSans-Bold",
    "condensed": "BocageSansCondensed-Bold",
    "regular": "BocageSans",
    "text": "BocageSansCondensed",
}
"""Shipped font (:data:`pipeline.counters.typeset.FONTS`) -> its name inside a PDF."""


@functools.cache
def pdf_font(name: FontName) -> str:
    """The reportlab name of a shipped font, registered on first use (embedded when drawn).

    >>> pdf_font("text")
    'BocageSansCondensed'
    """
    pdfmetrics.registerFont(TTFont(PDF_FONTS[name], str(FONT_DIR / FONTS[name])))
    return PDF_FONTS[name]


@dataclass(frozen=True)
class DocumentInfo:
    """A PDF's metadata: what it is, for which game, made by whom.

    Parameters
    ----------
    title
        What the document is: ``"D-Day Omaha Beach: counter sheets"``.
    subject
        One line on what it holds and how it was made.
    author
        Who the document is by; bocage's builders rarely say, so the default
        names the program that laid it out rather than reportlab's "anonymous".
    """

    title: str
    subject: str = ""
    author: str = "bocage"


def new_canvas(out: BinaryIO, size: tuple[float, float], info: DocumentInfo) -> Canvas:
    """A reportlab canvas that writes a deterministic PDF with ``info`` as its metadata.

    The file has no time stamp or random id (the same drawing gives the same
    bytes), compressed pages, and starts in a shipped font.

    >>> import io
    >>> canvas = new_canvas(io.BytesIO(), (612, 792), DocumentInfo("Charts", "CRT", "me"))
    >>> canvas._doc.info.author, canvas._doc.info.title
    ('me', 'Charts')
    """
    # (types-reportlab types initialFontName as a number; reportlab takes the font's name)
    canvas = Canvas(out, pagesize=size, invariant=True, pageCompression=1,
                    initialFontName=pdf_font("text"),  # type: ignore[arg-type]
                    initialFontSize=10)
    canvas.setTitle(info.title)
    canvas.setSubject(info.subject or info.title)
    canvas.setAuthor(info.author)
    canvas.setCreator("bocage")
    return canvas


@contextlib.contextmanager
def binary_images() -> Iterator[None]:
    """Store images as binary Flate streams, not ASCII85 text, while a PDF is made.

    reportlab's ASCII85 encoder is pure Python: it took two thirds of the time of
    a 300-counter sheet and made the file a fifth larger. The setting is global
    in reportlab, so it is restored afterwards.
    """
    before = rl_config.useA85
    rl_config.useA85 = 0
    try:
        yield
    finally:
        rl_config.useA85 = before
