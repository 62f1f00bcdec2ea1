/**
 * `npm run bench:gpu-on-paper`: an estimate, not a measurement. Pages/s and tokens/s per page row
 * of jina-ocr-v1 at its real size on an L4 and an A100 with N pages decoding in the same decoder
 * passes (`--pages-in-flight`), greedy and FastMTP K = 3, from bytes read, floating-point work,
 * node launches and PCIe traffic per pass (docs/benchmarks.md, "On paper"). Every figure it starts
 * from is a named constant below; the node counts are those of the exported packages' manifests.
 * Options: --model DIR (a package: its manifest's node counts are checked against the model's),
 * --tokens N (new tokens a page, 1000), --context N (mean context a step, 1500).
 */

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';

/** jina-ocr-v1's decoder (MODEL-NOTES.md). */
const MODEL = { hidden: 1280, layers: 12, heads: 10, headDim: 128, denseMlp: 6848, experts: 64, expertMlp: 896, topK: 6, sharedMlp: 1792, vocab: 129280 };

/** Parameters a token reads (docs/benchmarks.md "Bytes per token"). */
const ATTENTION = MODEL.layers * 4 * MODEL.hidden * MODEL.hidden;
const DENSE_MLP = 3 * MODEL.hidden * MODEL.denseMlp;
const SHARED = 3 * MODEL.hidden * MODEL.sharedMlp;
const EXPERT = 3 * MODEL.hidden * MODEL.expertMlp;
const ROUTER = MODEL.experts * MODEL.hidden;
const LM_HEAD = MODEL.vocab * MODEL.hidden;
/** The MTP head: one block (attention + dense MLP), eh_proj, and its own int4 copy of the lm_head. */
const MTP = 4 * MODEL.hidden * MODEL.hidden + DENSE_MLP + 2 * MODEL.hidden * MODEL.hidden + LM_HEAD;

/** Expected distinct experts a MoE layer reads for `tokens` rows, each routed to top 6 of 64 (4 rows: 20.9; measured on the CPU, issue 23: about 20). */
export function distinctExperts(tokens: number): number {
  return MODEL.experts * (1 - (1 - MODEL.topK / MODEL.experts) ** tokens);
}

/** Decoder parameters read by one pass of `tokens` rows, of which `logitRows` run the lm_head. */
function decoderParams(tokens: number): number {
  return ATTENTION + DENSE_MLP + (MODEL.layers - 1) * (SHARED + ROUTER + distinctExperts(tokens) * EXPERT) + LM_HEAD;
}

/** Multiply-adds a row of the decoder does (all rows of a pass run the lm_head only where logits are wanted: all here). */
const ACTIVE_PER_ROW = ATTENTION + DENSE_MLP + (MODEL.layers - 1) * (SHARED + ROUTER + MODEL.topK * EXPERT) + LM_HEAD;

/**
 * Node counts from the exported int4 packages' manifests (`nodes` per graph): the rows decoder has
 * 72 nodes at 2 layers and 382 at 12, so 10 + 31 a layer; the MTP head 47. WebGPU adds about 40 in
 * the helper graphs a step (embedding, cache append, token choice: assumed).
 */
const NODES = { decoderFixed: 10, decoderPerLayer: 31, mtp: 47, webgpuHelpers: 40 };

/** The DeepEncoder's work on a typical page: the A4 test page at 150 dpi, the 1,024 px global view and 6 tiles of 640 (903 visual tokens; 949 in the prompt). */
const PAGE = { tiles: 6, promptTokens: 949 };

/** FastMTP: 3 drafts, acceptance by position as ports of jina-ocr-v1 measured (MODEL-NOTES.md). */
const ACCEPTANCE = [0.79, 0.62, 0.51];

/** jina-ocr-v1's published throughput, vLLM, pages/s. */
const JINA_PAGES_PER_SECOND = 2.57;

interface Gpu {
  name: string;
  /** Peak memory bandwidth, bytes/s. */
  bandwidth: number;
  /** Dense fp16 tensor throughput, FLOP/s (no sparsity). */
  flops: number;
  memory: number;
  /** Host link, bytes/s (PCIe Gen4 x16). */
  pcie: number;
}

const GPUS: Gpu[] = [
  { name: 'NVIDIA L4', bandwidth: 300e9, flops: 121e12, memory: 24e9, pcie: 25e9 },
  { name: 'NVIDIA A100 80GB SXM', bandwidth: 2039e9, flops: 312e12, memory: 80e9, pcie: 25e9 },
];

