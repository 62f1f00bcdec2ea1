"""Page image -> normalised views, exactly as DeepSeek-OCR's processor prepares them.

Native modes: Tiny (512) and Small (640) squash the page to a square; Base (1024) and Large (1280)
letterbox it to a square keeping the aspect (PIL `ImageOps.pad`, bicubic, centred, pad colour 127
grey). Gundam: a global view letterboxed to the base size, plus, when
either side exceeds the tile size, a grid of tiles chosen by aspect ratio (`choose_grid`) from the
whole image resized to (tile*w, tile*h) and cut row-major. Pixels become (x/255 - 0.5) / 0.5, CHW.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageOps

MEAN = 0.5
STD = 0.5
PAD_COLOUR = (127, 127, 127)  # int(MEAN * 255) per channel, as the reference computes it
BICUBIC = Image.Resampling.BICUBIC


@dataclass(frozen=True)
class ResolutionMode:
    name: str
    base_size: int
    image_size: int
    crop: bool
    min_crops: int = 2
    max_crops: int = 6


RESOLUTION_MODES = {
    "tiny": ResolutionMode("tiny", 512, 512, False),
    "small": ResolutionMode("small", 640, 640, False),
    "base": ResolutionMode("base", 1024, 1024, False),
    "large": ResolutionMode("large", 1280, 1280, False),
    "gundam": ResolutionMode("gundam", 1024, 640, True),
}

# Native modes of at most this size squash the page to a square instead of letterboxing it.
SQUASH_LIMIT = 640


@dataclass(frozen=True)
class PreparedViews:
    global_view: np.ndarray  # [3, base, base] float32
    tiles: np.ndarray | None  # [w*h, 3, tile, tile] float32, row-major, or None
    grid: tuple[int, int]  # (tiles wide, tiles high); (1, 1) when there are no tiles


def candidate_grids(min_num: int, max_num: int) -> list[tuple[int, int]]:
    """(w, h) grids in the order the reference tries them. It sorts a Python set by area, so grids
    of equal area keep the set's iteration order; building the same set the same way reproduces it,
    and the manifest records the resulting list for other runtimes."""
    grids = set((i, j) for n in range(min_num, max_num + 1) for i in range(1, n + 1) for j in range(1, n + 1)
                if min_num <= i * j <= max_num)
    return sorted(grids, key=lambda g: g[0] * g[1])


def choose_grid(width: int, height: int, tile: int, candidates: list[tuple[int, int]]) -> tuple[int, int]:
    """Grid whose aspect is closest to the image's; on a tie the later candidate wins when the image
    area exceeds half the candidate's pixel area."""
    aspect = width / height
    best, best_diff = (1, 1), float("inf")
    for w, h in candidates:
        diff = abs(aspect - w / h)
        if diff < best_diff:
            best, best_diff = (w, h), diff
        elif diff == best_diff and width * height > 0.5 * tile * tile * w * h:
            best = (w, h)
    return best


def tiles_for(width: int, height: int, mode: ResolutionMode) -> tuple[int, int]:
    if not mode.crop or (width <= mode.image_size and height <= mode.image_size):
        return (1, 1)
    return choose_grid(width, height, mode.image_size, candidate_grids(mode.min_crops, mode.max_crops))


def normalise(image: Image.Image) -> np.ndarray:
    pixels = np.asarray(image.convert("RGB"), dtype=np.float32) / 255.0
    return ((pixels - MEAN) / STD).transpose(2, 0, 1).copy()


def open_page(path: str) -> Image.Image:
    """EXIF orientation applied, RGB."""
    with Image.open(path) as image:
        return ImageOps.exif_transpose(image).convert("RGB")


def prepare_views(image: Image.Image, mode: ResolutionMode) -> PreparedViews:
    image = image.convert("RGB")
    grid = tiles_for(image.width, image.height, mode)
    global_source = image
    if not mode.crop and mode.image_size <= SQUASH_LIMIT:
        global_source = image.resize((mode.image_size, mode.image_size), BICUBIC)
    global_view = ImageOps.pad(global_source, (mode.base_size, mode.base_size), method=BICUBIC, color=PAD_COLOUR)
    tiles = None
    if grid[0] * grid[1] > 1:
        size = mode.image_size
        whole = image.resize((size * grid[0], size * grid[1]), BICUBIC)
        tiles = np.stack([
            normalise(whole.crop((c * size, r * size, (c + 1) * size, (r + 1) * size)))
            for r in range(grid[1]) for c in range(grid[0])
        ])
    return PreparedViews(normalise(global_view), tiles, grid)
