// The WebGPU path on the tiny packages (on CI: Mesa's lavapipe, a Vulkan driver on the CPU): greedy
// and FastMTP K = 1..4 commit the CPU provider's tokens; the decoder's and the MTP head's caches stay
// on the device between passes and only ids (and the bans, positions, lengths) cross to the host;
// and the residency check catches a cache that makes a host round trip (planted with a test-only
// option), so it can fail.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../electron/engine/raster/page-raster.js';
import { rgbFromRgba, type RgbImage } from '../electron/engine/raster/rgb-image.js';
import { prefill, type DecodeLimits } from '../electron/engine/vlm/decoding.js';
import * as ort from 'onnxruntime-node';
import { tokenChoiceGraph } from '../electron/engine/vlm/device-graphs.js';
import { DeviceKvCache, DeviceMtpCache } from '../electron/engine/vlm/device-kv-cache.js';
import { decodeGreedy } from '../electron/engine/vlm/greedy.js';
import { openModelPackage, type ModelPackage } from '../electron/engine/vlm/model-package.js';
import { ModelRunner, type DecoderCache, type MtpCache } from '../electron/engine/vlm/model-runner.js';
import { pageInput, resolutionMode, type PageInput } from '../electron/engine/vlm/page-input.js';
import { loadTokenizer } from '../electron/engine/vlm/prompt.js';
import { decodeSpeculative, MtpDrafter } from '../electron/engine/vlm/speculative.js';
import type { NoRepeatRule } from '../electron/engine/vlm/token-choice.js';
import { needs, WEBGPU } from './environment.js';
import { webgpuTestProblem } from './webgpu-on-lavapipe.js';

const problem = await webgpuTestProblem();

const fixtures = path.resolve(import.meta.dirname, '../tools/model/fixtures');
const parity = JSON.parse(readFileSync(path.join(fixtures, 'tiny/parity/parity.json'), 'utf8')) as {
  eos: number; no_repeat_ngram: { size: number; window: number; exempt: number[] }; cases: { name: string; image: string; greedy_tokens: number[] }[];
};
const MAX_NEW_TOKENS = 32;
const KS = [1, 2, 3, 4];
// a bigram rule bans often, so bans land inside verify passes and on the device's choice
const TIGHT_RULE = { size: 2, window: 16, exempt: parity.no_repeat_ngram.exempt };

/** Tensors whose names say they are caches, hidden rows or logits: none of them may cross after the prefill. */
const DEVICE_ONLY = /^(past_|present_|new[._]|kept\.|logits|hidden_states|previous_hidden|attention_bias|inputs_embeds|a$|b$)/;

function syntheticPage(seed: number): RgbImage {
  let state = seed * 7919 + 17;
  const random = (): number => ((state = (state * 48271) % 2147483647) / 2147483647);
  const width = 60 + Math.floor(random() * 200);
  const height = 60 + Math.floor(random() * 200);
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  for (let i = 0; i < 12; i++) {
    const shade = Math.floor(random() * 200);
    context.fillStyle = `rgb(${shade},${Math.floor(random() * 255)},${255 - shade})`;
    context.fillRect(random() * width, random() * height, 5 + random() * width * 0.6, 2 + random() * 12);
  }
  return rgbFromRgba(width, height, context.getImageData(0, 0, width, height).data);
}

interface Opened {
  pkg: ModelPackage;
  runner: ModelRunner;
}

async function open(dir: string, device: 'cpu' | 'webgpu', cacheOutputsOnHost = false): Promise<Opened> {
  const pkg = await openModelPackage(dir, { threads: 1, device: { kind: device }, cacheOutputsOnHost });
  return { pkg, runner: new ModelRunner(pkg) };
}

function input(opened: Opened, image: RgbImage): Promise<PageInput> {
  return pageInput(opened.runner, opened.pkg.manifest, loadTokenizer(opened.pkg.tokenizerJson), image, resolutionMode(opened.pkg.manifest, 'gundam'));
}

const limits = (rule: NoRepeatRule = parity.no_repeat_ngram): DecodeLimits => ({ eos: parity.eos, maxNewTokens: MAX_NEW_TOKENS, rule });

/** Where the caches' tensors live and which device-only tensors crossed, seen after every decoder pass. */
interface Residency {
  locations: Set<string>;
  crossed: Set<string>;
}

