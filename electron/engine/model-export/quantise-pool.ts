/**
 * Quantisation spread over worker threads, for an exporter whose graphs are written synchronously,
 * weight by weight: `quantise` splits a matrix into runs of rows (each row's blocks are quantised on
 * their own, so the runs' bytes joined are the whole matrix's) and hands each run to a worker as a
 * transferred buffer. `quantise` blocks until every run is back; `submit` and `inTurn` let the caller
 * read the next matrix meanwhile (a layer's experts, the lm_head's row chunks), a few ahead at most.
 * Either way the results are written in the order of the calls, so the package's bytes are exactly
 * those of one thread.
 *
 * The exporter's thread sleeps in `Atomics.wait` meanwhile and reads the replies with
 * `receiveMessageOnPort`; neither needs the event loop, which is not turning while a graph is built.
 */

import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { quantise, type Quantised } from './quantise.js';

/** `quantise`'s signature, which a pool's `quantise` shares. */
export type Quantise = (weight: Float32Array, rows: number, k: number, block: number, bits?: 4 | 8, signedScales?: boolean) => Quantised;

/** A run of rows for a worker: `weight` is the run's float32 values, transferred. */
export interface QuantiseTask {
  id: number;
  weight: ArrayBuffer;
  rows: number;
  k: number;
  block: number;
  bits: 4 | 8;
  signedScales: boolean;
}

export type QuantiseReply = { id: number; packed: ArrayBuffer; scales: ArrayBuffer } | { id: number; error: string };

/** What a worker is started with: its end of the channel and the shared counters: [replies sent, workers stopped]. */
export interface QuantiseWorkerData {
  port: MessagePort;
  replies: Int32Array;
}

/** Rows below which a matrix is not split: a worker's round trip would cost more than the rows. */
const MIN_RUN_ROWS = 64;
/** Runs per worker a matrix is split into, so a worker slowed by other load leaves less to wait for. */
const RUNS_PER_WORKER = 4;
/** Runs queued at each worker, so it need not wait for this thread to wake before its next one. */
const QUEUED_PER_WORKER = 2;
/** Matrices `inTurn` submits before it waits for the oldest: enough to keep reading ahead, few in memory. */
const AHEAD = 2;

/** The built worker; tests that run these sources through vitest use the build's copy (`npm run build`). */
function workerScript(): string {
  const beside = fileURLToPath(new URL('./quantise-worker.js', import.meta.url));
  if (existsSync(beside)) return beside;
  const built = fileURLToPath(new URL('../../../dist/electron/engine/model-export/quantise-worker.js', import.meta.url));
  if (!existsSync(built)) throw new Error(`${beside}: the quantising worker is missing; run npm run build`);
  return built;
}

interface PoolWorker {
  worker: Worker;
  port: MessagePort;
  queued: number;
}

/** A matrix handed to the pool; `take()` waits for it, with `quantise`'s result. */
export interface QuantiseJob {
  take(): Quantised;
}

/** One matrix in the pool: its runs of rows, those not yet sent, and where the replies go. */
interface JobState {
  weight: Float32Array;
  k: number;
  block: number;
  bits: 4 | 8;
  signedScales: boolean;
  starts: number[];
  rowBytes: number;
  blocks: number;
  result: Quantised;
  /** Runs not back yet. */
  left: number;
  failure?: string;
}

export class QuantisePool {
  private readonly workers: PoolWorker[];
  private readonly replies = new Int32Array(new SharedArrayBuffer(8));
  private nextId = 0;
  /** Runs not yet sent, in the order their matrices were submitted. */
  private readonly unsent: { job: JobState; run: number }[] = [];
  private readonly sentRuns = new Map<number, { job: JobState; run: number }>();

  /** `threads` workers (default: one per core the process may use); 0 quantises on this thread. */
  constructor(threads = availableParallelism()) {
    const script = threads > 0 ? workerScript() : '';
    this.workers = Array.from({ length: threads }, () => {
      const { port1, port2 } = new MessageChannel();
      const workerData: QuantiseWorkerData = { port: port2, replies: this.replies };
      const worker = new Worker(script, { workerData, transferList: [port2] });
      // never what keeps the process alive: an export that failed must still let it exit
      worker.unref();
      port1.unref();
      return { worker, port: port1, queued: 0 };
    });
  }

