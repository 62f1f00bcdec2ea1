// The tiny model package (tools/model/folio_model/build_tiny.py) in onnxruntime-node against the PyTorch
// reference's parity fixtures: vision features, first logits, the step-by-step greedy tokens with
// the decoder's new-rows cache, and the MTP head with and without a past.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ort from 'onnxruntime-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { capacityBias, CapacityKvCache } from '../electron/engine/vlm/capacity-kv-cache.js';

const packageDir = path.resolve(import.meta.dirname, '../tools/model/fixtures/tiny');
const parityDir = path.join(packageDir, 'parity');
const TOLERANCE = 1e-4;

interface TensorFile { file: string; dtype: 'float32'; shape: number[] }
interface ParityCase {
  name: string;
  grid: [number, number];
  prompt_ids: number[];
  greedy_tokens: number[];
  tensors: Record<string, TensorFile>;
}
interface Parity {
  image_token_id: number;
  eos: number;
  max_new_tokens: number;
  no_repeat_ngram: { size: number; window: number; exempt: number[] };
  cases: ParityCase[];
}
interface GraphSpec { file: string; inputs: { name: string; shape: (number | string)[] }[] }
interface Manifest {
  files: Record<string, string>;
  graphs: Record<string, GraphSpec>;
  tokens: { special: Record<string, number> };
  architecture: { language_config: { hidden_size: number; num_hidden_layers: number; num_key_value_heads: number; num_attention_heads: number } };
}

const manifest = JSON.parse(readFileSync(path.join(packageDir, 'manifest.json'), 'utf8')) as Manifest;
const parity = JSON.parse(readFileSync(path.join(parityDir, 'parity.json'), 'utf8')) as Parity;
const decoderSizes = manifest.architecture.language_config;
const hidden = decoderSizes.hidden_size;
const layers = decoderSizes.num_hidden_layers;
const kvHeads = decoderSizes.num_key_value_heads;
const headDim = hidden / decoderSizes.num_attention_heads;

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`tiny model fixture: ${what} is missing; rebuild it with "npm run model:tiny"`);
  return value;
}

function load(page: ParityCase, key: string): ort.Tensor {
  const spec = required(page.tensors[key], `${page.name}: tensor ${key}`);
  const bytes = readFileSync(path.join(parityDir, spec.file));
  const data = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  return new ort.Tensor('float32', data, spec.shape);
}

function floats(tensor: ort.Tensor): Float32Array {
  if (!(tensor.data instanceof Float32Array)) throw new Error(`expected a float32 tensor, got ${tensor.type}`);
  return tensor.data;
}

function maxDifference(actual: Float32Array, expected: Float32Array): number {
  expect(actual.length).toBe(expected.length);
  // a missing value gives NaN, which no tolerance accepts
  return actual.reduce((worst, value, i) => Math.max(worst, Math.abs(value - (expected[i] ?? Number.NaN))), 0);
}

function dim(tensor: ort.Tensor, axis: number): number {
  return required(tensor.dims[axis], `axis ${axis} of a tensor`);
}

function output(outputs: ort.InferenceSession.OnnxValueMapType, name: string): ort.Tensor {
  return required(outputs[name], `graph output ${name}`);
}

function session(name: string): ort.InferenceSession {
  return required(sessions[name], `graph ${name}`);
}

function int64(values: number[], dims: number[]): ort.Tensor {
  return new ort.Tensor('int64', BigInt64Array.from(values, BigInt), dims);
}

function positions(from: number, count: number): ort.Tensor {
  return int64(Array.from({ length: count }, (_, i) => from + i), [1, count]);
}

function emptyCache(): ort.Tensor {
  return new ort.Tensor('float32', new Float32Array(0), [1, 0, kvHeads, headDim]);
}

/** Rows of `[1, rows, ...]` tensors joined along axis 1: how the runtime grows its cache. */
function appendRows(past: ort.Tensor, rows: ort.Tensor): ort.Tensor {
  const joined = new Float32Array(past.data.length + rows.data.length);
  joined.set(floats(past));
  joined.set(floats(rows), past.data.length);
  return new ort.Tensor('float32', joined, [1, dim(past, 1) + dim(rows, 1), ...past.dims.slice(2)]);
}

/** Tokens that would complete an n-gram already generated within the window (exempt ones allowed). */
function bannedTokens(generated: number[], size: number, window: number, exempt: number[]): Set<number> {
  const banned = new Set<number>();
  if (generated.length < size) return banned;
  const prefix = generated.slice(generated.length - size + 1).join(',');
  for (let i = Math.max(0, generated.length - window); i <= generated.length - size; i++) {
    if (generated.slice(i, i + size - 1).join(',') === prefix) banned.add(required(generated[i + size - 1], 'token'));
  }
  for (const token of exempt) banned.delete(token);
  return banned;
}

function argmax(logits: Float32Array, banned: Set<number>): number {
  let best = -1;
  let bestValue = Number.NEGATIVE_INFINITY;
  logits.forEach((value, i) => {
    if (!banned.has(i) && (best < 0 || value > bestValue)) [best, bestValue] = [i, value];
  });
  return best;
}

