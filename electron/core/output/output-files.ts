/** What one converted document becomes on disk: names and contents, decided before anything is written. */

import type { ExportWarning } from '../../../shared/export/export-warning.js';
import type { ExportedImage } from '../../../shared/export/exported-image.js';
import { documentJson } from '../../../shared/export/json.js';
import { documentMarkdown } from '../../../shared/export/markdown.js';
import type { PageFailure } from '../../../shared/failure.js';
import type { PageResult } from '../../../shared/page.js';
import type { DocumentInfo } from '../../../shared/protocol.js';

export const OUTPUT_FORMATS = ['md', 'html', 'json', 'docx', 'tex'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface OutputPlan {
  formats: readonly OutputFormat[];
  splitPages: boolean;
  images: boolean;
}

export interface ConvertedDocument {
  file: string;
  info: DocumentInfo;
  pages: readonly PageResult[];
  failures: readonly PageFailure[];
}

/** A file relative to the output folder. */
export interface OutputFile {
  name: string;
  data: string | Uint8Array;
}

/** Every name a stem would take, so that a stem is claimed whole (see OutputNames). */
export function outputNames(stem: string, pages: readonly number[], plan: OutputPlan): string[] {
  const names = plan.formats.map((format) => `${stem}.${format}`);
  if (plan.splitPages) {
    for (const page of pages) names.push(...pageFormats(plan).map((format) => `${stem}_pg${page}.${format}`));
  }
  if (plan.images) names.push(assetsFolder(stem));
  return names;
}

export function assetsFolder(stem: string): string {
  return `${stem}_assets`;
}

/**
 * Assets first, then pages, then the whole document: each file written only links to files already
 * there. Warnings say, by page, what the Word and LaTeX files could not carry over as it was.
 * The HTML, Word and LaTeX writers (unified, KaTeX, docx) are loaded when a plan first asks for
 * them: Markdown and JSON, the CLI's usual outputs, need none of them.
 */
export async function outputFiles(stem: string, doc: ConvertedDocument, plan: OutputPlan, mathCss: string): Promise<{ files: OutputFile[]; warnings: ExportWarning[] }> {
  const images = plan.images ? extractedImages(stem, doc.pages) : new Map<string, OutputFile>();
  const resolveImage = (name: string) => (images.has(name) ? linkTo(images.get(name)!.name) : undefined);
  const title = doc.info.title ?? stem;
  const files: OutputFile[] = [...images.values()];
  if (plan.splitPages) {
    for (const page of doc.pages) {
      const markdown = documentMarkdown([page], { resolveImage });
      for (const format of pageFormats(plan)) {
        files.push({
          name: `${stem}_pg${page.page}.${format}`,
          data: format === 'md' ? markdown : (await htmlWriter()).documentHtml(markdown, { title: `${title}, page ${page.page}`, mathCss }),
        });
      }
    }
  }
  const markdown = documentMarkdown(doc.pages, { resolveImage, failures: doc.failures });
  const warnings: ExportWarning[] = [];
  for (const format of plan.formats) {
    if (format === 'docx' || format === 'tex') {
      const pages = doc.pages.map((page) => ({ page: page.page, markdown: documentMarkdown([page], { resolveImage }) }));
      const image = imageLookup(images, doc.pages);
      const written =
        format === 'docx'
          ? await (await import('../../../shared/export/docx.js')).documentDocx(pages, { title, image })
          : (await import('../../../shared/export/latex.js')).documentLatex(pages, { title, image });
      files.push({ name: `${stem}.${format}`, data: 'data' in written ? written.data : written.text });
      warnings.push(...written.warnings.map((warning) => ({ ...warning, message: `${format === 'docx' ? 'Word' : 'LaTeX'} export: ${warning.message}` })));
    } else {
      const data =
        format === 'html'
          ? (await htmlWriter()).documentHtml(markdown, { title, mathCss })
          : format === 'json'
            ? documentJson({ file: doc.file, info: doc.info }, doc.pages, doc.failures)
            : markdown;
      files.push({ name: `${stem}.${format}`, data });
    }
  }
  return { files, warnings };
}

/** The written figures by the link the Markdown gives them, with their size on the page. */
function imageLookup(images: ReadonlyMap<string, OutputFile>, pages: readonly PageResult[]): (src: string) => ExportedImage | undefined {
  const byLink = new Map<string, ExportedImage>();
  for (const page of pages) {
    for (const image of page.images) {
      const file = images.get(image.name);
      if (!file || typeof file.data === 'string') continue;
      const [x0, y0, x1, y1] = image.bbox;
      byLink.set(linkTo(file.name), { path: file.name, data: file.data, width: x1 - x0, height: y1 - y0 });
    }
  }
  return (src) => byLink.get(src);
}

function htmlWriter(): Promise<typeof import('../../../shared/export/html.js')> {
  return import('../../../shared/export/html.js');
}

/** Per-page files: Markdown always, HTML when asked; JSON stays whole, since it already holds every page. */
function pageFormats(plan: OutputPlan): OutputFormat[] {
  return plan.formats.includes('html') ? ['md', 'html'] : ['md'];
}

function extractedImages(stem: string, pages: readonly PageResult[]): Map<string, OutputFile> {
  const images = new Map<string, OutputFile>();
  for (const page of pages) {
    for (const image of page.images) {
      if (!image.data) continue;
      // Names come from the engine, but a path separator must never lead a write out of the folder.
      const safeName = image.name.replace(/[\\/]/g, '_');
      images.set(image.name, { name: `${assetsFolder(stem)}/${safeName}`, data: image.data });
    }
  }
  return images;
}

function linkTo(name: string): string {
  return name.split('/').map(encodeURIComponent).join('/');
}
