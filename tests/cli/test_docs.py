"""The README's command reference is generated from --help and must not drift."""

from __future__ import annotations

import re
from pathlib import Path

from pipeline.cli.docs import END, START, reference

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_command_reference_matches_help():
    text = README.read_text(encoding="utf-8")
    block = re.search(re.escape(START) + r"(.*?)" + re.escape(END), text, re.DOTALL)
    assert block, "README has no generated command reference"
    assert block.group(1).strip() == reference().strip(), "run `make docs` to refresh README"