const sessions: Record<string, ort.InferenceSession> = {};
// every decoder layout the package has
const decoders = Object.keys(manifest.graphs).filter((name) => name.startsWith('decoder'));

beforeAll(async () => {
  for (const [name, graph] of Object.entries(manifest.graphs)) {
    sessions[name] = await ort.InferenceSession.create(path.join(packageDir, graph.file));
  }
});

async function embedPrompt(ids: number[], visual: ort.Tensor): Promise<ort.Tensor> {
  const embedded = await session('embedding').run({ input_ids: int64(ids, [1, ids.length]) });
  const embeds = Float32Array.from(floats(output(embedded, 'inputs_embeds')));
  const rows = floats(visual);
  let next = 0;
  ids.forEach((id, position) => {
    if (id !== parity.image_token_id) return;
    embeds.set(rows.subarray(next * hidden, (next + 1) * hidden), position * hidden);
    next++;
  });
  expect(next * hidden).toBe(rows.length);
  return new ort.Tensor('float32', embeds, [1, ids.length, hidden]);
}

async function decode(graph: string, embeds: ort.Tensor, from: number, cache: ort.Tensor[]): Promise<ort.InferenceSession.OnnxValueMapType> {
  const feeds: Record<string, ort.Tensor> = {
    inputs_embeds: embeds,
    position_ids: positions(from, dim(embeds, 1)),
    num_logits: int64([1], []),
  };
  // `decoder_capacity` takes each layer's rows at capacity (here exactly the rows held) with a bias
  const atCapacity = manifest.graphs[graph]?.inputs.some((input) => input.name === 'attention_bias') ?? false;
  for (let layer = 0; layer < layers; layer++) {
    const keys = required(cache[2 * layer], `cache of layer ${layer}`);
    const values = required(cache[2 * layer + 1], `cache of layer ${layer}`);
    feeds[`past_key.${layer}`] = atCapacity ? headsFirst(keys, true) : keys;
    feeds[`past_value.${layer}`] = atCapacity ? headsFirst(values, false) : values;
  }
  if (atCapacity) {
    const past = dim(required(cache[0], 'cache of layer 0'), 1);
    feeds.attention_bias = capacityBias('float32', past, past, dim(embeds, 1));
  }
  return session(graph).run(feeds);
}

/** Rows `[1, past, heads, dim]` as the capacity layout takes them: keys `[1, heads, dim, past]`, values `[1, heads, past, dim]`. */
function headsFirst(rows: ort.Tensor, key: boolean): ort.Tensor {
  const past = dim(rows, 1);
  const data = floats(rows);
  const out = new Float32Array(data.length);
  for (let row = 0; row < past; row++) {
    for (let head = 0; head < kvHeads; head++) {
      for (let d = 0; d < headDim; d++) {
        const value = data[(row * kvHeads + head) * headDim + d] as number;
        out[key ? (head * headDim + d) * past + row : (head * past + row) * headDim + d] = value;
      }
    }
  }
  return new ort.Tensor('float32', out, key ? [1, kvHeads, headDim, past] : [1, kvHeads, past, headDim]);
}

describe('tiny model package', () => {
  it('lists a sha256 for every file that matches its bytes', () => {
    expect(Object.keys(manifest.files)).toContain('tokenizer.json');
    for (const [file, digest] of Object.entries(manifest.files)) {
      expect(createHash('sha256').update(readFileSync(path.join(packageDir, file))).digest('hex'), file).toBe(digest);
    }
  });

  it('declares the inputs each graph actually takes', () => {
    for (const [name, graph] of Object.entries(manifest.graphs)) {
      expect(session(name).inputNames, name).toEqual(graph.inputs.map((input) => input.name));
    }
  });

  it('names the special tokens as its tokenizer does', () => {
    const tokenizer = JSON.parse(readFileSync(path.join(packageDir, 'tokenizer.json'), 'utf8')) as { added_tokens: { id: number; content: string }[] };
    for (const [content, id] of Object.entries(manifest.tokens.special)) {
      expect(tokenizer.added_tokens.find((token) => token.content === content)?.id, content).toBe(id);
    }
  });
});

