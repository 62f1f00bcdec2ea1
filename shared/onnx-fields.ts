/**
 * Field numbers of onnx.proto's messages: the one table that the ONNX writer (electron/engine/onnx/)
 * and the package check's reader of external data (electron/core/model/onnx-external-data.ts) use.
 */

export const ONNX_FIELD = {
  model: { irVersion: 1, producerName: 2, producerVersion: 3, graph: 7, opsetImport: 8 },
  opset: { domain: 1, version: 2 },
  graph: { node: 1, name: 2, initializer: 5, input: 11, output: 12, sparseInitializer: 15 },
  node: { input: 1, output: 2, name: 3, opType: 4, attribute: 5, domain: 7 },
  attribute: { name: 1, f: 2, i: 3, s: 4, t: 5, g: 6, floats: 7, ints: 8, tensors: 10, graphs: 11, type: 20, sparseTensor: 22, sparseTensors: 23 },
  tensor: { dims: 1, dataType: 2, floatData: 4, name: 8, rawData: 9, externalData: 13, dataLocation: 14 },
  sparseTensor: { values: 1, indices: 2 },
  entry: { key: 1, value: 2 },
  valueInfo: { name: 1, type: 2 },
  type: { tensorType: 1 },
  tensorType: { elemType: 1, shape: 2 },
  shape: { dim: 1 },
  dimension: { value: 1, param: 2 },
} as const;
