/**
 * Runtime validation of requests arriving at the engine host: the other end of the channel is a
 * separate process (later a renderer's port), so its messages are checked, not trusted. Written out
 * rather than with zod: loading zod was about 70 ms of CPU in every engine host a command starts
 * (docs/text-engine-speed.md). Like zod's objects, each check builds a fresh object of the known
 * keys only; anything else in a message is dropped.
 */

import { MAX_PAGES_IN_FLIGHT, MAX_SPEC_K } from './conversion-defaults.js';
import { parseDeviceRequest } from './device.js';
import { ENGINE_CHOICES } from './engine-name.js';
import { OCR_LANGUAGES } from './ocr-languages.js';
import { REMOTE_IMAGE_FORMATS, type ConvertOptions, type DeviceProbeRequest, type HostRequest, type RemoteOptions, type VlmOptions } from './protocol.js';

export type ParsedRequest = { ok: true; request: HostRequest } | { ok: false; docId?: string; message: string };

export function parseHostRequest(message: unknown): ParsedRequest {
  const issues: string[] = [];
  const request = hostRequest(message, new Reader(issues, ''));
  if (request && issues.length === 0) return { ok: true, request };
  return { ok: false, docId: docIdOf(message), message: `Malformed request to the engine host (${issues.join('; ')}).` };
}

/** Reads the fields of one object, noting each wrong one under its path (`options.vlm.specK`). */
class Reader {
  constructor(
    readonly issues: string[],
    readonly path: string,
  ) {}

  at(key: string | number): Reader {
    return new Reader(this.issues, this.path ? `${this.path}.${key}` : String(key));
  }

  fail(message: string): undefined {
    this.issues.push(`${this.path || 'message'}: ${message}`);
    return undefined;
  }

  /** The value as a plain object (not null, not an array), or undefined after noting why not. */
  object(value: unknown): Record<string, unknown> | undefined {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return this.fail('expected an object');
    return value as Record<string, unknown>;
  }

  string(value: unknown, minLength = 0, maxLength = Infinity): string | undefined {
    if (typeof value !== 'string') return this.fail('expected a string');
    if (value.length < minLength) return this.fail(`expected at least ${minLength} characters`);
    if (value.length > maxLength) return this.fail(`expected at most ${maxLength} characters`);
    return value;
  }

  boolean(value: unknown): boolean | undefined {
    return typeof value === 'boolean' ? value : this.fail('expected a boolean');
  }

  /** A safe integer from `min` to `max`. */
  int(value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) return this.fail('expected an integer');
    if (value < min || value > max) return this.fail(`expected an integer from ${min} to ${max}`);
    return value;
  }

  positive(value: unknown): number | undefined {
    return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : this.fail('expected a positive number');
  }

  oneOf<T extends string>(value: unknown, choices: readonly T[]): T | undefined {
    return choices.includes(value as T) ? (value as T) : this.fail(`expected one of ${choices.map((c) => `"${c}"`).join(', ')}`);
  }

  /** An integer from `min` to `max`, or `'auto'`. */
  intOrAuto(value: unknown, min: number, max: number): number | 'auto' | undefined {
    return value === 'auto' ? 'auto' : this.int(value, min, max);
  }

  /** A device such as `cpu`, `cuda:1` or `auto` (shared/device.ts). */
  device(value: unknown): string | undefined {
    const text = this.string(value);
    return text === undefined || parseDeviceRequest(text) !== null ? text : this.fail('expected a device such as cpu, cuda or auto');
  }
}

/** Reads `fields` of `source`, each through `read` at its own path; a field that is absent (undefined) is left out when optional. */
function fields<T extends object>(source: Record<string, unknown>, reader: Reader, read: { [K in keyof T]-?: [optional: boolean, (value: unknown, at: Reader) => T[K] | undefined] }): T | undefined {
  const out: Record<string, unknown> = {};
  let ok = true;
  for (const key of Object.keys(read) as (keyof T & string)[]) {
    const [optional, check] = read[key];
    const value = Object.hasOwn(source, key) ? source[key] : undefined;
    if (value === undefined && optional) continue;
    const at = reader.at(key);
    const parsed = value === undefined ? at.fail('required') : check(value, at);
    if (parsed === undefined) ok = false;
    else out[key] = parsed;
  }
  return ok ? (out as T) : undefined;
}

const docId = (value: unknown, at: Reader) => at.string(value, 1, 200);
const nonEmpty = (value: unknown, at: Reader) => at.string(value, 1);

