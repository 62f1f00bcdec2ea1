/**
 * An ONNX model run on worker threads, one single-threaded session on each. onnxruntime-node's run()
 * holds the thread that calls it, so runs on one session never overlap; a line recogniser's small
 * convolutions also split poorly over intra-op threads. Lines spread over workers instead: on two
 * cores, two workers read a dense A4 scan's lines in about 0.83x the wall time of one session with
 * two intra-op threads (`npm run bench:lite`), and the pages in flight share them.
 */

import { createRequire } from 'node:module';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import ort from 'onnxruntime-node';

export interface RunOutput {
  data: Float32Array;
  dims: readonly number[];
}

/** Runs one single-input, single-output float model; `parallel` runs may be in flight at once. */
export interface OnnxRunner {
  readonly parallel: number;
  run(input: Float32Array, dims: readonly number[], signal: AbortSignal): Promise<RunOutput>;
}

/** A session in this thread as a runner: one run at a time. */
export function sessionRunner(session: ort.InferenceSession): OnnxRunner {
  return {
    parallel: 1,
    async run(input, dims) {
      const output = await session.run({ [session.inputNames[0]!]: new ort.Tensor('float32', input, dims) });
      const tensor = output[session.outputNames[0]!]!;
      return { data: tensor.data as Float32Array, dims: tensor.dims };
    },
  };
}

/** Workers: one per core, up to four (beyond that a page's lines are too few to share). */
export const WORKER_COUNT = Math.max(1, Math.min(4, os.availableParallelism()));

/**
 * Plain JavaScript evaluated in each worker, so that it runs the same from the TypeScript sources
 * (tests) and the build; it loads onnxruntime-node from the path the engine itself resolved.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const ort = require(workerData.ort);
const message = (error) => String((error && error.message) || error);
ort.InferenceSession.create(workerData.model, { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' }).then(
  (session) => {
    parentPort.postMessage({ ready: true });
    parentPort.on('message', ({ id, data, dims }) => {
      session.run({ [session.inputNames[0]]: new ort.Tensor('float32', data, dims) }).then(
        (output) => {
          const tensor = output[session.outputNames[0]];
          parentPort.postMessage({ id, data: tensor.data, dims: tensor.dims }, [tensor.data.buffer]);
        },
        (error) => parentPort.postMessage({ id, error: message(error) }),
      );
    });
  },
  (error) => parentPort.postMessage({ ready: false, error: message(error) }),
);
`;

interface Task {
  id: number;
  input: Float32Array;
  dims: readonly number[];
  resolve(output: RunOutput): void;
  reject(error: Error): void;
}

type Reply = { id: number; data: Float32Array; dims: number[] } | { id: number; error: string };

export class WorkerSessions implements OnnxRunner {
  readonly parallel: number;
  private readonly idle: Worker[] = [];
  private readonly queue: Task[] = [];
  private readonly running = new Map<Worker, Task>();
  private nextId = 0;
  private broken: Error | undefined;

  private constructor(workers: Worker[]) {
    this.parallel = workers.length;
    for (const worker of workers) {
      worker.on('message', (reply: Reply) => this.settle(worker, reply));
      worker.on('error', (error) => this.lose(worker, error));
      worker.on('exit', (code) => this.lose(worker, new Error(`an OCR worker thread exited (code ${code})`)));
      worker.unref();
      this.idle.push(worker);
    }
  }

  /** Starts `count` workers, each with its own session of `model` (ONNX bytes); rejects if one cannot load it. */
  static async start(model: Uint8Array, count = WORKER_COUNT): Promise<WorkerSessions> {
    const ortPath = createRequire(import.meta.url).resolve('onnxruntime-node');
    const workers = Array.from({ length: count }, () => new Worker(WORKER_SOURCE, { eval: true, workerData: { ort: ortPath, model } }));
    const ready = workers.map(
      (worker) =>
        new Promise<void>((resolve, reject) => {
          worker.once('message', (reply: { ready: boolean; error?: string }) => (reply.ready ? resolve() : reject(new Error(reply.error))));
          worker.once('error', reject);
        }),
    );
    try {
      await Promise.all(ready);
    } catch (error) {
      await Promise.all(workers.map((w) => w.terminate()));
      throw error;
    }
    return new WorkerSessions(workers);
  }

  run(input: Float32Array, dims: readonly number[], signal: AbortSignal): Promise<RunOutput> {
    return new Promise<RunOutput>((resolve, reject) => {
      if (this.broken) return reject(this.broken);
      if (signal.aborted) return reject(signal.reason as Error);
      const task: Task = { id: this.nextId++, input, dims, resolve, reject };
      // A run not yet started is dropped on cancel; one already running finishes (a line, milliseconds).
      const abort = () => {
        const queued = this.queue.indexOf(task);
        if (queued < 0) return;
        this.queue.splice(queued, 1);
        reject(signal.reason as Error);
      };
      signal.addEventListener('abort', abort, { once: true });
      const done = () => signal.removeEventListener('abort', abort);
      task.resolve = (output) => (done(), resolve(output));
      task.reject = (error) => (done(), reject(error));
      this.queue.push(task);
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    const workers = [...this.idle, ...this.running.keys()];
    this.broken = new Error('the OCR workers were closed');
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private dispatch(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop()!;
      const task = this.queue.shift()!;
      this.running.set(worker, task);
      // referenced while it works, so the process waits for the reply
      worker.ref();
      worker.postMessage({ id: task.id, data: task.input, dims: task.dims }, [task.input.buffer as ArrayBuffer]);
    }
  }

  private settle(worker: Worker, reply: Reply): void {
    const task = this.running.get(worker);
    if (!task || task.id !== reply.id) return;
    this.running.delete(worker);
    worker.unref();
    this.idle.push(worker);
    if ('error' in reply) task.reject(new Error(reply.error));
    else task.resolve({ data: reply.data, dims: reply.dims });
    this.dispatch();
  }

  /** A worker that died takes its run with it; the others go on, and with none left every run fails. */
  private lose(worker: Worker, error: Error): void {
    const task = this.running.get(worker);
    this.running.delete(worker);
    const at = this.idle.indexOf(worker);
    if (at >= 0) this.idle.splice(at, 1);
    task?.reject(error);
    if (this.idle.length === 0 && this.running.size === 0 && !this.broken) {
      this.broken = error;
      for (const queued of this.queue.splice(0)) queued.reject(error);
    }
  }
}
