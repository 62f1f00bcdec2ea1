/**
 * `npm run bench:lite`: the `lite` engine's candidate paths on the project's scan fixtures
 * (test/scans/out/, made by `npx vitest run test/lite-engine.test.ts`), side by side in one run:
 * seconds per page, character error rate against the source's text layer, and the share of time
 * in rendering, detection, recognition and layout. Target for the default path (PP-OCRv4): under
 * 2 s per A4 page with a CER under 1% on the clean 200 dpi scan. A benchmark prints; it asserts nothing.
 */

import { existsSync } from 'node:fs';
import ort from 'onnxruntime-node';
import path from 'node:path';
import { DEFAULT_CONVERT_OPTIONS } from '../../shared/protocol.js';
import type { OcrReader } from '../../shared/ocr-languages.js';
import { DocumentSession } from '../../electron/engine/document-session.js';
import { LITE_LONG_SIDE, pdfPageImage } from '../../electron/engine/lite/lite-engine.js';
import { ocrBlocks } from '../../electron/engine/lite/ocr-layout.js';
import { closePpOcrModels, loadPpOcrModels, PPOCR_SESSION_OPTIONS, ppOcrAssetsDir, RECOGNISER_FILE, withFusedGraph } from '../../electron/engine/lite/ppocr-models.js';
import { sessionRunner, WORKER_COUNT } from '../../electron/engine/lite/worker-sessions.js';
import { detectTextLines } from '../../electron/engine/lite/text-detection.js';
import { recogniseLines } from '../../electron/engine/lite/text-recognition.js';
import { readPage } from '../../electron/engine/lite/page-reading.js';
import { closeTesseractWorkers } from '../../electron/engine/lite/tesseract-reader.js';
import { closePdf, openPdf } from '../../electron/engine/pdf/open-pdf.js';
import { renderPdfPage } from '../../electron/engine/raster/page-raster.js';
import { EngineRouter } from '../../electron/engine/router.js';
import { characterErrorRate } from '../../test/scans/character-error-rate.js';
import { FIXTURE_PDF_DIR, REPO_ROOT } from './bench-set.js';

const SCAN_DIR = path.join(REPO_ROOT, 'test/scans/out');
/** Each scan and the born-digital PDF it was made from (whose text layer is the known text). */
const SCANS = [
  { scan: 'paper-clean-200', source: path.join(FIXTURE_PDF_DIR, 'paper.pdf'), cjk: false },
  { scan: 'paper-200', source: path.join(FIXTURE_PDF_DIR, 'paper.pdf'), cjk: false },
  { scan: 'letter-150', source: path.join(FIXTURE_PDF_DIR, 'letter.pdf'), cjk: false },
  { scan: 'headings-300', source: path.join(FIXTURE_PDF_DIR, 'headings.pdf'), cjk: false },
  { scan: 'chinese-200', source: path.join(SCAN_DIR, 'chinese-source.pdf'), cjk: true },
  // Sideways: detected twice, once as it lies and once turned (made by test/lite-orientation.test.ts).
  { scan: 'letter-150-turned-90', source: path.join(FIXTURE_PDF_DIR, 'letter.pdf'), cjk: false },
];
const PATHS: { name: string; reader: OcrReader; latinOnly: boolean }[] = [
  { name: 'PP-OCRv4 (default)', reader: { kind: 'ppocr' }, latinOnly: false },
  { name: 'Tesseract eng', reader: { kind: 'tesseract', pack: 'eng' }, latinOnly: true },
];
const TARGET_MS = 2000;
const TARGET_CER = 0.01;

interface Measure {
  /** CPU time of the whole process (Tesseract's worker thread included): steadier than wall time on a shared machine. */
  cpuMs: number;
  renderMs: number;
  detectionMs: number;
  orientationMs: number;
  recognitionMs: number;
  layoutMs: number;
  cer: number;
}

