"""What a synthetic page says: blocks (heading, paragraph with inline formulas, list, table, display
formula) drawn from a fixed word list, and their exact Markdown (HTML tables, `$...$` math).

Words come from `words.txt` (the 1,200 most frequent words of the licence texts Debian ships), sampled
with Zipf-like weights, so held-out pages use the same words in new orders, sizes and layouts.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from pathlib import Path

from .latex import Formula, random_formula, to_latex

WORDS_FILE = Path(__file__).resolve().parent / "words.txt"


@lru_cache(maxsize=1)
def _lexicon() -> tuple[list[str], list[float]]:
    words = WORDS_FILE.read_text().split()
    # the file is alphabetical; a fixed shuffle gives each word a rank for the Zipf weights
    ranked = sorted(words, key=lambda w: random.Random(w).random())
    return ranked, list(accumulate(1.0 / (rank + 20) ** 0.7 for rank in range(len(ranked))))


def word(rng: random.Random) -> str:
    words, cumulative = _lexicon()
    return rng.choices(words, cum_weights=cumulative)[0]


def phrase(rng: random.Random, low: int, high: int) -> str:
    text = " ".join(word(rng) for _ in range(rng.randint(low, high)))
    return text[0].upper() + text[1:]


@dataclass(frozen=True)
class Heading:
    level: int
    text: str


@dataclass(frozen=True)
class Paragraph:
    items: tuple[str | Formula, ...]  # words (with their punctuation) and inline formulas


@dataclass(frozen=True)
class ListBlock:
    ordered: bool
    items: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    rows: tuple[tuple[str, ...], ...]  # the first row is the header


@dataclass(frozen=True)
class Display:
    formula: Formula


Block = Heading | Paragraph | ListBlock | Table | Display


def paragraph(rng: random.Random, low: int = 6, high: int = 24) -> Paragraph:
    items: list[str | Formula] = []
    count = rng.randint(low, high)
    math_at = rng.randrange(2, count) if count > 3 and rng.random() < 0.35 else -1
    start = True
    for i in range(count):
        if i == math_at:
            items.append(random_formula(rng, display=False, low=1, high=3))
            start = False
            continue
        w = word(rng)
        if start:
            w = w[0].upper() + w[1:]
            start = False
        if i == count - 1 or rng.random() < 0.08:
            w += "."
            start = True
        elif rng.random() < 0.06:
            w += ","
        items.append(w)
    return Paragraph(tuple(items))


def _cell(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.35:
        return str(rng.randint(0, 999))
    if roll < 0.5:
        return f"{rng.randint(0, 99)}.{rng.randint(0, 9)}"
    return word(rng)


def table(rng: random.Random) -> Table:
    cols, rows = rng.randint(2, 3), rng.randint(2, 4)
    header = tuple(phrase(rng, 1, 1) for _ in range(cols))
    return Table((header,) + tuple(tuple(_cell(rng) for _ in range(cols)) for _ in range(rows - 1)))


def random_block(rng: random.Random) -> Block:
    roll = rng.random()
    if roll < 0.4:
        return paragraph(rng)
    if roll < 0.6:
        return ListBlock(rng.random() < 0.4, tuple(phrase(rng, 1, 5) for _ in range(rng.randint(2, 4))))
    if roll < 0.75:
        return table(rng)
    if roll < 0.9:
        return Display(random_formula(rng, display=True))
    return Heading(2, phrase(rng, 1, 4))


def first_block(rng: random.Random) -> Block:
    return Heading(1, phrase(rng, 1, 4)) if rng.random() < 0.75 else random_block(rng)


def block_markdown(block: Block) -> str:
    if isinstance(block, Heading):
        return "#" * block.level + " " + block.text
    if isinstance(block, Paragraph):
        return " ".join(item if isinstance(item, str) else f"${to_latex(item)}$" for item in block.items)
    if isinstance(block, ListBlock):
        return "\n".join(f"{i + 1}. {item}" if block.ordered else f"- {item}" for i, item in enumerate(block.items))
    if isinstance(block, Table):
        rows = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in block.rows)
        return f"<table>{rows}</table>"
    return f"$${to_latex(block.formula)}$$"


def page_markdown(blocks: list[Block]) -> str:
    return "\n\n".join(block_markdown(b) for b in blocks)
