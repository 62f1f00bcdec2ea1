/**
 * PP-OCRv4's ONNX graphs (opset 9, from paddle2onnx) spell every hard-swish as Add, Clip, Mul, Div
 * and follow every convolution with a scalar Mul and Add (PP-LCNetV3's learnable affine). ONNX
 * Runtime fuses neither, and these element-wise passes (with the layout reorders they force) took
 * about half the recogniser's time. This rewrites the graph, exactly up to float rounding: the
 * affine goes into the convolution's weights and bias, and each hard-swish becomes
 * x * HardSigmoid(x) (HardSigmoid exists since opset 6).
 */

import { ONNX_FIELD } from '../../../shared/onnx-fields.js';
import { attributeProto, ELEMENT_CODES, nodeProto } from '../onnx/onnx-proto.js';
import { concatBytes, decodeMessage, fieldText, lenField, stringField, WIRE_LEN, type WireField } from '../onnx/protobuf-wire.js';

const MODEL_GRAPH = ONNX_FIELD.model.graph;
const GRAPH_NODE = ONNX_FIELD.graph.node;
const GRAPH_OUTPUT = ONNX_FIELD.graph.output;
const { input: NODE_INPUT, output: NODE_OUTPUT, opType: NODE_OP, attribute: NODE_ATTRIBUTE } = ONNX_FIELD.node;
const { name: ATTR_NAME, f: ATTR_FLOAT, t: ATTR_TENSOR, ints: ATTR_INTS } = ONNX_FIELD.attribute;
const { dims: TENSOR_DIMS, dataType: TENSOR_TYPE, floatData: TENSOR_FLOAT_DATA, rawData: TENSOR_RAW } = ONNX_FIELD.tensor;

interface GraphNode {
  op: string;
  inputs: string[];
  outputs: string[];
  fields: WireField[];
  /** Encoded NodeProto. */
  bytes: Uint8Array;
}

interface FloatTensor {
  dims: number[];
  values: Float32Array;
}

export interface FusionResult {
  model: Uint8Array;
  affinesFolded: number;
  hardSwishes: number;
}

