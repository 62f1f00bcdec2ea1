"""Where a nano checkpoint stands on the way to reading, on held-out pages, part by part:

    PYTHONPATH=tools/model /usr/bin/python3 -m experiments.diagnose_reading --run tools/model/runs/nano

- glyphs: how often the glyph head ranks each character among the top n of the visual token it
  lies under (n: how many different characters lie there), i.e. whether the encoder sees letters;
- text loss with each page's own image and with another page's, split into word pieces, numbers
  and everything else (Markdown, LaTeX, table tags): a decoder that reads layout but not words
  shows a gap only outside words;
- the two guided heads' losses (attention_guide.py): minus the log of the attention they put on
  the token just written and on the token to write next.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

from folio_model.config import ModelConfig
from folio_model.model import DeepseekOCRForCausalLM
from .attention_guide import AttentionGuide
from .glyph_grid import grid_cell, ordered_glyph
from .nano import batch_pages, load_tokenizer, nano_prompt
from .synth.render import PAGE_PX
from .train import PAD, GlyphHead, guide_targets, piece_bytes, text_batch, token_losses


def glyph_recall(logits: torch.Tensor, pages, side: int) -> float:
    """`logits [b, side * side, classes]`."""
    hits, total = 0, 0
    for b, page in enumerate(pages):
        where = [(ordered_glyph(c, x, side, PAGE_PX), grid_cell(x, y, side, PAGE_PX)) for c, x, y in page.glyphs]
        for k, index in where:
            present = len({other for other, i in where if i == index})
            hits += int(k in logits[b, index].topk(present).indices.tolist())
            total += 1
    return hits / max(1, total)


def token_kind(piece: str) -> str:
    if re.fullmatch(r"Ġ?[A-Za-z]+", piece):
        return "words"
    return "numbers" if re.fullmatch(r"Ġ?[0-9.]+", piece) else "other"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", type=Path, required=True)
    parser.add_argument("--pages", type=int, default=12)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    tokenizer = load_tokenizer(args.run / "tokenizer.json")
    inverse = {v: k for k, v in tokenizer["model"]["vocab"].items()}
    prompt = nano_prompt(tokenizer)
    state = torch.load(args.run / "checkpoint.pt")
    model = DeepseekOCRForCausalLM(ModelConfig.from_dict(state["config"]))
    model.load_state_dict(state["model"])
    model.eval()
    glyph_head = GlyphHead(model.config.decoder.hidden_size)
    glyph_head.load_state_dict(state["glyph_head"])
    guides = (AttentionGuide(model.model.layers[0].self_attn, 0), AttentionGuide(model.model.layers[1].self_attn, 0))
    pixels, pages = batch_pages("heldout", list(range(1000, 1000 + args.pages)), augment=False)
    targets = text_batch(tokenizer, [p.markdown for p in pages], eos=1, limit=300)
    with torch.no_grad():
        features = model.model.encode_views(pixels)
        side = int(round(features.shape[1] ** 0.5))
        glyphs = glyph_recall(glyph_head.read(F.layer_norm(features, features.shape[-1:])), pages, side)
        other = token_losses(model, prompt, features.roll(1, 0), targets)
        own = token_losses(model, prompt, features, targets)
        masks = guide_targets(piece_bytes(tokenizer), prompt, pages, targets)
        current, following = (float(g.loss(len(prompt.ids) - 1, m)) for g, m in zip(guides, masks))
    print(f"step {state['step']}: glyphs in their token's top n {glyphs:.1%}")
    kinds: dict[str, list[tuple[float, float]]] = {}
    for b in range(targets.shape[0]):
        for j, t in enumerate(targets[b].tolist()):
            if t != PAD:
                kinds.setdefault(token_kind(inverse[t]), []).append((float(own[b, j]), float(other[b, j])))
    for kind, losses in sorted(kinds.items()):
        print(f"  {kind}: {len(losses)} tokens, loss {sum(o for o, _ in losses) / len(losses):.3f} with the page's "
              f"own image, {sum(x for _, x in losses) / len(losses):.3f} with another's")
    print(f"  guided heads: {current:.3f} on the token just written, {following:.3f} on the next")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
