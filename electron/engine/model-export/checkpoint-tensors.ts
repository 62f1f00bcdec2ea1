/**
 * The tensors a checkpoint for a given config stores, by name and shape (what the PyTorch reference,
 * tools/model/folio_model/model.py, loads strictly), and the check that a checkpoint holds exactly
 * those: every tensor the config calls for, with its shape, and none Folio does not know.
 */

import { headDim, projectorInputDim, type DecoderConfig, type ModelConfig } from './checkpoint-config.js';
import type { CheckpointReader } from './checkpoint-reader.js';

/** Derived, not learned: the reference registers it as a buffer, and checkpoints may or may not store it. */
export const DERIVED_TENSORS = new Set(['model.vision_model.embeddings.position_ids']);

export const MTP_PREFIX = 'mtp_module.';

/** The checkpoint's tensors are not the ones its config describes. */
export class CheckpointMismatch extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CheckpointMismatch';
  }
}

type Shapes = Map<string, number[]>;

function decoderLayer(shapes: Shapes, prefix: string, d: DecoderConfig, dense: boolean): void {
  const hidden = d.hidden_size;
  const width = d.num_attention_heads * headDim(d);
  const kv = d.num_key_value_heads * headDim(d);
  shapes.set(`${prefix}.input_layernorm.weight`, [hidden]);
  shapes.set(`${prefix}.self_attn.q_proj.weight`, [width, hidden]);
  shapes.set(`${prefix}.self_attn.k_proj.weight`, [kv, hidden]);
  shapes.set(`${prefix}.self_attn.v_proj.weight`, [kv, hidden]);
  shapes.set(`${prefix}.self_attn.o_proj.weight`, [hidden, width]);
  shapes.set(`${prefix}.post_attention_layernorm.weight`, [hidden]);
  const mlp = (name: string, inner: number) => {
    shapes.set(`${name}.gate_proj.weight`, [inner, hidden]);
    shapes.set(`${name}.up_proj.weight`, [inner, hidden]);
    shapes.set(`${name}.down_proj.weight`, [hidden, inner]);
  };
  if (dense) {
    mlp(`${prefix}.mlp`, d.intermediate_size);
    return;
  }
  shapes.set(`${prefix}.mlp.gate.weight`, [d.n_routed_experts, hidden]);
  for (let e = 0; e < d.n_routed_experts; e++) mlp(`${prefix}.mlp.experts.${e}`, d.moe_intermediate_size);
  mlp(`${prefix}.mlp.shared_experts`, d.moe_intermediate_size * d.n_shared_experts);
}

function linear(shapes: Shapes, name: string, out: number, input: number, bias = true): void {
  shapes.set(`${name}.weight`, [out, input]);
  if (bias) shapes.set(`${name}.bias`, [out]);
}

function norm(shapes: Shapes, name: string, width: number): void {
  shapes.set(`${name}.weight`, [width]);
  shapes.set(`${name}.bias`, [width]);
}

function deepEncoder(shapes: Shapes, config: ModelConfig): void {
  const { sam, clip } = config;
  const grid = Math.floor(sam.img_size / sam.patch_size);
  const c = sam.embed_dim;
  const s = 'model.sam_model';
  shapes.set(`${s}.pos_embed`, [1, grid, grid, c]);
  shapes.set(`${s}.patch_embed.proj.weight`, [c, 3, sam.patch_size, sam.patch_size]);
  shapes.set(`${s}.patch_embed.proj.bias`, [c]);
  const samHeadDim = Math.floor(c / sam.num_heads);
  for (let i = 0; i < sam.depth; i++) {
    const b = `${s}.blocks.${i}`;
    const side = sam.global_attn_indexes.includes(i) ? grid : sam.window_size;
    norm(shapes, `${b}.norm1`, c);
    shapes.set(`${b}.attn.rel_pos_h`, [2 * side - 1, samHeadDim]);
    shapes.set(`${b}.attn.rel_pos_w`, [2 * side - 1, samHeadDim]);
    linear(shapes, `${b}.attn.qkv`, 3 * c, c);
    linear(shapes, `${b}.attn.proj`, c, c);
    norm(shapes, `${b}.norm2`, c);
    const inner = Math.floor(c * sam.mlp_ratio);
    linear(shapes, `${b}.mlp.lin1`, inner, c);
    linear(shapes, `${b}.mlp.lin2`, c, inner);
  }
  shapes.set(`${s}.neck.0.weight`, [sam.out_chans, c, 1, 1]);
  norm(shapes, `${s}.neck.1`, sam.out_chans);
  shapes.set(`${s}.neck.2.weight`, [sam.out_chans, sam.out_chans, 3, 3]);
  norm(shapes, `${s}.neck.3`, sam.out_chans);
  shapes.set(`${s}.net_2.weight`, [sam.net_2_chans, sam.out_chans, 3, 3]);
  shapes.set(`${s}.net_3.weight`, [sam.net_3_chans, sam.net_2_chans, 3, 3]);
  const v = 'model.vision_model';
  const w = clip.hidden_size;
  shapes.set(`${v}.embeddings.class_embedding`, [w]);
  shapes.set(`${v}.embeddings.patch_embedding.weight`, [w, 3, clip.patch_size, clip.patch_size]);
  shapes.set(`${v}.embeddings.position_embedding.weight`, [Math.floor(clip.image_size / clip.patch_size) ** 2 + 1, w]);
  for (let i = 0; i < clip.num_layers; i++) {
    const l = `${v}.transformer.layers.${i}`;
    linear(shapes, `${l}.self_attn.qkv_proj`, 3 * w, w);
    linear(shapes, `${l}.self_attn.out_proj`, w, w);
    linear(shapes, `${l}.mlp.fc1`, clip.ffn_hidden_size, w);
    linear(shapes, `${l}.mlp.fc2`, w, clip.ffn_hidden_size);
    norm(shapes, `${l}.layer_norm1`, w);
    norm(shapes, `${l}.layer_norm2`, w);
  }
  norm(shapes, `${v}.pre_layrnorm`, w);
  linear(shapes, 'model.projector.layers', config.decoder.hidden_size, projectorInputDim(config));
  shapes.set('model.image_newline', [config.decoder.hidden_size]);
  shapes.set('model.view_seperator', [config.decoder.hidden_size]);
}

