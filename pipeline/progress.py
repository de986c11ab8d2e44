"""How a long piece of work tells how far it has gone.

The library calls ``told(done, total, what)`` as it goes (``done`` of ``total`` parts, and
the part it is on: a counter's id, an aid's name, a stage); the command line draws that as
a bar on a terminal (:func:`pipeline.cli.options.progress_bar`), a script may log it, and
``None`` means nobody asked. The digitizer tells its stages by name instead
(:data:`pipeline.digitize.Progress`), since a reading's stages are fixed.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Told"]

Told = Callable[[int, int, str], None]
"""Told ``(done, total, what)`` as a long piece of work goes on."""