async function main(): Promise<void> {
  const scans = SCANS.filter((s) => existsSync(path.join(SCAN_DIR, `${s.scan}.pdf`)));
  if (scans.length === 0) throw new Error(`No scans in ${SCAN_DIR}: make them with "npx vitest run test/lite-engine.test.ts".`);
  const router = new EngineRouter();
  const known = new Map<string, string>();
  for (const s of scans) known.set(s.scan, await textLayer(router, s.source));

  console.log(`Scans: ${scans.map((s) => s.scan).join(', ')}; a scan's own image (halved while over ${LITE_LONG_SIDE * 1.5} px), other pages rendered at ${LITE_LONG_SIDE} px; one warm-up page per path\n`);
  console.log(row('scan', 'path', 's/page', 'CPU s', 'CER', 'image', 'detect', 'orient', 'recognise', 'layout'));
  const totals = new Map<string, { ms: number; cpuMs: number; pages: number }>();
  const upright = { ms: 0, orientationMs: 0 };
  for (const p of PATHS) await measure(p.reader, path.join(SCAN_DIR, `${scans[0]!.scan}.pdf`), '', false);
  for (const s of scans) {
    for (const p of PATHS) {
      if (p.latinOnly && s.cjk) {
        console.log(row(s.scan, p.name, '-', '-', '-', 'no Chinese pack shipped'));
        continue;
      }
      const m = await measure(p.reader, path.join(SCAN_DIR, `${s.scan}.pdf`), known.get(s.scan)!, s.cjk);
      const total = m.renderMs + m.detectionMs + m.orientationMs + m.recognitionMs + m.layoutMs;
      const share = (v: number) => `${Math.round((100 * v) / total)}%`;
      console.log(row(s.scan, p.name, (total / 1000).toFixed(2), (m.cpuMs / 1000).toFixed(2), `${(m.cer * 100).toFixed(2)}%`, share(m.renderMs), share(m.detectionMs), share(m.orientationMs), share(m.recognitionMs), share(m.layoutMs)));
      const turned = s.scan.includes('turned');
      if (p === PATHS[0] && !turned) {
        upright.ms += total;
        upright.orientationMs += m.orientationMs;
      }
      if (!s.cjk && !turned) {
        const t = totals.get(p.name) ?? { ms: 0, cpuMs: 0, pages: 0 };
        totals.set(p.name, { ms: t.ms + total, cpuMs: t.cpuMs + m.cpuMs, pages: t.pages + 1 });
      }
    }
  }
  await Promise.all([closeTesseractWorkers(), closePpOcrModels()]);
  const mean = (name: string, key: 'ms' | 'cpuMs') => totals.get(name)![key] / totals.get(name)!.pages / 1000;
  const [ppocr, tesseract] = [PATHS[0]!.name, PATHS[1]!.name];
  console.log(`\nLatin scans, mean per page: ${ppocr} ${mean(ppocr, 'ms').toFixed(2)} s (CPU ${mean(ppocr, 'cpuMs').toFixed(2)} s), ${tesseract} ${mean(tesseract, 'ms').toFixed(2)} s (CPU ${mean(tesseract, 'cpuMs').toFixed(2)} s)`);
  console.log(`${ppocr} / ${tesseract}: time ${(mean(ppocr, 'ms') / mean(tesseract, 'ms')).toFixed(2)}x, CPU ${(mean(ppocr, 'cpuMs') / mean(tesseract, 'cpuMs')).toFixed(2)}x`);
  console.log(`target for the default path: under ${TARGET_MS / 1000} s/page and CER under ${TARGET_CER * 100}% on paper-clean-200 (see its row)`);
  console.log(`${ppocr} orientation on the upright scans (windows of the longest lines through the direction classifier): ${Math.round(upright.orientationMs)} ms of ${Math.round(upright.ms)} ms, ${((100 * upright.orientationMs) / upright.ms).toFixed(1)}% of their time`);
  await compareRecognisers(path.join(SCAN_DIR, `${scans[0]!.scan}.pdf`));
}

/**
 * On the same page's lines, alternated: the recogniser as shipped against the fused graph (CPU, one
 * session in this thread), and that session against the worker sessions the engine uses (wall time).
 */
