/** A PDF read by the text engine in-process, for tests of what it makes of its pages. */

import { DEFAULT_CONVERT_OPTIONS } from '../shared/protocol.js';
import { openPdf } from '../electron/engine/pdf/open-pdf.js';
import { createTextEngine } from '../electron/engine/text/text-engine.js';

/** The Markdown the text engine makes of page 1 of `file`, or of every page (joined by a blank line). */
export async function textEngineMarkdown(file: string, pages: 'first' | 'all' = 'first'): Promise<string> {
  const { pdf } = await openPdf(file);
  const engine = createTextEngine();
  const markdown: string[] = [];
  try {
    for (let page = 1; page <= (pages === 'all' ? pdf.numPages : 1); page++) {
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
    await pdf.destroy();
  }
}