/** Assumptions (docs/benchmarks.md "On paper"). */
const ASSUME = {
  /** Share of peak bandwidth the kernels reach. */
  bandwidthShare: 0.7,
  /** Share of peak tensor FLOP/s the int4/fp16 kernels reach once a pass has rows enough to be compute-bound. */
  flopShare: 0.3,
  /** GPU kernels a node, and each one's fixed cost, seconds. */
  kernelsPerNode: 1.3,
  kernelS: 3e-6,
  /** Host-side dispatch a node, seconds; it overlaps the GPU's work. */
  dispatchS: { cuda: 10e-6, webgpu: 20e-6 },
  /**
   * Fixed cost a pass beyond its nodes, seconds. CUDA: one read-back of token ids (not measured).
   * WebGPU: its graph runs (embedding, decoder or draft head, cache append, token choice), each
   * submitted and read back; measured on an H200 (docs/benchmarks.md, 2026-12-04), where 12 and 4
   * layers stepped alike at 22-25 ms: 22.3 ms less the 8.5 ms of a step's dispatch above.
   */
  passFixedS: { cuda: 0.05e-3, webgpu: 13.8e-3 },
  /** int4 weights: 4 bits and a scale per 32 values. */
  weightBytes: 0.5625,
};

/** Bytes a token of context holds in the decoder's cache: the int4 package's cache is float32 (4), an fp16 one 2. */
function cachePerToken(bytesPerValue: number): number {
  return MODEL.layers * 2 * MODEL.heads * MODEL.headDim * bytesPerValue;
}

/** `cuda-resident`: CUDA with the cache kept on the device (I/O binding, which onnxruntime-node's API lacks today). */
type Path = 'webgpu' | 'cuda' | 'cuda-resident';

/** Seconds of one pass of `rows` rows in all over `pages` pages of `context` tokens each; `params` read. */
function passSeconds(gpu: Gpu, path: Path, cacheValue: number, params: number, rows: number, pages: number, context: number, nodes: number, flopsPerRow: number): number {
  const cache = pages * context * cachePerToken(cacheValue);
  const bytes = params * ASSUME.weightBytes + cache;
  const memoryS = bytes / (gpu.bandwidth * ASSUME.bandwidthShare);
  const computeS = (2 * rows * flopsPerRow) / (gpu.flops * ASSUME.flopShare);
  const launchesS = nodes * ASSUME.kernelsPerNode * ASSUME.kernelS;
  const gpuS = Math.max(memoryS, computeS) + launchesS;
  const provider = path === 'webgpu' ? 'webgpu' : 'cuda';
  const dispatchS = nodes * ASSUME.dispatchS[provider];
  // CUDA as onnxruntime-node ships it: every pass uploads the past cache and downloads the present one, and the logits
  const pcieS = path === 'cuda' ? (2 * cache + rows * MODEL.vocab * 4) / gpu.pcie : 0;
  return Math.max(gpuS, dispatchS) + ASSUME.passFixedS[provider] + pcieS;
}

/** The vision encoder and the prefill of one page, seconds: compute-bound (FLOPs from the encoder's sizes). */
function pageStartSeconds(gpu: Gpu): number {
  const sam = 12 * (4 * 768 * 768 + 2 * 768 * 3072);
  const clip = 24 * (4 * 1024 * 1024 + 2 * 1024 * 4096);
  const view = (side: number) => {
    const patches = (side / 16) ** 2;
    const windowed = 8 * 4 * patches * 14 * 14 * 768;
    const global = 4 * 4 * patches * patches * 768;
    const clipTokens = (side / 64) ** 2 + 1;
    return 2 * sam * patches + windowed + global + 2 * clip * clipTokens;
  };
  const visionFlops = view(1024) + PAGE.tiles * view(640);
  const prefillFlops = 2 * ACTIVE_PER_ROW * PAGE.promptTokens;
  const prefillBytes = decoderParams(PAGE.promptTokens) * ASSUME.weightBytes;
  return (visionFlops + prefillFlops) / (gpu.flops * ASSUME.flopShare) + prefillBytes / (gpu.bandwidth * ASSUME.bandwidthShare);
}

interface Estimate {
  pagesPerSecond: number;
  /** Tokens/s each page's row decodes at. */
  tokensPerRow: number;
  /** The packed caches at their longest, bytes. */
  cacheBytes: number;
}

