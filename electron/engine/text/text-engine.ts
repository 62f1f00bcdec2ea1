/**
 * The `text` engine: a page's text layer, drawing and images (read with PDFium, or with pdf.js where
 * PDFium cannot open the file or read the page), laid out as Markdown.
 * Per page: drawing (ruling lines, images), text runs with font facts and links, running headers
 * and footers (compared with neighbouring pages), tables, then the layout of what is left.
 */

import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Block, PageImage } from '../../../shared/page.js';
import { IMAGE_LINK_PREFIX } from '../../../shared/page.js';
import type { PageContent, PageEngine, PageJob } from '../engine.js';
import { FailureError } from '../../core/failure-error.js';
import { findDisplayFormulas } from './display-formulas.js';
import { withInlineFormulas } from './inline-formulas.js';
import { extensionSlotsAsText, mathFontClass } from './math-glyphs.js';
import { PdfiumDocuments } from '../pdf/pdfium-documents.js';
import { PdfiumFirstDocument, type PdfDocument } from '../pdf/pdf-document.js';
import { viewportOf } from '../pdf/page-geometry.js';
import { DocumentBandLines } from '../layout/document-band-lines.js';
import { attachDropCaps } from './drop-caps.js';
import { DocumentMemory } from './document-memory.js';
import { drawingFromObjects } from './drawing.js';
import type { CharTextContent } from './char-items.js';
import { readFontFacts, type FontFacts, type LoadedFont } from './font-facts.js';
import { encodeImage, encodePixels, IMAGE_LIMITS } from './image-encoder.js';
import type { ImagePixels } from '../pdf/pdfium-images.js';
import type { Box, ImagePlacement, Rule } from '../layout/geometry.js';
import { buildFragments, type Line } from '../layout/lines.js';
import { applyLinks, readLinkAreas, type AnnotationLike } from './links.js';
import { layoutPage, type DraftBlock, type PageElement } from '../layout/page-layout.js';
import type { Matrix } from './affine.js';
import { createPageFrame, transformBox, type PageFrame } from './page-frame.js';
import { summarisePage, type PageSummary } from '../layout/page-summary.js';
import { bandCandidates, NEIGHBOUR_PAGES, runningBlocks, runningLines } from '../layout/running-lines.js';
import type { BandLine, RunningPlace } from '../layout/running-text.js';
import { detectTables } from '../layout/tables.js';
import { dominantQuadrant, readTextRuns, type TextContentLike } from './text-runs.js';
import { hasUnmappedGlyphs, recoverUnmappedGlyphs } from './unmapped-glyphs.js';
import { unpaintedAnnotationText, type AnnotationDataLike } from './unpainted-annotations.js';

/** A job on a PDF page: the only kind with a text layer to read. */
type PdfPageJob = PageJob & { pdf: PdfDocument };

/** Images smaller than this (points, each side) are rules, bullets or specks, not figures. */
const MIN_IMAGE_SIDE = 24;
/** An image over this share of the page, with this share of the text on it, is a scan under its text layer. */
const SCAN_PAGE_SHARE = 0.6;

export interface TextEngine extends PageEngine {
  /**
   * A page's text content for another reader (the router's probe): the one this engine already
   * read ahead, or read now and kept, so that converting the page next does not read it again.
   */
  textContent(pdf: PdfDocument, page: number): Promise<TextContentLike>;
}

