/**
 * A minimal ONNX protobuf writer: enough to build small helper graphs at run time (the probe model,
 * the WebGPU path's cache-append and token-choice graphs) without shipping generated files. It
 * writes only the fields those graphs use: nodes with int/ints/float/tensor attributes, small
 * initializers, and inputs/outputs with fixed or named dimensions.
 */

export type ElementType = 'float32' | 'float16' | 'int32' | 'int64' | 'bool';

const ELEMENT_CODES: Record<ElementType, number> = { float32: 1, int32: 6, int64: 7, bool: 9, float16: 10 };

function varint(value: bigint): number[] {
  // negative int64 values are written as their 64-bit two's complement, ten bytes
  let rest = BigInt.asUintN(64, value);
  const bytes: number[] = [];
  while (rest > 0x7fn) {
    bytes.push(Number(rest & 0x7fn) | 0x80);
    rest >>= 7n;
  }
  bytes.push(Number(rest));
  return bytes;
}

function key(tag: number, wire: number): number[] {
  return varint(BigInt((tag << 3) | wire));
}

function bytesField(tag: number, payload: readonly number[] | Uint8Array): number[] {
  return [...key(tag, 2), ...varint(BigInt(payload.length)), ...payload];
}

function intField(tag: number, value: number | bigint): number[] {
  return [...key(tag, 0), ...varint(BigInt(value))];
}

function textField(tag: number, value: string): number[] {
  return bytesField(tag, new TextEncoder().encode(value));
}

function floatField(tag: number, value: number): number[] {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setFloat32(0, value, true);
  return [...key(tag, 5), ...bytes];
}

/** A tensor held in the graph: dims and raw little-endian bytes. */
export interface ConstantTensor {
  type: ElementType;
  dims: readonly number[];
  data: Float32Array | Uint16Array | Int32Array | BigInt64Array | Uint8Array;
}

function tensorProto(name: string, tensor: ConstantTensor): number[] {
  const raw = new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength);
  return [...tensor.dims.flatMap((dim) => intField(1, dim)), ...intField(2, ELEMENT_CODES[tensor.type]), ...textField(8, name), ...bytesField(9, raw)];
}

export type Attribute = number | readonly number[] | { float: number } | { tensor: ConstantTensor };

function attributeProto(name: string, value: Attribute): number[] {
  if (typeof value === 'number') return [...textField(1, name), ...intField(3, value), ...intField(20, 2)];
  if (Array.isArray(value)) return [...textField(1, name), ...value.flatMap((v) => intField(8, v)), ...intField(20, 7)];
  if ('float' in value) return [...textField(1, name), ...floatField(2, value.float), ...intField(20, 1)];
  return [...textField(1, name), ...bytesField(5, tensorProto('', (value as { tensor: ConstantTensor }).tensor)), ...intField(20, 4)];
}

export interface GraphNode {
  op: string;
  inputs: readonly string[];
  outputs: readonly string[];
  attributes?: Readonly<Record<string, Attribute>>;
}

/** A graph input or output: element type and dims, a string dim being a named (free) size. */
export interface ValueSpec {
  name: string;
  type: ElementType;
  dims: readonly (number | string)[];
}

function valueInfo(spec: ValueSpec): number[] {
  const dims = spec.dims.flatMap((dim) => bytesField(1, typeof dim === 'number' ? intField(1, dim) : textField(2, dim)));
  const tensorType = [...intField(1, ELEMENT_CODES[spec.type]), ...bytesField(2, dims)];
  return [...textField(1, spec.name), ...bytesField(2, bytesField(1, tensorType))];
}

export interface GraphSpec {
  name: string;
  nodes: readonly GraphNode[];
  inputs: readonly ValueSpec[];
  outputs: readonly ValueSpec[];
  initializers?: Readonly<Record<string, ConstantTensor>>;
  /** Default-domain opset; 17 unless given. */
  opset?: number;
}

export function onnxModel(spec: GraphSpec): Uint8Array {
  const nodes = spec.nodes.map((node, i) =>
    bytesField(1, [
      ...node.inputs.flatMap((input) => textField(1, input)),
      ...node.outputs.flatMap((output) => textField(2, output)),
      ...textField(3, `${node.op}_${i}`),
      ...textField(4, node.op),
      ...Object.entries(node.attributes ?? {}).flatMap(([name, value]) => bytesField(5, attributeProto(name, value))),
    ]),
  );
  const graph = [
    ...nodes.flat(),
    ...textField(2, spec.name),
    ...Object.entries(spec.initializers ?? {}).flatMap(([name, tensor]) => bytesField(5, tensorProto(name, tensor))),
    ...spec.inputs.flatMap((input) => bytesField(11, valueInfo(input))),
    ...spec.outputs.flatMap((output) => bytesField(12, valueInfo(output))),
  ];
  const opset = [...textField(1, ''), ...intField(2, spec.opset ?? 17)];
  return Uint8Array.from([...intField(1, 8), ...bytesField(8, opset), ...bytesField(7, graph)]);
}