/** N pages in flight, each of `tokens` new tokens, the cache at `context` rows on average. */
export function estimate(gpu: Gpu, path: Path, cacheValue: number, draft: boolean, pages: number, tokens: number, context: number): Estimate {
  const helpers = path === 'webgpu' ? NODES.webgpuHelpers : 0;
  const decoderNodes = NODES.decoderFixed + NODES.decoderPerLayer * MODEL.layers + helpers;
  let cycleS: number;
  let tokensPerCycle: number;
  if (!draft) {
    cycleS = passSeconds(gpu, path, cacheValue, decoderParams(pages), pages, pages, context, decoderNodes, ACTIVE_PER_ROW);
    tokensPerCycle = 1;
  } else {
    const verifyRows = pages * (ACCEPTANCE.length + 1);
    const verify = passSeconds(gpu, path, cacheValue, decoderParams(verifyRows), verifyRows, pages, context, decoderNodes, ACTIVE_PER_ROW);
    // a draft pass reads the MTP head and its one-layer cache; its cache is small beside the decoder's
    const draftPass = passSeconds(gpu, path, cacheValue, MTP, pages, 0, 0, NODES.mtp, MTP);
    cycleS = verify + ACCEPTANCE.length * draftPass;
    tokensPerCycle = 1 + ACCEPTANCE.reduce((sum, _, i) => sum + ACCEPTANCE.slice(0, i + 1).reduce((product, a) => product * a, 1), 0);
  }
  const decodeS = (tokens / tokensPerCycle) * cycleS;
  const pageS = pageStartSeconds(gpu) + decodeS / pages;
  return {
    pagesPerSecond: 1 / pageS,
    tokensPerRow: tokensPerCycle / cycleS,
    cacheBytes: pages * (PAGE.promptTokens + tokens) * cachePerToken(cacheValue),
  };
}

async function checkNodes(dir: string): Promise<void> {
  const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as {
    graphs: Record<string, { nodes?: number }>;
    architecture: { language_config: { num_hidden_layers: number } };
  };
  const layers = manifest.architecture.language_config.num_hidden_layers;
  const expected = NODES.decoderFixed + NODES.decoderPerLayer * layers;
  console.log(`${dir}: ${layers} layers; decoder ${manifest.graphs.decoder?.nodes ?? '?'} nodes (the model says ${expected}), mtp ${manifest.graphs.mtp?.nodes ?? '?'} (${NODES.mtp})\n`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { model: { type: 'string' }, tokens: { type: 'string' }, context: { type: 'string' } } });
  const tokens = Number(values.tokens ?? 1000);
  const context = Number(values.context ?? 1500);
  if (values.model) await checkNodes(values.model);
  const counts = [1, 4, 8, 16, 32];
  console.log(`On paper: ${tokens} new tokens a page, ${context} rows of context a step on average, int4 weights; a page's vision and prefill ${PAGE.tiles} tiles + global view, ${PAGE.promptTokens}-token prompt.`);
  console.log(`FastMTP: K = 3 at acceptance ${ACCEPTANCE.join('/')}; jina-ocr-v1 (vLLM): ${JINA_PAGES_PER_SECOND} pages/s.\n`);
  for (const gpu of GPUS) {
    console.log(`${gpu.name}: vision + prefill ${(pageStartSeconds(gpu) * 1000).toFixed(0)} ms a page`);
    console.log(`| path | decoding | ${counts.map((n) => `N = ${n}`).join(' | ')} |`);
    console.log(`|---|---|${counts.map(() => '---').join('|')}|`);
    const paths = [
      { path: 'webgpu', cacheValue: 4, label: 'WebGPU, cache resident (float32, as exported)' },
      { path: 'webgpu', cacheValue: 2, label: 'WebGPU, cache resident in fp16' },
      { path: 'cuda', cacheValue: 4, label: 'CUDA as shipped (float32 cache over PCIe)' },
      { path: 'cuda-resident', cacheValue: 2, label: 'CUDA, fp16 cache kept on the device' },
    ] as const;
    for (const { path, cacheValue, label } of paths) {
      for (const draft of [false, true]) {
        const cells = counts.map((n) => {
          const e = estimate(gpu, path, cacheValue, draft, n, tokens, context);
          const fits = e.cacheBytes < gpu.memory * 0.8 ? '' : ' (cache over memory)';
          return `${e.pagesPerSecond.toFixed(2)} pages/s, ${e.tokensPerRow.toFixed(0)} tok/s a row${fits}`;
        });
        console.log(`| ${label} | ${draft ? 'FastMTP K = 3' : 'greedy'} | ${cells.join(' | ')} |`);
      }
    }
    console.log('');
  }
}

await main();
