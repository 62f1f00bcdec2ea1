"""Trains the nano model's FastMTP head alone, the main model frozen, by self-distillation: the
targets are the main model's own greedy outputs on training pages.

    PYTHONPATH=tools/model nohup nice -n 10 /usr/bin/python3 -m experiments.train_mtp --run tools/model/runs/nano \\
        > tools/model/runs/nano/log_mtp.txt 2>&1 &
    ... --resume      continues from tools/model/runs/nano/checkpoint_mtp.pt
    ... --passes 4    four optimiser steps on each batch of greedy outputs

The one head is applied recursively for K=3 steps, with loss weights 1, 0.6, 0.36. Each step sees
exactly what the runtime's drafter (electron/engine/vlm/speculative.ts) gives it: MTP row p pairs
the embedding of token p+1 with a hidden state and predicts token p+2; step 1 uses the decoder's
hidden state at p, step k>1 the head's own output one row earlier, and its attention covers the
settled step-1 rows up to the anchor plus the chain of draft rows after it.

`--guide-weight` adds guided attention, as train.py gives the decoder: at every step, one head of
the block is taught to look at the visual tokens holding the characters of the token its row
drafts, located in the greedy text by `attention_guide.token_cells`. The head trained without it
did not read the page: each of its four heads put about 0.1% of its attention on the drafted
token's visual tokens, and on 20 held-out pages its first draft was right for 21% of word-initial
letters against 64% of letters inside words.
"""
from __future__ import annotations

import argparse
import signal
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

import torch
import torch.nn.functional as F

from folio_model.byte_bpe import decode
from folio_model.model import DeepseekOCRForCausalLM
from folio_model.mtp import MTPHead
from .attention_guide import token_cells
from .nano import (GRID_SIDE, Page, batch_pages, cell_key, greedy_batch, load_tokenizer, nano_config,
                  nano_prompt, prompt_embeds)
from .ranks import add_rank_options, agreed_stop, average_gradients, join_ranks, run_on_ranks
from .synth.render import PAGE_PX
from .train import PAD, piece_bytes, save_atomic

STEPS_K = 3
DECAY = 0.6
GUIDED_HEAD = 0


def chain_mask(rows: int, step: int) -> torch.Tensor:
    """Which keys a step-`step` query at row j sees, over the keys of steps 1..step laid side by side:
    step-1 rows up to the anchor j-step+1, then the step-m row at j-step+m for m = 2..step."""
    query = torch.arange(rows)[:, None]
    key = torch.arange(rows)[None, :]
    blocks = [key <= query - step + 1] + [key == query - step + m for m in range(2, step + 1)]
    return torch.cat(blocks, dim=1)


def head_step(head: MTPHead, embeds: torch.Tensor, previous: torch.Tensor, positions: torch.Tensor,
              earlier: list[tuple[torch.Tensor, torch.Tensor]], final_norm) -> tuple[torch.Tensor, tuple, torch.Tensor]:
    """One recursive step over all rows at once: the head's block with attention limited by
    `chain_mask`; returns the post-norm hidden rows, this step's (keys, values) and the log of
    `GUIDED_HEAD`'s attention `[b, rows, keys]` (keys: the steps' rows side by side)."""
    block = head.mtp_block
    attn = block.self_attn
    x = head.eh_proj(torch.cat([head.enorm(embeds), head.hnorm(previous)], dim=-1))
    normed = block.input_layernorm(x)
    b, s, _ = normed.shape
    q, k, v = attn.rotated_qkv(normed, positions)
    keys = torch.cat([kk for kk, _ in earlier] + [k], dim=1).transpose(1, 2)
    values = torch.cat([vv for _, vv in earlier] + [v], dim=1).transpose(1, 2)
    scores = (q.transpose(1, 2) @ keys.transpose(-2, -1)) * (attn.head_dim ** -0.5)
    visible = chain_mask(s, len(earlier) + 1)
    scores = scores.masked_fill(~visible, float("-inf"))
    log_attention = scores.log_softmax(-1)
    out = (log_attention.exp() @ values).transpose(1, 2).reshape(b, s, -1)
    x = x + attn.o_proj(out)
    x = x + block.mlp(block.post_attention_layernorm(x))
    return final_norm(x), (k, v), log_attention[:, GUIDED_HEAD]


def sequences(outputs: list[list[int]], prompt_ids: list[int]) -> torch.Tensor:
    width = max(len(o) for o in outputs)
    return torch.tensor([prompt_ids + o + [PAD] * (width - len(o)) for o in outputs])


