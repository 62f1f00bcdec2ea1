/**
 * What removing a document would take with it that the person made: edited pages and review
 * marks. Converted text alone can be had again by converting, so only these make Folio ask first.
 */

import type { WorkspaceDocument } from '../../shared/workspace.js';

export interface RemovalLoss {
  edited: number;
  reviewed: number;
}

export function removalLoss(document: WorkspaceDocument): RemovalLoss {
  return {
    edited: document.pages.filter((page) => page.editedMarkdown !== undefined).length,
    reviewed: document.pages.filter((page) => page.reviewed).length,
  };
}

export function asksBeforeRemoving(loss: RemovalLoss): boolean {
  return loss.edited > 0 || loss.reviewed > 0;
}

/** "3 edited pages and 1 reviewed page", "2 reviewed pages". */
export function lossPhrase(loss: RemovalLoss): string {
  const parts: string[] = [];
  if (loss.edited > 0) parts.push(`${loss.edited} edited ${loss.edited === 1 ? 'page' : 'pages'}`);
  if (loss.reviewed > 0) parts.push(`${loss.reviewed} reviewed ${loss.reviewed === 1 ? 'page' : 'pages'}`);
  return parts.join(' and ');
}
