"""A scanner simulator: what a flatbed or a phone makes of a printed map.

Geometry first (the page turned, stretched and seen in slight perspective),
then optics and paper (blur, a crease, uneven light, yellowing), then the
sensor and the file (noise, JPEG). Everything is seeded, and the exact
geometric transform is returned with the picture, so a test knows where every
printed hex centre landed.

Photometric steps run over strips of rows, so a full-size page (6,600 x
10,200 px) never needs a floating-point copy of the whole image.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

__all__ = ["Scan", "ScanOptions", "jpeg_round_trip", "simulate_scan", "undistort"]

_STRIP = 512  # rows per photometric strip


@dataclass(frozen=True)
class ScanOptions:
    """How the page is scanned. All effects are off by default.

    Parameters
    ----------
    rotation
        Degrees the page is turned, clockwise on the image.
    stretch
        Scale factors along x and y (a paper that shrank, a scanner that
        stretches one way): ``(1.01, 1.0)`` is 1% wider.
    perspective
        How far each page corner moves at random, as a share of the shorter
        image side (0.004 is a slightly tilted phone photo).
    margin
        Pixels of scanner lid around the page.
    light
        How much darker the dimmest part of the page is (0.2 = 20%): a
        gradient plus vignetting.
    yellowing
        0 (white paper) to 1 (old newsprint).
    crease
        Depth of the shadow along a fold line across the page (0 to 1).
    blur
        Gaussian blur sigma in pixels (optics, focus).
    noise
        Sensor noise sigma in 8-bit levels.
    jpeg_quality
        Save and reload as JPEG at this quality (``None`` keeps it lossless).
    seed
        Seed of every random choice (corner offsets, light direction, crease, noise).
    """

    rotation: float = 0.0
    stretch: tuple[float, float] = (1.0, 1.0)
    perspective: float = 0.0
    margin: int = 16
    light: float = 0.0
    yellowing: float = 0.0
    crease: float = 0.0
    blur: float = 0.0
    noise: float = 0.0
    jpeg_quality: int | None = None
    seed: int = 0


@dataclass(frozen=True)
class Scan:
    """A simulated scan or photo, and exactly where the paper went on it.

    Attributes
    ----------
    image
        RGB pixels, ``uint8``.
    homography
        3x3 matrix taking a pixel position of the clean picture to the image
        (homogeneous coordinates, pixel centres at integers) before any lens
        distortion: the whole transform of a scan, and the pinhole camera of
        a photo.
    distortion
        Radial lens distortion ``k1`` (negative: barrel) applied after the
        homography: a point at distance ``r`` from ``centre`` moves to
        ``r * (1 + k1 * (r / radius) ** 2)``. 0 for a flatbed scan.
    centre, radius
        Centre of the distortion and the radius it is normalised by (half the
        image diagonal).

    Examples
    --------
    >>> s = Scan(np.zeros((10, 10, 3), np.uint8), np.eye(3), -0.05, (5.0, 5.0), 7.0)
    >>> x, y = s.to_scan(np.array([12.0]), np.array([5.0]))
    >>> round(float(x[0]), 3), float(y[0])
    (11.65, 5.0)
    >>> px, py = s.to_paper(x, y)
    >>> round(float(px[0]), 6), round(float(py[0]), 6)
    (12.0, 5.0)
    """

    image: NDArray[np.uint8]
    homography: NDArray[np.float64]
    distortion: float = 0.0
    centre: tuple[float, float] = (0.0, 0.0)
    radius: float = 1.0

    def to_scan(self, x: NDArray[np.float64], y: NDArray[np.float64]
                ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Where positions of the clean picture landed on the image (exact)."""
        h = self.homography
        w = h[2, 0] * x + h[2, 1] * y + h[2, 2]
        u = (h[0, 0] * x + h[0, 1] * y + h[0, 2]) / w
        v = (h[1, 0] * x + h[1, 1] * y + h[1, 2]) / w
        if self.distortion == 0:
            return u, v
        cx, cy = self.centre
        gain = 1 + self.distortion * ((u - cx) ** 2 + (v - cy) ** 2) / self.radius ** 2
        return cx + (u - cx) * gain, cy + (v - cy) * gain

    def to_paper(self, x: NDArray[np.float64], y: NDArray[np.float64]
                 ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Where image positions come from on the clean picture (the inverse of :meth:`to_scan`).

        The lens distortion is undone by Newton's method on the radius (a few
        steps reach machine precision for any distortion a lens makes).
        """
        u, v = np.asarray(x, float), np.asarray(y, float)
        if self.distortion != 0:
            u, v = undistort(u, v, self.distortion, self.centre, self.radius)
        h = np.linalg.inv(self.homography)
        w = h[2, 0] * u + h[2, 1] * v + h[2, 2]
        return (h[0, 0] * u + h[0, 1] * v + h[0, 2]) / w, (h[1, 0] * u + h[1, 1] * v + h[1, 2]) / w


def undistort(x: NDArray[np.float64], y: NDArray[np.float64], k1: float,
              centre: tuple[float, float], radius: float
              ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Positions before a radial distortion ``k1`` moved them to ``(x, y)``.

    >>> undistort(np.array([11.65]), np.array([5.0]), -0.05, (5.0, 5.0), 7.0)[0].round(6)
    array([12.])
    """
    cx, cy = centre
    dx, dy = (x - cx) / radius, (y - cy) / radius
    rd = np.hypot(dx, dy)
    r = rd.copy()
    for _ in range(20):  # Newton converges quadratically: four steps, as a rule
        step = (r + k1 * r ** 3 - rd) / (1 + 3 * k1 * r ** 2)
        r -= step
        if np.abs(step).max(initial=0.0) < 1e-13:
            break
    scale = np.divide(r, rd, out=np.ones_like(r), where=rd > 0)
    return cx + dx * scale * radius, cy + dy * scale * radius