@dataclass(frozen=True)
class DistilBatch:
    """What the head learns from on one batch of pages, all without gradients: row p pairs the
    embedding of token p+1 with the decoder's hidden state at p and targets token p+2."""
    token_embeds: torch.Tensor
    hidden: torch.Tensor
    targets: torch.Tensor
    prompt_length: int
    # `[b, rows, rows]`: the step-1 rows (the page's visual tokens among them) each row should look at
    reading: torch.Tensor | None = None


def reading_targets(tokenizer: dict, prompt, pages: list[Page], outputs: list[list[int]], rows: int) -> torch.Tensor:
    """`[b, rows, rows]`: for each MTP row, the visual tokens holding the characters of the token it
    drafts (row p drafts token p+2), found in the greedy text it learns from; none for a token that
    draws nothing, or on a page whose text is not whole UTF-8."""
    lengths = piece_bytes(tokenizer)
    mask = torch.zeros(len(pages), rows, rows, dtype=torch.bool)
    for i, (page, output) in enumerate(zip(pages, outputs)):
        text, spans = decode(tokenizer, output), [lengths[t] for t in output]
        if len(text.encode()) != sum(spans):
            continue
        for g, cells in enumerate(token_cells(text, spans, page.glyphs, GRID_SIDE, PAGE_PX)):
            row = len(prompt.ids) + g - 2
            if 0 <= row < rows:
                for cell in cells:
                    mask[i, row, cell_key(prompt, cell)] = True
    return mask


@torch.no_grad()
def distil_batch(model: DeepseekOCRForCausalLM, prompt, pixels: torch.Tensor, outputs: list[list[int]]) -> DistilBatch:
    ids = sequences(outputs, prompt.ids)
    b, length = ids.shape
    embeds = torch.cat([prompt_embeds(model, prompt, model.model.encode_views(pixels)), model.model.embed_tokens(ids[:, len(prompt.ids):])], 1)
    hidden, _ = model.model(embeds, torch.arange(length)[None].expand(b, -1))
    rows = length - 2  # row p needs token p+1 as input and token p+2 as target
    return DistilBatch(model.model.embed_tokens(ids[:, 1:rows + 1]), hidden[:, :rows], ids[:, 2:rows + 2], len(prompt.ids))


def reading_loss(log_attention: torch.Tensor, reading: torch.Tensor, first_row: int) -> torch.Tensor:
    """Minus the log of the attention on each row's target keys, over rows from `first_row` that have any."""
    targets = F.pad(reading, (0, log_attention.shape[-1] - reading.shape[-1]))
    on_target = log_attention.masked_fill(~targets, float("-inf")).logsumexp(-1)
    valid = targets.any(-1)
    valid[:, :first_row] = False
    return -on_target[valid].mean() if bool(valid.any()) else log_attention.sum() * 0.0


def mtp_loss(model: DeepseekOCRForCausalLM, batch: DistilBatch, guide_weight: float = 0.0
             ) -> tuple[torch.Tensor, list[float], float]:
    """The weighted draft losses of the K steps (plus guided attention's), each step's draft loss,
    and the guided-attention loss (0 without `batch.reading`)."""
    head = model.mtp_module.heads[0]
    b, rows = batch.targets.shape
    positions = torch.arange(rows)[None].expand(b, -1)
    previous = batch.hidden
    earlier: list[tuple[torch.Tensor, torch.Tensor]] = []
    total = torch.zeros(())
    losses = []
    guide = torch.zeros(())
    for step in range(1, STEPS_K + 1):
        out, kv, log_attention = head_step(head, batch.token_embeds, previous, positions, earlier, model.model.norm)
        logits = model.lm_head(out)
        step_targets = batch.targets.clone()
        # only rows the drafter uses: anchors from the last prompt row on
        first_row = batch.prompt_length - 1 + step - 1
        step_targets[:, :first_row] = PAD
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), step_targets.reshape(-1), ignore_index=PAD)
        total = total + DECAY ** (step - 1) * loss
        losses.append(float(loss))
        if batch.reading is not None and guide_weight:
            guide = guide + DECAY ** (step - 1) * reading_loss(log_attention, batch.reading, first_row)
        earlier.append(kv)
        # the next step's row j continues the chain from row j-1
        previous = torch.cat([out[:, :1], out[:, :-1]], dim=1)
    return total + guide_weight * guide, losses, float(guide)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", type=Path, required=True)
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--save-minutes", type=float, default=3.0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--max-new", type=int, default=200, help="greedy tokens per page (most pages end sooner)")
    parser.add_argument("--guide-weight", type=float, default=0.0,
                        help="weight of guided attention: one head looks where its row's drafted token is drawn (0: off)")
    parser.add_argument("--passes", type=int, default=1,
                        help="optimiser steps on each batch of greedy outputs: generating them costs most of a step")
    parser.add_argument("--first-page", type=int, default=10_000_000,
                        help="training pages from this index on, away from the ones the main model saw first")
    add_rank_options(parser, port=29512)
    args = parser.parse_args(argv)
    return run_on_ranks(train, args)


