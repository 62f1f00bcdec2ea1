/**
 * Opens a Folio model package: reads and validates `manifest.json`, checks every file against its
 * sha256, creates one ONNX Runtime session per graph on the chosen execution provider, and checks
 * that each graph takes the inputs the manifest declares. A package is opened once and reused.
 * Large vision graphs on the CPU are the exception: each is opened for its pass and released after
 * (see `PER_PASS_VISION_BYTES`).
 */

import { stat } from 'node:fs/promises';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import type { NamedDeviceRequest } from '../../../shared/device.js';
import { startExecutionProvider, type ExecutionProviderChoice } from '../onnx/execution-provider.js';
import { cacheAppendGraph, mtpCachePrepareGraph, mtpCacheStartGraph, rowsGraph, tokenChoiceGraph } from './device-graphs.js';
import type { DraftPrior } from './draft-length.js';
import type { CacheDtype } from './kv-cache.js';
import { bannedIds, type Manifest } from '../../core/model/manifest.js';
import { withExpertKernel } from './expert-kernel.js';
import { SessionThread } from './session-thread.js';
import { readBoundedFile } from '../../core/bounded-file.js';
import { checkFiles, ModelPackageError, readManifest, REMEDY, requiredGraphs } from '../../core/model/package-files.js';

export interface ModelPackage {
  dir: string;
  manifest: Manifest;
  provider: ExecutionProviderChoice;
  /**
   * Sessions by graph name (`embedding`, `decoder`, `mtp`, `vision_<size>`); on WebGPU also the
   * device-side lookup `embedding_device` and the helpers of device-graphs.ts (`cache_append`,
   * `mtp_cache_prepare`, `rows`, `token_choice`).
   */
  sessions: ReadonlyMap<string, ort.InferenceSession>;
  /** Runs `use` on the graph's session: a kept one, or one opened for this call and released after it. */
  withSession<T>(graph: string, use: (session: ort.InferenceSession) => Promise<T>): Promise<T>;
  /** Graphs whose session is opened for each pass instead of kept (the large vision graphs on the CPU). */
  perPass: ReadonlySet<string>;
  /** Whether a graph's session runs on a device, so that host tensors it takes or returns cross to it. */
  onDevice(graph: string): boolean;
  /**
   * The decoder graph in use (package-files.ts `decoderGraph`): on the CPU `decoder_capacity` when
   * the package has it; else `decoder`.
   */
  decoderGraph: string;
  tokenizerJson: string;
  /** What a decoding step costs on this device, measured before any page (device-calibration.ts). */
  stepCosts?: DraftPrior;
  /**
   * Runs passes of a CPU graph on the package's session thread (session-thread.ts), beside whatever
   * runs on this one, one call at a time; the graph's session there has `threads` intra-op threads.
   * A graph opened per pass (`perPass`) is opened there for the call and released after it; another
   * stays open there (a second copy of its weights, one per thread count asked for) until the
   * package is released.
   */
  runOnThread(graph: string, passes: readonly Record<string, ort.Tensor>[], threads: number): Promise<Record<string, ort.Tensor>[]>;
  /** Bytes of a graph's weights on disk (0 for a graph not opened). */
  weightBytes(graph: string): number;
  /** Intra-op threads of a graph's session here; undefined where ONNX Runtime chose (as many as cores). */
  threadsOf(graph: string): number | undefined;
  /** Opens the vision graphs a package opened with `stepGraphsOnly` left out; nothing when they are open. */
  openVision(): Promise<void>;
  release(): Promise<void>;
}

export interface OpenOptions {
  /** The device to open it on; the CPU unless given (`auto` measures devices: device-calibration.ts). */
  device?: NamedDeviceRequest;
  /**
   * Test only: on WebGPU, return the caches' new rows to the host (and so upload them again), the
   * round trip a resident cache must not make; the residency test plants it to prove it can fail.
   */
  cacheOutputsOnHost?: boolean;
  /** Skip hashing the graph files (e.g. a package already verified this session). */
  skipChecksums?: boolean;
  /**
   * Open only the graphs a decoding step runs (embedding, decoder, MTP head), not the vision
   * encoder: what `auto` measures a device with, so that a device that loses never opens it.
   */
  stepGraphsOnly?: boolean;
  /** ONNX Runtime intra-op threads for every graph; unset, `intraOpThreads` decides per graph. */
  threads?: number;
  /** On the CPU, vision graphs with more weight than this are opened per pass; default `PER_PASS_VISION_BYTES`. */
  perPassVisionBytes?: number;
}

/**
 * Below this much weight, a graph run once per decoding step (embedding, decoder, MTP head) gets one
 * intra-op thread on the CPU: its nodes are so small that handing each to several threads costs more
 * than it saves, most of all for the MTP head's one-row runs (the nano demo model, 8 MB, on 2 cores:
 * see its model card). Larger models and the vision graphs keep ONNX Runtime's default, all cores.
 */
