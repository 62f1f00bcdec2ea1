/**
 * The smallest valid ONNX model (one float passed through Identity), encoded by hand so that an
 * execution provider can be tried without any model package installed.
 */

function varint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest > 0x7f) {
    bytes.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return bytes;
}

function field(tag: number, payload: number[]): number[] {
  return [...varint((tag << 3) | 2), ...varint(payload.length), ...payload];
}

function intField(tag: number, value: number): number[] {
  return [...varint(tag << 3), ...varint(value)];
}

function text(tag: number, value: string): number[] {
  return field(tag, [...new TextEncoder().encode(value)]);
}

/** ValueInfoProto for a float tensor of shape [1]. */
function floatScalarInfo(name: string): number[] {
  const shape = field(2, field(1, intField(1, 1)));
  const tensorType = field(1, [...intField(1, 1), ...shape]);
  return [...text(1, name), ...field(2, tensorType)];
}

export function identityModel(): Uint8Array {
  const node = [...text(1, 'x'), ...text(2, 'y'), ...text(4, 'Identity')];
  const graph = [...field(1, node), ...text(2, 'probe'), ...field(11, floatScalarInfo('x')), ...field(12, floatScalarInfo('y'))];
  const opset = [...text(1, ''), ...intField(2, 17)];
  return Uint8Array.from([...intField(1, 8), ...field(8, opset), ...field(7, graph)]);
}
