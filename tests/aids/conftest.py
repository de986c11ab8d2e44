"""Shared helpers: the game folders and PDF text through poppler's pdftotext."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.needs import program

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "maps"


def pdf_text(path: Path) -> str:
    """The PDF's text, laid out (``pdftotext -layout``)."""
    pdftotext = program("pdftotext", "poppler-utils")
    out = subprocess.run([pdftotext, "-layout", str(path), "-"], check=True,
                         capture_output=True, text=True)
    return out.stdout


def pdf_pages(path: Path) -> list[str]:
    """The text of each page."""
    return pdf_text(path).split("\f")[:-1]


@pytest.fixture
def pdftext():
    return pdf_text