def start_block_from_dense_layer(model: DeepseekOCRForCausalLM) -> None:
    """The head's block starts as a copy of the decoder's dense first layer (same shapes), which
    already attends and transforms in the decoder's space, rather than from random weights."""
    layer = model.model.layers[0].state_dict()
    model.mtp_module.heads[0].mtp_block.load_state_dict(layer)


def train(rank: int, args: argparse.Namespace) -> int:
    """One rank's loop; rank 0 logs and saves."""
    torch.set_num_threads(args.threads)
    join_ranks(rank, args)
    lead = rank == 0
    tokenizer = load_tokenizer(args.run / "tokenizer.json")
    prompt = nano_prompt(tokenizer)
    model = DeepseekOCRForCausalLM(nano_config(len(tokenizer["model"]["vocab"])))
    main_state = torch.load(args.run / "checkpoint.pt")["model"]
    head_names = {n for n in model.state_dict() if n.startswith("mtp_module.")}
    model.load_state_dict({n: t for n, t in main_state.items() if n not in head_names}, strict=False)
    start_block_from_dense_layer(model)
    for name, param in model.named_parameters():
        param.requires_grad_(name in head_names)
    head_params = [p for n, p in model.named_parameters() if n in head_names]
    optimiser = torch.optim.AdamW(head_params, lr=args.lr, weight_decay=0.01)
    step, elapsed = 0, 0.0
    checkpoint = args.run / "checkpoint_mtp.pt"
    if args.resume:
        state = torch.load(checkpoint)
        model.load_state_dict({**model.state_dict(), **state["head"]})
        optimiser.load_state_dict(state["optimiser"])
        step, elapsed = state["step"], state["elapsed"]
        if lead:
            print(f"resumed at step {step}", flush=True)
    model.eval()

    def save() -> None:
        save_atomic({"head": {n: t for n, t in model.state_dict().items() if n in head_names},
                     "optimiser": optimiser.state_dict(), "step": step, "elapsed": elapsed}, checkpoint)
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))
    last_save = time.time()
    batch: DistilBatch | None = None
    while step < args.steps:
        if agreed_stop(stop, args.ranks):
            break
        started = time.time()
        for group in optimiser.param_groups:
            group["lr"] = args.lr * min(1.0, (step + 1) / 20)
        if batch is None or step % args.passes == 0:
            first = args.first_page + (step // args.passes * args.ranks + rank) * args.batch
            pixels, pages = batch_pages("train", list(range(first, first + args.batch)), augment=True)
            outputs = greedy_batch(model, prompt, pixels, eos=1, max_new=args.max_new)
            batch = distil_batch(model, prompt, pixels, outputs)
            if args.guide_weight:
                batch = replace(batch, reading=reading_targets(tokenizer, prompt, pages, outputs, batch.targets.shape[1]))
        loss, parts, guide = mtp_loss(model, batch, args.guide_weight)
        optimiser.zero_grad(set_to_none=True)
        loss.backward()
        if args.ranks > 1:
            average_gradients(head_params, args.ranks)
        torch.nn.utils.clip_grad_norm_(head_params, 1.0)
        optimiser.step()
        step += 1
        elapsed += time.time() - started
        if not lead:
            continue
        print(f"step {step} loss {float(loss):.4f} per-step {' '.join(f'{p:.3f}' for p in parts)} "
              f"{f'read {guide:.3f} ' if args.guide_weight else ''}{time.time() - started:.1f}s trained {elapsed / 60:.1f}min", flush=True)
        if time.time() - last_save > args.save_minutes * 60 or step == args.steps:
            save()
            last_save = time.time()
    if lead:
        save()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
