/**
 * A Hugging Face checkpoint's tensors read one at a time from their safetensors shards, so an export
 * never holds the whole model: each shard's header is parsed once, and a tensor (or a run of its
 * rows) is read from disk when asked for, bf16 and fp16 widened to float32.
 *
 * Safetensors: a little-endian u64 header length, a JSON header mapping each name to its dtype,
 * shape and [begin, end) byte offsets into the data that follows, then the data.
 */

import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { fromHalf } from '../vlm/half-float.js';

export const INDEX_FILE = 'model.safetensors.index.json';
export const SINGLE_FILE = 'model.safetensors';

const ITEM_BYTES: Record<string, number> = { F32: 4, F16: 2, BF16: 2, F64: 8, I64: 8, I32: 4, U8: 1 };
const FLOAT_TYPES = new Set(['F32', 'F16', 'BF16', 'F64']);

/** A checkpoint file that cannot be read, with the file and the remedy. */
export class CheckpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CheckpointError';
  }
}

interface Entry {
  file: string;
  offset: number;
  dtype: string;
  shape: number[];
}

let halfTable: Float32Array | null = null;

export class CheckpointReader {
  readonly directory: string;
  private readonly entries = new Map<string, Entry>();
  private readonly handles = new Map<string, number>();

  constructor(directory: string) {
    this.directory = directory;
    for (const file of this.shardFiles()) this.readHeader(file);
  }

  private shardFiles(): string[] {
    const index = path.join(this.directory, INDEX_FILE);
    if (existsSync(index)) {
      let weightMap: Record<string, string>;
      try {
        weightMap = (JSON.parse(readFileSync(index, 'utf8')) as { weight_map: Record<string, string> }).weight_map;
      } catch (error) {
        throw new CheckpointError(`${index}: not a safetensors index (${(error as Error).message}); re-download the checkpoint`);
      }
      if (!weightMap || typeof weightMap !== 'object') throw new CheckpointError(`${index}: has no weight_map; re-download the checkpoint`);
      return [...new Set(Object.values(weightMap))].sort().map((file) => path.join(this.directory, file));
    }
    const single = path.join(this.directory, SINGLE_FILE);
    if (existsSync(single)) return [single];
    throw new CheckpointError(`${this.directory}: neither ${INDEX_FILE} nor ${SINGLE_FILE} found; point at the folder holding the model's safetensors files`);
  }

  private readHeader(file: string): void {
    if (!existsSync(file)) throw new CheckpointError(`${file}: listed in ${INDEX_FILE} but missing; re-download the checkpoint`);
    const fd = this.handle(file);
    const size = fstatSync(fd).size;
    const lengthBytes = Buffer.alloc(8);
    if (readSync(fd, lengthBytes, 0, 8, 0) < 8) throw new CheckpointError(`${file}: too short to be a safetensors file; re-download it`);
    const length = Number(lengthBytes.readBigUInt64LE(0));
    if (8 + length > size) throw new CheckpointError(`${file}: header length ${length} runs past the end of the file; the file is truncated, re-download it`);
    const headerBytes = Buffer.alloc(length);
    readSync(fd, headerBytes, 0, length, 8);
    let header: Record<string, { dtype: string; shape: number[]; data_offsets: [number, number] }>;
    try {
      header = JSON.parse(headerBytes.toString('utf8')) as typeof header;
    } catch (error) {
      throw new CheckpointError(`${file}: its header is not JSON (${(error as Error).message}); re-download it`);
    }
    for (const [name, info] of Object.entries(header)) {
      if (name === '__metadata__') continue;
      if (!(info.dtype in ITEM_BYTES)) throw new CheckpointError(`${file}: tensor ${name} has dtype ${info.dtype}, which Folio cannot read`);
      const [begin, end] = info.data_offsets;
      const count = info.shape.reduce((n, d) => n * d, 1);
      if (end - begin !== count * ITEM_BYTES[info.dtype]!) throw new CheckpointError(`${file}: tensor ${name} holds ${end - begin} bytes, its shape [${info.shape.join(', ')}] needs ${count * ITEM_BYTES[info.dtype]!}; re-download it`);
      if (8 + length + end > size) throw new CheckpointError(`${file}: tensor ${name} runs past the end of the file; re-download it`);
      this.entries.set(name, { file, offset: 8 + length + begin, dtype: info.dtype, shape: info.shape });
    }
  }

  private handle(file: string): number {
    let fd = this.handles.get(file);
    if (fd === undefined) {
      fd = openSync(file, 'r');
      this.handles.set(file, fd);
    }
    return fd;
  }

  names(): string[] {
    return [...this.entries.keys()].sort();
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  shape(name: string): number[] {
    return [...this.entry(name).shape];
  }

  private entry(name: string): Entry {
    const entry = this.entries.get(name);
    if (!entry) throw new CheckpointError(`${this.directory}: the checkpoint has no tensor ${name}`);
    return entry;
  }

  /** The whole tensor as float32, read from disk now. */
  read(name: string): Float32Array {
    const entry = this.entry(name);
    return this.readRows(name, 0, entry.shape[0] ?? 1);
  }

  /** Rows `[start, start + count)` of the tensor's first axis as float32, row-major. */
  readRows(name: string, start: number, count: number): Float32Array {
    const entry = this.entry(name);
    if (!FLOAT_TYPES.has(entry.dtype)) throw new CheckpointError(`${entry.file}: tensor ${name} is ${entry.dtype}, not a float tensor`);
    const rowValues = entry.shape.slice(1).reduce((n, d) => n * d, 1);
    const itemBytes = ITEM_BYTES[entry.dtype]!;
    const values = count * rowValues;
    const bytes = Buffer.allocUnsafe(values * itemBytes);
    const position = entry.offset + start * rowValues * itemBytes;
    let done = 0;
    const fd = this.handle(entry.file);
    while (done < bytes.length) {
      const read = readSync(fd, bytes, done, Math.min(bytes.length - done, 1 << 30), position + done);
      if (read === 0) throw new CheckpointError(`${entry.file}: tensor ${name} ends early; re-download the file`);
      done += read;
    }
    return widened(entry.dtype, bytes, values);
  }

  close(): void {
    for (const fd of this.handles.values()) closeSync(fd);
    this.handles.clear();
  }
}

/** Little-endian checkpoint values as float32 (bf16 is float32's top half: exact). */
function widened(dtype: string, bytes: Buffer, count: number): Float32Array {
  if (dtype === 'F32') return new Float32Array(bytes.buffer, bytes.byteOffset, count).slice();
  if (dtype === 'BF16') {
    const raw = new Uint16Array(bytes.buffer, bytes.byteOffset, count);
    const out = new Uint32Array(count);
    for (let i = 0; i < count; i++) out[i] = raw[i]! << 16;
    return new Float32Array(out.buffer);
  }
  if (dtype === 'F16') {
    const table = (halfTable ??= Float32Array.from({ length: 0x10000 }, (_, h) => fromHalf(h)));
    const raw = new Uint16Array(bytes.buffer, bytes.byteOffset, count);
    const out = new Float32Array(count);
    for (let i = 0; i < count; i++) out[i] = table[raw[i]!]!;
    return out;
  }
  return Float32Array.from(new Float64Array(bytes.buffer, bytes.byteOffset, count));
}
