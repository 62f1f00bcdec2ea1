"""Fine-tunes the nano model on a Folio training-pairs folder (`folio export-pairs --model nano-demo`):
pages people reviewed or corrected, with their final Markdown.

    PYTHONPATH=tools/model /usr/bin/python3 -m experiments.recover_weights --package tools/model/fixtures/nano --run tools/model/runs/nano-pairs
    PYTHONPATH=tools/model /usr/bin/python3 -m experiments.finetune_pairs --run tools/model/runs/nano-pairs --pairs /tmp/pairs --steps 8

Loads `<run>/checkpoint.pt` and `<run>/tokenizer.json`, takes `--steps` optimiser steps on the train
pairs (next-token loss on the Markdown after the prompt and the page's visual tokens, as train.py's
text loss; the glyph and guide losses need synthetic pages' glyph positions, which real pairs do not
have), and prints the loss on the train and validation pairs before and after. Writes
`<run>/checkpoint_pairs.pt` in train.py's layout, for `export_nano.py --checkpoint`.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import torch
from PIL import Image

from folio_model.model import DeepseekOCRForCausalLM
from folio_model.package import PLAIN_PROMPT
from folio_model.pairs import Pair, read_manifest, read_pairs
from folio_model.preprocess import prepare_views
from .nano import NANO_MODE, load_tokenizer, nano_config, nano_prompt
from .train import main_loss, save_atomic, text_batch


def pair_pixels(pairs: list[Pair]) -> torch.Tensor:
    """`[b, 3, 512, 512]`: each page image prepared as the nano model's one view."""
    views = []
    for pair in pairs:
        with Image.open(pair.image) as image:
            views.append(prepare_views(image.convert("RGB"), NANO_MODE).global_view)
    return torch.from_numpy(np.stack(views))


def pairs_loss(model: DeepseekOCRForCausalLM, tokenizer: dict, prompt, pairs: list[Pair], limit: int) -> float:
    """Mean next-token loss over the pairs, one page at a time, without gradients."""
    if not pairs:
        return float("nan")
    model.eval()
    with torch.no_grad():
        losses = [float(main_loss(model, prompt, model.model.encode_views(pair_pixels([p])),
                                  text_batch(tokenizer, [p.markdown], eos=1, limit=limit))) for p in pairs]
    model.train()
    return sum(losses) / len(losses)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", type=Path, required=True, help="holds checkpoint.pt and tokenizer.json")
    parser.add_argument("--pairs", type=Path, required=True, help="the folder folio export-pairs wrote")
    parser.add_argument("--steps", type=int, default=8)
    parser.add_argument("--batch", type=int, default=2)
    parser.add_argument("--lr", type=float, default=5e-5, help="2e-4 made the loss jump to 0.68 at step 3 on 4 pairs")
    parser.add_argument("--max-text-tokens", type=int, default=320)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    manifest = read_manifest(args.pairs)
    train, validation = read_pairs(args.pairs, "train"), read_pairs(args.pairs, "validation")
    if not train:
        raise SystemExit(f"{args.pairs}: no train pairs; export with a smaller --split or review more pages")
    if manifest["imageSize"] != NANO_MODE.base_size:
        print(f"note: images are {manifest['imageSize']} px; the nano model's view is {NANO_MODE.base_size} "
              f"(export with --model nano-demo to match)", flush=True)
    prompts = {p.prompt for p in train + validation}
    if prompts != {PLAIN_PROMPT}:
        raise SystemExit(f"{args.pairs}: the pairs ask {sorted(prompts)!r}; the nano model is prompted with "
                         f"{PLAIN_PROMPT!r} (export with --model nano-demo)")
    tokenizer = load_tokenizer(args.run / "tokenizer.json")
    prompt = nano_prompt(tokenizer)
    model = DeepseekOCRForCausalLM(nano_config(len(tokenizer["model"]["vocab"])))
    # checkpoint.pt holds the main model; the FastMTP head is in checkpoint_mtp.pt and not trained here
    missing, unexpected = model.load_state_dict(torch.load(args.run / "checkpoint.pt")["model"], strict=False)
    stray = [n for n in missing if not n.startswith("mtp_module.") and not n.endswith("position_ids")] + unexpected
    if stray:
        raise SystemExit(f"{args.run / 'checkpoint.pt'}: not a nano checkpoint (names {stray[:3]} differ)")
    # the head drafts for the main model and is trained after it (train_mtp.py); it stays as it is
    named = [(n, p) for n, p in model.named_parameters() if not n.startswith("mtp_module.")]
    for name, parameter in model.named_parameters():
        parameter.requires_grad_(not name.startswith("mtp_module."))
    optimiser = torch.optim.AdamW([p for _, p in named], lr=args.lr, weight_decay=0.01, betas=(0.9, 0.98))
    print(f"{len(train)} train and {len(validation)} validation pairs from {args.pairs}", flush=True)
    before = pairs_loss(model, tokenizer, prompt, train, args.max_text_tokens), \
        pairs_loss(model, tokenizer, prompt, validation, args.max_text_tokens)
    print(f"before: train loss {before[0]:.4f}, validation loss {before[1]:.4f}", flush=True)
    for step in range(args.steps):
        batch = [train[(step * args.batch + i) % len(train)] for i in range(args.batch)]
        targets = text_batch(tokenizer, [p.markdown for p in batch], eos=1, limit=args.max_text_tokens)
        loss = main_loss(model, prompt, model.model.encode_views(pair_pixels(batch)), targets)
        if not torch.isfinite(loss):
            raise SystemExit(f"step {step + 1}: the loss is {float(loss)}; stopping")
        optimiser.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_([p for _, p in named], 1.0)
        optimiser.step()
        print(f"step {step + 1} loss {float(loss):.4f}", flush=True)
    after = pairs_loss(model, tokenizer, prompt, train, args.max_text_tokens), \
        pairs_loss(model, tokenizer, prompt, validation, args.max_text_tokens)
    print(f"after: train loss {after[0]:.4f}, validation loss {after[1]:.4f}", flush=True)
    main_model = {n: t for n, t in model.state_dict().items() if not n.startswith("mtp_module.")}
    save_atomic({"model": main_model, "step": args.steps, "pairs": str(args.pairs)}, args.run / "checkpoint_pairs.pt")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
