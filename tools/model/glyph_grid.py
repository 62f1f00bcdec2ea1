"""Characters drawn on a page, as training sees them: which class a character is, and which visual
token's cell of the page grid its centre lies in (the glyph head, guided attention, spelt tokens)."""
from __future__ import annotations

# printable ASCII, then one class for everything else (Greek, operators, other bytes)
GLYPH_CLASSES = 95


def glyph_class(char: str) -> int:
    code = ord(char)
    return code - 33 if 33 <= code <= 126 else GLYPH_CLASSES - 1


def grid_cell(x: float, y: float, side: int, page_px: float) -> int:
    """The row-major index of the cell of a `side` x `side` grid over the page holding (x, y)."""
    cell = page_px / side
    return min(side - 1, max(0, int(y // cell))) * side + min(side - 1, max(0, int(x // cell)))
