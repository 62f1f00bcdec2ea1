"""Training only: guided attention, which shows two decoder heads where on the page to look.

Without it, runs 3 and 4 (see README) learnt the pages' language and the glyphs under each visual
token, but after 2,000 steps the decoder still guessed most words from context: learning by itself
which visual token holds the next word is the slow part for a model this small. The renderer knows
where it drew every character, so for each text token we know its visual tokens, and one head is
taught to look at the current token's characters (finding its place by what it just wrote) and
one at the next token's (what it must read), as guided attention does in speech synthesis. The
architecture and inference are unchanged; the heads are only nudged where to attend.
"""
from __future__ import annotations

import re

import torch
import torch.nn.functional as F

from folio_model.decoder import Attention, apply_rope, rope_tables
from .glyph_grid import grid_cell
from .synth.latex import GLYPH_LATEX


# Markdown that draws nothing yet has letters, which would otherwise take a drawn letter's place
UNDRAWN = re.compile(r"<[^>]*>|\\frac")


def common_subsequence(a: str, b: list[str]) -> list[tuple[int, int]]:
    """The index pairs of a longest common subsequence of `a` and `b`, in order. The page draws its
    characters in the Markdown's order, so this places every drawn one, a formula's lone `5` in
    `n^5` included (a first version matched runs of 3 or more, which left formulas untargeted)."""
    n, m = len(a), len(b)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below = table[i], table[i + 1]
        for j in range(m - 1, -1, -1):
            row[j] = below[j + 1] + 1 if a[i] == b[j] else max(below[j], row[j + 1])
    pairs, i, j = [], 0, 0
    while i < n and j < m:
        if a[i] == b[j]:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return pairs


def token_cells(markdown: str, token_bytes: list[int], glyphs, side: int, page_px: int) -> list[set[int]]:
    """For each token of `markdown` (`token_bytes`: each token's length in bytes, in order), the grid
    cells (row * side + col) holding the centres of the characters it spells; empty for markup that
    draws nothing (`#`, `<td>`, `{`, spaces). A Greek letter's glyph counts for all of `\\sigma`,
    the radical for `\\sqrt`."""
    spelled, drawn_by = [], []
    for index, (char, _, _) in enumerate(glyphs):
        for letter in GLYPH_LATEX.get(char, char):
            spelled.append(letter)
            drawn_by.append(index)
    masked = UNDRAWN.sub(lambda match: "\0" * len(match.group()), markdown)
    glyph_of = {a: drawn_by[b] for a, b in common_subsequence(masked, spelled)}
    byte_char = [i for i, char in enumerate(markdown) for _ in char.encode()]
    cells, start = [], 0
    for length in token_bytes:
        chars = {byte_char[b] for b in range(start, min(start + length, len(byte_char)))}
        found = set()
        for char in chars:
            if char in glyph_of:
                _, x, y = glyphs[glyph_of[char]]
                found.add(grid_cell(x, y, side, page_px))
        cells.append(found)
        start += length
    return cells


class AttentionGuide:
    """Keeps one decoder layer's attention input (a forward hook) and scores one head's attention
    against where the characters are: minus the log of the attention mass on the target cells."""

    def __init__(self, attention: Attention, head: int) -> None:
        self.attention, self.head = attention, head
        self.kept: tuple[torch.Tensor, torch.Tensor] | None = None
        attention.register_forward_hook(self._keep)

    def _keep(self, _module, args, _output) -> None:  # noqa: ANN001
        self.kept = (args[0], args[1])

    def loss(self, first_row: int, targets: torch.Tensor) -> torch.Tensor:
        """`targets [b, rows, keys]` (bool): the keys row `first_row + r` should attend to; rows
        without any are left out."""
        assert self.kept is not None, "run the decoder forward first"
        x, positions = self.kept
        a, d = self.attention, self.attention.head_dim
        kv = self.head // (a.heads // a.kv_heads)
        q = F.linear(x[:, first_row:first_row + targets.shape[1]], a.q_proj.weight[self.head * d:(self.head + 1) * d])
        k = F.linear(x[:, :targets.shape[2]], a.k_proj.weight[kv * d:(kv + 1) * d])
        cos, sin = rope_tables(positions, d, a.theta)
        rows = slice(first_row, first_row + targets.shape[1])
        q = apply_rope(q[:, :, None], cos[:, rows], sin[:, rows])[:, :, 0]
        k = apply_rope(k[:, :, None], cos[:, :targets.shape[2]], sin[:, :targets.shape[2]])[:, :, 0]
        scores = (q @ k.transpose(1, 2)) * d ** -0.5
        query = torch.arange(targets.shape[1])[:, None] + first_row
        scores = scores.masked_fill(torch.arange(targets.shape[2])[None] > query, float("-inf"))
        log_attention = scores.float().log_softmax(-1)
        on_target = log_attention.masked_fill(~targets, float("-inf")).logsumexp(-1)
        valid = targets.any(-1)
        return -(on_target[valid]).mean() if bool(valid.any()) else scores.sum() * 0.0
