/**
 * Export from the workspace: the pages as the user sees them (their edits, else the engine's
 * output), as Markdown, standalone HTML, Word and/or LaTeX, with figures in `<stem>_assets/` or placeholders.
 * Nothing is replaced without being asked, and a failed export leaves no file behind.
 */

import { access } from 'node:fs/promises';
import path from 'node:path';
import type { ExportOutcome, ExportRequest } from '../../shared/app-api.js';
import { documentDocx } from '../../shared/export/docx.js';
import { warningLine, type ExportWarning } from '../../shared/export/export-warning.js';
import type { ExportedImage } from '../../shared/export/exported-image.js';
import { documentHtml } from '../../shared/export/html.js';
import { documentLatex } from '../../shared/export/latex.js';
import { documentMarkdown } from '../../shared/export/markdown.js';
import type { PageFailure } from '../../shared/failure.js';
import { pageMarkdown, type WorkspaceDocument, type WorkspacePage } from '../../shared/workspace.js';
import { assetsFolder } from '../core/output/output-files.js';
import { stemOf } from '../core/output/output-names.js';
import { WriteError, keptAfter, writeAllOrNothing, writeDurably, type PlannedFile, type WriteDurably } from '../core/output/all-or-nothing-write.js';

export interface ExportSources {
  readImage(name: string): Promise<Uint8Array>;
  mathCss(): Promise<string>;
  /** Tests pass a writer that fails as a full disk does (one export, one document). */
  write?: WriteDurably;
}

export async function exportDocument(document: WorkspaceDocument, request: ExportRequest, sources: ExportSources): Promise<ExportOutcome> {
  const { docId: _docId, pages, ...choices } = request;
  return exportDocuments([{ document, pages, sources }], choices, sources.write);
}

/** One document of a batch export: its pages (absent: all) and where its figures are read from. */
export interface ExportedDocument {
  document: WorkspaceDocument;
  pages?: readonly number[];
  sources: ExportSources;
}

/**
 * Several documents at once, one set of files each in one folder, written all or nothing. A document
 * with no converted text is left out with a warning naming it; two documents of one name get files
 * told apart by a number, `report (2).md`.
 */
export async function exportDocuments(
  documents: readonly ExportedDocument[],
  request: Omit<ExportRequest, 'docId' | 'pages'>,
  write: WriteDurably = writeDurably,
): Promise<ExportOutcome> {
  if (request.formats.length === 0) return { kind: 'failed', message: 'Choose at least one format (Markdown, HTML, Word or LaTeX) to export.' };
  const folder = path.resolve(request.folder);
  const files: PlannedFile[] = [];
  const warnings: string[] = [];
  const stems = new Set<string>();
  const skipped: string[] = [];
  for (const { document, pages: wanted, sources } of documents) {
    const selected = selectedPages(document, wanted);
    const pages = selected.filter((page) => pageMarkdown(page).trim() !== '');
    if (pages.length === 0) {
      skipped.push(document.name);
      continue;
    }
    const stem = uniqueStem(stemOf(document.path), stems);
    const planned = await plannedFiles(document, pages, lostPages(selected), { ...request, docId: document.id }, folder, stem, sources);
    files.push(...planned.files);
    const prefix = documents.length > 1 ? `${document.name}, ` : '';
    warnings.push(...planned.warnings.map((warning) => `${prefix}${warningLine(warning)}`));
  }
  if (files.length === 0) {
    const which = documents.length === 1 ? `${documents[0]!.document.name}: the chosen pages have` : 'None of the chosen documents has';
    return { kind: 'failed', message: `${which} no converted text yet; convert them first, then export.` };
  }
  warnings.unshift(...skipped.map((name) => `${name}: left out, it has no converted text yet.`));
  if (!request.overwrite) {
    const existing = await existingFiles(files.map((file) => file.path));
    if (existing.length > 0) return { kind: 'would-overwrite', files: existing };
  }
  try {
    await writeAllOrNothing(files, write);
  } catch (error) {
    if (!(error instanceof WriteError)) throw error;
    return { kind: 'failed', message: `${error.message}; ${keptAfter(error)}. ${remedy(error.code)}` };
  }
  return { kind: 'written', files: files.map((file) => file.path), ...(warnings.length > 0 && { warnings }) };
}