  /**
   * Starts quantising a matrix: the workers take its runs once those of the matrices submitted before
   * are out, so the caller can read the next matrix meanwhile. Its float32 values are copied as each
   * run is sent; what `take()` returns is `quantise(...)`'s result, byte for byte.
   */
  submit(weight: Float32Array, rows: number, k: number, block: number, bits: 4 | 8 = 4, signedScales = false): QuantiseJob {
    const runs = Math.min(this.workers.length * RUNS_PER_WORKER, Math.floor(rows / MIN_RUN_ROWS));
    if (runs < 2) {
      const result = quantise(weight, rows, k, block, bits, signedScales);
      return { take: () => result };
    }
    const blocks = Math.ceil(k / block);
    const rowBytes = (blocks * block * bits) / 8;
    const job: JobState = {
      weight, k, block, bits, signedScales, rowBytes, blocks,
      starts: Array.from({ length: runs + 1 }, (_, i) => Math.round((i * rows) / runs)),
      result: { packed: new Uint8Array(rows * rowBytes), scales: new Float32Array(rows * blocks), rows, blocks, bits },
      left: runs,
    };
    for (let run = 0; run < runs; run++) this.unsent.push({ job, run });
    this.dispatch();
    return {
      take: () => {
        while (job.left > 0) this.receive();
        // keep the workers busy with the matrices submitted since
        this.dispatch();
        if (job.failure !== undefined) throw new Error(`quantising a ${rows} x ${k} matrix: ${job.failure}`);
        return job.result;
      },
    };
  }

  /** `quantise(...)`, with the same bytes, computed by the workers. */
  readonly quantise: Quantise = (weight, rows, k, block, bits, signedScales) => this.submit(weight, rows, k, block, bits, signedScales).take();

  /**
   * `count` matrices quantised in turn: `matrix(i)` reads the i-th (its arguments to `quantise`)
   * while the workers quantise those before it, `AHEAD` at most; yields the results in order.
   */
  *inTurn(count: number, matrix: (i: number) => Parameters<Quantise>): Generator<Quantised> {
    const jobs: QuantiseJob[] = [];
    for (let i = 0; i < count; i++) {
      jobs.push(this.submit(...matrix(i)));
      if (jobs.length > AHEAD) yield jobs.shift()!.take();
    }
    while (jobs.length > 0) yield jobs.shift()!.take();
  }

  /** Sends unsent runs, in order, to the workers with the fewest queued while any has room. */
  private dispatch(): void {
    while (this.unsent.length > 0) {
      const target = this.workers.reduce((least, w) => (w.queued < least.queued ? w : least));
      if (target.queued >= QUEUED_PER_WORKER) return;
      const { job, run } = this.unsent.shift()!;
      const from = job.starts[run]!;
      const count = job.starts[run + 1]! - from;
      const values = job.weight.slice(from * job.k, (from + count) * job.k);
      const task: QuantiseTask = { id: this.nextId++, weight: values.buffer, rows: count, k: job.k, block: job.block, bits: job.bits, signedScales: job.signedScales };
      this.sentRuns.set(task.id, { job, run });
      target.port.postMessage(task, [values.buffer]);
      target.queued++;
      // the last run sent: the job no longer needs the caller's values
      if (run === job.starts.length - 2) job.weight = EMPTY;
    }
  }

  /** Waits for the next reply from any worker, puts it in its matrix and sends that worker more. */
  private receive(): void {
    const [from, reply] = this.nextReply();
    from.queued--;
    const { job, run } = this.sentRuns.get(reply.id)!;
    this.sentRuns.delete(reply.id);
    job.left--;
    if ('error' in reply) job.failure ??= reply.error;
    else {
      job.result.packed.set(new Uint8Array(reply.packed), job.starts[run]! * job.rowBytes);
      job.result.scales.set(new Float32Array(reply.scales), job.starts[run]! * job.blocks);
    }
    this.dispatch();
  }

  /** The next reply from any worker, sleeping until one comes. */
  private nextReply(): [PoolWorker, QuantiseReply] {
    for (;;) {
      // read the counter before looking, so a reply posted after the look ends the wait at once
      const seen = Atomics.load(this.replies, 0);
      if (Atomics.load(this.replies, 1) > 0) throw new Error('a quantising worker stopped');
      for (const target of this.workers) {
        if (target.queued === 0) continue;
        const message = receiveMessageOnPort(target.port);
        if (message) return [target, message.message as QuantiseReply];
      }
      Atomics.wait(this.replies, 0, seen);
    }
  }

  /** Ends the workers (an export's last step, or its failure's). */
  close(): void {
    for (const { worker, port } of this.workers) {
      port.close();
      void worker.terminate();
    }
  }
}

const EMPTY = new Float32Array(0);
