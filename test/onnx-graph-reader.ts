/**
 * An ONNX graph's structure as tests inspect it: nodes (op, name, inputs, attributes), initializers
 * (name, type, dims, where their external data lies) and the graph's inputs and outputs with their
 * element types. The weights themselves are not read.
 */

import { readFileSync } from 'node:fs';
import { decodeMessage, type WireField } from '../electron/engine/onnx/protobuf-wire.js';
import { ONNX_FIELD } from '../shared/onnx-fields.js';

export type AttributeValue = number | string | number[];

export interface GraphNode {
  opType: string;
  name: string;
  domain: string;
  inputs: string[];
  outputs: string[];
  attributes: Record<string, AttributeValue>;
}

export interface GraphInitializer {
  name: string;
  /** onnx.TensorProto.DataType: 1 float, 2 uint8, 7 int64, 10 float16. */
  dataType: number;
  dims: number[];
  /** `external_data` entries in order (location, offset, length, ...), empty for an inline tensor. */
  external: [string, string][];
}

export interface GraphSummary {
  nodes: GraphNode[];
  initializers: GraphInitializer[];
  /** Element type of each graph input and output, by name. */
  types: Record<string, number>;
  inputs: string[];
  outputs: string[];
}

const { model, graph, node, attribute, tensor, entry, valueInfo, type, tensorType } = ONNX_FIELD;
const text = (field: WireField) => Buffer.from(field.data).toString('utf8');
const fieldsOf = (fields: WireField[], no: number) => fields.filter((f) => f.no === no);
const textOf = (fields: WireField[], no: number) => fieldsOf(fields, no).map(text);

/** Repeated varints, packed or not; numbers beyond 2^53 lose precision (a test reads small ones). */
function varints(fields: WireField[], no: number): number[] {
  return fieldsOf(fields, no).flatMap((f) => (f.wire === 0 ? [f.value] : decodeMessage(prefixPacked(f.data)).map((v) => v.value)));
}

/** Packed varints re-tagged as field 1 varints, so the wire reader splits them. */
function prefixPacked(data: Uint8Array): Uint8Array {
  const out: number[] = [];
  let start = true;
  for (const byte of data) {
    if (start) out.push(0x08);
    out.push(byte);
    start = byte < 0x80;
  }
  return Uint8Array.from(out);
}

function attributeValue(fields: WireField[]): AttributeValue {
  const ints = varints(fields, attribute.ints);
  if (ints.length) return ints;
  const s = fieldsOf(fields, attribute.s)[0];
  if (s) return text(s);
  const f = fieldsOf(fields, attribute.f)[0];
  if (f) return Buffer.from(f.data).readFloatLE(0);
  return fieldsOf(fields, attribute.i)[0]?.value ?? 0;
}

function readNode(fields: WireField[]): GraphNode {
  const attributes: Record<string, AttributeValue> = {};
  for (const a of fieldsOf(fields, node.attribute)) {
    const parts = decodeMessage(a.data);
    attributes[textOf(parts, attribute.name)[0] ?? ''] = attributeValue(parts);
  }
  return {
    opType: textOf(fields, node.opType)[0] ?? '',
    name: textOf(fields, node.name)[0] ?? '',
    domain: textOf(fields, node.domain)[0] ?? '',
    inputs: textOf(fields, node.input),
    outputs: textOf(fields, node.output),
    attributes,
  };
}

function readInitializer(fields: WireField[]): GraphInitializer {
  return {
    name: textOf(fields, tensor.name)[0] ?? '',
    dataType: fieldsOf(fields, tensor.dataType)[0]?.value ?? 0,
    dims: varints(fields, tensor.dims),
    external: fieldsOf(fields, tensor.externalData).map((e) => {
      const parts = decodeMessage(e.data);
      return [textOf(parts, entry.key)[0] ?? '', textOf(parts, entry.value)[0] ?? ''];
    }),
  };
}

function elementType(fields: WireField[]): number {
  const typeField = fieldsOf(fields, valueInfo.type)[0];
  const tensorField = typeField && fieldsOf(decodeMessage(typeField.data), type.tensorType)[0];
  return (tensorField && fieldsOf(decodeMessage(tensorField.data), tensorType.elemType)[0]?.value) ?? 0;
}

/** The graph of the ONNX file `file` (its external weights are not opened). */
export function readGraph(file: string): GraphSummary {
  const graphField = fieldsOf(decodeMessage(readFileSync(file)), model.graph)[0];
  if (!graphField) throw new Error(`${file}: no graph`);
  const fields = decodeMessage(graphField.data);
  const types: Record<string, number> = {};
  const named = (no: number) => fieldsOf(fields, no).map((f) => {
    const parts = decodeMessage(f.data);
    const name = textOf(parts, valueInfo.name)[0] ?? '';
    types[name] = elementType(parts);
    return name;
  });
  return {
    nodes: fieldsOf(fields, graph.node).map((f) => readNode(decodeMessage(f.data))),
    initializers: fieldsOf(fields, graph.initializer).map((f) => readInitializer(decodeMessage(f.data))),
    inputs: named(graph.input),
    outputs: named(graph.output),
    types,
  };
}
