"""Trains the nano OCR model's main path (DeepEncoder + MoE decoder) on synthetic pages, on the CPU.

    PYTHONPATH=tools/model nohup nice -n 10 /usr/bin/python3 -m experiments.train --run tools/model/runs/nano \\
        > tools/model/runs/nano/log.txt 2>&1 &
    ... --resume      continues from tools/model/runs/nano/checkpoint.pt (same run folder)

Pages are generated on the fly (split "train", page index = step * batch + i), so nothing is cached
and no page repeats. The run folder holds tokenizer.json (learnt once from training pages),
checkpoint.pt (model, optimiser, step; rewritten every --save-minutes) and the log. The FastMTP head
is trained afterwards by train_mtp.py with this model frozen.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import signal
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F

from folio_model.byte_bpe import decode, encode
from folio_model.model import DeepseekOCRForCausalLM
from .attention_guide import AttentionGuide, token_cells
from .eval_cer import character_error_rate
from .glyph_grid import GLYPH_CLASSES, grid_cell, ordered_glyph
from .nano import GRID_SIDE, Page, batch_pages, cell_key, greedy_batch, load_tokenizer, nano_config, nano_prompt, prompt_embeds
from .ranks import add_rank_options, agreed_stop, average_gradients, join_ranks, run_on_ranks
from .spelled_tokens import SpelledTokens
from .synth.render import PAGE_PX
from .synth.tokenizer import nano_tokenizer

PAD = 2


def save_atomic(state: dict, path: Path) -> None:
    scratch = path.with_suffix(".tmp")
    torch.save(state, scratch)
    os.replace(scratch, path)


def run_tokenizer(run: Path) -> dict:
    path = run / "tokenizer.json"
    if not path.exists():
        path.write_text(json.dumps(nano_tokenizer(), ensure_ascii=False, indent=1) + "\n")
    return load_tokenizer(path)


VISION_PARTS = ("model.sam_model.", "model.vision_model.", "model.projector.", "model.image_newline",
                "model.view_seperator")


def blank_patches_embed_to_zero(model: DeepseekOCRForCausalLM) -> None:
    """Pages are mostly white paper: with the default bias a white patch embeds to a large constant
    that, after the neck's channel LayerNorm and the compressor convolutions, drowns the text's signal
    (a first run's visual tokens differed by 2e-4 of their size between pages, and the decoder learnt
    to ignore them). A bias of minus the weights' sum over a white patch (normalised value 1) makes
    paper embed to zero and only ink to something."""
    proj = model.model.sam_model.patch_embed.proj
    with torch.no_grad():
        proj.bias.copy_(-proj.weight.sum(dim=(1, 2, 3)))


def reset_vision(model: DeepseekOCRForCausalLM, seed: int) -> None:
    """Fresh DeepEncoder, projector and layout vectors (the decoder keeps what it learnt)."""
    torch.manual_seed(seed)
    fresh = DeepseekOCRForCausalLM(model.config)
    state = {n: t for n, t in fresh.state_dict().items() if n.startswith(VISION_PARTS)}
    model.load_state_dict({**model.state_dict(), **state})
    blank_patches_embed_to_zero(model)


def init_from(model: DeepseekOCRForCausalLM, glyph_head: GlyphHead, checkpoint: Path) -> int:
    """Starts a new run from another run's checkpoint whose sizes differ (a larger view, more CLIP
    layers): every tensor whose name and shape match is taken, the rest stay fresh, so a decoder
    that already knows the pages' language and an encoder that already sees ink are kept. Returns
    how many tensors were taken."""
    state = torch.load(checkpoint)
    ours = model.state_dict()
    taken = {n: t for n, t in state["model"].items() if n in ours and ours[n].shape == t.shape}
    model.load_state_dict({**ours, **taken})
    head = glyph_head.state_dict()
    if "glyph_head" in state and all(head[n].shape == t.shape for n, t in state["glyph_head"].items()):
        glyph_head.load_state_dict(state["glyph_head"])
    return len(taken)


def learning_rate(step: int, peak: float, warmup: int, total: int) -> float:
    if step < warmup:
        return peak * (step + 1) / warmup
    progress = min(1.0, (step - warmup) / max(1, total - warmup))
    return peak * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * progress)))


def text_batch(tokenizer: dict, texts: list[str], eos: int, limit: int) -> torch.Tensor:
    rows = [(encode(tokenizer, t) + [eos])[:limit] for t in texts]
    width = max(len(r) for r in rows)
    return torch.tensor([r + [PAD] * (width - len(r)) for r in rows])


def token_losses(model: DeepseekOCRForCausalLM, prompt, features: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """`[b, rows]`: next-token cross-entropy of each page text token (and EOS) after the prompt; 0 at padding."""
    embeds = torch.cat([prompt_embeds(model, prompt, features), model.model.embed_tokens(targets[:, :-1])], dim=1)
    b, length, _ = embeds.shape
    hidden, _ = model.model(embeds, torch.arange(length)[None].expand(b, -1))
    logits = model.lm_head(hidden[:, len(prompt.ids) - 1:])
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1), ignore_index=PAD,
                           reduction="none").reshape(targets.shape)


def main_loss(model: DeepseekOCRForCausalLM, prompt, features: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """The mean of `token_losses` over the tokens that are not padding."""
    return token_losses(model, prompt, features, targets).sum() / (targets != PAD).sum()


def glyph_targets(pages: list[Page], side: int) -> torch.Tensor:
    """`[b, side * side, 2 * GLYPH_CLASSES]`: which characters have their centre in each visual token's
    cell of the page, in its left half and in its right half (`ordered_glyph`)."""
    targets = torch.zeros(len(pages), side * side, 2 * GLYPH_CLASSES)
    for b, page in enumerate(pages):
        for char, x, y in page.glyphs:
            targets[b, grid_cell(x, y, side, PAGE_PX), ordered_glyph(char, x, side, PAGE_PX)] = 1.0
    return targets


class GlyphHead(torch.nn.Module):
    """Training only: reads the characters under each visual token from the token alone. Without it
    the decoder learnt the pages' language first, and the vision path, getting no useful gradient,
    collapsed to a page-independent constant (two runs, see README); with it every token must carry
    its ink from the first step."""

    def __init__(self, hidden: int) -> None:
        super().__init__()
        self.read = torch.nn.Linear(hidden, 2 * GLYPH_CLASSES)
        torch.nn.init.constant_(self.read.bias, -4.0)

    def loss(self, features: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        normalised = F.layer_norm(features, features.shape[-1:])
        # summed over classes, so a token's few characters are not averaged away among all the classes
        total = F.binary_cross_entropy_with_logits(self.read(normalised), targets, reduction="sum")
        return total / (targets.shape[0] * targets.shape[1])


def piece_bytes(tokenizer: dict) -> list[int]:
    """Each token id's length in bytes; 0 for the special tokens (ids 0-2), which spell nothing."""
    lengths = [0] * len(tokenizer["model"]["vocab"])
    for piece, index in tokenizer["model"]["vocab"].items():
        lengths[index] = len(piece) if index > PAD else 0
    return lengths


