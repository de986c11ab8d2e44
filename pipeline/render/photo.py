"""A phone photo of a printed map: the sheet on a table, seen by a tilted camera.

What a builder gets when they photograph a folded map instead of scanning it:

* the paper first: folds (a vertical and a horizontal one) shown as shading,
  a light ridge beside a dark valley, as a sheet unfolded on a table shows them;
* the camera: a pinhole tilted about both axes and rolled, so the sheet is a
  trapezoid, then barrel distortion of the lens;
* the scene: a wooden table around the sheet, the sheet's drop shadow on it;
* the light: a gradient across the picture, a soft shadow over one corner, a
  glare patch (a window or a lamp reflected by the paper), vignetting;
* the sensor and the file: blur, noise, JPEG.

The forward transform of the paper is not a homography (the lens bends
straight lines), so the returned :class:`~pipeline.render.scan.Scan` carries
the pinhole homography *and* the distortion, and maps any paper point to the
image exactly (:meth:`~pipeline.render.scan.Scan.to_scan`). The picture is
made by inverting that transform for every image pixel (Newton's method on the
lens, the inverse homography) and sampling the paper there. It works on whole
arrays where a step needs its neighbours (blur, the sheet's shadow) and in
strips of rows elsewhere: about 65 bytes a pixel of the photo at the peak (some
330 MB for 5 megapixels), fine for bench sheets, not for a 70-megapixel sheet
(scan those with :func:`~pipeline.render.simulate_scan`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from pipeline.render.scan import Scan, jpeg_round_trip

__all__ = ["PhotoOptions", "camera_homography", "simulate_photo"]

RGB = tuple[int, int, int]
_ROWS = 256  # rows of the photo mapped back to the paper at a time


@dataclass(frozen=True)
class PhotoOptions:
    """How the sheet is photographed. Angles in degrees, strengths from 0 (off) to 1.

    Parameters
    ----------
    tilt
        Camera tilt about the sheet's horizontal and vertical axes.
    roll
        Camera turn about its own axis (clockwise on the image).
    focal
        Focal length in units of the image diagonal (0.65 is a phone's main camera).
    fill
        Share of the frame's shorter side the sheet spans.
    size
        Image size ``(width, height)``; by default 4:3 around the sheet.
    distortion
        Radial lens distortion ``k1``, normalised by the half diagonal
        (negative: barrel, as phone lenses have).
    folds
        Number of vertical and horizontal folds across the sheet.
    fold_depth
        How dark a fold's valley is.
    light
        Depth of the light gradient across the picture.
    shadow
        Depth of a soft shadow over one corner of the sheet (a hand, a phone).
    glare
        Strength of the glare patch.
    vignette
        Darkening of the picture's corners.
    blur, noise
        Gaussian blur sigma (pixels) and sensor noise sigma (8-bit levels).
    jpeg_quality
        Save and reload as JPEG at this quality (``None``: lossless).
    seed
        Seed of every random choice (fold places, light direction, glare, wood, noise).

    Examples
    --------
    >>> PhotoOptions(distortion=-0.04).distortion
    -0.04
    """

    tilt: tuple[float, float] = (7.5, -3.0)
    roll: float = 1.8
    focal: float = 0.65
    fill: float = 0.86
    size: tuple[int, int] | None = None
    distortion: float = -0.045
    folds: tuple[int, int] = (1, 1)
    fold_depth: float = 0.12
    light: float = 0.25
    shadow: float = 0.3
    glare: float = 0.45
    vignette: float = 0.3
    blur: float = 0.9
    noise: float = 3.0
    jpeg_quality: int | None = 78
    seed: int = 0

    def __post_init__(self) -> None:
        if not 0.2 < self.fill <= 1:
            raise ValueError(f"fill must be in (0.2, 1], got {self.fill}")
        if not -0.2 <= self.distortion <= 0.2:
            raise ValueError(f"distortion must be within +-0.2, got {self.distortion}")
        if self.focal <= 0.1:
            raise ValueError(f"focal must be more than 0.1 image diagonals, got {self.focal}")


def camera_homography(paper: tuple[int, int], image: tuple[int, int], options: PhotoOptions
                      ) -> NDArray[np.float64]:
    """The pinhole camera's homography from paper pixels to image pixels.

    The sheet lies in a plane, its centre on the optical axis; the camera is
    turned by ``tilt`` and ``roll`` and stands at the distance that makes the
    sheet span ``fill`` of the frame.

    >>> h = camera_homography((400, 300), (520, 390), PhotoOptions(tilt=(0, 0), roll=0))
    >>> p = h @ np.array([199.5, 149.5, 1.0])
    >>> (p[:2] / p[2]).round(3).tolist()
    [259.5, 194.5]
    """
    width, height = paper
    out_w, out_h = image
    f = options.focal * math.hypot(out_w, out_h)
    ax, ay = (math.radians(a) for a in options.tilt)
    az = math.radians(options.roll)
    rx = np.array([[1, 0, 0], [0, math.cos(ax), -math.sin(ax)], [0, math.sin(ax), math.cos(ax)]])
    ry = np.array([[math.cos(ay), 0, math.sin(ay)], [0, 1, 0], [-math.sin(ay), 0, math.cos(ay)]])
    rz = np.array([[math.cos(az), -math.sin(az), 0], [math.sin(az), math.cos(az), 0], [0, 0, 1]])
    rot = rz @ ry @ rx
    k = np.array([[f, 0, (out_w - 1) / 2], [0, f, (out_h - 1) / 2], [0, 0, 1]])
    centre = np.array([[1, 0, -(width - 1) / 2], [0, 1, -(height - 1) / 2], [0, 0, 1]])
    corners = np.array([[0, 0, 1], [width - 1, 0, 1], [width - 1, height - 1, 1],
                        [0, height - 1, 1]], float).T
    distance = f
    for _ in range(3):  # the spread shrinks with distance: settle it in a few steps
        h = k @ np.column_stack([rot[:, 0], rot[:, 1], [0, 0, distance]]) @ centre
        p = h @ corners
        x, y = p[0] / p[2], p[1] / p[2]
        spread = max((x.max() - x.min()) / out_w, (y.max() - y.min()) / out_h)
        distance *= spread / options.fill
    h = k @ np.column_stack([rot[:, 0], rot[:, 1], [0, 0, distance]]) @ centre
    return np.asarray(h / h[2, 2], dtype=np.float64)


def simulate_photo(image: NDArray[np.uint8], options: PhotoOptions | None = None) -> Scan:
    """Photograph a clean RGB picture of a sheet lying on a table.

    Examples
    --------
    >>> sheet = np.full((120, 160, 3), 250, np.uint8)
    >>> photo = simulate_photo(sheet, PhotoOptions(seed=1, jpeg_quality=None))
    >>> photo.image.shape, photo.distortion
    ((141, 187, 3), -0.045)
    >>> x, y = photo.to_scan(np.array([79.5]), np.array([59.5]))  # the sheet's centre
    >>> bool(photo.image[round(y[0]), round(x[0])].mean() > 150)
    True
    """
    opts = options or PhotoOptions()
    # One stream per effect, so turning one effect off leaves the others where they were.
    rng = {name: np.random.default_rng([opts.seed, i])
           for i, name in enumerate(("folds", "table", "light", "noise"))}
    height, width = image.shape[:2]
    size = opts.size or _frame(width, height, opts.fill)
    h = camera_homography((width, height), size, opts)
    out_w, out_h = size
    centre, radius = ((out_w - 1) / 2, (out_h - 1) / 2), math.hypot(out_w, out_h) / 2
    scan = Scan(np.zeros((0, 0, 3), np.uint8), h, opts.distortion, centre, radius)
    paper = _folded(image, opts, rng["folds"])
    map_x = np.empty((out_h, out_w), np.float32)
    map_y = np.empty((out_h, out_w), np.float32)
    xx = np.arange(out_w, dtype=np.float64)[None, :]
    for y0 in range(0, out_h, _ROWS):  # where each image pixel looks on the paper
        y1 = min(out_h, y0 + _ROWS)
        yy = np.arange(y0, y1, dtype=np.float64)[:, None]
        px, py = scan.to_paper(np.broadcast_to(xx, (y1 - y0, out_w)),
                               np.broadcast_to(yy, (y1 - y0, out_w)))
        map_x[y0:y1], map_y[y0:y1] = px, py
    sheet = cv2.remap(paper, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                      borderValue=(0, 0, 0))
    ones = np.ones((height, width), np.float32)
    cover = np.asarray(cv2.remap(ones, map_x, map_y, cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=0), np.float32)
    table = _table(out_w, out_h, rng["table"])
    shade = np.roll(cover, (round(0.012 * out_h), round(0.008 * out_w)), axis=(0, 1))
    shade = cv2.GaussianBlur(shade, (0, 0), 0.012 * radius)
    table *= (1 - 0.55 * shade)[..., None]
    light = _Light(out_w, out_h, opts, rng["light"])
    scene = table  # the sheet laid over the table, then lit, strip by strip, in place
    for y0 in range(0, out_h, _ROWS):
        y1 = min(out_h, y0 + _ROWS)
        c = cover[y0:y1, :, None]
        scene[y0:y1] = light.apply(sheet[y0:y1] * c + scene[y0:y1] * (1 - c), cover[y0:y1], y0)
    if opts.blur > 0:
        scene = np.asarray(cv2.GaussianBlur(scene, (0, 0), opts.blur), np.float32)
    out = np.empty((out_h, out_w, 3), np.uint8)
    for y0 in range(0, out_h, _ROWS):
        y1 = min(out_h, y0 + _ROWS)
        strip = scene[y0:y1]
        if opts.noise > 0:
            strip = strip + rng["noise"].normal(0, opts.noise, strip.shape).astype(np.float32)
        out[y0:y1] = np.clip(np.rint(strip), 0, 255)
    if opts.jpeg_quality is not None:
        out = jpeg_round_trip(out, opts.jpeg_quality)
    return Scan(out, h, opts.distortion, centre, radius)


def _frame(width: int, height: int, fill: float) -> tuple[int, int]:
    """A 4:3 frame (landscape or portrait, like the sheet) that holds it at ``fill``."""
    if width >= height:
        out_w = math.ceil(max(width, height * 4 / 3) / fill)
        return out_w, math.ceil(out_w * 3 / 4)
    out_h = math.ceil(max(height, width * 4 / 3) / fill)
    return math.ceil(out_h * 3 / 4), out_h


def _folded(image: NDArray[np.uint8], opts: PhotoOptions, rng: np.random.Generator
            ) -> NDArray[np.uint8]:
    """The sheet with its folds: a dark valley and a light ridge beside each crease."""
    height, width = image.shape[:2]
    gain = np.ones((height, width), np.float32)
    sigma = 0.006 * math.hypot(width, height)
    for axis, count in enumerate(opts.folds):
        length = width if axis == 0 else height
        for i in range(count):
            at = length * (i + 1) / (count + 1) + rng.uniform(-0.03, 0.03) * length
            d = np.arange(length, dtype=np.float32) - np.float32(at)
            profile = (-opts.fold_depth * np.exp(-((d / sigma) ** 2))
                       + 0.4 * opts.fold_depth * np.exp(-(((d - 2.5 * sigma) / (2 * sigma)) ** 2)))
            gain *= (1 + profile)[None, :] if axis == 0 else (1 + profile)[:, None]
    return np.clip(np.rint(image.astype(np.float32) * gain[..., None]), 0, 255).astype(np.uint8)


def _table(width: int, height: int, rng: np.random.Generator) -> NDArray[np.float32]:
    """A wooden table top: warm browns with grain running along x."""
    coarse = rng.normal(0, 1, (max(2, height // 24), max(2, width // 160))).astype(np.float32)
    warp = cv2.resize(coarse, (width, height), interpolation=cv2.INTER_CUBIC)
    yy = np.arange(height, dtype=np.float32)[:, None]
    grain = 0.5 + 0.5 * np.sin(yy * np.float32(2 * math.pi / 11) + 3.0 * warp)
    fine = cv2.resize(rng.normal(0, 1, (height, max(2, width // 40))).astype(np.float32),
                      (width, height), interpolation=cv2.INTER_LINEAR)
    t = np.clip(0.7 * grain + 0.12 * fine, 0, 1)[..., None]
    dark, light = np.array([78, 48, 28], np.float32), np.array([132, 88, 54], np.float32)
    return dark + (light - dark) * t


class _Light:
    """Gradient, vignetting, a corner's shadow and glare, applied a strip of rows at a time."""

    def __init__(self, width: int, height: int, opts: PhotoOptions, rng: np.random.Generator
                 ) -> None:
        self.width, self.height, self.opts = width, height, opts
        self.diag = math.hypot(width, height)
        # Every choice drawn up front, so switching one effect off moves no other.
        self.angle = rng.uniform(0, 2 * math.pi)
        self.corner = np.array([[0, 0], [width, 0], [width, height], [0, height]],
                               np.float32)[int(rng.integers(4))]
        self.glare_at = (rng.uniform(0.3, 0.7) * width, rng.uniform(0.25, 0.6) * height)

    def apply(self, scene: NDArray[np.float32], cover: NDArray[np.float32], y0: int
              ) -> NDArray[np.float32]:
        """Light the rows ``y0`` on of ``scene`` (``cover``: how much of each pixel is paper)."""
        opts, w, h, diag = self.opts, self.width, self.height, self.diag
        yy = np.arange(y0, y0 + scene.shape[0], dtype=np.float32)[:, None]
        xx = np.arange(w, dtype=np.float32)[None, :]
        ramp = ((xx - w / 2) * math.cos(self.angle) + (yy - h / 2) * math.sin(self.angle)
                ) / diag + 0.5
        gain = 1 - opts.light * np.clip(ramp, 0, 1)
        r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / (diag / 2) ** 2
        gain *= 1 - opts.vignette * r2 ** 1.5
        if opts.shadow > 0:
            d = np.hypot(xx - self.corner[0], yy - self.corner[1]) / diag
            gain *= 1 - opts.shadow * np.clip((0.42 - d) / 0.12, 0, 1)
        out = scene * gain[..., None]
        if opts.glare > 0:
            gx, gy = self.glare_at
            spot = np.exp(-(((xx - gx) ** 2 + (yy - gy) ** 2) / (0.12 * diag) ** 2))
            glare = (opts.glare * spot * cover)[..., None]  # the paper shines, not the wood
            out += (255 - out) * glare
        return np.asarray(out, np.float32)