def simulate_scan(image: NDArray[np.uint8], options: ScanOptions | None = None) -> Scan:
    """Scan a clean RGB picture.

    Examples
    --------
    >>> img = np.full((40, 60, 3), 255, np.uint8)
    >>> s = simulate_scan(img, ScanOptions(rotation=90.0, margin=0))
    >>> s.image.shape
    (60, 40, 3)
    """
    opts = options or ScanOptions()
    rng = np.random.default_rng(opts.seed)
    height, width = image.shape[:2]
    h, size = _geometry(width, height, opts, rng)
    paper = tuple(int(v) for v in image[0, 0])
    warped = np.asarray(cv2.warpPerspective(image, h, size, flags=cv2.INTER_LINEAR,
                                            borderMode=cv2.BORDER_CONSTANT, borderValue=paper),
                        dtype=np.uint8)
    if opts.blur > 0:
        warped = np.asarray(cv2.GaussianBlur(warped, (0, 0), opts.blur), dtype=np.uint8)
    out = _photometric(warped, opts, rng)
    if opts.jpeg_quality is not None:
        out = jpeg_round_trip(out, opts.jpeg_quality)
    return Scan(out, h)


def _geometry(width: int, height: int, opts: ScanOptions, rng: np.random.Generator
              ) -> tuple[NDArray[np.float64], tuple[int, int]]:
    """The homography and output size: stretch, turn, then jitter the corners."""
    src = np.array([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]], float)
    centre = src.mean(axis=0)
    t = math.radians(opts.rotation)
    rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    dst = (src - centre) * np.asarray(opts.stretch, float) @ rot.T + centre
    jitter = rng.uniform(-1, 1, (4, 2)) * opts.perspective * min(width, height)
    dst = dst + jitter
    dst = dst - dst.min(axis=0) + opts.margin
    size = np.ceil(dst.max(axis=0) + opts.margin + 1).astype(int)
    h = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
    return np.asarray(h, dtype=np.float64), (int(size[0]), int(size[1]))


def _photometric(image: NDArray[np.uint8], opts: ScanOptions, rng: np.random.Generator
                 ) -> NDArray[np.uint8]:
    height, width = image.shape[:2]
    # Random choices are drawn up front, so strips do not change them.
    light_dir = rng.uniform(0, 2 * math.pi)
    hot = rng.uniform(0.3, 0.7, 2) * (width, height)
    crease_angle = rng.uniform(0, math.pi)
    crease_at = rng.uniform(0.35, 0.65, 2) * (width, height)
    tint = np.array([1.0, 1.0 - 0.05 * opts.yellowing, 1.0 - 0.18 * opts.yellowing], np.float32)
    out = np.empty_like(image)
    diag = math.hypot(width, height)
    for y0 in range(0, height, _STRIP):
        y1 = min(height, y0 + _STRIP)
        yy, xx = np.mgrid[y0:y1, 0:width].astype(np.float32)
        gain = np.ones_like(xx)
        if opts.light > 0:
            ramp = ((xx - width / 2) * math.cos(light_dir) + (yy - height / 2) * math.sin(light_dir)
                    ) / diag + 0.5
            vignette = ((xx - hot[0]) ** 2 + (yy - hot[1]) ** 2) / (diag * diag / 2)
            gain -= opts.light * np.clip(0.6 * ramp + 0.4 * vignette, 0, 1)
        if opts.crease > 0:
            d = (xx - crease_at[0]) * math.sin(crease_angle) - (yy - crease_at[1]) * math.cos(
                crease_angle)
            sigma = 0.004 * diag
            gain *= 1 - opts.crease * np.exp(-((d / sigma) ** 2))
        strip = image[y0:y1].astype(np.float32) * gain[..., None] * tint
        if opts.noise > 0:
            strip += rng.normal(0, opts.noise, strip.shape).astype(np.float32)
        out[y0:y1] = np.clip(np.rint(strip), 0, 255).astype(np.uint8)
    return out


def jpeg_round_trip(image: NDArray[np.uint8], quality: int) -> NDArray[np.uint8]:
    """An RGB picture saved as JPEG at ``quality`` and read back (its artefacts).

    >>> img = np.full((16, 16, 3), 200, np.uint8)
    >>> jpeg_round_trip(img, 90).shape
    (16, 16, 3)
    """
    ok, data = cv2.imencode(".jpg", cv2.cvtColor(image, cv2.COLOR_RGB2BGR),
                            [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:  # pragma: no cover - OpenCV always encodes a uint8 RGB image
        raise RuntimeError("JPEG encoding failed")
    back = cv2.imdecode(data, cv2.IMREAD_COLOR)
    if back is None:  # pragma: no cover - what OpenCV encoded it decodes
        raise RuntimeError("JPEG decoding failed")
    return np.ascontiguousarray(cv2.cvtColor(back, cv2.COLOR_BGR2RGB), dtype=np.uint8)