def guide_targets(lengths: list[int], prompt, pages: list[Page], targets: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """For the rows that predict `targets` (the first is the prompt's last), the visual tokens holding
    each row's input token (what was just written) and the token it predicts (what to read next),
    as `[b, rows, keys]` masks over the whole sequence; `lengths`: `piece_bytes`."""
    b, rows = targets.shape
    keys = len(prompt.ids) + rows - 1
    current = torch.zeros(b, rows, keys, dtype=torch.bool)
    following = torch.zeros(b, rows, keys, dtype=torch.bool)
    for i, page in enumerate(pages):
        ids = [int(t) for t in targets[i] if int(t) != PAD]
        for j, cells in enumerate(token_cells(page.markdown, [lengths[t] for t in ids], page.glyphs, GRID_SIDE, PAGE_PX)):
            for c in cells:
                key = cell_key(prompt, c)
                following[i, j, key] = True
                if j + 1 < rows:
                    current[i, j + 1, key] = True
    return current, following


def heldout_cer(model: DeepseekOCRForCausalLM, tokenizer: dict, prompt, pages: int, max_new: int) -> float:
    pixels, heldout = batch_pages("heldout", list(range(pages)), augment=False)
    texts = [p.markdown for p in heldout]
    model.eval()
    outputs = greedy_batch(model, prompt, pixels, eos=1, max_new=max_new)
    model.train()
    total = 0.0
    for tokens, truth in zip(outputs, texts):
        text = decode(tokenizer, tokens)
        total += character_error_rate(text, truth)
    print(f"  heldout sample: {text[:160]!r}", flush=True)
    return total / pages


def grounding(model: DeepseekOCRForCausalLM, tokenizer: dict, prompt, pages: int = 6) -> tuple[float, float]:
    """Held-out loss with each page's own image and with its neighbour's: equal means the decoder
    ignores the image."""
    pixels, heldout = batch_pages("heldout", list(range(1000, 1000 + pages)), augment=False)
    targets = text_batch(tokenizer, [p.markdown for p in heldout], eos=1, limit=300)
    with torch.no_grad():
        features = model.model.encode_views(pixels)
        return float(main_loss(model, prompt, features, targets)), float(main_loss(model, prompt, features.roll(1, 0), targets))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", type=Path, required=True)
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--steps", type=int, default=6000, help="length of the learning-rate schedule")
    parser.add_argument("--lr", type=float, default=1.5e-3)
    parser.add_argument("--warmup", type=int, default=150)
    parser.add_argument("--max-text-tokens", type=int, default=300)
    parser.add_argument("--save-minutes", type=float, default=4.0)
    parser.add_argument("--eval-every", type=int, default=250)
    parser.add_argument("--eval-pages", type=int, default=8,
                        help="held-out pages in each greedy CER check (two pages read 0.04 when twenty read 0.15)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--glyph-weight", type=float, default=1.0, help="weight of the glyph loss (0: off)")
    parser.add_argument("--vision-lr-scale", type=float, default=0.1,
                        help="the vision path's learning rate relative to --lr: at 2e-3 its tokens collapsed to one")
    parser.add_argument("--glyph-head-lr-scale", type=float, default=5.0)
    add_rank_options(parser, port=29511)
    parser.add_argument("--glyph-only", action="store_true",
                        help="train the vision path alone on the glyph loss (a first stage; resume without it)")
    parser.add_argument("--guide-weight", type=float, default=0.0,
                        help="weight of the guided-attention loss on two decoder heads (attention_guide.py; 0: off)")
    parser.add_argument("--spell", action="store_true",
                        help="token embeddings and output rows gain shared per-character parts (spelled_tokens.py)")
    parser.add_argument("--init-from", type=Path,
                        help="a new run starts from this checkpoint's tensors where names and shapes match")
    parser.add_argument("--reset-vision", action="store_true",
                        help="with --resume: start the vision path afresh (and the optimiser), keep the decoder")
    args = parser.parse_args(argv)
    args.run.mkdir(parents=True, exist_ok=True)
    run_tokenizer(args.run)
    return run_on_ranks(train, args)


def train(rank: int, args: argparse.Namespace) -> int:
    """One rank's loop; rank 0 logs, evaluates and saves."""
    torch.set_num_threads(args.threads)
    join_ranks(rank, args)
    lead = rank == 0
    tokenizer = load_tokenizer(args.run / "tokenizer.json")
    prompt = nano_prompt(tokenizer)
    torch.manual_seed(1130)
    model = DeepseekOCRForCausalLM(nano_config(len(tokenizer["model"]["vocab"])))
    blank_patches_embed_to_zero(model)
    glyph_head = GlyphHead(model.config.decoder.hidden_size)
    # layer 0 head 0 finds what was just written; layer 1 head 0 reads what comes next
    guides = (AttentionGuide(model.model.layers[0].self_attn, 0), AttentionGuide(model.model.layers[1].self_attn, 0))
    lengths = piece_bytes(tokenizer)
    named = [(n, p) for n, p in model.named_parameters() if not n.startswith("mtp_module.")
             and "embeddings.patch_embedding" not in n]
    groups = [
        {"params": [p for n, p in named if n.startswith(VISION_PARTS)], "scale": args.vision_lr_scale},
        {"params": [p for n, p in named if not n.startswith(VISION_PARTS)], "scale": 1.0},
        {"params": list(glyph_head.parameters()), "scale": args.glyph_head_lr_scale},
    ]
    trainable = [p for group in groups for p in group["params"]]
    optimiser = torch.optim.AdamW(groups, lr=args.lr, weight_decay=0.01, betas=(0.9, 0.98))
    step, elapsed = 0, 0.0
    checkpoint = args.run / "checkpoint.pt"
    if args.resume:
        state = torch.load(checkpoint)
        model.load_state_dict(state["model"])
        if "glyph_head" in state and not args.reset_vision:
            glyph_head.load_state_dict(state["glyph_head"])
        step, elapsed = state["step"], state["elapsed"]
        if args.reset_vision:
            reset_vision(model, step)
        else:
            optimiser.load_state_dict(state["optimiser"])
        if lead:
            print(f"resumed at step {step} ({elapsed / 60:.1f} min trained)"
                  f"{', vision reset' if args.reset_vision else ''}", flush=True)
    elif args.init_from:
        taken = init_from(model, glyph_head, args.init_from)
        if lead:
            print(f"started from {args.init_from} ({taken} tensors)", flush=True)
    spelled = SpelledTokens(model, tokenizer) if args.spell else None
    if spelled:
        # its own group, added after any resumed state and left out of checkpoints (which hold the
        # summed weights), so its vectors start from zero in every session
        optimiser.add_param_group({"params": list(spelled.parameters()), "scale": 1.0})
        trainable += list(spelled.parameters())
    if lead:
        print(f"parameters: {sum(p.numel() for p in model.parameters()) / 1e6:.2f}M; prompt {len(prompt.ids)} tokens; "
              f"{args.ranks} rank(s) of {args.batch} pages", flush=True)
    model.train()
    stop: list[bool] = []
    # `kill PID` (rank 0: the command's own process) ends the run after the current step with a
    # checkpoint, so no training is lost
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))
    last_save, window, window_start = time.time(), [], time.time()

    def save() -> None:
        optimiser_state = optimiser.state_dict()
        if spelled:
            dropped = {i for group in optimiser_state["param_groups"][len(groups):] for i in group["params"]}
            optimiser_state = {"param_groups": optimiser_state["param_groups"][:len(groups)],
                               "state": {i: v for i, v in optimiser_state["state"].items() if i not in dropped}}
        save_atomic({"model": spelled.baked(model.state_dict()) if spelled else model.state_dict(),
                     "glyph_head": glyph_head.state_dict(),
                     "optimiser": optimiser_state, "step": step, "elapsed": elapsed,
                     "config": nano_config(len(tokenizer["model"]["vocab"])).to_dict()}, checkpoint)
    while step < args.steps:
        if agreed_stop(stop, args.ranks):
            break
        started = time.time()
        lr = learning_rate(step, args.lr, args.warmup, args.steps)
        for group in optimiser.param_groups:
            group["lr"] = lr * group["scale"]
        first = (step * args.ranks + rank) * args.batch
        pixels, pages = batch_pages("train", list(range(first, first + args.batch)), augment=True)
        targets = text_batch(tokenizer, [p.markdown for p in pages], eos=1, limit=args.max_text_tokens)
        features = model.model.encode_views(pixels)
        side = int(round(features.shape[1] ** 0.5))
        glyph_loss = glyph_head.loss(features, glyph_targets(pages, side))
        guide_loss = torch.zeros(())
        if args.glyph_only:
            text_loss, loss = torch.zeros(()), glyph_loss
        else:
            text_loss = main_loss(model, prompt, features, targets)
            loss = text_loss + args.glyph_weight * glyph_loss
            if args.guide_weight:
                masks = guide_targets(lengths, prompt, pages, targets)
                guide_loss = sum(g.loss(len(prompt.ids) - 1, m) for g, m in zip(guides, masks)) / len(guides)
                loss = loss + args.guide_weight * guide_loss
        optimiser.zero_grad(set_to_none=True)
        loss.backward()
        if args.ranks > 1:
            average_gradients(trainable, args.ranks)
        torch.nn.utils.clip_grad_norm_(trainable, 1.0)
        optimiser.step()
        step += 1
        elapsed += time.time() - started
        window.append((float(text_loss), float(glyph_loss), float(guide_loss)))
        if not lead:
            continue
        if step % 10 == 0:
            rate = (time.time() - window_start) / len(window)
            print(f"step {step} loss {sum(w[0] for w in window) / len(window):.4f} "
                  f"glyph {sum(w[1] for w in window) / len(window):.4f} "
                  f"guide {sum(w[2] for w in window) / len(window):.3f} lr {lr:.2e} {rate:.2f}s/step "
                  f"trained {elapsed / 60:.1f}min", flush=True)
            window, window_start = [], time.time()
        if step % args.eval_every == 0 and not args.glyph_only:
            cer = heldout_cer(model, tokenizer, prompt, args.eval_pages, args.max_text_tokens)
            print(f"  heldout CER {cer:.3f} over {args.eval_pages} pages at step {step}", flush=True)
            own, other = grounding(model, tokenizer, prompt)
            print(f"  heldout loss {own:.3f} with its own page, {other:.3f} with another page", flush=True)
        if time.time() - last_save > args.save_minutes * 60:
            save()
            last_save = time.time()
    if lead:
        save()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
