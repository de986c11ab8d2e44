"""Counter image file names, as the counter renderer writes them.

The convention lives with its producer, :mod:`pipeline.counters.names`; the
export only reads it. See there for the rules.
"""

from __future__ import annotations

from pipeline.counters.names import check_slugs, counter_image_names, image_slug

__all__ = ["check_slugs", "counter_image_names", "image_slug"]