/** Runs `decode` with the runner's passes watched: every cache's tensors' locations, and the names of host tensors that crossed. */
async function watched<T>(runner: ModelRunner, decode: () => Promise<T>): Promise<{ result: T; residency: Residency }> {
  const residency: Residency = { locations: new Set(), crossed: new Set() };
  const original = { decode: runner.decode.bind(runner), mtp: runner.mtp.bind(runner) };
  const look = (cache: DecoderCache | MtpCache): void => {
    if (!(cache instanceof DeviceKvCache) && !(cache instanceof DeviceMtpCache)) throw new Error('the runner made a host cache on WebGPU');
    for (const tensor of cache.tensors) residency.locations.add(tensor.location);
  };
  runner.decode = async (cache, embeds, numLogits) => {
    const out = await original.decode(cache, embeds, numLogits);
    look(cache);
    return out;
  };
  runner.mtp = async (cache, embeds, hidden) => {
    const out = await original.mtp(cache, embeds, hidden);
    look(cache);
    return out;
  };
  runner.resetTraffic();
  try {
    const result = await decode();
    for (const name of runner.traffic.byName.keys()) if (DEVICE_ONLY.test(name)) residency.crossed.add(name);
    return { result, residency };
  } finally {
    runner.decode = original.decode;
    runner.mtp = original.mtp;
  }
}