/** Name -> shape of every tensor a checkpoint for `config` stores. */
export function expectedTensors(config: ModelConfig): Shapes {
  const d = config.decoder;
  const shapes: Shapes = new Map();
  shapes.set('model.embed_tokens.weight', [d.vocab_size, d.hidden_size]);
  for (let i = 0; i < d.num_hidden_layers; i++) decoderLayer(shapes, `model.layers.${i}`, d, i < d.first_k_dense_replace);
  shapes.set('model.norm.weight', [d.hidden_size]);
  deepEncoder(shapes, config);
  shapes.set('lm_head.weight', [d.vocab_size, d.hidden_size]);
  for (let h = 0; h < config.num_mtp_heads; h++) {
    const p = `${MTP_PREFIX}heads.${h}`;
    shapes.set(`${p}.enorm.weight`, [d.hidden_size]);
    shapes.set(`${p}.hnorm.weight`, [d.hidden_size]);
    shapes.set(`${p}.eh_proj.weight`, [d.hidden_size, 2 * d.hidden_size]);
    decoderLayer(shapes, `${p}.mtp_block`, d, true);
  }
  return shapes;
}

const HEAD_INDEX = /^mtp_module\.heads\.(\d+)\./;

/** How many FastMTP heads the checkpoint's tensor names hold. */
export function draftHeads(names: readonly string[]): number {
  const indexes = names.map((n) => HEAD_INDEX.exec(n)?.[1]).filter((i): i is string => i !== undefined).map(Number);
  return indexes.length ? Math.max(...indexes) + 1 : 0;
}

function listing(names: readonly string[], limit = 8): string {
  const shown = names.slice(0, limit).join(', ');
  return names.length > limit ? `${shown} and ${names.length - limit} more` : shown;
}

const sorted = (names: Iterable<string>) => [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** The config with its draft-head count taken from the tensors; every name accounted for, or a CheckpointMismatch naming them. */
export function checkTensors(reader: CheckpointReader, config: ModelConfig, withoutDraftHead: boolean): ModelConfig {
  let present = reader.names();
  if (withoutDraftHead) {
    present = present.filter((n) => !n.startsWith(MTP_PREFIX));
    config = { ...config, num_mtp_heads: 0 };
  } else {
    const heads = draftHeads(present);
    if (config.num_mtp_heads && heads !== config.num_mtp_heads) {
      throw new CheckpointMismatch(`${reader.directory}: config.json names ${config.num_mtp_heads} MTP head(s) but the checkpoint holds ${heads}`);
    }
    config = { ...config, num_mtp_heads: heads };
  }
  const expected = expectedTensors(config);
  const held = new Set(present);
  const missing = sorted([...expected.keys()].filter((n) => !held.has(n)));
  const unknown = sorted(present.filter((n) => !expected.has(n) && !DERIVED_TENSORS.has(n)));
  if (missing.length) {
    throw new CheckpointMismatch(`${reader.directory}: ${missing.length} tensor(s) the config calls for are missing: ${listing(missing)}; is this a DeepSeek-OCR / jina-ocr-v1 checkpoint with its own config.json?`);
  }
  if (unknown.length) {
    const hint = unknown.some((n) => n.startsWith(MTP_PREFIX)) ? ' (they look like a draft head Folio cannot map: --without-draft-head exports the base model)' : '';
    throw new CheckpointMismatch(`${reader.directory}: ${unknown.length} tensor(s) Folio does not know: ${listing(unknown)}${hint}`);
  }
  for (const name of sorted(present)) {
    const want = expected.get(name);
    const shape = reader.shape(name);
    if (want && (want.length !== shape.length || want.some((d, i) => d !== shape[i]))) {
      throw new CheckpointMismatch(`${reader.directory}: tensor ${name} has shape [${shape.join(', ')}], the config calls for [${want.join(', ')}]`);
    }
  }
  return config;
}
