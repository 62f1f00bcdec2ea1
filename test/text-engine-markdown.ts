/** A PDF read by the text engine in-process, opened as the app and CLI open it, for tests of what it makes of its pages. */

import { DEFAULT_CONVERT_OPTIONS } from '../shared/protocol.js';
import { openDocumentSource } from '../electron/engine/open-document.js';
import { createTextEngine } from '../electron/engine/text/text-engine.js';

/** The Markdown the text engine makes of page 1 of `file`, of every page (joined by a blank line), or of the one page numbered. */
export async function textEngineMarkdown(file: string, pages: 'first' | 'all' | number = 'first'): Promise<string> {
  const source = await openDocumentSource(file);
  const pdf = source.pdf;
  if (!pdf) throw new Error(`${file} opened as an image, not a PDF`);
  const engine = createTextEngine();
  const markdown: string[] = [];
  try {
    const first = typeof pages === 'number' ? pages : 1;
    const last = typeof pages === 'number' ? pages : pages === 'all' ? pdf.numPages : 1;
    for (let page = first; page <= last; page++) {
      const content = await engine.convertPage({
        pdf,
        page,
        alsoConverts: () => false,
        options: { ...DEFAULT_CONVERT_OPTIONS, engine: 'text' },
        signal: new AbortController().signal,
        render: () => Promise.reject(new Error('the text engine reads no pixels')),
        emitDelta: () => undefined,
      });
      markdown.push(content.markdown);
    }
    return markdown.join('\n\n');
  } finally {
    engine.forgetDocument(pdf);
    await source.close();
  }
}
