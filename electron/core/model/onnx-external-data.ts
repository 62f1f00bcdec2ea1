/**
 * The files an ONNX graph loads besides itself: the `location` of every tensor stored as external
 * data (`<graph>.onnx.data`, or a weights file several graphs share). ONNX Runtime opens these by
 * the names the graph gives, so a package is only as checked as this list: each must be listed (and
 * so hashed) in its manifest. Read by walking the protobuf from the file, descending only into the
 * messages that hold tensors and seeking past everything else, so a graph of gigabytes costs a few
 * thousand small reads.
 */

import { open, type FileHandle } from 'node:fs/promises';
import { ONNX_FIELD } from '../../../shared/onnx-fields.js';

/** Messages that can hold a tensor, by the fields that lead to one. */
type Kind = 'model' | 'graph' | 'node' | 'attribute' | 'tensor' | 'sparse' | 'entry';
const { model, graph, node, attribute, tensor, sparseTensor, entry } = ONNX_FIELD;
const CHILDREN: Record<Kind, Record<number, Kind>> = {
  model: { [model.graph]: 'graph' },
  graph: { [graph.node]: 'node', [graph.initializer]: 'tensor', [graph.sparseInitializer]: 'sparse' },
  node: { [node.attribute]: 'attribute' },
  attribute: {
    [attribute.t]: 'tensor',
    [attribute.g]: 'graph',
    [attribute.tensors]: 'tensor',
    [attribute.graphs]: 'graph',
    [attribute.sparseTensor]: 'sparse',
    [attribute.sparseTensors]: 'sparse',
  },
  sparse: { [sparseTensor.values]: 'tensor', [sparseTensor.indices]: 'tensor' },
  tensor: { [tensor.externalData]: 'entry' },
  entry: {},
};
const MAX_DEPTH = 32;

export class OnnxReadError extends Error {}

/** The external data locations `file` names, as written in the graph (relative to its folder). */
export async function externalDataLocations(file: string): Promise<Set<string>> {
  const handle = await open(file, 'r');
  try {
    const size = (await handle.stat()).size;
    const reader = new PositionalReader(handle, size);
    const locations = new Set<string>();
    await walk(reader, 'model', 0, size, 0, locations);
    return locations;
  } finally {
    await handle.close();
  }
}

async function walk(reader: PositionalReader, kind: Kind, start: number, end: number, depth: number, locations: Set<string>): Promise<void> {
  if (depth > MAX_DEPTH) throw new OnnxReadError('nested too deeply');
  let position = start;
  let key: string | undefined;
  let value: string | undefined;
  while (position < end) {
    const tag = await reader.varint(position);
    position = tag.next;
    const field = Math.floor(tag.value / 8);
    const wire = tag.value % 8;
    if (wire === 0) {
      position = (await reader.varint(position)).next;
    } else if (wire === 1) {
      position += 8;
    } else if (wire === 5) {
      position += 4;
    } else if (wire === 2) {
      const length = await reader.varint(position);
      const from = length.next;
      const to = from + length.value;
      if (to > end) throw new OnnxReadError('a field runs past its message');
      const child = CHILDREN[kind][field];
      if (kind === 'entry' && (field === entry.key || field === entry.value) && length.value <= 4096) {
        const text = (await reader.bytes(from, length.value)).toString('utf8');
        if (field === entry.key) key = text;
        else value = text;
      } else if (child) {
        await walk(reader, child, from, to, depth + 1, locations);
      }
      position = to;
    } else {
      throw new OnnxReadError(`wire type ${wire} is not protobuf's`);
    }
  }
  if (position !== end) throw new OnnxReadError('a field runs past its message');
  if (kind === 'entry' && key === 'location' && value !== undefined) locations.add(value);
}

/** Reads at positions through a window, so a run of small reads costs one read of the file. */
class PositionalReader {
  private window = Buffer.alloc(0);
  private windowStart = 0;

  constructor(
    private readonly handle: FileHandle,
    private readonly size: number,
  ) {}

  async bytes(position: number, length: number): Promise<Buffer> {
    if (position + length > this.size) throw new OnnxReadError('the file ends inside a field');
    if (position < this.windowStart || position + length > this.windowStart + this.window.length) {
      const buffer = Buffer.alloc(Math.max(length, 64 * 1024));
      const { bytesRead } = await this.handle.read(buffer, 0, buffer.length, position);
      this.window = buffer.subarray(0, bytesRead);
      this.windowStart = position;
    }
    return this.window.subarray(position - this.windowStart, position - this.windowStart + length);
  }

  async varint(position: number): Promise<{ value: number; next: number }> {
    const bytes = await this.bytes(position, Math.min(10, this.size - position));
    let value = 0;
    let scale = 1;
    for (let index = 0; index < bytes.length; index++) {
      const byte = bytes[index]!;
      value += (byte & 0x7f) * scale;
      // values past 2^53 (negative int64s) lose precision; only lengths are used, and those are checked against the file
      if (byte < 0x80) return { value, next: position + index + 1 };
      scale *= 128;
    }
    throw new OnnxReadError('a number that does not end');
  }
}
