/**
 * The Export dialog's choices, kept in the settings so that the next export starts where the last
 * one left off: formats, page breaks, figures, and the folder chosen (none: the default one).
 */

import { z } from 'zod';
export const EXPORT_FORMATS = ['md', 'html', 'docx', 'tex'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const DEFAULT_EXPORT_CHOICES: ExportChoices = { formats: ['md'], pageBreaks: false, assets: true, folder: null };

export const exportChoicesSchema = z
  .object({
    formats: z
      .array(z.enum(EXPORT_FORMATS))
      .min(1)
      .transform((formats) => [...new Set(formats)])
      .catch(['md']),
    pageBreaks: z.boolean().catch(false),
    assets: z.boolean().catch(true),
    /** The folder last chosen with "Choose folder…"; null: beside each document (the bridge's export folder in browser mode). */
    folder: z.string().min(1).nullable().catch(null),
  })
  .catch(() => DEFAULT_EXPORT_CHOICES);

export interface ExportChoices {
  formats: ExportFormat[];
  pageBreaks: boolean;
  assets: boolean;
  folder: string | null;
}