export const ONE_THREAD_STEP_GRAPH_BYTES = 64 * 1024 * 1024;

/**
 * A vision graph with more weight than this is opened on the CPU for each pass and released after
 * it. ONNX Runtime holds a session's fp32 weights in its own memory, so jina-ocr-v1's two vision
 * graphs (the 1,024 px global view, the 640 px tiles; the same 1.6 GB of SAM and CLIP weights) kept
 * 3.3 GB resident while the decoder ran; opened per pass, they are held one at a time and only while
 * they run. Creating one took 3-8 s on this 2-core machine (see docs/benchmarks.md). The tiny and
 * nano packages' vision graphs stay loaded.
 */
export const PER_PASS_VISION_BYTES = 256 * 1024 * 1024;

/**
 * CPU sessions' threads sleep between nodes instead of spinning. On this 2-core machine shared with
 * other work, a real-width decoder step on two spinning threads took 400-450 ms and 135-146 ms of
 * CPU; on two that sleep, 150-220 ms and 95 ms of CPU (one thread: 210-235 ms, 75 ms of CPU).
 */
const CPU_SESSION_CONFIG: Pick<ort.InferenceSession.SessionOptions, 'extra'> = { extra: { session: { intra_op: { allow_spinning: '0' } } } };

/** Intra-op threads for one graph's session; undefined leaves ONNX Runtime's default. */
export function intraOpThreads(graph: string, weightBytes: number, provider: ExecutionProviderChoice['provider'], requested?: number): number | undefined {
  if (requested) return requested;
  const perStep = !graph.startsWith('vision_');
  return provider === 'cpu' && perStep && weightBytes < ONE_THREAD_STEP_GRAPH_BYTES ? 1 : undefined;
}

/**
 * Weights files that several graphs of a package share: the vision graphs' `vision.onnx.data`, and
 * `decoder.onnx.data`, which `decoder_capacity.onnx` reads too (the exporter writes each weight once).
 */
function sharedWeights(file: string): string[] {
  const name = path.basename(file);
  if (name.startsWith('vision_')) return [path.join(path.dirname(file), 'vision.onnx.data')];
  if (name === 'decoder_capacity.onnx') return [path.join(path.dirname(file), 'decoder.onnx.data')];
  return [];
}

/** A graph file's bytes with its external weights (`<file>.data`, or a shared weights file), if any. */
export async function graphBytes(file: string): Promise<number> {
  const shared = sharedWeights(file);
  const sizes = await Promise.all([file, `${file}.data`, ...shared].map((f) => stat(f).then((info) => info.size, () => 0)));
  return sizes.reduce((sum, size) => sum + size, 0);
}

function checkInputs(dir: string, manifest: Manifest, name: string, session: ort.InferenceSession): void {
  const graph = manifest.graphs[name];
  if (!graph) return;
  const declared = graph.inputs.map((input) => input.name);
  const actual = [...session.inputNames];
  if (declared.join(',') !== actual.join(',')) {
    throw new ModelPackageError(
      `${path.join(dir, graph.file)}: graph inputs [${actual.join(', ')}] differ from the manifest's [${declared.join(', ')}]; ${REMEDY}`,
    );
  }
  // a package whose manifest says fp32 for an fp16 graph (or back) would fail every page inside ONNX Runtime
  for (const [i, meta] of session.inputMetadata.entries()) {
    const dtype = graph.inputs[i]?.dtype;
    if (meta.isTensor && meta.type !== dtype) {
      throw new ModelPackageError(`${path.join(dir, graph.file)}: input ${meta.name} is ${meta.type} but the manifest declares ${dtype}; ${REMEDY}`);
    }
    // the KV caches are allocated in the package's dtype
    if (meta.name.startsWith('past_') && dtype !== manifest.dtype) {
      throw new ModelPackageError(`${path.join(dir, graph.file)}: cache input ${meta.name} is ${dtype} in a ${manifest.dtype} package; ${REMEDY}`);
    }
  }
}

