/**
 * Small helper graphs built at run time (the probe model, the WebGPU path's cache-append and
 * token-choice graphs) from a plain description, without shipping generated files: nodes, small
 * initializers held in the graph, and inputs/outputs with fixed or named dimensions. The messages
 * are onnx-proto.ts's.
 */

import { modelProto, nodeProto, tensorProto, type Attribute, type ConstantTensor, type ElementType, type ValueSpec } from './onnx-proto.js';

export type { Attribute, ConstantTensor, ElementType, ValueSpec };

export interface GraphNode {
  op: string;
  inputs: readonly string[];
  outputs: readonly string[];
  attributes?: Readonly<Record<string, Attribute>>;
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
  return modelProto({
    graphName: spec.name,
    nodes: spec.nodes.map((node, i) => nodeProto(node, i)),
    initializers: Object.entries(spec.initializers ?? {}).map(([name, tensor]) => tensorProto(name, tensor)),
    inputs: spec.inputs,
    outputs: spec.outputs,
    opsets: [{ domain: '', version: spec.opset ?? 17 }],
  });
}