export function fusePpOcrGraph(model: Uint8Array): FusionResult {
  const modelFields = decodeMessage(model);
  const graphField = modelFields.find((f) => f.no === MODEL_GRAPH);
  if (!graphField) throw new Error('no graph in the model');
  const graphFields = decodeMessage(graphField.data);
  const nodes = graphFields.filter((f) => f.no === GRAPH_NODE).map((f) => parseNode(f.data));
  const graphOutputs = new Set(graphFields.filter((f) => f.no === GRAPH_OUTPUT).map((f) => fieldText(decodeMessage(f.data).find((g) => g.no === 1)!)));
  const constants = new Map<string, FloatTensor>();
  for (const node of nodes) {
    const tensor = node.op === 'Constant' ? constantTensor(node) : undefined;
    if (tensor) constants.set(node.outputs[0]!, tensor);
  }
  const users = new Map<string, GraphNode[]>();
  for (const node of nodes) for (const input of node.inputs) users.set(input, [...(users.get(input) ?? []), node]);
  const soleUser = (name: string, op: string) => {
    const list = users.get(name) ?? [];
    return list.length === 1 && list[0]!.op === op && !graphOutputs.has(name) ? list[0]! : undefined;
  };
  const scalarOperand = (node: GraphNode, other: string) => {
    if (node.inputs.length !== 2 || !node.inputs.includes(other)) return undefined;
    const tensor = constants.get(node.inputs[0] === other ? node.inputs[1]! : node.inputs[0]!);
    return tensor && tensor.values.length === 1 ? tensor.values[0]! : undefined;
  };

  const replaced = new Map<GraphNode, Uint8Array[]>();
  const dropped = new Set<GraphNode>();
  const producer = new Map<string, GraphNode>();
  for (const node of nodes) for (const output of node.outputs) producer.set(output, node);
  /** `value * scale + shift` by scalar Mul then Add, read from the value forwards. */
  const affineAfter = (value: string) => {
    const mul = soleUser(value, 'Mul');
    const scale = mul && scalarOperand(mul, value);
    const add = mul && soleUser(mul.outputs[0]!, 'Add');
    const shift = add && scalarOperand(add, mul.outputs[0]!);
    // An affine between two convolutions goes into the first one only.
    return mul && add && scale !== undefined && shift !== undefined && !dropped.has(mul) ? { mul, add, scale, shift, output: add.outputs[0]! } : undefined;
  };
  /** The same read backwards from its result, which only the convolution may use. */
  const affineBefore = (result: string) => {
    const add = producer.get(result);
    if (add?.op !== 'Add' || (users.get(result) ?? []).length !== 1) return undefined;
    const mul = producer.get(add.inputs.find((name) => !constants.has(name)) ?? '');
    const input = mul?.inputs.find((name) => !constants.has(name));
    const affine = input === undefined ? undefined : affineAfter(input);
    return affine && affine.add === add ? { ...affine, input: input! } : undefined;
  };
  // Opset 9 gives Clip's bounds as attributes, opset 11 as inputs.
  const clipBound = (clip: GraphNode, name: string, input: number) => {
    const operand = clip.inputs[input];
    return operand ? constants.get(operand)?.values[0] : floatAttribute(clip, name);
  };

  const added: Uint8Array[] = [];
  let affinesFolded = 0;
  let hardSwishes = 0;

  for (const conv of nodes) {
    if (conv.op !== 'Conv' || conv.outputs.length !== 1) continue;
    const weight = constants.get(conv.inputs[1] ?? '');
    if (!weight) continue;
    const outChannels = weight.dims[0]!;
    const bias = conv.inputs[2] ? constants.get(conv.inputs[2]) : { dims: [outChannels], values: new Float32Array(outChannels) };
    if (!bias || bias.values.length !== outChannels) continue;
    const after = affineAfter(conv.outputs[0]!);
    // An affine before the convolution folds exactly only where no zero padding meets it: 1x1 kernels.
    const before = weight.dims[2] === 1 && weight.dims[3] === 1 && !intsAttribute(conv, 'pads')?.some((p) => p !== 0) ? affineBefore(conv.inputs[0]!) : undefined;
    if (!after && !before) continue;
    const perOutput = weight.values.length / outChannels;
    const w = weight.values.map((v) => v * (before?.scale ?? 1) * (after?.scale ?? 1));
    const b = bias.values.map((v, o) => {
      let sum = 0;
      for (let i = o * perOutput; i < (o + 1) * perOutput; i++) sum += weight.values[i]!;
      return (v + (before?.shift ?? 0) * sum) * (after?.scale ?? 1) + (after?.shift ?? 0);
    });
    const weightName = `${conv.outputs[0]}.fused_weight`;
    const biasName = `${conv.outputs[0]}.fused_bias`;
    added.push(constantNode(weightName, { dims: weight.dims, values: w }), constantNode(biasName, { dims: [outChannels], values: b }));
    const kept = conv.fields.filter((f) => f.no !== NODE_INPUT && f.no !== NODE_OUTPUT).map((f) => f.raw);
    const input = before?.input ?? conv.inputs[0]!;
    const output = after?.output ?? conv.outputs[0]!;
    replaced.set(conv, [concatBytes([stringField(NODE_INPUT, input), stringField(NODE_INPUT, weightName), stringField(NODE_INPUT, biasName), stringField(NODE_OUTPUT, output), ...kept])]);
    for (const folded of [after, before]) if (folded) dropped.add(folded.mul).add(folded.add);
    affinesFolded += (after ? 1 : 0) + (before ? 1 : 0);
  }

  for (const add of nodes) {
    if (add.op !== 'Add' || dropped.has(add) || add.inputs.length !== 2) continue;
    const x = add.inputs.find((name) => !constants.has(name));
    if (x === undefined || scalarOperand(add, x) !== 3) continue;
    const clip = soleUser(add.outputs[0]!, 'Clip');
    if (!clip || clipBound(clip, 'min', 1) !== 0 || clipBound(clip, 'max', 2) !== 6) continue;
    const mul = soleUser(clip.outputs[0]!, 'Mul');
    if (!mul || !mul.inputs.includes(x)) continue;
    const div = soleUser(mul.outputs[0]!, 'Div');
    if (!div || div.inputs[0] !== mul.outputs[0] || constants.get(div.inputs[1]!)?.values.length !== 1 || constants.get(div.inputs[1]!)!.values[0] !== 6) continue;
    const gate = `${add.outputs[0]}.hard_sigmoid`;
    replaced.set(add, [
      node('HardSigmoid', [x], [gate], [floatAttributeField('alpha', 1 / 6), floatAttributeField('beta', 0.5)]),
      node('Mul', [x, gate], [div.outputs[0]!], []),
    ]);
    dropped.add(clip).add(mul).add(div);
    hardSwishes++;
  }

  // Constants only the rewritten nodes read (old weights, the 3 and 6 of hard-swish) go too, or ONNX
  // Runtime warns about each unused initializer when the session opens.
  for (const constant of nodes.filter((n) => n.op === 'Constant')) {
    const readers = users.get(constant.outputs[0]!) ?? [];
    if (readers.length > 0 && readers.every((n) => dropped.has(n) || replaced.has(n))) dropped.add(constant);
  }
  const nodeBytes = [...added, ...nodes.flatMap((n) => (dropped.has(n) ? [] : (replaced.get(n) ?? [n.bytes])))];
  const firstNode = graphFields.findIndex((f) => f.no === GRAPH_NODE);
  const graph = concatBytes([
    ...graphFields.slice(0, firstNode).filter((f) => f.no !== GRAPH_NODE).map((f) => f.raw),
    ...nodeBytes.map((bytes) => lenField(GRAPH_NODE, bytes)),
    ...graphFields.slice(firstNode).filter((f) => f.no !== GRAPH_NODE).map((f) => f.raw),
  ]);
  const fused = concatBytes(modelFields.map((f) => (f === graphField ? lenField(MODEL_GRAPH, graph) : f.raw)));
  return { model: fused, affinesFolded, hardSwishes };
}