describe.each(parity.cases)('parity with the PyTorch reference: $name page', (page) => {
  it('vision graphs reproduce the global and tile features', async () => {
    const global = await session('vision_256').run({ pixel_values: load(page, 'pixels_global') });
    expect(maxDifference(floats(output(global, 'features')), floats(load(page, 'features_global')))).toBeLessThan(TOLERANCE);
    if (page.tensors.pixels_tiles) {
      const tiles = await session('vision_128').run({ pixel_values: load(page, 'pixels_tiles') });
      expect(dim(output(tiles, 'features'), 0)).toBe(page.grid[0] * page.grid[1]);
      expect(maxDifference(floats(output(tiles, 'features')), floats(load(page, 'features_tiles')))).toBeLessThan(TOLERANCE);
    } else {
      expect(page.grid).toEqual([1, 1]);
    }
    // the visual sequence ends with the global grid's last newline, then the separator
    const sequence = floats(load(page, 'visual_sequence'));
    const end = sequence.length - hidden;
    expect(maxDifference(sequence.subarray(end), floats(output(global, 'view_seperator')))).toBeLessThan(TOLERANCE);
    expect(maxDifference(sequence.subarray(end - hidden, end), floats(output(global, 'image_newline')))).toBeLessThan(TOLERANCE);
  });

  it.each(decoders)('%s gives the first logits and hidden states from the prompt', async (graph) => {
    const embeds = await embedPrompt(page.prompt_ids, load(page, 'visual_sequence'));
    const out = await decode(graph, embeds, 0, Array.from({ length: 2 * layers }, emptyCache));
    const expected = floats(load(page, 'first_logits'));
    expect(output(out, 'logits').dims).toEqual([1, 1, expected.length]);
    expect(maxDifference(floats(output(out, 'logits')), expected)).toBeLessThan(TOLERANCE);
    expect(maxDifference(floats(output(out, 'hidden_states')), floats(load(page, 'prompt_hidden')))).toBeLessThan(TOLERANCE);
  });

  it.each(decoders)('%s gives the same last logits when the prompt arrives in two parts', async (graph) => {
    const whole = await embedPrompt(page.prompt_ids, load(page, 'visual_sequence'));
    const split = page.prompt_ids.length - 5;
    const part = (from: number, to: number): ort.Tensor =>
      new ort.Tensor('float32', floats(whole).slice(from * hidden, to * hidden), [1, to - from, hidden]);
    const first = await decode(graph, part(0, split), 0, Array.from({ length: 2 * layers }, emptyCache));
    const cache = Array.from({ length: 2 * layers }, (_, i) => output(first, `present_${i % 2 ? 'value' : 'key'}.${Math.floor(i / 2)}`));
    const rest = await decode(graph, part(split, page.prompt_ids.length), split, cache);
    expect(maxDifference(floats(output(rest, 'logits')), floats(load(page, 'first_logits')))).toBeLessThan(TOLERANCE);
    const expectedHidden = floats(load(page, 'prompt_hidden')).subarray(split * hidden);
    expect(maxDifference(floats(output(rest, 'hidden_states')), expectedHidden)).toBeLessThan(TOLERANCE);
  });

  it.each(decoders)('stepping %s with its new-rows cache gives the greedy tokens', async (graph) => {
    const rule = parity.no_repeat_ngram;
    let embeds = await embedPrompt(page.prompt_ids, load(page, 'visual_sequence'));
    let cache = Array.from({ length: 2 * layers }, emptyCache);
    let position = 0;
    const tokens: number[] = [];
    while (tokens.length < parity.max_new_tokens) {
      const out = await decode(graph, embeds, position, cache);
      position += dim(embeds, 1);
      cache = cache.map((past, i) => appendRows(past, output(out, `present_${i % 2 ? 'value' : 'key'}.${Math.floor(i / 2)}`)));
      const token = argmax(floats(output(out, 'logits')), bannedTokens(tokens, rule.size, rule.window, rule.exempt));
      tokens.push(token);
      if (token === parity.eos) break;
      embeds = output(await session('embedding').run({ input_ids: int64([token], [1, 1]) }), 'inputs_embeds');
    }
    expect(cache.map((rows) => dim(rows, 1))).toEqual(cache.map(() => page.prompt_ids.length + tokens.length - 1));
    expect(tokens).toEqual(page.greedy_tokens);
  });

  it('the MTP head reproduces its logits, with and without a past', async () => {
    const embeds = load(page, 'mtp_inputs_embeds');
    const previous = load(page, 'prompt_hidden');
    const count = dim(embeds, 1);
    const expected = floats(load(page, 'mtp_last_logits'));
    const rows = (tensor: ort.Tensor, from: number, to: number): ort.Tensor =>
      new ort.Tensor('float32', floats(tensor).slice(from * hidden, to * hidden), [1, to - from, hidden]);
    const run = (from: number, to: number, cache: CapacityKvCache) => session('mtp').run({
      inputs_embeds: rows(embeds, from, to), previous_hidden: rows(previous, from, to), position_ids: positions(from, to - from),
      num_logits: int64([1], []), ...cache.feeds(to - from),
    });
    const newCache = () => new CapacityKvCache({ heads: kvHeads, headDim, dtype: 'float32', capacity: 0 });

    const whole = await run(0, count, newCache());
    expect(maxDifference(floats(output(whole, 'logits')), expected)).toBeLessThan(TOLERANCE);
    expect(maxDifference(floats(output(whole, 'hidden_states')), floats(load(page, 'mtp_hidden')))).toBeLessThan(TOLERANCE);

    const split = count - 3;
    const cache = newCache();
    const first = await run(0, split, cache);
    // rows written and then rolled back, as rejected drafts are, stay in their slots: the bias must hide them
    cache.appendPresent(first);
    cache.appendPresent(first);
    cache.truncate(split);
    const rest = await run(split, count, cache);
    expect(output(rest, 'present_key').dims).toEqual([1, count - split, kvHeads, headDim]);
    expect(maxDifference(floats(output(rest, 'logits')), expected)).toBeLessThan(TOLERANCE);
  });
});
