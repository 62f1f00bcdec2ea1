/**
 * The smallest valid ONNX model (one float passed through Identity), so that an execution provider
 * can be tried without any model package installed.
 */

import { onnxModel } from './onnx-writer.js';

export function identityModel(): Uint8Array {
  return onnxModel({
    name: 'probe',
    nodes: [{ op: 'Identity', inputs: ['x'], outputs: ['y'] }],
    inputs: [{ name: 'x', type: 'float32', dims: [1] }],
    outputs: [{ name: 'y', type: 'float32', dims: [1] }],
  });
}
