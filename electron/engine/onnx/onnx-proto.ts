/**
 * ONNX's protobuf messages (onnx.proto: model, graph, node, attribute, tensor, value info), written
 * with protobuf-wire.ts. Folio's one ONNX writer: the small helper graphs (onnx-writer.ts), the
 * model package exporter (model-export/) and the PP-OCR graph rewrite (lite/ppocr-graph-fusion.ts,
 * which also reads with these field numbers) all use it; the field numbers are shared/onnx-fields.ts's, which the package check in core/ reads by. Tensors are inline (`raw_data`) or point
 * into an external data file, as ONNX Runtime maps large weights.
 */

import { ONNX_FIELD } from '../../../shared/onnx-fields.js';
import { concatBytes, float32Field, lenField, messageField, stringField, varintField } from './protobuf-wire.js';

/** AttributeProto.AttributeType. */
export const ATTRIBUTE_TYPE = { float: 1, int: 2, string: 3, tensor: 4, floats: 6, ints: 7 } as const;

/** The IR version onnx 1.12 writes, which ONNX Runtime 1.30 reads. */
const IR_VERSION = 8;
const EXTERNAL = 1;

export type ElementType = 'float32' | 'uint8' | 'int8' | 'int32' | 'int64' | 'bool' | 'float16';

/** TensorProto.DataType. */
export const ELEMENT_CODES: Record<ElementType, number> = { float32: 1, uint8: 2, int8: 3, int32: 6, int64: 7, bool: 9, float16: 10 };

export type TensorData = Float32Array | Uint16Array | Int32Array | BigInt64Array | Uint8Array | Int8Array;

/** A tensor held in the graph: dims and raw little-endian bytes. */
export interface ConstantTensor {
  type: ElementType;
  dims: readonly number[];
  data: TensorData;
}

/** A tensor whose bytes lie in an external data file beside the graph. */
export interface ExternalTensor {
  type: ElementType;
  dims: readonly number[];
  location: string;
  offset: number;
  length: number;
}

export function bytesOf(data: TensorData): Uint8Array {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

export function tensorProto(name: string, tensor: ConstantTensor | ExternalTensor): Uint8Array {
  const f = ONNX_FIELD.tensor;
  const head = [...tensor.dims.map((dim) => varintField(f.dims, dim)), varintField(f.dataType, ELEMENT_CODES[tensor.type]), stringField(f.name, name)];
  if ('data' in tensor) return concatBytes([...head, lenField(f.rawData, bytesOf(tensor.data))]);
  const entry = (key: string, value: string) => messageField(f.externalData, [stringField(ONNX_FIELD.entry.key, key), stringField(ONNX_FIELD.entry.value, value)]);
  return concatBytes([
    ...head,
    entry('location', tensor.location),
    entry('offset', String(tensor.offset)),
    entry('length', String(tensor.length)),
    varintField(f.dataLocation, EXTERNAL),
  ]);
}

/** An integer (a number), integers (an array), or a float, floats, string or tensor named as such. */
export type Attribute =
  | number
  | readonly number[]
  | { float: number }
  | { floats: readonly number[] }
  | { string: string }
  | { tensor: ConstantTensor };

export function attributeProto(name: string, value: Attribute): Uint8Array {
  const f = ONNX_FIELD.attribute;
  const named = stringField(f.name, name);
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new Error(`attribute ${name} = ${value}: an integer attribute must be whole; write { float: ${value} }`);
    return concatBytes([named, varintField(f.i, value), varintField(f.type, ATTRIBUTE_TYPE.int)]);
  }
  if (Array.isArray(value)) return concatBytes([named, ...value.map((v: number) => varintField(f.ints, v)), varintField(f.type, ATTRIBUTE_TYPE.ints)]);
  if ('float' in value) return concatBytes([named, float32Field(f.f, value.float), varintField(f.type, ATTRIBUTE_TYPE.float)]);
  if ('floats' in value) return concatBytes([named, ...value.floats.map((v) => float32Field(f.floats, v)), varintField(f.type, ATTRIBUTE_TYPE.floats)]);
  if ('string' in value) return concatBytes([named, stringField(f.s, value.string), varintField(f.type, ATTRIBUTE_TYPE.string)]);
  return concatBytes([named, lenField(f.t, tensorProto('', (value as { tensor: ConstantTensor }).tensor)), varintField(f.type, ATTRIBUTE_TYPE.tensor)]);
}