export async function openModelPackage(dir: string, options: OpenOptions = {}): Promise<ModelPackage> {
  const manifest = await readManifest(dir);
  await checkFiles(dir, manifest, !options.skipChecksums);
  const provider = await startExecutionProvider(options.device ?? { kind: 'cpu' });
  const deviceId = options.device?.kind === 'cuda' ? options.device.deviceId : 0;
  const providers: Record<ExecutionProviderChoice['provider'], ort.InferenceSession.ExecutionProviderConfig[]> = {
    cuda: [{ name: 'cuda', deviceId }, 'cpu'],
    webgpu: ['webgpu'],
    cpu: ['cpu'],
  };
  const resident = provider.provider === 'webgpu';
  // on WebGPU the prompt's rows are looked up on the host (vision features go into them there); steps use embedding_device
  const hostGraphs = new Set(resident ? ['embedding'] : []);
  const onDevice = (graph: string): boolean => provider.provider !== 'cpu' && !hostGraphs.has(graph);
  const { names, decoder } = requiredGraphs(manifest, provider.provider);
  const sessions = new Map<string, ort.InferenceSession>();
  const perPass = new Set<string>();
  let thread: SessionThread | undefined;
  const release = async (): Promise<void> => {
    await Promise.all([...sessions.values()].map((session) => session.release()));
    sessions.clear();
    await thread?.terminate();
    thread = undefined;
  };
  const graphFiles = new Map<string, string>(names.map((name) => [name, manifest.graphs[name]?.file ?? '']));
  if (resident) graphFiles.set('embedding_device', manifest.graphs.embedding?.file ?? '');
  const graphPath = (name: string): string => path.join(dir, graphFiles.get(name) ?? '');
  const sessionOptions = (name: string, bytes: number, requestedThreads = options.threads): ort.InferenceSession.SessionOptions => {
    const place = onDevice(name) ? provider.provider : 'cpu';
    const threads = intraOpThreads(name, bytes, place, requestedThreads);
    return {
      executionProviders: providers[place],
      graphOptimizationLevel: 'all',
      // WebGPU sessions warn that shape nodes run on the CPU, as they should
      ...(place === 'webgpu' ? { logSeverityLevel: 3 as const } : {}),
      ...(threads ? { intraOpNumThreads: threads, interOpNumThreads: 1 } : {}),
      ...(place === 'cpu' ? CPU_SESSION_CONFIG : {}),
      ...(resident ? residentOutputs(manifest, name, decoder, options.cacheOutputsOnHost ?? false) : {}),
    };
  };
  const createSession = async (name: string, bytes: number): Promise<ort.InferenceSession> => {
    const file = graphPath(name);
    let session: ort.InferenceSession;
    try {
      session = await withExpertKernel(manifest.graphs[name], () => ort.InferenceSession.create(file, sessionOptions(name, bytes)));
    } catch (error) {
      throw new ModelPackageError(`${file}: ONNX Runtime could not load the graph (${(error as Error).message.split('\n')[0]}); ${REMEDY}`);
    }
    try {
      checkInputs(dir, manifest, name, session);
    } catch (error) {
      await session.release();
      throw error;
    }
    return session;
  };
  const sizes = new Map<string, number>();
  const openGraphs = async (vision: boolean): Promise<void> => {
    for (const [name, graphFile] of graphFiles) {
      if (name.startsWith('vision_') !== vision || sessions.has(name) || perPass.has(name)) continue;
      const bytes = await graphBytes(path.join(dir, graphFile));
      sizes.set(name, bytes);
      if (provider.provider === 'cpu' && vision && bytes > (options.perPassVisionBytes ?? PER_PASS_VISION_BYTES)) perPass.add(name);
      else sessions.set(name, await createSession(name, bytes));
    }
  };
  try {
    await openGraphs(false);
    if (!options.stepGraphsOnly) await openGraphs(true);
    if (resident) for (const [name, session] of await deviceHelpers(manifest, decoder, sessions.has('mtp'))) sessions.set(name, session);
  } catch (error) {
    await release();
    throw error;
  }
  const openVision = async (): Promise<void> => {
    try {
      await openGraphs(true);
    } catch (error) {
      await release();
      throw error;
    }
  };
  // a regular file inside the package, checked by checkFiles; bounded all the same
  const tokenizerJson = (await readBoundedFile(path.join(dir, 'tokenizer.json'), 256 * 1024 * 1024, 'tokenizer')).toString('utf8');
  const withSession = async <T>(graph: string, use: (session: ort.InferenceSession) => Promise<T>): Promise<T> => {
    const kept = sessions.get(graph);
    if (kept) return use(kept);
    if (!perPass.has(graph)) throw new Error(`${dir}: the package has no ${graph} graph`);
    const session = await createSession(graph, sizes.get(graph) ?? 0);
    try {
      return await use(session);
    } finally {
      await session.release();
    }
  };
  let threadCalls: Promise<unknown> = Promise.resolve();
  const runOnThread = (graph: string, passes: readonly Record<string, ort.Tensor>[], threads: number): Promise<Record<string, ort.Tensor>[]> => {
    if (onDevice(graph)) throw new Error(`${dir}: the ${graph} graph runs on ${provider.provider}; only CPU graphs run on the session thread`);
    if (!sessions.has(graph) && !perPass.has(graph)) throw new Error(`${dir}: the package has no ${graph} graph`);
    const call = async (): Promise<Record<string, ort.Tensor>[]> => {
      thread ??= SessionThread.start();
      const on = thread;
      const file = graphPath(graph);
      // a session's intra-op threads are fixed when it is created: a kept graph keeps one session per count asked for
      const session = `${graph}@${threads}`;
      try {
        // a creation there waits for the process's others, as one here does (expert-kernel.ts)
        await withExpertKernel(manifest.graphs[graph], () => on.open(session, file, sessionOptions(graph, sizes.get(graph) ?? 0, threads)));
      } catch (error) {
        throw new ModelPackageError(`${file}: ONNX Runtime could not load the graph on its thread (${(error as Error).message.split('\n')[0]}); ${REMEDY}`);
      }
      try {
        return await on.runEach(session, passes);
      } catch (error) {
        throw new Error(`${dir}: the ${graph} graph failed: ${(error as Error).message}`);
      } finally {
        if (perPass.has(graph)) await on.close(session);
      }
    };
    const result = threadCalls.then(call, call);
    threadCalls = result.catch(() => undefined);
    return result;
  };
  const weightBytes = (graph: string): number => sizes.get(graph) ?? 0;
  const threadsOf = (graph: string): number | undefined => intraOpThreads(graph, sizes.get(graph) ?? 0, onDevice(graph) ? provider.provider : 'cpu', options.threads);
  return { dir, manifest, provider, sessions, withSession, perPass, onDevice, decoderGraph: decoder, tokenizerJson, runOnThread, weightBytes, threadsOf, openVision, release };
}

