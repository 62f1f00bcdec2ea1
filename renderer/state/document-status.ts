/**
 * Where a document stands, in the words the document list shows: converting, waiting its turn
 * (and which in line), stopped part-way with pages to resume, or finished. Conversions run one
 * document at a time, so a document that waits is "Queued (2nd)", not "Converting · 0/1 pages".
 */

import { needsPassword } from '../../shared/failure.js';
import type { WorkspaceDocument } from '../../shared/workspace.js';

export type StatusTone = 'converting' | 'queued' | 'stopped' | 'failed' | 'done' | 'pending';

export interface DocumentStatus {
  text: string;
  tone: StatusTone;
  /** What the list offers beside the status: converting pages never asked for, or resuming stopped ones. */
  action?: 'convert' | 'resume';
}

/** 1 for the next document to convert, 2 for the one after it...; null when converting now or not queued. */
export function queuePosition(docId: string, queue: readonly string[] | undefined): number | null {
  const index = queue?.indexOf(docId) ?? -1;
  return index > 0 ? index : null;
}

/** "1st", "2nd", "3rd", "4th", "11th", "22nd". */
export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  const suffix = ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
  return `${n}${suffix}`;
}

/** The status of an opened document (one still opening or that failed to open is said elsewhere). */
export function documentStatus(document: WorkspaceDocument, queue: readonly string[] | undefined): DocumentStatus {
  if (needsPassword(document.failure)) return { text: 'Needs its password', tone: 'failed' };
  if (document.failure) return { text: 'Could not open', tone: 'failed' };
  if (!document.info) return { text: 'Opening…', tone: 'pending' };
  let done = 0;
  let failed = 0;
  for (const page of document.pages) {
    if (page.state === 'done') done++;
    else if (page.state === 'failed') failed++;
  }
  const reviewed = document.pages.filter((page) => page.reviewed).length;
  const total = document.pages.length;
  const count = [`${done}/${total} pages`, ...(failed > 0 ? [`${failed} failed`] : []), ...(reviewed > 0 ? [`${reviewed} reviewed`] : [])].join(' · ');

  if (document.converting) {
    const position = queuePosition(document.id, queue);
    if (position !== null) return { text: `Queued (${ordinal(position)})`, tone: 'queued' };
    return { text: `Converting · ${count}`, tone: 'converting' };
  }
  // failed pages alone are not "stopped": each says why it failed and offers its retry
  if (done + failed < total) {
    if (done === 0 && failed === 0) return { text: 'Not converted', tone: 'pending', action: 'convert' };
    return { text: `Stopped · ${count}`, tone: 'stopped', action: 'resume' };
  }
  return { text: count, tone: failed > 0 ? 'failed' : 'done' };
}