describe('the WebGPU provider on the tiny packages', needs(WEBGPU, problem), () => {
  let cpu: Opened;
  let gpu: Opened;
  let gpuHalf: Opened;
  let cpuHalf: Opened;
  beforeAll(async () => {
    // one at a time: WebGPU sessions are created on one device
    cpu = await open(path.join(fixtures, 'tiny'), 'cpu');
    gpu = await open(path.join(fixtures, 'tiny'), 'webgpu');
    cpuHalf = await open(path.join(fixtures, 'tiny-fp16'), 'cpu');
    gpuHalf = await open(path.join(fixtures, 'tiny-fp16'), 'webgpu');
  });
  afterAll(async () => {
    await Promise.all([cpu, gpu, cpuHalf, gpuHalf].map((opened) => opened?.pkg.release()));
  });

  const pages = (): { name: string; image: () => Promise<RgbImage>; rule: DecodeLimits['rule'] }[] => [
    ...parity.cases.map((fixture) => ({ name: fixture.name, image: () => decodeImage(readFileSync(path.join(fixtures, 'tiny/parity', fixture.image))), rule: parity.no_repeat_ngram })),
    ...[0, 1].map((seed) => ({ name: `generated ${seed}`, image: async () => syntheticPage(seed), rule: seed % 2 ? parity.no_repeat_ngram : TIGHT_RULE })),
  ];

  it('runs every per-step graph on WebGPU and the prompt lookup on the host', () => {
    expect(gpu.pkg.provider).toMatchObject({ provider: 'webgpu', device: 'webgpu' });
    for (const graph of ['decoder', 'mtp', 'embedding_device', 'cache_append', 'mtp_cache_prepare', 'rows', 'token_choice.float32']) {
      expect(gpu.pkg.sessions.has(graph), graph).toBe(true);
      expect(gpu.pkg.onDevice(graph), graph).toBe(true);
    }
    expect(gpu.pkg.onDevice('embedding')).toBe(false);
  });

  for (const [precision, pick] of [['fp32', () => [cpu, gpu]], ['fp16', () => [cpuHalf, gpuHalf]]] as const) {
    // lavapipe on two busy cores: 86 s each (CI=true npx vitest run --testTimeout=400000 test/vlm-webgpu.test.ts)
    it(`commits the CPU provider's greedy tokens with greedy and FastMTP K = 1..4, caches resident (${precision})`, { timeout: 300_000 }, async () => {
      const [host, device] = pick() as [Opened, Opened];
      for (const page of pages()) {
        const image = await page.image();
        const hostInput = await input(host, image);
        const expected = (await decodeGreedy(host.runner, await prefill(host.runner, hostInput.embeds, 64), limits(page.rule))).tokens;
        expect(expected.length, page.name).toBeGreaterThan(4);
        const deviceInput = await input(device, image);
        const start = await prefill(device.runner, deviceInput.embeds, 64);
        const greedy = await watched(device.runner, () => decodeGreedy(device.runner, start, limits(page.rule)));
        expect(greedy.result.tokens, `${page.name}, greedy`).toEqual(expected);
        expect(greedy.residency.locations, `${page.name}, greedy`).toEqual(new Set(['gpu-buffer']));
        expect([...greedy.residency.crossed], `${page.name}, greedy`).toEqual([]);
        for (const k of KS) {
          const from = await prefill(device.runner, deviceInput.embeds, 64);
          const run = await watched(device.runner, () => decodeSpeculative(device.runner, from, null, k, limits(page.rule), deviceInput.ids));
          expect(run.result.tokens, `${page.name}, K=${k}`).toEqual(expected);
          expect(run.residency.locations, `${page.name}, K=${k}`).toEqual(new Set(['gpu-buffer']));
          expect([...run.residency.crossed], `${page.name}, K=${k}`).toEqual([]);
        }
      }
      // five decodings of each page on lavapipe: minutes on a busy 2-core machine
    }, 600_000);
  }

  it('sends only ids, positions, lengths and bans per step: a few dozen bytes, not caches or logits', async () => {
    const page = await input(gpu, syntheticPage(5));
    const start = await prefill(gpu.runner, page.embeds, 64);
    const { result } = await watched(gpu.runner, () => decodeGreedy(gpu.runner, start, limits()));
    const { uploaded, downloaded } = gpu.runner.traffic;
    const passes = result.steps - 1;
    // per pass: the token id, its position, num_logits, the cache length, a one-row ban up; the chosen id down
    expect(downloaded / result.tokens.length).toBe(8);
    expect(uploaded / passes).toBeLessThanOrEqual(64);
  });

  it('keeps the caches resident across rollbacks when drafts agree up to a wrong one', async () => {
    const image = syntheticPage(3);
    const expected = (await decodeGreedy(cpu.runner, await prefill(cpu.runner, (await input(cpu, image)).embeds, 64), limits())).tokens;
    const page = await input(gpu, image);
    for (let wrong = 0; wrong <= 4; wrong++) {
      const start = await prefill(gpu.runner, page.embeds, 64);
      const mtp = await MtpDrafter.start(gpu.runner, parity.no_repeat_ngram, page.ids, start.out.hidden, expected[0] ?? -1);
      const drafter = {
        draft: async (k: number, generated: readonly number[]) => {
          await mtp.draft(k, generated);
          return Array.from({ length: k }, (_, i) => (i === wrong ? ((expected[generated.length + i] ?? 0) + 1) % gpu.runner.vocab : (expected[generated.length + i] ?? 0)));
        },
        commit: mtp.commit.bind(mtp),
      };
      const run = await watched(gpu.runner, () => decodeSpeculative(gpu.runner, start, drafter, 4, limits(), page.ids));
      mtp.release();
      expect(run.result.tokens, `wrong draft at ${wrong}`).toEqual(expected);
      expect(run.result.accepted.slice(0, wrong).every((count) => count > 0), `accepted before ${wrong}`).toBe(true);
      expect(run.residency.locations).toEqual(new Set(['gpu-buffer']));
      expect([...run.residency.crossed]).toEqual([]);
    }
  });

  it('chooses on the device as on the host: per-row bans, always-banned ids, the first of equal scores', async () => {
    const session = await ort.InferenceSession.create(tokenChoiceGraph('float32', 6, new Set([4])), { executionProviders: ['webgpu'], logSeverityLevel: 3 });
    try {
      const logits = new ort.Tensor('float32', Float32Array.from([1, 7, 7, 0, 9, 2, 5, 3, 3, 8, 9, 8]), [1, 2, 6]);
      const banned = new ort.Tensor('int32', Int32Array.from([-1, -1, 3, 0]), [2, 2]);
      const out = await session.run({ logits, banned });
      // row 0: 4 is always banned, 1 and 2 tie; row 1: 4 is banned, 3 and 0 too
      expect(Array.from(out.tokens?.data as BigInt64Array, Number)).toEqual([1, 5]);
    } finally {
      await session.release();
    }
  });

  it('catches a planted host round trip of the caches', async () => {
    const leaky = await open(path.join(fixtures, 'tiny'), 'webgpu', true);
    try {
      const page = await input(leaky, syntheticPage(2));
      const start = await prefill(leaky.runner, page.embeds, 64);
      const run = await watched(leaky.runner, () => decodeSpeculative(leaky.runner, start, null, 2, limits(), page.ids));
      // the tokens are still right; the residency check is what fails
      expect(run.residency.locations.has('cpu')).toBe(true);
      expect([...run.residency.crossed]).toEqual(expect.arrayContaining(['present_key.0', 'new.past_key.0', 'present_key', 'new_key']));
    } finally {
      await leaky.pkg.release();
    }
  });
});