/** `bandLines`: the running-text signatures of pages other engines read (OCR), for pages beside them. */
export function createTextEngine(bandLines = new DocumentBandLines()): TextEngine {
  const memories = new WeakMap<PdfDocument, DocumentMemory>();
  const pdfiums = new PdfiumDocuments();
  const read: ContentReader = async (pdf, pageNumber, page) => {
    const twin = await pdfiums.of(pdf);
    if (twin) {
      try {
        const content = twin.readText(pageNumber);
        if (!hasUnmappedGlyphs(content)) return content;
        const pdfjs = await page()
          .then((read) => read.getTextContent())
          .catch(() => undefined);
        return pdfjs ? recoverUnmappedGlyphs(content, pdfjs as TextContentLike) : content;
      } catch {
        // PDFium failing on a page pdf.js may still read: pdf.js reads it, and says why if it cannot.
      }
    }
    return (await (await page()).getTextContent()) as TextContentLike;
  };
  const readPixels: PixelReader = async (pdf, pageNumber, objectIds) => {
    const twin = await pdfiums.of(pdf);
    if (!twin) throw new Error('no PDFium twin');
    return twin.readImages(pageNumber, objectIds, IMAGE_LIMITS);
  };
  const memoryOf = (pdf: PdfDocument) => {
    let memory = memories.get(pdf);
    if (!memory) memories.set(pdf, (memory = new DocumentMemory()));
    return memory;
  };
  return {
    name: 'text',
    async convertPage(job) {
      const { pdf } = job;
      if (!pdf) throw new FailureError('no-text-layer', `page ${job.page} is an image with no text layer; read it with the vlm or lite engine.`);
      const memory = memoryOf(pdf);
      // pdf.js's page, got when something reads it: a page PDFium reads whole never is
      let pdfjsPage: Promise<PDFPageProxy> | undefined;
      const page = () => (pdfjsPage ??= readPdf(job.page, pdf.getPage(job.page)));
      // a document pdf.js opened says at once that a page is damaged, as it always did
      if (!(pdf instanceof PdfiumFirstDocument)) await page();
      try {
        return await convertPage(page, { ...job, pdf }, memory, bandLines, { read, readPixels });
      } finally {
        (await pdfjsPage?.catch(() => undefined))?.cleanup();
        // Keeps memory flat over long documents; a failed cleanup only costs memory, never the page.
        if (memory.pageConverted()) await pdf.cleanup(true).catch(() => undefined);
      }
    },
    async textContent(pdf, pageNumber) {
      const memory = memoryOf(pdf);
      const kept = memory.keptContent(pageNumber);
      if (kept) return kept;
      const content = await read(pdf, pageNumber, () => pdf.getPage(pageNumber));
      memory.keepContent(pageNumber, content);
      return content;
    },
    forgetDocument(pdf) {
      memories.delete(pdf);
      pdfiums.close(pdf);
      bandLines.forget(pdf);
    },
  };
}

/** Reads page `pageNumber`'s text content; `page` gets pdf.js's page, for when pdf.js reads it. */
type ContentReader = (pdf: PdfDocument, pageNumber: number, page: () => Promise<PDFPageProxy>) => Promise<TextContentLike>;
/** Reads, with PDFium, the pixels of images its text content placed on a page, by object id; throws when PDFium fails. */
type PixelReader = (pdf: PdfDocument, pageNumber: number, objectIds: readonly string[]) => Promise<Map<string, ImagePixels>>;

/** pdf.js failing to parse a page means the file is damaged there; say so, not "unexpected error". */
async function readPdf<T>(page: number, reading: Promise<T>): Promise<T> {
  try {
    return await reading;
  } catch (error) {
    // pdf.js's page, got on demand, has said so already
    if (error instanceof FailureError) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw new FailureError('damaged', `page ${page} is damaged and cannot be read (${detail}).`);
  }
}

/** The page at scale 1 as pdf.js's viewport gives it: from the geometry PDFium read, where it read the document alone. */
async function viewportFor(pdf: PdfDocument, content: TextContentLike, page: () => Promise<PDFPageProxy>): Promise<Viewport> {
  const geometry = (content as Partial<CharTextContent>).geometry;
  return pdf instanceof PdfiumFirstDocument && geometry ? viewportOf(geometry) : (await page()).getViewport({ scale: 1 });
}

type Viewport = { transform: number[]; width: number; height: number };

function frameOf(viewport: Viewport, content: TextContentLike): PageFrame {
  const transform = viewport.transform as unknown as Matrix;
  return createPageFrame(transform, viewport.width, viewport.height, dominantQuadrant(content, transform));
}

async function fontLookup(page: () => Promise<PDFPageProxy>, content: TextContentLike): Promise<(loadedName: string, fontFamily: string) => FontFacts> {
  const read = (content as Partial<CharTextContent>).fonts;
  if (read) return (name, fontFamily) => read.get(name) ?? readFontFacts(undefined, fontFamily);
  const { commonObjs } = await page();
  const cache = new Map<string, FontFacts>();
  return (loadedName, fontFamily) => {
    let facts = cache.get(loadedName);
    if (!facts) {
      // A font that failed to load is missing from commonObjs; the style's family still tells monospace.
      const font = commonObjs.has(loadedName) ? (commonObjs.get(loadedName) as LoadedFont) : undefined;
      facts = readFontFacts(font, fontFamily);
      cache.set(loadedName, facts);
    }
    return facts;
  };
}

