/**
 * Protocol Buffers at the wire level, both ways. Reading keeps each field with its own encoded bytes,
 * so a rewrite (lite/ppocr-graph-fusion.ts) re-emits untouched fields exactly as they were read;
 * writing builds a message from encoded fields (onnx-proto.ts spells ONNX's messages with it).
 */

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_LEN = 2;
export const WIRE_FIXED32 = 5;

export interface WireField {
  no: number;
  wire: number;
  /** The payload: a varint's value, or the bytes of a length-delimited or fixed field. */
  value: number;
  data: Uint8Array;
  /** Tag and payload as encoded. */
  raw: Uint8Array;
}

function readVarint(bytes: Uint8Array, at: number): [value: number, next: number] {
  let value = 0;
  let scale = 1;
  for (let i = at; i < bytes.length; i++) {
    const byte = bytes[i]!;
    value += (byte & 0x7f) * scale;
    scale *= 128;
    if (byte < 0x80) return [value, i + 1];
  }
  throw new Error(`truncated varint at byte ${at}`);
}

export function decodeMessage(bytes: Uint8Array): WireField[] {
  const fields: WireField[] = [];
  for (let at = 0; at < bytes.length; ) {
    const start = at;
    const [tag, afterTag] = readVarint(bytes, at);
    const no = Math.floor(tag / 8);
    const wire = tag % 8;
    let value = 0;
    let data: Uint8Array;
    if (wire === WIRE_VARINT) {
      [value, at] = readVarint(bytes, afterTag);
      data = bytes.subarray(afterTag, at);
    } else if (wire === WIRE_LEN) {
      const [length, afterLength] = readVarint(bytes, afterTag);
      at = afterLength + length;
      data = bytes.subarray(afterLength, at);
    } else if (wire === WIRE_FIXED32 || wire === WIRE_FIXED64) {
      at = afterTag + (wire === WIRE_FIXED32 ? 4 : 8);
      data = bytes.subarray(afterTag, at);
    } else {
      throw new Error(`unsupported wire type ${wire} at byte ${start}`);
    }
    if (at > bytes.length) throw new Error(`field ${no} runs past the end at byte ${start}`);
    fields.push({ no, wire, value, data, raw: bytes.subarray(start, at) });
  }
  return fields;
}

export function fieldText(field: WireField): string {
  return new TextDecoder().decode(field.data);
}

/** A varint's bytes; a negative value is its 64-bit two's complement (ten bytes), as protobuf writes int64. */
function varint(value: number | bigint): number[] {
  const out: number[] = [];
  if (typeof value === 'number' && value >= 0 && Number.isSafeInteger(value)) {
    let rest = value;
    while (rest >= 0x80) {
      out.push((rest % 128) | 0x80);
      rest = Math.floor(rest / 128);
    }
    out.push(rest);
    return out;
  }
  let rest = BigInt.asUintN(64, BigInt(value));
  while (rest > 0x7fn) {
    out.push(Number(rest & 0x7fn) | 0x80);
    rest >>= 7n;
  }
  out.push(Number(rest));
  return out;
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const utf8 = new TextEncoder();

export function lenField(no: number, payload: Uint8Array): Uint8Array {
  const head = [...varint(no * 8 + WIRE_LEN), ...varint(payload.length)];
  const out = new Uint8Array(head.length + payload.length);
  out.set(head);
  out.set(payload, head.length);
  return out;
}

/** A length-delimited field holding a message made of `fields`. */
export function messageField(no: number, fields: readonly Uint8Array[]): Uint8Array {
  return lenField(no, concatBytes(fields));
}

export function stringField(no: number, text: string): Uint8Array {
  return lenField(no, utf8.encode(text));
}

export function varintField(no: number, value: number | bigint): Uint8Array {
  return Uint8Array.from([...varint(no * 8 + WIRE_VARINT), ...varint(value)]);
}

export function float32Field(no: number, value: number): Uint8Array {
  const out = new Uint8Array([...varint(no * 8 + WIRE_FIXED32), 0, 0, 0, 0]);
  new DataView(out.buffer).setFloat32(out.length - 4, value, true);
  return out;
}
