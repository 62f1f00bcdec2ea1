import tempfile
import unittest
from pathlib import Path

import numpy as np
from PIL import Image

from folio_model.preprocess import (RESOLUTION_MODES, ResolutionMode, candidate_grids, open_page,
                                   prepare_views, tiles_for)

GUNDAM = RESOLUTION_MODES["gundam"]
JINA_GUNDAM = ResolutionMode("gundam", 1024, 640, True, min_crops=2, max_crops=9)


class GundamGrid(unittest.TestCase):
    def test_page_sizes_choose_the_reference_grid(self):
        table = [
            # (width, height) -> (tiles wide, tiles high), DeepSeek-OCR's settings (2..6 tiles)
            ((640, 640), (1, 1)),     # both sides within a tile: no tiles
            ((500, 300), (1, 1)),
            ((641, 400), (3, 2)),     # aspect 1.60: 3/2 is closest
            ((1240, 1754), (2, 3)),   # A4 portrait at 150 dpi
            ((1650, 1275), (3, 2)),   # US letter landscape
            ((600, 900), (2, 3)),     # one side over the tile size is enough
            ((2000, 1000), (2, 1)),
            ((1000, 1000), (2, 2)),   # 1x1 is not a candidate once tiling starts
            ((500, 3000), (1, 6)),
            ((1000, 800), (2, 2)),    # aspect 1.25 ties 2x2 and 3x2; area too small for the later one
            ((1250, 1000), (3, 2)),   # same tie, area over half of 3x2's pixels: the later grid wins
        ]
        for (w, h), grid in table:
            with self.subTest(size=(w, h)):
                self.assertEqual(tiles_for(w, h, GUNDAM), grid)

    def test_jina_allows_up_to_nine_tiles(self):
        self.assertEqual(tiles_for(1240, 1240, JINA_GUNDAM), (2, 2))
        self.assertEqual(tiles_for(2000, 2000, JINA_GUNDAM), (3, 3))

    def test_candidates_are_ordered_by_area(self):
        areas = [w * h for w, h in candidate_grids(2, 6)]
        self.assertEqual(areas, sorted(areas))
        self.assertEqual(min(areas), 2)
        self.assertEqual(max(areas), 6)

    def test_native_modes_never_tile(self):
        self.assertEqual(tiles_for(3000, 1000, RESOLUTION_MODES["base"]), (1, 1))


class Views(unittest.TestCase):
    def page(self, w, h, colour=(255, 255, 255)):
        return Image.new("RGB", (w, h), colour)

    def test_gundam_letterboxes_the_global_view_with_grey(self):
        views = prepare_views(self.page(1300, 650), GUNDAM)
        self.assertEqual(views.global_view.shape, (3, 1024, 1024))
        # 2:1 page -> 1024x512 centred: grey bands above and below, white page in the middle
        self.assertAlmostEqual(float(views.global_view[0, 0, 0]), 127 / 255 / 0.5 - 1, places=6)
        self.assertAlmostEqual(float(views.global_view[0, 512, 512]), 1.0, places=6)

    def test_gundam_tiles_are_row_major_crops_of_the_resized_page(self):
        page = self.page(1300, 650)
        page.paste((0, 0, 0), (650, 0, 1300, 650))  # right half black
        views = prepare_views(page, GUNDAM)
        self.assertEqual(views.grid, (2, 1))
        self.assertEqual(views.tiles.shape, (2, 3, 640, 640))
        self.assertAlmostEqual(float(views.tiles[0].mean()), 1.0, places=3)
        self.assertAlmostEqual(float(views.tiles[1].mean()), -1.0, places=3)

    def test_small_native_modes_squash_to_a_square(self):
        views = prepare_views(self.page(300, 100, (0, 0, 0)), RESOLUTION_MODES["small"])
        self.assertEqual(views.global_view.shape, (3, 640, 640))
        self.assertTrue(np.all(views.global_view == -1.0))
        self.assertIsNone(views.tiles)

    def test_exif_orientation_is_applied_when_opening(self):
        page = self.page(40, 20)
        exif = Image.Exif()
        exif[0x0112] = 6  # stored sideways: rotate 90 degrees clockwise to view
        path = Path(tempfile.mkdtemp()) / "sideways.jpg"
        page.save(path, exif=exif.tobytes())
        self.assertEqual(open_page(str(path)).size, (20, 40))

    def test_large_native_modes_keep_the_aspect(self):
        views = prepare_views(self.page(200, 100, (0, 0, 0)), RESOLUTION_MODES["base"])
        self.assertEqual(views.global_view.shape, (3, 1024, 1024))
        self.assertAlmostEqual(float(views.global_view[0, 0, 0]), 127 / 255 / 0.5 - 1, places=6)
        self.assertEqual(float(views.global_view[0, 512, 512]), -1.0)


if __name__ == "__main__":
    unittest.main()
