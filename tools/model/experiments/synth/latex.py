"""The small LaTeX subset the synthetic pages use: random formulas and their rendering with Pillow.

A formula is a list of atoms. Atoms: a variable (italic), a number, a Greek letter (`\\alpha` ...),
an operator (`+ - =`), a power or index on a variable (`x^2`, `a_{12}`), `\\sqrt{...}`, and, in
display formulas only, `\\frac{...}{...}`. The LaTeX string is canonical (braces only around
multi-character scripts, one space around operators) so a model can learn one spelling per image.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from PIL import ImageDraw, ImageFont

GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "theta": "θ", "lambda": "λ", "mu": "μ",
         "pi": "π", "sigma": "σ", "omega": "ω"}
MINUS, RADICAL = "−", "√"
# the LaTeX each glyph drawn for a command or operator stands for
GLYPH_LATEX = {**{glyph: "\\" + name for name, glyph in GREEK.items()}, MINUS: "-", RADICAL: "\\sqrt"}
VARIABLES = "abcnxyztkmpq"
OPERATORS = ("+", "-", "=")
SCRIPT_SCALE = 0.7


@dataclass(frozen=True)
class Atom:
    kind: str  # var | num | greek | op | sup | sub | sqrt | frac
    text: str = ""
    script: str = ""  # the raised or lowered part of sup/sub
    parts: tuple["Formula", ...] = ()


Formula = tuple[Atom, ...]


def _script(rng: random.Random) -> str:
    return rng.choice([str(rng.randint(2, 3)), str(rng.randint(0, 9)), rng.choice("ijkn"), str(rng.randint(10, 20))])


def _operand(rng: random.Random, display: bool, depth: int) -> Atom:
    roll = rng.random()
    if display and depth == 0 and roll < 0.2:
        return Atom("frac", parts=(random_formula(rng, False, depth + 1, 1, 2), random_formula(rng, False, depth + 1, 1, 2)))
    if depth == 0 and roll < 0.3:
        return Atom("sqrt", parts=(random_formula(rng, False, depth + 1, 1, 2),))
    if roll < 0.45:
        return Atom("sup", text=rng.choice(VARIABLES), script=_script(rng))
    if roll < 0.6:
        return Atom("sub", text=rng.choice(VARIABLES), script=_script(rng))
    if roll < 0.72:
        return Atom("greek", text=rng.choice(sorted(GREEK)))
    if roll < 0.85:
        return Atom("num", text=str(rng.choice([rng.randint(1, 9), rng.randint(10, 99)])))
    return Atom("var", text=rng.choice(VARIABLES))


def random_formula(rng: random.Random, display: bool, depth: int = 0, low: int = 2, high: int = 4) -> Formula:
    """Operands joined by operators: `x^2 + \\alpha = 3`."""
    atoms: list[Atom] = []
    for i in range(rng.randint(low, high)):
        if i:
            atoms.append(Atom("op", text="=" if i == 1 and rng.random() < 0.4 else rng.choice(OPERATORS[:2])))
        atoms.append(_operand(rng, display, depth))
    return tuple(atoms)


def _braced(text: str) -> str:
    return text if len(text) == 1 else "{" + text + "}"


def to_latex(formula: Formula) -> str:
    out = []
    for atom in formula:
        if atom.kind == "op":
            out.append(f" {atom.text} ")
        elif atom.kind == "greek":
            out.append(f"\\{atom.text}")
        elif atom.kind == "sup":
            out.append(f"{atom.text}^{_braced(atom.script)}")
        elif atom.kind == "sub":
            out.append(f"{atom.text}_{_braced(atom.script)}")
        elif atom.kind == "sqrt":
            out.append("\\sqrt{" + to_latex(atom.parts[0]) + "}")
        elif atom.kind == "frac":
            out.append("\\frac{" + to_latex(atom.parts[0]) + "}{" + to_latex(atom.parts[1]) + "}")
        else:
            out.append(atom.text)
    return "".join(out)


@dataclass(frozen=True)
class MathFonts:
    italic: str
    upright: str


@dataclass(frozen=True)
class Box:
    """A laid-out piece of formula: width, extent above and below the baseline, and how to draw it."""
    width: int
    ascent: int
    descent: int
    draw: Callable[[ImageDraw.ImageDraw, int, int, tuple[int, int, int]], None]


def _text_box(text: str, font: ImageFont.FreeTypeFont) -> Box:
    ascent, descent = font.getmetrics()
    width = int(round(font.getlength(text)))

    def draw(d: ImageDraw.ImageDraw, x: int, baseline: int, ink: tuple[int, int, int]) -> None:
        d.text((x, baseline), text, font=font, fill=ink, anchor="ls")
    return Box(width, ascent, descent, draw)


def _row(boxes: list[Box]) -> Box:
    width = sum(b.width for b in boxes)
    ascent = max((b.ascent for b in boxes), default=0)
    descent = max((b.descent for b in boxes), default=0)

    def draw(d: ImageDraw.ImageDraw, x: int, baseline: int, ink: tuple[int, int, int]) -> None:
        for b in boxes:
            b.draw(d, x, baseline, ink)
            x += b.width
    return Box(width, ascent, descent, draw)


def layout(formula: Formula, fonts: MathFonts, size: int) -> Box:
    italic = ImageFont.truetype(fonts.italic, size)
    upright = ImageFont.truetype(fonts.upright, size)
    small_size = max(6, int(size * SCRIPT_SCALE))
    small = ImageFont.truetype(fonts.upright, small_size)
    small_italic = ImageFont.truetype(fonts.italic, small_size)
    boxes: list[Box] = []
    for atom in formula:
        if atom.kind == "op":
            boxes.append(_text_box(f" {MINUS if atom.text == '-' else atom.text} ", upright))
        elif atom.kind == "greek":
            boxes.append(_text_box(GREEK[atom.text], italic))
        elif atom.kind == "var":
            boxes.append(_text_box(atom.text, italic))
        elif atom.kind == "num":
            boxes.append(_text_box(atom.text, upright))
        elif atom.kind in ("sup", "sub"):
            base = _text_box(atom.text, italic)
            script = _text_box(atom.script, small_italic if atom.script.isalpha() else small)
            shift = -int(size * 0.42) if atom.kind == "sup" else int(size * 0.22)
            boxes.append(_shifted_pair(base, script, shift))
        elif atom.kind == "sqrt":
            boxes.append(_sqrt(layout(atom.parts[0], fonts, size), upright, size))
        elif atom.kind == "frac":
            boxes.append(_frac(layout(atom.parts[0], fonts, int(size * 0.85)),
                               layout(atom.parts[1], fonts, int(size * 0.85)), size))
    return _row(boxes)


def _shifted_pair(base: Box, script: Box, shift: int) -> Box:
    def draw(d: ImageDraw.ImageDraw, x: int, baseline: int, ink: tuple[int, int, int]) -> None:
        base.draw(d, x, baseline, ink)
        script.draw(d, x + base.width + 1, baseline + shift, ink)
    return Box(base.width + script.width + 2, max(base.ascent, script.ascent - shift),
               max(base.descent, script.descent + shift), draw)


def _sqrt(inner: Box, font: ImageFont.FreeTypeFont, size: int) -> Box:
    radical = _text_box(RADICAL, font)
    gap = max(1, size // 10)

    def draw(d: ImageDraw.ImageDraw, x: int, baseline: int, ink: tuple[int, int, int]) -> None:
        radical.draw(d, x, baseline, ink)
        top = baseline - inner.ascent + gap
        d.line((x + radical.width - 1, top, x + radical.width + inner.width + gap, top), fill=ink,
               width=max(1, size // 14))
        inner.draw(d, x + radical.width + gap // 2, baseline, ink)
    return Box(radical.width + inner.width + 2 * gap, max(radical.ascent, inner.ascent), max(radical.descent, inner.descent), draw)


def _frac(top: Box, bottom: Box, size: int) -> Box:
    width = max(top.width, bottom.width) + size // 3
    axis = int(size * 0.3)
    gap = max(2, size // 8)

    def draw(d: ImageDraw.ImageDraw, x: int, baseline: int, ink: tuple[int, int, int]) -> None:
        bar = baseline - axis
        d.line((x + 1, bar, x + width - 1, bar), fill=ink, width=max(1, size // 14))
        top.draw(d, x + (width - top.width) // 2, bar - gap - top.descent, ink)
        bottom.draw(d, x + (width - bottom.width) // 2, bar + gap + bottom.ascent, ink)
    ascent = axis + gap + top.ascent + top.descent
    descent = max(0, gap + bottom.ascent + bottom.descent - axis)
    return Box(width, ascent, descent, draw)
