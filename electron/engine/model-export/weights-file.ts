/**
 * A graph's external data file (`<graph>.onnx.data`), written tensor by tensor as each weight is
 * made, each on a page boundary (ONNX Runtime maps external weights straight from the file when they
 * are aligned). A weight is placed once under its key: a second graph that reads the same weight
 * (the two decoder layouts, the vision graphs of several view sizes) points at the bytes already
 * written instead of making them again.
 */

import { closeSync, openSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { bytesOf, type ElementType, type ExternalTensor, type TensorData } from '../onnx/onnx-proto.js';

const ALIGNMENT = 4096;

export class WeightsFile {
  readonly file: string;
  private readonly fd: number;
  private offset = 0;
  private readonly placed = new Map<string, ExternalTensor>();

  constructor(readonly filePath: string) {
    this.file = path.basename(filePath);
    this.fd = openSync(filePath, 'w');
  }

  /** The weight placed under `key`, if one was. */
  find(key: string): ExternalTensor | undefined {
    return this.placed.get(key);
  }

  private begin(): number {
    const pad = -this.offset & (ALIGNMENT - 1);
    if (pad) this.write(new Uint8Array(pad));
    return this.offset;
  }

  private write(bytes: Uint8Array): void {
    let done = 0;
    while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done, this.offset + done);
    this.offset += bytes.length;
  }

  /** Writes one tensor under `key`. */
  add(key: string, type: ElementType, dims: readonly number[], data: TensorData): ExternalTensor {
    return this.addParts(key, type, dims, [data]);
  }

  /**
   * One tensor written from `parts` in order, each made only when the previous one is written (a
   * layer's experts, a large matrix in row chunks), so one part at a time is in memory.
   */
  addParts(key: string, type: ElementType, dims: readonly number[], parts: Iterable<TensorData>): ExternalTensor {
    if (this.placed.has(key)) throw new Error(`${this.file}: a weight ${key} was already written`);
    const start = this.begin();
    for (const part of parts) this.write(bytesOf(part));
    const tensor: ExternalTensor = { type, dims: [...dims], location: this.file, offset: start, length: this.offset - start };
    const elements = dims.reduce((n, d) => n * d, 1);
    const itemBytes = { float32: 4, float16: 2, int64: 8, int32: 4, uint8: 1, int8: 1, bool: 1 }[type];
    if (tensor.length !== elements * itemBytes) throw new Error(`${this.file}: weight ${key} got ${tensor.length} bytes, its shape [${dims.join(', ')}] needs ${elements * itemBytes}`);
    this.placed.set(key, tensor);
    return tensor;
  }

  get size(): number {
    return this.offset;
  }

  /** Closes the file, removing it when nothing was written. */
  close(): void {
    closeSync(this.fd);
    if (this.offset === 0) unlinkSync(this.filePath);
  }
}
