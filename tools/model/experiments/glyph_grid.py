"""Characters drawn on a page, as training sees them: which class a character is, and which visual
token's cell of the page grid its centre lies in (the glyph head, guided attention, spelt tokens)."""
from __future__ import annotations

from .synth.latex import GLYPH_LATEX
from .synth.render import BULLET

# What the pages draw beyond ASCII: LaTeX commands' glyphs and list bullets. The Markdown spells
# `\sigma` where the page shows σ, so without classes of their own (run 5 to step 1,400) the
# encoder was never told one Greek letter from another.
DRAWN_SYMBOLS = (*GLYPH_LATEX, BULLET)
# printable ASCII, the drawn symbols, then one class for everything else
GLYPH_CLASSES = 94 + len(DRAWN_SYMBOLS) + 1


def glyph_class(char: str) -> int:
    code = ord(char)
    if 33 <= code <= 126:
        return code - 33
    return 94 + DRAWN_SYMBOLS.index(char) if char in DRAWN_SYMBOLS else GLYPH_CLASSES - 1


def cell_half(x: float, side: int, page_px: float) -> int:
    """0 if x lies in the left half of its grid cell, 1 if in the right half: with a token a letter,
    the decoder must know which of a cell's two letters comes first."""
    cell = page_px / side
    return int((x % cell) >= cell / 2)


def ordered_glyph(char: str, x: float, side: int, page_px: float) -> int:
    """The glyph head's class for a drawn character: its class in the left or the right half of its cell."""
    return cell_half(x, side, page_px) * GLYPH_CLASSES + glyph_class(char)


def grid_cell(x: float, y: float, side: int, page_px: float) -> int:
    """The row-major index of the cell of a `side` x `side` grid over the page holding (x, y)."""
    cell = page_px / side
    return min(side - 1, max(0, int(y // cell))) * side + min(side - 1, max(0, int(x // cell)))
