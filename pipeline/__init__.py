"""bocage: digital editions of hex-and-counter wargames.

The import package is ``pipeline``; each stage of the pipeline is a subpackage
(``hexgrid``, ``model``, ...) and the ``bocage`` command is a thin shell over them.
"""

from pipeline.errors import (
    BocageError,
    DataError,
    GridError,
    ImageError,
    ManifestError,
    ModuleError,
)

__version__ = "0.1.0"
"""The version of bocage (``bocage --version``)."""

__all__ = [
    "BocageError",
    "DataError",
    "GridError",
    "ImageError",
    "ManifestError",
    "ModuleError",
    "__version__",
]
