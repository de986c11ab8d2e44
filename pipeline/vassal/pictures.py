"""Images inside a module's archive, decoded for drawing: pieces once, boards at a size.

An image entry is decompressed up to :data:`MAX_IMAGE_BYTES` and decoded by
bocage's one image reader (:mod:`pipeline.imagefile`); one that is missing,
unreadable, or a resource of VASSAL's own jar (``/images/...``) gives ``None``
and is remembered as missing, so a preview draws a stand-in. One over the
pixel limit is refused in one line.
"""

from __future__ import annotations

from PIL import Image

from pipeline.errors import ImageError, ModuleError
from pipeline.imagefile import check_pixels, open_image, probe_image
from pipeline.vassal.source import ModuleSource

__all__ = ["MAX_IMAGE_BYTES", "ModuleImages", "board_picture", "module_image", "resize"]

MAX_IMAGE_BYTES = 256 * 1024 ** 2  # one image entry, decompressed


# -- images --------------------------------------------------------------------------------


class ModuleImages:
    """Images of the archive, read once, scaled once per size."""

    def __init__(self, source: ModuleSource, scale: float) -> None:
        self.source = source
        self.scale = scale
        self._raw: dict[str, Image.Image | None] = {}
        self._scaled: dict[str, Image.Image | None] = {}
        self.missing: set[str] = set()

    def raw(self, name: str) -> Image.Image | None:
        """The image at its own size (RGBA), or ``None`` (missing, unreadable, in VASSAL's jar)."""
        if name not in self._raw:
            self._raw[name] = self._load(name)
            if self._raw[name] is None:
                self.missing.add(name)
        return self._raw[name]

    def _load(self, name: str) -> Image.Image | None:
        entry = f"images/{name}"
        if name.startswith("/") or not self.source.is_archive or entry not in self.source.entries:
            return None
        try:
            data = self.source.read_entry(entry, MAX_IMAGE_BYTES)
        except ModuleError:
            return None
        image = module_image(self.source, entry, data)
        return None if image is None else image.convert("RGBA")

    def scaled(self, name: str) -> Image.Image | None:
        """The image at the scale given (read once, scaled once)."""
        if name not in self._scaled:
            raw = self.raw(name)
            self._scaled[name] = None if raw is None else resize(raw, self.scale)
        return self._scaled[name]


def resize(image: Image.Image, scale: float) -> Image.Image:
    """``image`` scaled by ``scale`` (Lanczos), the same object at scale 1."""
    if scale == 1.0:
        return image
    size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
    return image.resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0)


def module_image(source: ModuleSource, entry: str, data: bytes,
                 draft: tuple[str, tuple[int, int]] | None = None) -> Image.Image | None:
    """An image entry decoded by bocage's image reader; ``None`` (a stand-in is drawn) when
    it cannot be read.

    An image over the pixel limit is refused, not drawn as missing: a module from
    elsewhere may hold a decompression bomb, and the user should know
    (:func:`pipeline.imagefile.check_pixels`).
    """
    name = f"{source.path}: {entry}"
    try:
        info = probe_image(data, name, check_size=False)
    except ImageError:
        return None
    check_pixels(name, info.width, info.height)
    try:
        return open_image(data, name, draft=draft)
    except ImageError:
        return None


def board_picture(source: ModuleSource, image_name: str,
                  size: tuple[int, int]) -> Image.Image | None:
    """``images/NAME`` flattened on white at ``size`` (decoded at a reduced size when JPEG
    allows it); ``None`` when it cannot be read."""
    entry = f"images/{image_name}"
    try:
        data = source.read_entry(entry, MAX_IMAGE_BYTES)
    except ModuleError:
        return None
    image = module_image(source, entry, data, draft=("RGB", size))
    if image is None:
        return None
    if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
        rgba = image.convert("RGBA")
        flat = Image.new("RGB", rgba.size, (255, 255, 255))
        flat.paste(rgba, mask=rgba.getchannel("A"))
    else:
        flat = image.convert("RGB")
    if flat.size != size:
        flat = flat.resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0)
    return flat