function uniqueStem(stem: string, taken: Set<string>): string {
  let unique = stem;
  for (let count = 2; taken.has(unique.toLowerCase()); count++) unique = `${stem} (${count})`;
  taken.add(unique.toLowerCase());
  return unique;
}

/** Failed pages the user has not filled in themselves: the exported file marks them where they belong. */
function lostPages(pages: readonly WorkspacePage[]): PageFailure[] {
  return pages.flatMap((page) => (page.state === 'failed' && page.failure && pageMarkdown(page).trim() === '' ? [{ page: page.page, failure: page.failure }] : []));
}

function selectedPages(document: WorkspaceDocument, pages: readonly number[] | undefined): WorkspacePage[] {
  if (!pages) return document.pages;
  const wanted = new Set(pages);
  return document.pages.filter((page) => wanted.has(page.page));
}

/**
 * Figures first, then the documents that link to them. A figure that cannot be read from the
 * workspace becomes a placeholder with a warning naming its page; the rest still exports.
 */
async function plannedFiles(
  document: WorkspaceDocument,
  pages: readonly WorkspacePage[],
  failures: readonly PageFailure[],
  request: ExportRequest,
  folder: string,
  stem: string,
  sources: ExportSources,
): Promise<{ files: PlannedFile[]; warnings: ExportWarning[] }> {
  const assets = new Map<string, ExportedImage>();
  const files: PlannedFile[] = [];
  const warnings: ExportWarning[] = [];
  if (request.assets) {
    for (const page of pages) {
      for (const image of page.result?.images ?? []) {
        if (assets.has(image.name)) continue;
        const relative = `${assetsFolder(stem)}/${image.name.replace(/[\\/]/g, '_')}`;
        let data: Uint8Array;
        try {
          data = await sources.readImage(image.name);
        } catch (error) {
          warnings.push({ page: page.page, message: `the figure ${image.name} could not be read from the workspace (${(error as Error).message}); a placeholder stands in its place. Convert the page again to get it back.` });
          continue;
        }
        const [x0, y0, x1, y1] = image.bbox;
        assets.set(image.name, { path: relative, data, width: x1 - x0, height: y1 - y0 });
        files.push({ path: path.join(folder, ...relative.split('/')), data });
      }
    }
  }
  const linkOf = (relative: string) => relative.split('/').map(encodeURIComponent).join('/');
  const resolveImage = (name: string) => {
    const image = assets.get(name);
    return image === undefined ? undefined : linkOf(image.path);
  };
  const byLink = new Map([...assets.values()].map((image) => [linkOf(image.path), image]));
  const title = document.info?.title ?? stem;
  const markdown = exportMarkdown(pages, request.pageMarkers, resolveImage, failures);
  const pageTexts = pages.map((page) => ({ page: page.page, markdown: exportMarkdown([page], false, resolveImage, []) }));
  for (const format of request.formats) {
    let data: string | Uint8Array;
    if (format === 'md') data = markdown;
    else if (format === 'html') data = documentHtml(markdown, { title, mathCss: await sources.mathCss() });
    else {
      const options = { title, image: (src: string) => byLink.get(src), pageBreaks: request.pageMarkers };
      const written = format === 'docx' ? await documentDocx(pageTexts, options) : documentLatex(pageTexts, options);
      data = 'data' in written ? written.data : written.text;
      warnings.push(...written.warnings.map((warning) => ({ ...warning, message: `${format === 'docx' ? 'Word' : 'LaTeX'} file: ${warning.message}` })));
    }
    files.push({ path: path.join(folder, `${stem}.${format}`), data });
  }
  return { files, warnings };
}

export function exportMarkdown(
  pages: readonly WorkspacePage[],
  pageMarkers: boolean,
  resolveImage: (name: string) => string | undefined,
  failures: readonly PageFailure[],
): string {
  return documentMarkdown(pages.map((page) => ({ page: page.page, markdown: pageMarkdown(page) })), { resolveImage, pageMarkers, failures });
}

async function existingFiles(files: readonly string[]): Promise<string[]> {
  const existing: string[] = [];
  for (const file of files) {
    if (await access(file).then(() => true, () => false)) existing.push(file);
  }
  return existing;
}

function remedy(code: string): string {
  switch (code) {
    case 'ENOSPC':
      return 'The disk is full: free some space or choose another folder.';
    case 'EROFS':
    case 'EACCES':
    case 'EPERM':
      return 'The folder cannot be written to: choose another folder.';
    default:
      return 'Choose another folder and try again.';
  }
}