function vlmOptions(value: unknown, at: Reader): VlmOptions | undefined {
  const source = at.object(value);
  return (
    source &&
    fields<VlmOptions>(source, at, {
      modelDir: [false, nonEmpty],
      specK: [false, (v, a) => a.intOrAuto(v, 0, MAX_SPEC_K)],
      mode: [true, nonEmpty],
      maxNewTokens: [false, (v, a) => a.int(v, 1)],
      device: [true, (v, a) => a.device(v)],
      calibrationDir: [true, nonEmpty],
      pagesInFlight: [true, (v, a) => a.intOrAuto(v, 1, MAX_PAGES_IN_FLIGHT)],
      documentPages: [true, (v, a) => a.int(v, 1)],
    })
  );
}

/** `idleTimeoutMs` is not read here (as it was not by the zod schema before): the host uses its default. */
function remoteOptions(value: unknown, at: Reader): Omit<RemoteOptions, 'idleTimeoutMs'> | undefined {
  const source = at.object(value);
  return (
    source &&
    fields<Omit<RemoteOptions, 'idleTimeoutMs'>>(source, at, {
      server: [false, nonEmpty],
      model: [false, nonEmpty],
      concurrency: [false, (v, a) => a.int(v, 1, 1024)],
      timeoutMs: [false, (v, a) => a.positive(v)],
      retries: [false, (v, a) => a.int(v, 0, 20)],
      imageLongSide: [false, (v, a) => a.int(v, 64, 8192)],
      imageFormat: [false, (v, a) => a.oneOf(v, REMOTE_IMAGE_FORMATS)],
      maxTokens: [false, (v, a) => a.int(v, 1)],
      prompt: [true, (v, a) => a.string(v)],
      extraBody: [true, (v, a) => (a.object(v) ? { ...(v as Record<string, unknown>) } : undefined)],
    })
  );
}

function convertOptions(value: unknown, at: Reader): ConvertOptions | undefined {
  const source = at.object(value);
  return (
    source &&
    fields<ConvertOptions>(source, at, {
      engine: [false, (v, a) => a.oneOf(v, ENGINE_CHOICES)],
      keepHeaders: [false, (v, a) => a.boolean(v)],
      extractImages: [false, (v, a) => a.boolean(v)],
      vlm: [true, vlmOptions],
      lang: [true, (v, a) => a.oneOf(v, OCR_LANGUAGES)],
      remote: [true, remoteOptions],
    })
  );
}

function pageList(value: unknown, at: Reader): number[] | undefined {
  if (!Array.isArray(value)) return at.fail('expected an array');
  const pages = value.map((page, i) => at.at(i).int(page, 1));
  return pages.every((page) => page !== undefined) ? (pages as number[]) : undefined;
}

function hostRequest(message: unknown, at: Reader): HostRequest | undefined {
  const source = at.object(message);
  if (!source) return undefined;
  switch (source.type) {
    case 'open':
      return fields<Extract<HostRequest, { type: 'open' }>>(source, at, { type: [false, () => 'open'], docId: [false, docId], path: [false, nonEmpty], password: [true, (v, a) => a.string(v)] });
    case 'convert':
      return fields<Extract<HostRequest, { type: 'convert' }>>(source, at, { type: [false, () => 'convert'], docId: [false, docId], pages: [false, pageList], options: [false, convertOptions] });
    case 'cancel':
      return fields<Extract<HostRequest, { type: 'cancel' }>>(source, at, { type: [false, () => 'cancel'], docId: [false, docId] });
    case 'close':
      return fields<Extract<HostRequest, { type: 'close' }>>(source, at, { type: [false, () => 'close'], docId: [false, docId] });
    case 'render':
      return fields<Extract<HostRequest, { type: 'render' }>>(source, at, {
        type: [false, () => 'render'],
        docId: [false, docId],
        page: [false, (v, a) => a.int(v, 1)],
        longSide: [false, (v, a) => a.int(v, 16, 8192)],
      });
    case 'probe-device':
      return fields<{ type: 'probe-device' } & DeviceProbeRequest>(source, at, {
        type: [false, () => 'probe-device'],
        device: [true, (v, a) => a.device(v)],
        modelDir: [true, nonEmpty],
        calibrationDir: [true, nonEmpty],
      });
    default:
      return at.at('type').fail('expected one of "open", "convert", "cancel", "close", "render", "probe-device"');
  }
}

function docIdOf(message: unknown): string | undefined {
  const value = (message as { docId?: unknown } | null)?.docId;
  return typeof value === 'string' ? value : undefined;
}
