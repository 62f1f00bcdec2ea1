/**
 * A quantise-pool.ts worker: quantises the runs of rows it is handed and sends each back, its buffers
 * transferred, then bumps the shared counter the exporter's thread sleeps on.
 */

import { workerData } from 'node:worker_threads';
import { quantise } from './quantise.js';
import type { QuantiseReply, QuantiseTask, QuantiseWorkerData } from './quantise-pool.js';

const { port, replies } = workerData as QuantiseWorkerData;

function wake(): void {
  Atomics.add(replies, 0, 1);
  Atomics.notify(replies, 0);
}

// a worker that stops (an error outside a task) must not leave the exporter asleep
process.once('exit', () => {
  Atomics.add(replies, 1, 1);
  wake();
});

port.on('message', (task: QuantiseTask) => {
  let reply: QuantiseReply;
  let transfer: ArrayBuffer[] = [];
  try {
    const q = quantise(new Float32Array(task.weight), task.rows, task.k, task.block, task.bits, task.signedScales);
    reply = { id: task.id, packed: q.packed.buffer as ArrayBuffer, scales: q.scales.buffer as ArrayBuffer };
    transfer = [reply.packed, reply.scales];
  } catch (error) {
    reply = { id: task.id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply, transfer);
  wake();
});
