/**
 * Runtime validation of requests arriving at the engine host: the other end of the channel is a
 * separate process (later a renderer's port), so its messages are checked, not trusted.
 */

import { z } from 'zod';
import { MAX_PAGES_IN_FLIGHT, MAX_SPEC_K } from './conversion-defaults.js';
import { parseDeviceRequest } from './device.js';
import { ENGINE_CHOICES } from './engine-name.js';
import { OCR_LANGUAGES } from './ocr-languages.js';
import { REMOTE_IMAGE_FORMATS, type HostRequest } from './protocol.js';

const docId = z.string().min(1).max(200);

const convertOptions = z.object({
  engine: z.enum(ENGINE_CHOICES),
  keepHeaders: z.boolean(),
  extractImages: z.boolean(),
  vlm: z
    .object({ modelDir: z.string().min(1), specK: z.union([z.int().min(0).max(MAX_SPEC_K), z.literal('auto')]), mode: z.string().min(1).optional(), maxNewTokens: z.int().min(1), device: z.string().refine((text) => parseDeviceRequest(text) !== null).optional(), calibrationDir: z.string().min(1).optional(), pagesInFlight: z.union([z.int().min(1).max(MAX_PAGES_IN_FLIGHT), z.literal('auto')]).optional(), documentPages: z.int().min(1).optional() })
    .optional(),
  lang: z.enum(OCR_LANGUAGES).optional(),
  remote: z
    .object({
      server: z.string().min(1),
      model: z.string().min(1),
      concurrency: z.int().min(1).max(1024),
      timeoutMs: z.number().positive(),
      retries: z.int().min(0).max(20),
      imageLongSide: z.int().min(64).max(8192),
      imageFormat: z.enum(REMOTE_IMAGE_FORMATS),
      maxTokens: z.int().min(1),
      prompt: z.string().optional(),
      extraBody: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
});

const hostRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('open'), docId, path: z.string().min(1), password: z.string().optional() }),
  z.object({ type: z.literal('convert'), docId, pages: z.array(z.int().min(1)), options: convertOptions }),
  z.object({ type: z.literal('cancel'), docId }),
  z.object({ type: z.literal('close'), docId }),
  z.object({ type: z.literal('render'), docId, page: z.int().min(1), longSide: z.int().min(16).max(8192) }),
  z.object({
    type: z.literal('probe-device'),
    device: z.string().refine((text) => parseDeviceRequest(text) !== null).optional(),
    modelDir: z.string().min(1).optional(),
    calibrationDir: z.string().min(1).optional(),
  }),
]) satisfies z.ZodType<HostRequest>;

export type ParsedRequest = { ok: true; request: HostRequest } | { ok: false; docId?: string; message: string };

export function parseHostRequest(message: unknown): ParsedRequest {
  const parsed = hostRequest.safeParse(message);
  if (parsed.success) return { ok: true, request: parsed.data };
  const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'message'}: ${issue.message}`);
  return { ok: false, docId: docIdOf(message), message: `Malformed request to the engine host (${issues.join('; ')}).` };
}

function docIdOf(message: unknown): string | undefined {
  const value = (message as { docId?: unknown } | null)?.docId;
  return typeof value === 'string' ? value : undefined;
}
