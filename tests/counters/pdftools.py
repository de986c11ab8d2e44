"""Reading the PDFs the counter tests make: poppler's tools, and the content streams."""

from __future__ import annotations

import subprocess
from collections import Counter
from pathlib import Path

import numpy as np
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import ContentStream

from tests.needs import program


def tool(name: str) -> str:
    """A poppler tool's path: the test fails under CI=true when it is missing, else skips."""
    return program(name, "poppler-utils")


def raster(pdf: Path, page: int, dpi: int) -> np.ndarray:
    """One page as RGB ints (rows, columns, 3), drawn by pdftoppm."""
    out = pdf.with_name(f"{pdf.stem}-r{page}")
    subprocess.run([tool("pdftoppm"), "-r", str(dpi), "-png", "-singlefile", "-f", str(page),
                    "-l", str(page), str(pdf), str(out)], check=True)
    with Image.open(f"{out}.png") as image:
        return np.asarray(image.convert("RGB")).astype(int)


def text(pdf: Path, page: int | None = None) -> str:
    """The text pdftotext reads from the PDF (one page, or all)."""
    pages = ["-f", str(page), "-l", str(page)] if page else []
    return subprocess.run([tool("pdftotext"), *pages, "-layout", str(pdf), "-"], check=True,
                          capture_output=True, text=True).stdout


def fonts(pdf: Path) -> list[dict[str, str]]:
    """pdffonts' table: each font's name, type and whether it is embedded."""
    lines = subprocess.run([tool("pdffonts"), str(pdf)], check=True, capture_output=True,
                           text=True).stdout.splitlines()[2:]
    rows = []
    for line in lines:
        parts = line.split()
        # name type [type...] encoding emb sub uni id gen
        rows.append({"name": parts[0], "emb": parts[-5], "type": parts[1]})
    return rows


def operators(pdf: Path, page: int = 0) -> tuple[Counter[str], Counter[str]]:
    """How often each content-stream operator is used on a page, forms included, and the
    subtypes of the XObjects it draws (``/Form``, ``/Image``)."""
    reader = PdfReader(str(pdf))
    ops: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    seen: set[int] = set()

    def walk(stream: object, resources: object) -> None:
        for _, op in ContentStream(stream, reader).operations:
            ops[op.decode("latin-1")] += 1
        xobjects = resources.get("/XObject", {}) if resources else {}  # type: ignore[attr-defined]
        for ref in xobjects.values():
            obj = ref.get_object()
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            kinds[str(obj["/Subtype"])] += 1
            if obj["/Subtype"] == "/Form":
                walk(obj, obj.get("/Resources"))

    the_page = reader.pages[page]
    walk(the_page.get_contents(), the_page.get("/Resources"))
    return ops, kinds
