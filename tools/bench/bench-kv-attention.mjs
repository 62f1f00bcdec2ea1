// One attention layer at jina-ocr-v1's width (10 heads of 128), one new row per step, on the CPU
// with one thread: today's Concat + MultiHeadAttention against GroupQueryAttention over a
// fixed-capacity cache whose present outputs are preallocated on the past inputs' buffers, and
// against the MTP head's capacity layout (MatMul over the cache in place, a bias for empty slots).
// Checks that all agree and whether the shared buffer got the new row in place; prints CPU ms a run.
// Measured figures: docs/benchmarks.md, "The decoder's cache at capacity".
// Usage: python3 tools/bench/kv-attention-graphs.py /tmp/kvbench && node tools/bench/bench-kv-attention.mjs /tmp/kvbench
import * as ort from 'onnxruntime-node';
import { join } from 'node:path';

const HEADS = 10, DIM = 128, HIDDEN = HEADS * DIM, CAPACITY = 4480, STEPS = 40;
const dir = process.argv[2] ?? '/tmp/kvbench';
const options = { intraOpNumThreads: 1, interOpNumThreads: 1, extra: { session: { intra_op: { allow_spinning: '0' } } } };

function random(n, seed) {
  const a = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) { s = (s * 1664525 + 1013904223) >>> 0; a[i] = s / 2 ** 32 - 0.5; }
  return a;
}
const t = (data, dims) => new ort.Tensor('float32', data, dims);

function cpuMsPerStep(run) {
  const times = [];
  return (async () => {
    for (let i = 0; i < 5; i++) await run();
    for (let i = 0; i < STEPS; i++) {
      const before = process.cpuUsage();
      await run();
      const used = process.cpuUsage(before);
      times.push((used.user + used.system) / 1000);
    }
    times.sort((a, b) => a - b);
    return times[times.length >> 1];
  })();
}

const mha = await ort.InferenceSession.create(join(dir, 'concat-mha.onnx'), options);
const gqa = await ort.InferenceSession.create(join(dir, 'shared-gqa.onnx'), options);
const cap = await ort.InferenceSession.create(join(dir, 'capacity-matmul.onnx'), options);
const blocks = (n) => Math.max(1, Math.ceil(n / 64)) * 64;
const query = random(HIDDEN, 1), key = random(HIDDEN, 2), value = random(HIDDEN, 3);
const rows = [];
for (const past of [64, 900, 4400]) {
  // The same past in both layouts: [past, heads, dim] today, [heads, capacity, dim] in the capacity cache.
  const pastKey = random(past * HIDDEN, 4 + past), pastValue = random(past * HIDDEN, 5 + past);
  const mhaFeeds = {
    query: t(query, [1, 1, HIDDEN]), key: t(key, [1, 1, HIDDEN]), value: t(value, [1, 1, HIDDEN]),
    past_key: t(pastKey, [1, past, HEADS, DIM]), past_value: t(pastValue, [1, past, HEADS, DIM]),
    bias: t(new Float32Array(past + 1), [1, 1, 1, past + 1]),
  };
  const gqaRun = async (capacity) => {
    // [heads, capacity, dim], the past in the first `past` slots.
    const capKey = new Float32Array(HEADS * capacity * DIM), capValue = new Float32Array(HEADS * capacity * DIM);
    for (let r = 0; r < past; r++) for (let h = 0; h < HEADS; h++) {
      capKey.set(pastKey.subarray((r * HEADS + h) * DIM, (r * HEADS + h + 1) * DIM), (h * capacity + r) * DIM);
      capValue.set(pastValue.subarray((r * HEADS + h) * DIM, (r * HEADS + h + 1) * DIM), (h * capacity + r) * DIM);
    }
    const capK = t(capKey, [1, HEADS, capacity, DIM]), capV = t(capValue, [1, HEADS, capacity, DIM]);
    const feeds = {
      query: t(query, [1, 1, HIDDEN]), key: t(key, [1, 1, HIDDEN]), value: t(value, [1, 1, HIDDEN]),
      past_key: capK, past_value: capV,
      seqlens_k: new ort.Tensor('int32', Int32Array.of(past), [1]),
      total_sequence_length: new ort.Tensor('int32', Int32Array.of(past + 1), []),
    };
    const shared = { output: null, present_key: capK, present_value: capV };
    const result = await gqa.run(feeds, shared);
    let rowWritten = true;
    for (let h = 0; h < HEADS; h++) for (let d = 0; d < DIM; d++) {
      if (capKey[(h * capacity + past) * DIM + d] !== key[h * DIM + d]) rowWritten = false;
      if (capValue[(h * capacity + past) * DIM + d] !== value[h * DIM + d]) rowWritten = false;
    }
    return { result, rowWritten, sameBuffer: result.present_key.data.buffer === capKey.buffer,
      ms: await cpuMsPerStep(() => gqa.run(feeds, shared)),
      // Present left to ONNX Runtime: it allocates a capacity-sized present and copies the past into it.
      unsharedMs: await cpuMsPerStep(() => gqa.run(feeds)) };
  };
  // The MTP head's layout: keys [heads, dim, capacity], values [heads, capacity, dim], bias hiding empty slots.
  const capacity = blocks(past);
  const tKey = new Float32Array(HEADS * DIM * capacity), tValue = new Float32Array(HEADS * capacity * DIM);
  for (let r = 0; r < past; r++) for (let h = 0; h < HEADS; h++) for (let d = 0; d < DIM; d++) {
    tKey[(h * DIM + d) * capacity + r] = pastKey[(r * HEADS + h) * DIM + d];
    tValue[(h * capacity + r) * DIM + d] = pastValue[(r * HEADS + h) * DIM + d];
  }
  const bias = new Float32Array(capacity + 1).fill(-3.4e38);
  bias.fill(0, 0, past); bias[capacity] = 0;
  const capFeeds = {
    query: t(query, [1, 1, HIDDEN]), key: t(key, [1, 1, HIDDEN]), value: t(value, [1, 1, HIDDEN]),
    past_key: t(tKey, [1, HEADS, DIM, capacity]), past_value: t(tValue, [1, HEADS, capacity, DIM]),
    attention_bias: t(bias, [1, 1, 1, capacity + 1]),
  };

  const a = await mha.run(mhaFeeds);
  const fixed = await gqaRun(CAPACITY);
  const grown = await gqaRun(blocks(past + 1));
  const c = await cap.run(capFeeds);
  const diff = (x) => { let m = 0; for (let i = 0; i < HIDDEN; i++) m = Math.max(m, Math.abs(a.output.data[i] - x.output.data[i])); return m; };
  rows.push({
    past,
    concatMhaMs: await cpuMsPerStep(() => mha.run(mhaFeeds)),
    capacityMatmulMs: await cpuMsPerStep(() => cap.run(capFeeds)),
    gqaShared4480Ms: fixed.ms, gqaSharedBlockMs: grown.ms, gqaUnshared4480Ms: fixed.unsharedMs,
    diffGqa: diff(fixed.result), diffCapacity: diff(c),
    rowWrittenInPlace: fixed.rowWritten && grown.rowWritten, returnedSameBuffer: fixed.sameBuffer,
  });
}
console.table(rows);
