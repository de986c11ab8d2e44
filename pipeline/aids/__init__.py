"""Printable play aids: the CRT, the TEC, the map in tiles, turn track, OOB, quick reference.

:func:`make_aids` reads a game folder (``crt.json``, ``rules.json``,
``map.json``, ``scenario*.json`` with the unit manifest) and writes a PDF for
printing and a PNG for the module's chart window for each aid it has data
for; every file is written atomically.

>>> from pathlib import Path
>>> import tempfile
>>> root = Path(__file__).resolve().parents[2]
>>> with tempfile.TemporaryDirectory() as out:
...     names = [p.name for p in make_aids(root / "maps" / "cobra", Path(out), "letter",
...                                         map_dpi=20)]
>>> names[:4]
['crt.pdf', 'crt.png', 'tec.pdf', 'tec.png']
"""

from pipeline.aids.make import AID_STEMS, is_aid_file, make_aids

__all__ = ["AID_STEMS", "is_aid_file", "make_aids"]