async function compareRecognisers(file: string): Promise<void> {
  const { pdf } = await openPdf(file);
  try {
    const page = await pdf.getPage(1);
    const image = await pdfPageImage(page, () => renderPdfPage(pdf, 1, LITE_LONG_SIDE));
    const models = await loadPpOcrModels();
    const recogniserPath = path.join(ppOcrAssetsDir(), RECOGNISER_FILE);
    const shipped = await ort.InferenceSession.create(recogniserPath, PPOCR_SESSION_OPTIONS);
    const fused = await withFusedGraph(recogniserPath, (model) => ort.InferenceSession.create(model, PPOCR_SESSION_OPTIONS));
    const boxes = await detectTextLines(models.detector, image);
    const runners = { shipped: sessionRunner(shipped), fused: sessionRunner(fused), workers: models.recogniser };
    const cpuMs = { shipped: 0, fused: 0, workers: 0 };
    const wallMs = { shipped: 0, fused: 0, workers: 0 };
    const texts = { shipped: '', fused: '', workers: '' };
    for (let round = 0; round < 2; round++) {
      for (const name of ['shipped', 'fused', 'workers'] as const) {
        const cpu = process.cpuUsage();
        const started = performance.now();
        const lines = await recogniseLines(runners[name], models.alphabet, image, boxes, new AbortController().signal);
        wallMs[name] += (performance.now() - started) / 2;
        const used = process.cpuUsage(cpu);
        cpuMs[name] += (used.user + used.system) / 1000 / 2;
        texts[name] = lines.map((l) => l.chars.map((c) => c.text).join('')).join('\n');
      }
    }
    await Promise.all([shipped.release(), fused.release()]);
    const s = (ms: number) => (ms / 1000).toFixed(2);
    console.log(`\nRecogniser on ${path.basename(file)}'s ${boxes.length} lines:`);
    console.log(`  graph, one session here, CPU s: shipped ${s(cpuMs.shipped)}, fused ${s(cpuMs.fused)} (${(cpuMs.shipped / cpuMs.fused).toFixed(2)}x); same text: ${texts.shipped === texts.fused}`);
    console.log(`  threads, wall s: one session with ${PPOCR_SESSION_OPTIONS.intraOpNumThreads ?? 'default'} intra-op threads ${s(wallMs.fused)}, ${WORKER_COUNT} worker sessions of one thread ${s(wallMs.workers)} (${(wallMs.workers / wallMs.fused).toFixed(2)}x); same text: ${texts.fused === texts.workers}`);
  } finally {
    await closePdf(pdf);
  }
}

async function measure(reader: OcrReader, file: string, knownText: string, cjk: boolean): Promise<Measure> {
  const { pdf } = await openPdf(file);
  try {
    const page = await pdf.getPage(1);
    const viewport = page.getViewport({ scale: 1 });
    const cpu = process.cpuUsage();
    const started = performance.now();
    const image = await pdfPageImage(page, () => renderPdfPage(pdf, 1, LITE_LONG_SIDE));
    const renderMs = performance.now() - started;
    const reading = await readPage(image, reader, new AbortController().signal);
    const laidOut = performance.now();
    // Laid out as read: a sideways page's sides swap (lite-engine.ts maps the boxes back; text needs no mapping).
    const [width, height] = reading.turns % 2 === 1 ? [viewport.height, viewport.width] : [viewport.width, viewport.height];
    const blocks = ocrBlocks({ width, height, scale: width / reading.imageWidth, lines: reading.lines });
    const layoutMs = performance.now() - laidOut;
    const markdown = blocks.map((b) => b.markdown).filter(Boolean).join('\n\n');
    const used = process.cpuUsage(cpu);
    return { cpuMs: (used.user + used.system) / 1000, renderMs, ...reading.timings, layoutMs, cer: knownText ? characterErrorRate(markdown, knownText, { ignoreSpaces: cjk }) : 0 };
  } finally {
    await closePdf(pdf);
  }
}

async function textLayer(router: EngineRouter, file: string): Promise<string> {
  const session = await DocumentSession.open(router, file);
  let markdown = '';
  try {
    await session.convert([1], { ...DEFAULT_CONVERT_OPTIONS, engine: 'text' }, {
      started() {},
      delta() {},
      done: (result) => (markdown = result.markdown),
      failed: (_, failure) => {
        throw new Error(`${file}: ${failure.message}`);
      },
    }, new AbortController().signal);
  } finally {
    await session.close();
  }
  return markdown;
}

function row(...cells: string[]): string {
  const widths = [20, 20, 7, 7, 7, 8, 8, 8, 10, 7];
  return cells.map((c, i) => c.padEnd(widths[i] ?? 8)).join(' ');
}

await main();