function parseNode(bytes: Uint8Array): GraphNode {
  const fields = decodeMessage(bytes);
  const texts = (no: number) => fields.filter((f) => f.no === no).map(fieldText);
  return { op: texts(NODE_OP)[0] ?? '', inputs: texts(NODE_INPUT), outputs: texts(NODE_OUTPUT), fields, bytes };
}

function attributes(node: GraphNode): Map<string, WireField[]> {
  const out = new Map<string, WireField[]>();
  for (const field of node.fields.filter((f) => f.no === NODE_ATTRIBUTE)) {
    const inner = decodeMessage(field.data);
    const name = inner.find((f) => f.no === ATTR_NAME);
    if (name) out.set(fieldText(name), inner);
  }
  return out;
}

function floatAttribute(node: GraphNode, name: string): number | undefined {
  const value = attributes(node).get(name)?.find((f) => f.no === ATTR_FLOAT);
  return value ? new DataView(value.data.buffer, value.data.byteOffset, 4).getFloat32(0, true) : undefined;
}

function intsAttribute(node: GraphNode, name: string): number[] | undefined {
  const values = attributes(node).get(name)?.filter((f) => f.no === ATTR_INTS);
  if (!values) return undefined;
  return values.flatMap((f) => (f.wire === WIRE_LEN ? decodeMessage(packedAsVarints(f.data)).map((g) => g.value) : [f.value]));
}

/** A Constant node's value when it is a float tensor. */
function constantTensor(node: GraphNode): FloatTensor | undefined {
  const tensorField = attributes(node).get('value')?.find((f) => f.no === ATTR_TENSOR);
  if (!tensorField) return undefined;
  const fields = decodeMessage(tensorField.data);
  if ((fields.find((f) => f.no === TENSOR_TYPE)?.value ?? 0) !== ELEMENT_CODES.float32) return undefined;
  const dims: number[] = [];
  for (const f of fields.filter((g) => g.no === TENSOR_DIMS)) {
    if (f.wire === WIRE_LEN) dims.push(...decodeMessage(packedAsVarints(f.data)).map((g) => g.value));
    else dims.push(f.value);
  }
  const raw = fields.find((f) => f.no === TENSOR_RAW);
  const floats = raw ? raw.data : concatBytes(fields.filter((f) => f.no === TENSOR_FLOAT_DATA).map((f) => f.data));
  const values = new Float32Array(floats.length / 4);
  const view = new DataView(floats.buffer, floats.byteOffset, floats.length);
  for (let i = 0; i < values.length; i++) values[i] = view.getFloat32(4 * i, true);
  const count = dims.reduce((n, d) => n * d, 1);
  return values.length === count ? { dims, values } : undefined;
}

/** Packed varints re-tagged as field 1 each, so the message decoder reads them. */
function packedAsVarints(data: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < data.length; i++) {
    if (i === 0 || data[i - 1]! < 0x80) out.push(8);
    out.push(data[i]!);
  }
  return Uint8Array.from(out);
}

function node(op: string, inputs: string[], outputs: string[], attributeFields: Uint8Array[]): Uint8Array {
  return concatBytes([nodeProto({ op, inputs, outputs, name: outputs[0]! }), ...attributeFields]);
}

function floatAttributeField(name: string, value: number): Uint8Array {
  return lenField(NODE_ATTRIBUTE, attributeProto(name, { float: value }));
}

function constantNode(name: string, tensor: FloatTensor): Uint8Array {
  const value = attributeProto('value', { tensor: { type: 'float32', dims: tensor.dims, data: tensor.values } });
  return node('Constant', [], [name], [lenField(NODE_ATTRIBUTE, value)]);
}
