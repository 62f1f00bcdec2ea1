/**
 * What happens to a document's pages while it converts, in one vocabulary: the engine host sends
 * these (shared/protocol.ts), the workspace applies them (shared/workspace.ts, and through it the
 * app's store), and the CLI's `--json` lines name theirs after them.
 */

import type { Failure } from './failure.js';
import type { PageResult } from './page.js';

export type PageEvent =
  /**
   * The engine gets ready before `page` can start: a model package opening, `--device auto` measuring
   * the devices. `detail` says what it does now ("opening the model (measuring cpu, webgpu)") and is
   * sent again when that changes; `bytes` is the size on disk of what it loads. No page's time limit
   * counts meanwhile: the preparation has its own (electron/core/page-time-limit.ts).
   */
  | { type: 'engine-preparing'; docId: string; page: number; detail: string; bytes: number }
  /** The preparation ended, ready or failed (a failure is the pages' to report); `page` starts now. */
  | { type: 'engine-ready'; docId: string; page: number }
  | { type: 'page-started'; docId: string; page: number }
  /** Text as the engine produces it, before the page is done; the page's result replaces it. */
  | { type: 'page-delta'; docId: string; page: number; text: string }
  /** `at`: the ISO time the page was done, stamped where it is saved (electron/core/workspace-store.ts). */
  | { type: 'page-done'; docId: string; result: PageResult; at?: string }
  | { type: 'page-failed'; docId: string; page: number; failure: Failure };

/** A page event, or the end of the conversion that sent them. */
export type ConversionEvent = PageEvent | { type: 'convert-done'; docId: string; cancelled: boolean };

export type PageEventType = PageEvent['type'];
