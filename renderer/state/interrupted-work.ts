/**
 * Work a restart found cut off: documents with pages done (or failed) and pages still to convert,
 * and nothing converting them. Main settles conversions a crash or a quit cut off, so after a
 * restart such documents wait for Resume; the window says so once, instead of leaving them to be
 * found in the list. (A conversion cancelled before the restart looks the same, so the words say
 * "stopped part-way", which is true of both.)
 */

import { pagesToResume, type Workspace } from '../../shared/workspace.js';

export function stoppedPartWay(workspace: Workspace): string[] {
  return workspace.documents
    .filter((document) => document.info && !document.failure && !document.converting && pagesToResume(document).length > 0 && document.pages.some((page) => page.state === 'done' || page.state === 'failed'))
    .map((document) => document.id);
}

export function stoppedNoticeText(count: number): string {
  // said at load, which is a restart in the app and may be a reload in a browser: true of both
  return count === 1 ? '1 document was stopped part-way and waits to be resumed.' : `${count} documents were stopped part-way and wait to be resumed.`;
}
