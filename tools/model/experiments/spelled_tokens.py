"""Training only: token embeddings and output rows that know how their token is spelt.

A BPE token's embedding says nothing of its letters, so a decoder that sees "o", "p", "e", "r" under
a visual token must learn separately, for each of the 1,771 tokens, which one spells them: run 4
read layout tokens well (held-out loss 0.66 with the page's own image, 1.42 with another's) but
words hardly at all (3.83 against 4.29). Here every token's embedding and output row gain a sum of
per-character vectors shared by all tokens (`spelling @ chars`), so what one word teaches about
its letters serves every word that has them. Checkpoints hold the summed weights, so the exported
model is the plain architecture; a resumed run starts the character vectors again from zero,
which leaves the function unchanged.
"""
from __future__ import annotations

import torch
from torch import nn

from folio_model.byte_bpe import ALPHABET
from folio_model.model import DeepseekOCRForCausalLM
from .glyph_grid import GLYPH_CLASSES, glyph_class



def spelling_matrix(tokenizer: dict) -> torch.Tensor:
    """`[vocab, GLYPH_CLASSES]`: each token's characters (spaces and special tokens left out), weighted
    1/sqrt(length) so long and short tokens embed at a similar scale."""
    byte_of = {char: byte for byte, char in ALPHABET.items()}
    vocab = tokenizer["model"]["vocab"]
    special = {t["content"] for t in tokenizer.get("added_tokens", [])}
    matrix = torch.zeros(len(vocab), GLYPH_CLASSES)
    for piece, index in vocab.items():
        if piece in special:
            continue
        codes = [byte_of[c] for c in piece if c in byte_of and byte_of[c] != ord(" ")]
        for code in codes:
            matrix[index, glyph_class(chr(code))] += 1.0 / len(codes) ** 0.5
    return matrix


class SpelledTokens(nn.Module):
    """Adds the spelt part to `embed_tokens`' and `lm_head`'s outputs through forward hooks."""

    def __init__(self, model: DeepseekOCRForCausalLM, tokenizer: dict) -> None:
        super().__init__()
        hidden = model.config.decoder.hidden_size
        self.register_buffer("spelling", spelling_matrix(tokenizer))
        self.chars_in = nn.Parameter(torch.zeros(GLYPH_CLASSES, hidden))
        self.chars_out = nn.Parameter(torch.zeros(GLYPH_CLASSES, hidden))
        model.model.embed_tokens.register_forward_hook(lambda _m, args, out: out + (self.spelling @ self.chars_in)[args[0]])
        model.lm_head.register_forward_hook(lambda _m, args, out: out + (args[0] @ self.chars_out.T) @ self.spelling.T)

    def baked(self, state: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
        """`state` (the model's) with the spelt parts summed into the embedding and output weights."""
        with torch.no_grad():
            return {**state,
                    "model.embed_tokens.weight": state["model.embed_tokens.weight"] + self.spelling @ self.chars_in,
                    "lm_head.weight": state["lm_head.weight"] + self.spelling @ self.chars_out}
