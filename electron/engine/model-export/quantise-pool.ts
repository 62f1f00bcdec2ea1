/**
 * Quantisation spread over worker threads, for an exporter whose graphs are written synchronously,
 * weight by weight: `quantise` splits a matrix into runs of rows (each row's blocks are quantised on
 * their own, so the runs' bytes joined are the whole matrix's), hands each run to an idle worker as a
 * transferred buffer and blocks until every run is back, so the package's bytes and their order are
 * exactly those of one thread. One matrix is in flight at a time, which bounds the memory: its float32
 * copy, split into runs, and the packed result.
 *
 * The exporter's thread sleeps in `Atomics.wait` meanwhile and reads the replies with
 * `receiveMessageOnPort`; neither needs the event loop, which is not turning while a graph is built.
 */

import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { quantise, type Quantised } from './quantise.js';

/** `quantise`'s signature: the graph builders take either it or a pool's. */
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

export class QuantisePool {
  private readonly workers: PoolWorker[];
  private readonly replies = new Int32Array(new SharedArrayBuffer(8));
  private nextId = 0;

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

  get threads(): number {
    return this.workers.length;
  }

  /** `quantise(...)`, with the same bytes, computed by the workers. */
  readonly quantise: Quantise = (weight, rows, k, block, bits = 4, signedScales = false) => {
    const runs = Math.min(this.workers.length * RUNS_PER_WORKER, Math.floor(rows / MIN_RUN_ROWS));
    if (runs < 2) return quantise(weight, rows, k, block, bits, signedScales);
    const blocks = Math.ceil(k / block);
    const rowBytes = (blocks * block * bits) / 8;
    const packed = new Uint8Array(rows * rowBytes);
    const scales = new Float32Array(rows * blocks);
    const starts = Array.from({ length: runs + 1 }, (_, i) => Math.round((i * rows) / runs));
    const firstId = this.nextId;
    this.nextId += runs;
    let sent = 0;
    let received = 0;
    const send = (target: PoolWorker) => {
      const from = starts[sent]!;
      const count = starts[sent + 1]! - from;
      const run = weight.slice(from * k, (from + count) * k);
      const task: QuantiseTask = { id: firstId + sent, weight: run.buffer, rows: count, k, block, bits, signedScales };
      target.port.postMessage(task, [run.buffer]);
      target.queued++;
      sent++;
    };
    for (let round = 0; round < QUEUED_PER_WORKER; round++) for (const target of this.workers) if (sent < runs) send(target);
    let failure: string | undefined;
    while (received < runs) {
      const [from, reply] = this.nextReply();
      from.queued--;
      received++;
      if ('error' in reply) failure ??= reply.error;
      else {
        const run = reply.id - firstId;
        packed.set(new Uint8Array(reply.packed), starts[run]! * rowBytes);
        scales.set(new Float32Array(reply.scales), starts[run]! * blocks);
      }
      if (sent < runs && failure === undefined) send(from);
      else if (failure !== undefined && received === sent) break;
    }
    if (failure !== undefined) throw new Error(`quantising a ${rows} x ${k} matrix: ${failure}`);
    return { packed, scales, rows, blocks, bits };
  };

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
