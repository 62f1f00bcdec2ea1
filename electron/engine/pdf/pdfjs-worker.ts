/**
 * pdf.js's worker code, loaded into this thread up front (its "fake worker" looks for it on
 * `globalThis.pdfjsWorker`), then Array.prototype.push put back to a builtin. pdf.js's legacy
 * build installs core-js's JavaScript push on V8 before 12.2 (Node 20) for an edge case no PDF
 * reaches (push() onto an array whose length is read-only); every push in the process then runs
 * as a slow loop, and pdf.js pushes once per operator and glyph. Loading the worker here, not at
 * the first document, keeps it from installing that push again afterwards.
 */

import vm from 'node:vm';
import * as worker from 'pdfjs-dist/legacy/build/pdf.worker.mjs';

declare global {
  var pdfjsWorker: typeof worker | undefined;
}

globalThis.pdfjsWorker = worker;

// This realm's own builtin was replaced before our code ran; a fresh realm's is the same builtin.
const builtinPush = vm.runInNewContext('Array.prototype.push') as typeof Array.prototype.push;
if (!throwsOnReadOnlyLength(builtinPush)) Array.prototype.push = builtinPush;

/** What core-js tests: where V8 itself throws here, core-js left the builtin in place. */
function throwsOnReadOnlyLength(push: typeof Array.prototype.push): boolean {
  try {
    push.call(Object.defineProperty([], 'length', { writable: false }));
    return false;
  } catch {
    return true;
  }
}