/** Which outputs of a package graph stay on the device: all of a per-step graph's but the host-read ones. */
function residentOutputs(manifest: Manifest, name: string, decoder: string, cacheOnHost: boolean): Pick<ort.InferenceSession.SessionOptions, 'preferredOutputLocation'> {
  if (name === 'embedding_device') return { preferredOutputLocation: { inputs_embeds: 'gpu-buffer' } };
  if (name !== decoder && name !== 'mtp') return {};
  const cache = cacheOnHost ? 'cpu' : 'gpu-buffer';
  const presents = (manifest.graphs[name]?.outputs ?? []).map((output) => output.name).filter((output) => output.startsWith('present_'));
  return {
    preferredOutputLocation: {
      logits: 'gpu-buffer',
      hidden_states: 'gpu-buffer',
      ...Object.fromEntries(presents.map((output) => [output, cache])),
    },
  };
}

/** The helper graphs of device-graphs.ts for this package's shapes, on WebGPU, their outputs on the device but the chosen ids. */
async function deviceHelpers(manifest: Manifest, decoder: string, hasMtp: boolean): Promise<[string, ort.InferenceSession][]> {
  const sizes = manifest.architecture.language_config;
  const headDim = sizes.hidden_size / sizes.num_attention_heads;
  const names = Array.from({ length: sizes.num_hidden_layers }, (_, l) => [`past_key.${l}`, `past_value.${l}`]).flat();
  const logitsTypes = [...new Set([decoder, ...(hasMtp ? ['mtp'] : [])].map((graph) => manifest.graphs[graph]?.outputs.find((output) => output.name === 'logits')?.dtype ?? manifest.dtype))]
    .filter((dtype): dtype is CacheDtype => dtype !== 'int64');
  const onDevice = (outputs: readonly string[]): ort.InferenceSession.SessionOptions => ({
    executionProviders: ['webgpu'],
    logSeverityLevel: 3,
    preferredOutputLocation: Object.fromEntries(outputs.map((output) => [output, 'gpu-buffer' as const])),
  });
  const helpers: [string, Uint8Array, ort.InferenceSession.SessionOptions][] = [
    ['cache_append', cacheAppendGraph(names, manifest.dtype, sizes.num_key_value_heads, headDim), onDevice(names.map((name) => `kept.${name}`))],
    ['rows', rowsGraph(manifest.dtype, sizes.hidden_size), onDevice(['rows'])],
    // one choice graph per dtype the logits come in (an fp16 package may return fp32 logits)
    ...logitsTypes.map((dtype) => [`token_choice.${dtype}`, tokenChoiceGraph(dtype, sizes.vocab_size, bannedIds(manifest)), { executionProviders: ['webgpu'], logSeverityLevel: 3 }] as [string, Uint8Array, ort.InferenceSession.SessionOptions]),
    ...(hasMtp
      ? ([
          ['mtp_cache_start', mtpCacheStartGraph(manifest.dtype, sizes.num_key_value_heads, headDim), onDevice(['key', 'value'])],
          ['mtp_cache_prepare', mtpCachePrepareGraph(manifest.dtype, sizes.num_key_value_heads, headDim), onDevice(['key', 'value', 'bias'])],
        ] as [string, Uint8Array, ort.InferenceSession.SessionOptions][])
      : []),
  ];
  return Promise.all(helpers.map(async ([name, graph, options]) => [name, await ort.InferenceSession.create(graph, options)] as [string, ort.InferenceSession]));
}
