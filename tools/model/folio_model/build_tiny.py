"""Builds the tiny test model from a fixed seed: its checkpoint, its package and parity fixtures.

    python3 -m folio_model build-tiny [--dtype fp32|fp16] [--out DIR]      (from tools/model)
    python3 -m folio_model build-tiny --checkpoint-only DIR [--decoder-width N]

`--dtype fp16` (default folder fixtures/tiny-fp16) exports the same weights as an fp16 package. Its
parity fixtures come from the reference run on the fp16 package's own numbers: weights rounded to fp16, and pixels, vision outputs and embeddings
rounded to fp16 at the graph boundaries; arithmetic stays fp32, as it does inside the graphs.

Same structure as DeepSeek-OCR / jina-ocr-v1 at toy sizes: a 256-pixel global view and 128-pixel
tiles (4x4 and 2x2 visual tokens), windowed and global SAM blocks, a dense first decoder layer,
MoE layers, one FastMTP head, and a byte-level BPE tokenizer with the special tokens. The random
weights are written as a bf16, two-shard safetensors checkpoint, loaded back strictly and traced into
plain ONNX graphs (package.py), then parity fixtures for the TypeScript runtime are written
next to the package: preprocessed views, visual features, prompt ids, first logits, greedy tokens.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import numpy as np
import torch
from PIL import Image, ImageDraw

from .byte_bpe import build_tokenizer, encode, train_merges
from .checkpoint import load_model
from .config import ClipConfig, DecoderConfig, ModelConfig, SamConfig
from .decoder import RMSNorm
from .model import DeepseekOCRForCausalLM
from .package import (PLAIN_PROMPT, SPECIAL_TOKENS, DecodingRule, PackageOptions,
                                 write_package)
from .preprocess import ResolutionMode
from .reference import (as_array, embed_prompt, encode_page, forward_logits, greedy,
                                   image_token_run, prompt_ids, through_half)
from .safetensors_io import write_sharded
from .sam import LayerNorm2d

SEED = 20261130
# the checkout's tools/model/fixtures, which the TypeScript tests read
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
DEFAULT_OUT = {"fp32": FIXTURES / "tiny", "fp16": FIXTURES / "tiny-fp16"}
TINY_GUNDAM = ResolutionMode("gundam", base_size=256, image_size=128, crop=True, min_crops=2, max_crops=6)
TINY_DECODING = DecodingRule(ngram_size=4, window=32)
MAX_NEW_TOKENS = 24
CORPUS = ("Convert the document to markdown. Tables and the text of the page are converted to markdown "
          "with headings, lists, links and formulas; every row of a table keeps its cells in order.")


def tiny_config(vocab_size: int, decoder_width: int = 64) -> ModelConfig:
    """`decoder_width`: the decoder's hidden size (its MLPs scale with it, its routed experts are 8
    instead of 4 when wider than 64)."""
    return ModelConfig(
        sam=SamConfig(img_size=256, patch_size=16, embed_dim=32, depth=3, num_heads=2, mlp_ratio=2.0,
                      out_chans=16, window_size=4, global_attn_indexes=(1,), net_2_chans=32, net_3_chans=48),
        clip=ClipConfig(hidden_size=48, num_layers=2, num_attention_heads=2, ffn_hidden_size=96,
                        image_size=56, patch_size=14),
        decoder=DecoderConfig(vocab_size=vocab_size, hidden_size=decoder_width, num_hidden_layers=3, num_attention_heads=4,
                              num_key_value_heads=4, intermediate_size=2 * decoder_width,
                              moe_intermediate_size=decoder_width // 2, n_routed_experts=4 if decoder_width <= 64 else 8,
                              n_shared_experts=2, num_experts_per_tok=2,
                              rope_theta=1000000.0, max_position_embeddings=1024),
        num_mtp_heads=1,
    )


def seeded_weights(model: DeepseekOCRForCausalLM) -> dict[str, np.ndarray]:
    """Normal weights from numpy's legacy generator (its stream is frozen across numpy versions);
    norm scales near 1 so activations keep a sane size."""
    rng = np.random.RandomState(SEED)
    norms = {name for name, module in model.named_modules()
             if isinstance(module, (torch.nn.LayerNorm, RMSNorm, LayerNorm2d))}
    weights = {}
    for name, param in sorted(model.named_parameters()):
        owner, _, kind = name.rpartition(".")
        noise = rng.standard_normal(tuple(param.shape)).astype(np.float32)
        weights[name] = 1.0 + 0.1 * noise if owner in norms and kind == "weight" else 0.1 * noise
    return weights


def write_checkpoint(directory: Path, decoder_width: int = 64) -> None:
    merges = train_merges(CORPUS, 40)
    tokenizer = build_tokenizer(merges, list(SPECIAL_TOKENS))
    config = tiny_config(len(tokenizer["model"]["vocab"]), decoder_width)
    (directory / "tokenizer.json").write_text(json.dumps(tokenizer, ensure_ascii=False, indent=1) + "\n")
    (directory / "config.json").write_text(json.dumps(config.to_dict(), indent=2) + "\n")
    (directory / "README.md").write_text("---\nlicense: mit\n---\nFolio's tiny random test model.\n")
    write_sharded(directory, seeded_weights(DeepseekOCRForCausalLM(config)), shards=2, bf16=True)


def page_images() -> dict[str, Image.Image]:
    """A wide page that makes a 2x1 tile grid and a small one that makes none."""
    pages = {}
    for name, size in (("wide", (260, 130)), ("small", (120, 100))):
        image = Image.new("RGB", size, (250, 250, 245))
        draw = ImageDraw.Draw(image)
        for row in range(8, size[1] - 8, 12):
            draw.rectangle((8, row, size[0] - 8 - (row * 7) % 40, row + 5), fill=(20, 20, 30))
        draw.rectangle((size[0] // 2, 4, size[0] // 2 + 20, 30), fill=(200, 30, 30))
        pages[name] = image
    return pages


def save_tensor(directory: Path, name: str, array: np.ndarray, dtype: str = "float32") -> dict:
    file = f"{name}.{'f32' if dtype == 'float32' else 'i64'}"
    (directory / file).write_bytes(np.ascontiguousarray(array, dtype="<f4" if dtype == "float32" else "<i8").tobytes())
    return {"file": file, "dtype": dtype, "shape": list(array.shape)}


def round_weights_to_half(model: DeepseekOCRForCausalLM) -> None:
    """The reference then computes with exactly the weights an fp16 package stores."""
    with torch.no_grad():
        for param in model.parameters():
            param.copy_(param.half().float())


def write_parity(model: DeepseekOCRForCausalLM, tokenizer: dict, out: Path, half: bool = False) -> None:
    parity = out / "parity"
    parity.mkdir(exist_ok=True)
    vocab = tokenizer["model"]["vocab"]
    image_id, eos, bos = vocab["<image>"], model.config.decoder.eos_token_id, model.config.decoder.bos_token_id
    exempt = {vocab[t] for t in TINY_DECODING.exempt_tokens}
    before, after = PLAIN_PROMPT.split("<image>")
    cases = []
    for name, image in page_images().items():
        image.save(parity / f"{name}.png", optimize=False)
        visual = encode_page(model, image, TINY_GUNDAM, half_io=half)
        ids = prompt_ids(bos, encode(tokenizer, before), image_id, image_token_run(model, visual.views, TINY_GUNDAM),
                         encode(tokenizer, after))
        embeds = embed_prompt(model, ids, image_id, visual.sequence, half_io=half)
        first_logits, hidden = forward_logits(model, embeds)
        result = greedy(model, embeds, eos, MAX_NEW_TOKENS, TINY_DECODING.ngram_size, TINY_DECODING.window, exempt,
                        half_io=half)
        if result.smallest_margin < 1e-3:
            raise RuntimeError(f"tiny model, page {name}: greedy margin {result.smallest_margin:.2e} is too small "
                               "for a stable parity fixture; change SEED")
        # an fp16 fixture leaves out the views: they are the fp32 fixture's, bit for bit
        tensors = {} if half else {
            "pixels_global": save_tensor(parity, f"{name}.pixels_global", visual.views.global_view[None])}
        tensors |= {
            "features_global": save_tensor(parity, f"{name}.features_global", as_array(visual.global_features)),
            "visual_sequence": save_tensor(parity, f"{name}.visual_sequence", as_array(visual.sequence)),
            "first_logits": save_tensor(parity, f"{name}.first_logits", as_array(first_logits)),
            "prompt_hidden": save_tensor(parity, f"{name}.prompt_hidden", as_array(hidden[0])),
        }
        if visual.views.tiles is not None:
            if not half:
                tensors["pixels_tiles"] = save_tensor(parity, f"{name}.pixels_tiles", visual.views.tiles)
            tensors["features_tiles"] = save_tensor(parity, f"{name}.features_tiles", as_array(visual.tile_features))
        tensors.update(mtp_case(model, parity, name, ids, result.tokens[0], hidden, half))
        cases.append({"name": name, "image": f"{name}.png", "mode": TINY_GUNDAM.name, "grid": list(visual.views.grid),
                      "prompt_ids": ids, "greedy_tokens": result.tokens,
                      "greedy_smallest_margin": round(result.smallest_margin, 6),
                      **({"greedy_margins": [round(m, 6) for m in result.margins]} if half else {}),
                      "tensors": tensors})
    summary = {
        "about": "Reference outputs of the tiny model (tools/model/folio_model/build_tiny.py) for the runtime's parity tests. "
                 "Tensors are raw little-endian arrays; shapes below.",
        **({"fp16": "weights rounded to fp16; pixels, vision outputs and embeddings rounded to fp16 at the graph "
                    "boundaries; fp32 arithmetic; greedy steps are full forwards, so the package's fp16 KV rows "
                    "are not modelled: greedy_margins gives each step's top-1 minus top-2 logit"} if half else {}),
        "image_token_id": image_id, "eos": eos, "max_new_tokens": MAX_NEW_TOKENS,
        "no_repeat_ngram": {"size": TINY_DECODING.ngram_size, "window": TINY_DECODING.window,
                            "exempt": sorted(exempt), "over": "generated tokens only"},
        "mtp": "inputs_embeds = embeddings of prompt ids shifted left by one plus the first greedy token; "
               "previous_hidden = the prompt's post-norm hidden states; positions 0..n-1; no past",
        "cases": cases,
    }
    (parity / "parity.json").write_text(json.dumps(summary, indent=1) + "\n")


def mtp_case(model: DeepseekOCRForCausalLM, parity: Path, name: str, ids: list[int], first: int,
             hidden: torch.Tensor, half: bool = False) -> dict:
    with torch.no_grad():
        shifted = torch.tensor([ids[1:] + [first]])
        embeds = model.model.embed_tokens(shifted)
        if half:
            embeds, hidden = through_half(embeds), through_half(hidden)
        positions = torch.arange(len(ids))[None]
        mtp_hidden, _ = model.mtp_module.heads[0](embeds, hidden, positions, model.model.norm, None)
        logits = model.lm_head(mtp_hidden[0, -1]).float()
    return {
        "mtp_inputs_embeds": save_tensor(parity, f"{name}.mtp_inputs_embeds", as_array(embeds)),
        "mtp_last_logits": save_tensor(parity, f"{name}.mtp_last_logits", as_array(logits)),
        "mtp_hidden": save_tensor(parity, f"{name}.mtp_hidden", as_array(mtp_hidden[0])),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dtype", choices=("fp32", "fp16"), default="fp32")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--checkpoint-only", type=Path, metavar="DIR",
                        help="write only the tiny checkpoint folder into DIR (for `folio export-model`), no package or parity")
    parser.add_argument("--decoder-width", type=int, default=64,
                        help="with --checkpoint-only: the decoder's hidden size (ONNX Runtime 1.30's WebGPU 8-bit QMoE "
                             "computes wrong rows when the experts' input is 64 wide: its tests use 256)")
    args = parser.parse_args(argv)
    if args.checkpoint_only:
        args.checkpoint_only.mkdir(parents=True, exist_ok=True)
        write_checkpoint(args.checkpoint_only, args.decoder_width)
        print(f"build_tiny: wrote {args.checkpoint_only}")
        return 0
    half = args.dtype == "fp16"
    out = args.out or DEFAULT_OUT[args.dtype]
    torch.manual_seed(SEED)
    with tempfile.TemporaryDirectory() as scratch:
        checkpoint = Path(scratch)
        write_checkpoint(checkpoint)
        model = load_model(checkpoint)
        options = PackageOptions(half=half, modes=(TINY_GUNDAM,), decoding=TINY_DECODING, licence="mit",
                                 name="folio-tiny-fp16" if half else "folio-tiny",
                                 # the fp32 package is what the CPU packs pages with; fp16 keeps its rows-only decoder
                                 capacity_decoder=not half)
        write_package(model, checkpoint, out, options)
        tokenizer = json.loads((checkpoint / "tokenizer.json").read_text())
    if half:
        round_weights_to_half(model)
    write_parity(model, tokenizer, out, half)
    print(f"build_tiny: wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
