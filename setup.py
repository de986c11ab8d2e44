"""Build steps pyproject.toml cannot say: the bundled data, and the package index's README.

* The sample game (``maps/demo``, ``counters/demo``) and the JSON Schemas
  (``schemas``) live at the top of the repository, where the Makefile, the
  tests and the README name them. A wheel carries them as package data in
  ``pipeline/data``, laid out the same way; ``pipeline.bundle`` reads them
  there through importlib.resources (a checkout reads the repository's own).
* The README's pictures are relative links (``docs/demo-overlay.jpg``), which
  show on the repository's pages and in a checkout but not on a package
  index, where the project has no public address for them yet. The long
  description the wheel carries names each picture and its file instead.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
BUNDLED = ("maps/demo", "counters/demo", "schemas")  # as pipeline.bundle.BUNDLED
_PICTURE = re.compile(r"!\[(?P<alt>[^\]]*)\]\((?P<target>(?!https?:|#)[^)\s]+)\)")
_LINK = re.compile(r"(?<!!)\[(?P<text>[^\]]+)\]\((?P<target>(?!https?:|#|mailto:)[^)\s]+)\)")


def package_index_readme(text: str) -> str:
    """README.md for a package index: relative pictures and links as words and file names."""
    text = _PICTURE.sub(lambda m: f"*(picture: {m['alt'] or 'figure'}, `{m['target']}` in the"
                        " source distribution)*", text)
    return _LINK.sub(lambda m: f"{m['text']} (`{m['target']}`)", text)


class BuildPy(build_py):
    """``build_py`` that also copies :data:`BUNDLED` into the package's ``data`` folder."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the checkout's folders
        target = Path(self.build_lib) / "pipeline" / "data"
        for folder in BUNDLED:
            shutil.rmtree(target / folder, ignore_errors=True)
            shutil.copytree(ROOT / folder, target / folder,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.bocage-tmp"))


setup(
    cmdclass={"build_py": BuildPy},
    long_description=package_index_readme((ROOT / "README.md").read_text(encoding="utf-8")),
    long_description_content_type="text/markdown",
)