async function convertPage(
  page: () => Promise<PDFPageProxy>,
  job: PdfPageJob,
  memory: DocumentMemory,
  bandLines: DocumentBandLines,
  { read, readPixels }: { read: ContentReader; readPixels: PixelReader },
): Promise<PageContent> {
  const { signal } = job;
  const content = memory.takeContent(job.page) ?? (await readPdf(job.page, read(job.pdf, job.page, page)));
  const viewport = await viewportFor(job.pdf, content, page);
  signal.throwIfAborted();
  const drawn = (content as Partial<CharTextContent>).drawing;
  const drawing = drawn ? drawingFromObjects(drawn.paths, drawn.images, viewport) : await readPdfjsDrawing(job.page, await page());
  signal.throwIfAborted();
  // PDFium reads the links with the text; pdf.js's annotations cost a second read of the whole text.
  const annotations = (content as Partial<CharTextContent>).links ?? ((await (await page()).getAnnotations().catch(() => [])) as AnnotationLike[]);
  signal.throwIfAborted();

  const frame = frameOf(viewport, content);
  const links = readLinkAreas(annotations, frame.fromUser);
  const unpainted = (content as Partial<CharTextContent>).unpaintedAnnotations;
  const drawnByReader = unpainted
    ? readTextRuns(unpaintedAnnotationText((await (await page()).getAnnotations().catch(() => [])) as AnnotationDataLike[], unpainted), frame.fromUser, (_, family) => readFontFacts(undefined, family))
    : [];
  signal.throwIfAborted();
  const shown = readTextRuns(content, frame.fromUser, await fontLookup(page, content)).filter((run) => onPage(run, frame));
  const runs = attachDropCaps(applyLinks([...shown, ...drawnByReader], links));
  const fragments = buildFragments(runs);
  memory.remember(job.page, summarisePage(runs, fragments, frame.height));

  const running = await findRunningText(fragments, frame, job, memory, bandLines, read);
  signal.throwIfAborted();
  const bodyRuns = fragments.filter((f) => !running.has(f)).flatMap((f) => f.runs);
  const rules = drawing.rules.map((rule) => toFrameRule(rule, frame));
  const formulas = findDisplayFormulas(bodyRuns, rules);
  const inFormula = new Set(formulas.flatMap((f) => f.runIndices));
  const mathRuns = bodyRuns.filter((_, i) => !inFormula.has(i));
  const proseRuns = mathRuns.map((run) => (mathFontClass(run.fontName) === 'extension' ? { ...run, text: extensionSlotsAsText(run.text) } : run));
  const tables = detectTables(proseRuns, rules, frame);
  const taken = new Set(tables.flatMap((t) => t.runIndices));
  // Inline math is read from the runs as they came (the extension font's slots still slots), outside tables.
  const freeRuns = withInlineFormulas(mathRuns.filter((_, i) => !taken.has(i)));

  const images = drawing.images
    .map((image) => ({ ...image, ...transformBox(frame.fromPage, image) }))
    .filter((image) => image.x1 - image.x0 >= MIN_IMAGE_SIDE && image.y1 - image.y0 >= MIN_IMAGE_SIDE)
    .filter((image) => !isScanUnderText(image, freeRuns, frame));
  const placements = new Map<Box, ImagePlacement>();
  const elements: PageElement[] = [
    ...buildFragments(freeRuns).map((line) => ({ ...line, kind: 'text' as const })),
    ...tables.map((t) => ({ ...t.box, kind: 'table' as const, markdown: t.markdown })),
    ...formulas.map((f) => ({ ...f.box, kind: 'formula' as const, markdown: f.markdown })),
    ...images.map((image) => {
      const element = { x0: image.x0, y0: image.y0, x1: image.x1, y1: image.y1, kind: 'image' as const, markdown: '' };
      placements.set(element, image);
      return element;
    }),
  ];
  const drafts = layoutPage(elements, memory.statistics(), memory.outline);
  const named = nameImages(drafts, placements, job.page, frame);
  if (job.options.extractImages) await attachImageData(named, page, job, frame, drawn !== undefined, readPixels);
  const pageImages = named.map(({ image }) => image);
  const blocks = [
    ...runningBlocks(running, 'top', job.options.keepHeaders),
    ...drafts,
    ...runningBlocks(running, 'bottom', job.options.keepHeaders),
  ].map((draft) => toBlock(draft, frame));

  const markdown = blocks
    .map((block) => block.markdown)
    .filter((text) => text)
    .join('\n\n');
  // The page is whole by now: one delta, not one a block (a message each to the host's parent was
  // 7% of the host's time over a batch of real documents).
  if (markdown) job.emitDelta(markdown);
  return { width: viewport.width, height: viewport.height, markdown, blocks, images: pageImages, device: 'cpu' };
}