export interface NodeSpec {
  op: string;
  inputs: readonly string[];
  outputs: readonly string[];
  /** The node's name; its op and position when not given. */
  name?: string;
  /** The operator's domain: '' (ONNX's own) unless given, `com.microsoft` for ONNX Runtime's contrib operators. */
  domain?: string;
  attributes?: Readonly<Record<string, Attribute>>;
}

/** A NodeProto; attributes in name order, as onnx.helper writes them. */
export function nodeProto(node: NodeSpec, index = 0): Uint8Array {
  const f = ONNX_FIELD.node;
  const attributes = Object.entries(node.attributes ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return concatBytes([
    ...node.inputs.map((input) => stringField(f.input, input)),
    ...node.outputs.map((output) => stringField(f.output, output)),
    stringField(f.name, node.name ?? `${node.op}_${index}`),
    stringField(f.opType, node.op),
    ...attributes.map(([name, value]) => lenField(f.attribute, attributeProto(name, value))),
    ...(node.domain ? [stringField(f.domain, node.domain)] : []),
  ]);
}

/** A graph input or output: element type and dims, a string dim being a named (free) size. */
export interface ValueSpec {
  name: string;
  type: ElementType;
  dims: readonly (number | string)[];
}

export function valueInfoProto(spec: ValueSpec): Uint8Array {
  const d = ONNX_FIELD.dimension;
  const dims = spec.dims.map((dim) => messageField(ONNX_FIELD.shape.dim, [typeof dim === 'number' ? varintField(d.value, dim) : stringField(d.param, dim)]));
  // a scalar keeps an empty shape: no shape at all would mean "rank unknown"
  const tensorType = [varintField(ONNX_FIELD.tensorType.elemType, ELEMENT_CODES[spec.type]), lenField(ONNX_FIELD.tensorType.shape, concatBytes(dims))];
  return concatBytes([stringField(ONNX_FIELD.valueInfo.name, spec.name), messageField(ONNX_FIELD.valueInfo.type, [messageField(ONNX_FIELD.type.tensorType, tensorType)])]);
}

export interface OpsetImport {
  domain: string;
  version: number;
}

export interface ModelParts {
  graphName: string;
  /** Encoded NodeProtos, in order. */
  nodes: readonly Uint8Array[];
  /** Encoded TensorProtos. */
  initializers: readonly Uint8Array[];
  inputs: readonly ValueSpec[];
  outputs: readonly ValueSpec[];
  opsets: readonly OpsetImport[];
  producer?: string;
}

export function modelProto(parts: ModelParts): Uint8Array {
  const g = ONNX_FIELD.graph;
  const graph = concatBytes([
    ...parts.nodes.map((node) => lenField(g.node, node)),
    stringField(g.name, parts.graphName),
    ...parts.initializers.map((tensor) => lenField(g.initializer, tensor)),
    ...parts.inputs.map((input) => lenField(g.input, valueInfoProto(input))),
    ...parts.outputs.map((output) => lenField(g.output, valueInfoProto(output))),
  ]);
  const m = ONNX_FIELD.model;
  return concatBytes([
    varintField(m.irVersion, IR_VERSION),
    ...(parts.producer ? [stringField(m.producerName, parts.producer)] : []),
    lenField(m.graph, graph),
    ...parts.opsets.map((opset) => messageField(m.opsetImport, [stringField(ONNX_FIELD.opset.domain, opset.domain), varintField(ONNX_FIELD.opset.version, opset.version)])),
  ]);
}
