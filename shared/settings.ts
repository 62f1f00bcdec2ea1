/**
 * The app's settings, validated when loaded from disk or received from the renderer: a settings
 * file edited by hand or written by an older version must not break the app, so unknown or invalid
 * fields fall back to their defaults.
 */

import { z } from 'zod';
import { ENGINE_CHOICES } from './engine-name.js';

const settingsSchema = z.object({
  engine: z.enum(ENGINE_CHOICES).catch('auto'),
  /** The model package folder for the `vlm` engine; null: none configured. */
  modelDir: z.string().min(1).nullable().catch(null),
  /** A resolution mode of the package; null: its first. */
  mode: z.string().min(1).nullable().catch(null),
  /** Draft tokens per decoding step, 0 (plain greedy) to 4, or measured on the device. */
  specK: z.union([z.int().min(0).max(4), z.literal('auto')]).catch('auto'),
  maxNewTokens: z.int().min(1).max(32768).catch(4096),
  keepHeaders: z.boolean().catch(false),
  theme: z.enum(['system', 'light', 'dark']).catch('system'),
});

export type Settings = z.infer<typeof settingsSchema>;

export const DEFAULT_SETTINGS: Settings = settingsSchema.parse({});

/** Reads settings from anything (a parsed file, a message), keeping what is valid. */
export function parseSettings(value: unknown): Settings {
  const record = typeof value === 'object' && value !== null ? value : {};
  return settingsSchema.parse(record);
}
