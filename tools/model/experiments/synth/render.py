"""Lays synthetic blocks out on a page with Pillow and Debian's DejaVu and Liberation fonts.

Pages are square, `PAGE_PX` pixels, the nano model's view size. Blocks are placed top to
bottom until the next one does not fit; the page's Markdown holds exactly the blocks drawn.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from .content import Block, Display, Heading, ListBlock, Paragraph, Table, first_block, page_markdown, random_block
from .latex import Formula, MathFonts, layout

PAGE_PX = 512
BULLET = "•"
# more text per page would lengthen every training sequence; four blocks fill most pages
MAX_BLOCKS = 4
ATTEMPTS = 10
FONT_DIR = "/usr/share/fonts/truetype"
# (regular, bold) per family
FAMILIES = (
    ("dejavu/DejaVuSans.ttf", "dejavu/DejaVuSans-Bold.ttf"),
    ("dejavu/DejaVuSerif.ttf", "dejavu/DejaVuSerif-Bold.ttf"),
    ("liberation/LiberationSans-Regular.ttf", "liberation/LiberationSans-Bold.ttf"),
    ("liberation/LiberationSerif-Regular.ttf", "liberation/LiberationSerif-Bold.ttf"),
    ("dejavu/DejaVuSansCondensed.ttf", "dejavu/DejaVuSansCondensed-Bold.ttf"),
    ("liberation/LiberationMono-Regular.ttf", "liberation/LiberationMono-Bold.ttf"),
)
MATH_FONTS = (
    MathFonts(f"{FONT_DIR}/dejavu/DejaVuSerif-Italic.ttf", f"{FONT_DIR}/dejavu/DejaVuSerif.ttf"),
    MathFonts(f"{FONT_DIR}/liberation/LiberationSerif-Italic.ttf", f"{FONT_DIR}/dejavu/DejaVuSerif.ttf"),
)


@dataclass(frozen=True)
class Style:
    regular: str
    bold: str
    math: MathFonts
    size: int  # body text, pixels
    margin: int
    ink: tuple[int, int, int]
    paper: tuple[int, int, int]

    @property
    def line(self) -> int:
        return int(self.size * 1.45)


def random_style(rng: random.Random) -> Style:
    regular, bold = rng.choice(FAMILIES)
    grey = rng.randint(0, 60)
    paper = rng.randint(235, 255)
    return Style(f"{FONT_DIR}/{regular}", f"{FONT_DIR}/{bold}", rng.choice(MATH_FONTS), rng.randint(34, 42),
                 rng.randint(12, 24), (grey, grey, grey), (paper, paper, max(225, paper - rng.randint(0, 12))))


class GlyphRecorder(ImageDraw.ImageDraw):
    """Draws as Pillow does and keeps where each visible character landed (its centre, in page
    pixels): training uses it to make every visual token tell which characters lie under it."""

    def __init__(self, image: Image.Image) -> None:
        super().__init__(image)
        self.glyphs: list[tuple[str, float, float]] = []

    def text(self, xy, text, fill=None, font=None, anchor=None, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003
        _, top, _, bottom = self.textbbox(xy, text, font=font, anchor=anchor)
        for i, char in enumerate(text):
            if not char.isspace():
                centre = (font.getlength(text[:i]) + font.getlength(text[:i + 1])) / 2
                self.glyphs.append((char, xy[0] + centre, (top + bottom) / 2))
        return super().text(xy, text, fill, font, anchor, *args, **kwargs)


class Canvas:
    """The page being filled: draws a block when it fits below the previous ones."""

    def __init__(self, style: Style) -> None:
        self.style = style
        self.image = Image.new("RGB", (PAGE_PX, PAGE_PX), style.paper)
        self.draw = GlyphRecorder(self.image)
        self.y = style.margin
        self.body = ImageFont.truetype(style.regular, style.size)
        self.width = PAGE_PX - 2 * style.margin

    def place(self, block: Block) -> bool:
        """Draws `block` and returns True, or returns False (drawing nothing) when it does not fit."""
        ops = self._plan(block)
        if ops is None:
            return False
        height, draw = ops
        if self.y + height > PAGE_PX - self.style.margin:
            return False
        draw(self.y)
        self.y += height + int(self.style.size * 0.7)
        return True

    def _plan(self, block: Block):
        if isinstance(block, Heading):
            return self._heading(block)
        if isinstance(block, Paragraph):
            return self._lines(self._wrap(block.items, self.width), self.style.margin)
        if isinstance(block, ListBlock):
            return self._list(block)
        if isinstance(block, Table):
            return self._table(block)
        return self._display(block)

    def _heading(self, block: Heading):
        scale = 1.5 if block.level == 1 else 1.25
        font = ImageFont.truetype(self.style.bold, int(self.style.size * scale))
        if font.getlength(block.text) > self.width:
            return None
        height = int(self.style.line * scale)

        def draw(y: int) -> None:
            self.draw.text((self.style.margin, y + int(height * 0.78)), block.text, font=font, fill=self.style.ink,
                           anchor="ls")
        return height, draw

    def _wrap(self, items: tuple[str | Formula, ...], width: int) -> list[list[tuple[int, str | Formula, int]]]:
        """Greedy line breaking: each line holds (x, item, width) triples."""
        space = int(self.body.getlength(" "))
        lines: list[list[tuple[int, str | Formula, int]]] = [[]]
        x = 0
        for item in items:
            w = int(self.body.getlength(item)) if isinstance(item, str) else layout(item, self.style.math, self.style.size).width
            if x and x + w > width:
                lines.append([])
                x = 0
            lines[-1].append((x, item, w))
            x += w + space
        return lines

    def _lines(self, lines: list[list[tuple[int, str | Formula, int]]], left: int):
        if any(x + w > self.width + self.style.margin - left for line in lines for x, _, w in line):
            return None
        height = len(lines) * self.style.line

        def draw(y: int) -> None:
            for row, line in enumerate(lines):
                baseline = y + row * self.style.line + int(self.style.line * 0.75)
                for x, item, _ in line:
                    if isinstance(item, str):
                        self.draw.text((left + x, baseline), item, font=self.body, fill=self.style.ink, anchor="ls")
                    else:
                        layout(item, self.style.math, self.style.size).draw(self.draw, left + x, baseline, self.style.ink)
        return height, draw

    def _list(self, block: ListBlock):
        indent = int(self.style.size * 1.6)
        rows = [self._wrap(tuple(item.split(" ")), self.width - indent) for item in block.items]
        if any(len(r) > 1 for r in rows):
            return None
        height = len(rows) * self.style.line

        def draw(y: int) -> None:
            for i, row in enumerate(rows):
                baseline = y + i * self.style.line + int(self.style.line * 0.75)
                marker = f"{i + 1}." if block.ordered else BULLET
                self.draw.text((self.style.margin + indent // 5, baseline), marker, font=self.body, fill=self.style.ink,
                               anchor="ls")
                for x, item, _ in row[0]:
                    self.draw.text((self.style.margin + indent + x, baseline), str(item), font=self.body,
                                   fill=self.style.ink, anchor="ls")
        return height, draw

    def _table(self, block: Table):
        header = ImageFont.truetype(self.style.bold, self.style.size)
        pad = self.style.size // 2
        cols = len(block.rows[0])
        widths = [max(int((header if r == 0 else self.body).getlength(row[c])) for r, row in enumerate(block.rows)) + 2 * pad
                  for c in range(cols)]
        if sum(widths) > self.width:
            return None
        row_h = self.style.line + pad // 2
        height = row_h * len(block.rows) + 2
        rule = max(1, self.style.size // 14)

        def draw(y: int) -> None:
            left = self.style.margin
            right = left + sum(widths)
            for r, row in enumerate(block.rows):
                top = y + r * row_h
                self.draw.line((left, top, right, top), fill=self.style.ink, width=rule)
                x = left
                for c, cell in enumerate(row):
                    self.draw.text((x + pad, top + int(row_h * 0.72)), cell, font=header if r == 0 else self.body,
                                   fill=self.style.ink, anchor="ls")
                    x += widths[c]
            bottom = y + len(block.rows) * row_h
            self.draw.line((left, bottom, right, bottom), fill=self.style.ink, width=rule)
            x = left
            for w in [0] + widths:
                x += w
                self.draw.line((x, y, x, bottom), fill=self.style.ink, width=rule)
        return height, draw

    def _display(self, block: Display):
        box = layout(block.formula, self.style.math, int(self.style.size * 1.1))
        if box.width > self.width:
            return None
        height = box.ascent + box.descent + self.style.size // 2

        def draw(y: int) -> None:
            box.draw(self.draw, self.style.margin + (self.width - box.width) // 2, y + box.ascent + self.style.size // 4,
                     self.style.ink)
        return height, draw


@dataclass(frozen=True)
class Page:
    image: Image.Image
    markdown: str
    glyphs: tuple[tuple[str, float, float], ...]  # (character, x, y) of every character drawn


def make_page(split: str, index: int) -> Page:
    """Page `index` of `split` ("train", "heldout", or any other name): the same arguments always give
    the same pixels and Markdown; different splits share no seeds."""
    rng = random.Random(f"folio-synth:{split}:{index}")
    canvas = Canvas(random_style(rng))
    blocks: list[Block] = []
    candidate = first_block(rng)
    # a block that does not fit (too wide, or too tall for the space left) is skipped, not the end
    for _ in range(ATTEMPTS):
        if canvas.place(candidate):
            blocks.append(candidate)
            if len(blocks) == MAX_BLOCKS:
                break
        candidate = random_block(rng)
    return Page(canvas.image, page_markdown(blocks), tuple(canvas.draw.glyphs))


def degrade(page: Page, rng: random.Random) -> Page:
    """Training-time noise so the model tolerates other rasterisers: slight blur and shift (the
    glyph centres move with the ink)."""
    image, glyphs = page.image, page.glyphs
    if rng.random() < 0.5:
        image = image.filter(ImageFilter.GaussianBlur(rng.uniform(0.2, 1.0)))
    if rng.random() < 0.5:
        dx, dy = rng.randint(-8, 8), rng.randint(-8, 8)
        image = image.transform(image.size, Image.Transform.AFFINE, (1, 0, dx, 0, 1, dy), fillcolor=image.getpixel((0, 0)))
        glyphs = tuple((char, x - dx, y - dy) for char, x, y in glyphs)
    return Page(image, page.markdown, glyphs)
