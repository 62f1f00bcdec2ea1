/**
 * ONNX Runtime sessions on a worker thread of their own. onnxruntime-node's `run()` holds the
 * thread that calls it until the graph is done (measured: a 640 px vision pass returned its promise
 * at once, then no timer of the calling thread fired for its 13 s), so a session on the decoding
 * thread stalls every page's decoding while it runs. Sessions here run beside it: the vlm engine's
 * vision encoder (model-package.ts `runOnThread`). Outputs come back as transferred buffers, not
 * copies. Requests run one at a time, in the order sent.
 *
 * Creating a session is asked for by the caller, which serialises it with the process's other
 * creations (expert-kernel.ts): the thread never creates one on its own.
 */

import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import * as ort from 'onnxruntime-node';

/** A tensor as it crosses between threads: its type, data and dims (an `ort.Tensor` does not survive the crossing). */
interface TensorMessage {
  type: ort.Tensor.Type;
  data: ort.Tensor.DataType;
  dims: readonly number[];
}

type Feeds = Record<string, ort.Tensor>;

type Request =
  | { op: 'open'; graph: string; file: string; options: ort.InferenceSession.SessionOptions }
  | { op: 'run'; graph: string; passes: Record<string, TensorMessage>[] }
  | { op: 'close'; graph: string };

type Reply = { id: number; error: string } | { id: number; outputs?: Record<string, TensorMessage>[] };

/**
 * Plain JavaScript evaluated in the worker, so that it runs the same from the TypeScript sources
 * (tests) and the build; it loads onnxruntime-node from the path this module resolved.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const ort = require(workerData.ort);
const sessions = new Map();
const message = (error) => String((error && error.message) || error);
const plain = (tensor) => ({ type: tensor.type, data: tensor.data, dims: tensor.dims });
async function handle(request) {
  if (request.op === 'open') {
    if (!sessions.has(request.graph)) sessions.set(request.graph, await ort.InferenceSession.create(request.file, request.options));
    return {};
  }
  const session = sessions.get(request.graph);
  if (request.op === 'close') {
    sessions.delete(request.graph);
    if (session) await session.release();
    return {};
  }
  if (!session) throw new Error('the ' + request.graph + ' graph is not open on its thread');
  const outputs = [];
  for (const pass of request.passes) {
    const feeds = {};
    for (const [name, t] of Object.entries(pass)) feeds[name] = new ort.Tensor(t.type, t.data, t.dims);
    const out = await session.run(feeds);
    const kept = {};
    for (const [name, tensor] of Object.entries(out)) kept[name] = plain(tensor);
    outputs.push(kept);
  }
  return { outputs };
}
let chain = Promise.resolve();
parentPort.on('message', ({ id, request }) => {
  chain = chain.then(() => handle(request)).then(
    (reply) => {
      const buffers = (reply.outputs || []).flatMap((out) => Object.values(out).map((t) => t.data.buffer));
      parentPort.postMessage({ id, ...reply }, [...new Set(buffers)]);
    },
    (error) => parentPort.postMessage({ id, error: message(error) }),
  );
});
`;

interface Pending {
  resolve(reply: Reply): void;
  reject(error: Error): void;
}

export class SessionThread {
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private broken: Error | undefined;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: Reply) => this.settle(reply));
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`the session thread exited (code ${code})`)));
    // idle, it must not keep the process alive; `send` holds it while a request is out
    worker.unref();
  }

  static start(): SessionThread {
    const ortPath = createRequire(import.meta.url).resolve('onnxruntime-node');
    return new SessionThread(new Worker(WORKER_SOURCE, { eval: true, workerData: { ort: ortPath } }));
  }

  /** Creates `graph`'s session on the thread from `file` (nothing if it is open); the caller serialises creations. */
  async open(graph: string, file: string, options: ort.InferenceSession.SessionOptions): Promise<void> {
    await this.send({ op: 'open', graph, file, options });
  }

  /**
   * Runs the passes one after another on `graph`'s session. The inputs are copied across (the
   * caller keeps its arrays: a page's pixels are a copy of milliseconds against seconds of vision);
   * the outputs' buffers are handed over, not copied.
   */
  async runEach(graph: string, passes: readonly Feeds[]): Promise<Feeds[]> {
    const messages = passes.map((feeds) => Object.fromEntries(Object.entries(feeds).map(([name, tensor]) => [name, { type: tensor.type, data: tensor.data, dims: tensor.dims }])));
    const reply = await this.send({ op: 'run', graph, passes: messages });
    return (('outputs' in reply && reply.outputs) || []).map((out) =>
      Object.fromEntries(Object.entries(out).map(([name, t]) => [name, new ort.Tensor(t.type, t.data as Float32Array, t.dims)])),
    );
  }

  /** Releases `graph`'s session on the thread. */
  async close(graph: string): Promise<void> {
    await this.send({ op: 'close', graph });
  }

  /** Ends the thread and every session on it. */
  async terminate(): Promise<void> {
    this.broken ??= new Error('the session thread was closed');
    await this.worker.terminate();
  }

  private send(request: Request): Promise<Reply> {
    return new Promise<Reply>((resolve, reject) => {
      if (this.broken) return reject(this.broken);
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) this.worker.ref();
      this.worker.postMessage({ id, request });
    });
  }

  private settle(reply: Reply): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if ('error' in reply) waiting.reject(new Error(reply.error));
    else waiting.resolve(reply);
  }

  /** A thread that died takes every request out with it, and refuses the next ones. */
  private fail(error: Error): void {
    this.broken ??= error;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