/**
 * Gives each named image its PNG bytes: from PDFium where it read the page (no second parse by
 * pdf.js); from pdf.js's decoded objects where pdf.js read it, or where PDFium fails on the images,
 * matched to pdf.js's placements by where they are painted.
 */
async function attachImageData(
  named: readonly { image: PageImage; placement: ImagePlacement }[],
  pdfjsPage: () => Promise<PDFPageProxy>,
  job: PdfPageJob,
  frame: PageFrame,
  readByPdfium: boolean,
  readPixels: PixelReader,
): Promise<void> {
  if (named.length === 0) return;
  let placements: (ImagePlacement | undefined)[] = named.map(({ placement }) => placement);
  if (readByPdfium) {
    const pixels = await readPixels(job.pdf, job.page, placements.map((p) => p!.objectId)).catch(() => undefined);
    if (pixels) {
      for (const { image, placement } of named) {
        const read = pixels.get(placement.objectId);
        if (read) image.data = await encodePixels(read);
      }
      return;
    }
    const page = await pdfjsPage().catch(() => undefined);
    const pdfjsImages = (page && (await readPdfjsDrawing(job.page, page).catch(() => undefined)))?.images ?? [];
    // `named` holds frame boxes (the page turned upright); pdf.js's are on the page as it lies.
    const framed = pdfjsImages.map((q) => ({ ...q, ...transformBox(frame.fromPage, q) }));
    placements = placements.map((p) => framed.find((q) => samePlace(p!, q)));
  }
  // Before page.cleanup(): the decoded pixels live in the page's object store.
  const page = await pdfjsPage().catch(() => undefined);
  if (!page) return;
  for (const [i, { image }] of named.entries()) {
    const placement = placements[i];
    if (placement) image.data = await encodeImage(page, placement);
  }
}

/** Ruling lines and images from pdf.js's operator list (loaded with pdf.js: only documents pdf.js reads need it). */
async function readPdfjsDrawing(pageNumber: number, page: PDFPageProxy): Promise<{ rules: Rule[]; images: ImagePlacement[] }> {
  const [{ AnnotationMode }, { readDrawing }] = await Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), import('./operator-drawing.js')]);
  // Annotation appearances (form fields, stamps) are not page content; leaving them out also saves time.
  return readDrawing(await readPdf(pageNumber, page.getOperatorList({ annotationMode: AnnotationMode.DISABLE })), page.getViewport({ scale: 1 }));
}

/** Two readers' boxes of one image painted on the page agree within this (points, each edge). */
const SAME_PLACE = 1;

function samePlace(a: Box, b: Box): boolean {
  return Math.abs(a.x0 - b.x0) <= SAME_PLACE && Math.abs(a.y0 - b.y0) <= SAME_PLACE && Math.abs(a.x1 - b.x1) <= SAME_PLACE && Math.abs(a.y1 - b.y1) <= SAME_PLACE;
}

/** Running headers and footers of this page: lone page numbers, and lines a neighbour repeats. */
async function findRunningText(
  fragments: readonly Line[],
  frame: PageFrame,
  job: PdfPageJob,
  memory: DocumentMemory,
  bandLines: DocumentBandLines,
  read: ContentReader,
): Promise<Map<Line, RunningPlace>> {
  if (bandCandidates(fragments, frame.height).length === 0) return new Map();
  return runningLines(fragments, await neighbourBands(job, memory, bandLines, read), frame.height);
}

/** Neighbours read by OCR give what OCR read on them; the others, their text layers. */
async function neighbourBands(job: PdfPageJob, memory: DocumentMemory, bandLines: DocumentBandLines, read: ContentReader): Promise<BandLine[][]> {
  const bands: BandLine[][] = [];
  for (let offset = -NEIGHBOUR_PAGES; offset <= NEIGHBOUR_PAGES; offset++) {
    const other = job.page + offset;
    if (offset === 0 || other < 1 || other > job.pdf.numPages) continue;
    const ocrRead = bandLines.get(job.pdf, other);
    if (ocrRead) {
      bands.push(ocrRead);
      continue;
    }
    let summary = memory.summary(other);
    if (!summary) {
      job.signal.throwIfAborted();
      summary = await readNeighbour(job.pdf, other, memory, read);
    }
    if (summary) bands.push(summary.bandLines);
  }
  return bands;
}

