/**
 * One ONNX graph built node by node. Each weight goes into the graph's external data file the moment
 * it is added (or is found there, written by a graph built before from the same weights), so the
 * graph itself keeps only names, shapes and offsets; weights under `INLINE_BYTES` stay in the
 * protobuf.
 */

import { writeFileSync } from 'node:fs';
import { modelProto, nodeProto, tensorProto, type Attribute, type ConstantTensor, type ElementType, type TensorData, type ValueSpec } from '../onnx/onnx-proto.js';
import type { WeightsFile } from './weights-file.js';

export const OPSET = 17;
export const CONTRIB_DOMAIN = 'com.microsoft';
/** Weights below this are kept inside the protobuf. */
const INLINE_BYTES = 1024;

export interface OpOptions {
  /** Outputs the node has; more than one returns a list. */
  outputs?: number;
  domain?: string;
  /** Optional outputs left unnamed. */
  omit?: readonly number[];
  attributes?: Readonly<Record<string, Attribute>>;
}

/** A weight made only if the data file does not hold it yet. */
export type WeightSource = ConstantTensor | (() => ConstantTensor);

export class GraphBuilder {
  private readonly nodes: Uint8Array[] = [];
  private readonly contrib = new Set<string>();
  private readonly initializers: Uint8Array[] = [];
  private readonly inputs: ValueSpec[] = [];
  private readonly outputs: ValueSpec[] = [];
  private readonly used = new Set<string>();

  constructor(
    private readonly name: string,
    private readonly data: WeightsFile,
  ) {}

  private unique(name: string): string {
    let candidate = name;
    for (let n = 2; this.used.has(candidate); n++) candidate = `${name}_${n}`;
    this.used.add(candidate);
    return candidate;
  }

  input(name: string, type: ElementType, dims: readonly (number | string)[]): string {
    this.used.add(name);
    this.inputs.push({ name, type, dims });
    return name;
  }

  /** Declares `value` a graph output called `name` (through an Identity when they differ). */
  output(value: string, name: string, type: ElementType, dims: readonly (number | string)[]): void {
    if (value !== name) {
      this.used.add(name);
      this.nodes.push(nodeProto({ op: 'Identity', inputs: [value], outputs: [name], name: `${name}/identity` }));
    }
    this.outputs.push({ name, type, dims });
  }

  /**
   * A named initialiser. `key` places it in the data file (default: its name); a weight already
   * there under that key is pointed to without making it again.
   */
  weight(name: string, source: WeightSource, key = name): string {
    const unique = this.unique(name);
    const placed = this.data.find(key);
    if (placed) {
      this.initializers.push(tensorProto(unique, placed));
      return unique;
    }
    const tensor = typeof source === 'function' ? source() : source;
    if (tensor.data.byteLength < INLINE_BYTES) this.initializers.push(tensorProto(unique, tensor));
    else this.initializers.push(tensorProto(unique, this.data.add(key, tensor.type, tensor.dims, tensor.data)));
    return unique;
  }

  /** One external initialiser written from parts made one at a time (a layer's experts), or found in the data file under `key`. */
  weightParts(name: string, type: ElementType, dims: readonly number[], parts: () => Iterable<TensorData>, key = name): string {
    const unique = this.unique(name);
    const tensor = this.data.find(key) ?? this.data.addParts(key, type, dims, parts());
    this.initializers.push(tensorProto(unique, tensor));
    return unique;
  }

  /** An int64 constant: a scalar for a number, a vector for a list. */
  ints(name: string, values: number | readonly number[]): string {
    const list = typeof values === 'number' ? [values] : values;
    return this.weight(name, { type: 'int64', dims: typeof values === 'number' ? [] : [list.length], data: BigInt64Array.from(list, (v) => BigInt(v)) });
  }

  /** Appends a node; returns its output name (a list when `outputs` > 1, with '' for the omitted ones). An empty input name is an omitted optional input. */
  op(op: string, inputs: readonly string[], name: string, options?: OpOptions & { outputs?: 1 }): string;
  op(op: string, inputs: readonly string[], name: string, options: OpOptions & { outputs: number }): string[];
  op(op: string, inputs: readonly string[], name: string, options: OpOptions = {}): string | string[] {
    const count = options.outputs ?? 1;
    const node = this.unique(name);
    const produced = Array.from({ length: count }, (_, i) => (count === 1 ? node : options.omit?.includes(i) ? '' : this.unique(`${node}:${i}`)));
    this.nodes.push(nodeProto({ op, inputs, outputs: produced, name: node, domain: options.domain, attributes: options.attributes }));
    if (options.domain === CONTRIB_DOMAIN) this.contrib.add(`${CONTRIB_DOMAIN}.${op}`);
    return count === 1 ? node : produced;
  }

  nodeCount(): number {
    return this.nodes.length;
  }

  /** `com.microsoft.<Op>` for each contrib operator the graph uses: what a provider must have. */
  contribOps(): string[] {
    return [...this.contrib].sort();
  }

  /** Writes the graph's protobuf to `file`. */
  finish(file: string): void {
    writeFileSync(file, modelProto({
      graphName: this.name,
      nodes: this.nodes,
      initializers: this.initializers,
      inputs: this.inputs,
      outputs: this.outputs,
      opsets: [{ domain: '', version: OPSET }, { domain: CONTRIB_DOMAIN, version: 1 }],
      producer: 'folio model-export',
    }));
  }
}