/** Reads only a neighbour's text (cheap), summarises it, and keeps the text if it comes next. */
async function readNeighbour(pdf: PdfDocument, pageNumber: number, memory: DocumentMemory, readContent: ContentReader) {
  const read = await readTextSummary(pdf, pageNumber, readContent);
  if (!read) return undefined;
  memory.remember(pageNumber, read.summary);
  memory.keepContent(pageNumber, read.content);
  return read.summary;
}

/**
 * A page's text layer read alone and summarised: what a neighbour compares running text with, for
 * this engine and for OCR pages beside text pages. `undefined` when the page cannot be read, which
 * just gives no evidence about running text.
 */
export async function readTextSummary(
  pdf: PdfDocument,
  pageNumber: number,
  read: ContentReader = async (_pdf, _pageNumber, page) => (await (await page()).getTextContent()) as TextContentLike,
): Promise<{ summary: PageSummary; content: TextContentLike } | undefined> {
  let pdfjsPage: Promise<PDFPageProxy> | undefined;
  const page = () => (pdfjsPage ??= pdf.getPage(pageNumber));
  if (!(pdf instanceof PdfiumFirstDocument) && !(await page().catch(() => undefined))) return undefined;
  try {
    const content = await read(pdf, pageNumber, page);
    const frame = frameOf(await viewportFor(pdf, content, page), content);
    const runs = readTextRuns(content, frame.fromUser, (_, fontFamily) => readFontFacts(undefined, fontFamily));
    return { summary: summarisePage(runs, buildFragments(runs), frame.height), content };
  } catch {
    return undefined;
  } finally {
    (await pdfjsPage?.catch(() => undefined))?.cleanup();
  }
}

/**
 * Text wholly outside the page's visible area (left in the file past the crop box or the sheet's
 * edge) is never seen, and pdftotext leaves it out too: on an otherwise blank page it was all the
 * Markdown there was.
 */
function onPage(run: Box, frame: PageFrame): boolean {
  return run.x1 > 0 && run.y1 > 0 && run.x0 < frame.width && run.y0 < frame.height;
}

/**
 * A scanned page under its OCR text layer: an image over most of the page with most of the text
 * on it. It is the page itself, not a figure; laid out as one, it would span the columns.
 */
function isScanUnderText(image: Box, runs: readonly Box[], frame: PageFrame): boolean {
  const area = (image.x1 - image.x0) * (image.y1 - image.y0);
  if (area < SCAN_PAGE_SHARE * frame.width * frame.height || runs.length === 0) return false;
  const on = runs.filter((r) => {
    const x = (r.x0 + r.x1) / 2;
    const y = (r.y0 + r.y1) / 2;
    return x >= image.x0 && x <= image.x1 && y >= image.y0 && y <= image.y1;
  }).length;
  return on >= SCAN_PAGE_SHARE * runs.length;
}

/** Names images in reading order and gives their blocks the Markdown that links to them. */
function nameImages(
  drafts: DraftBlock[],
  placements: Map<Box, ImagePlacement>,
  page: number,
  frame: PageFrame,
): { image: PageImage; placement: ImagePlacement }[] {
  const named: { image: PageImage; placement: ImagePlacement }[] = [];
  for (const draft of drafts) {
    const placement = placements.get(draft.box);
    if (draft.kind !== 'image' || !placement) continue;
    const name = `page-${page}-image-${named.length + 1}.png`;
    draft.markdown = `![](${IMAGE_LINK_PREFIX}${name})`;
    named.push({ image: { name, bbox: toBBox(draft.box, frame), mime: 'image/png' }, placement });
  }
  return named;
}

function toFrameRule(rule: Rule, frame: PageFrame): Rule {
  const box = transformBox(frame.fromPage, rule);
  const swap = frame.quarterTurns % 2 === 1;
  const orientation = swap ? (rule.orientation === 'horizontal' ? 'vertical' : 'horizontal') : rule.orientation;
  return { ...box, orientation };
}

function toBBox(box: Box, frame: PageFrame): Block['bbox'] {
  const b = transformBox(frame.toPage, box);
  const round = (v: number) => Math.round(v * 100) / 100;
  return [round(b.x0), round(b.y0), round(b.x1), round(b.y1)];
}

function toBlock(draft: DraftBlock, frame: PageFrame): Block {
  const block: Block = { kind: draft.kind, bbox: toBBox(draft.box, frame), markdown: draft.markdown };
  if (draft.level !== undefined) block.level = draft.level;
  return block;
}
