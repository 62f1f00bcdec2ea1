/** Page 1 of a PDF read by the text engine in-process, for tests of what it makes of one page. */

import { DEFAULT_CONVERT_OPTIONS } from '../shared/protocol.js';
import { openPdf } from '../electron/engine/pdf/open-pdf.js';
import { createTextEngine } from '../electron/engine/text/text-engine.js';

/** The Markdown the text engine makes of page 1 of `file`. */
export async function textEngineMarkdown(file: string): Promise<string> {
  const { pdf } = await openPdf(file);
  const engine = createTextEngine();
  try {
    const content = await engine.convertPage({
      pdf,
      page: 1,
      alsoConverts: () => false,
      options: { ...DEFAULT_CONVERT_OPTIONS, engine: 'text' },
      signal: new AbortController().signal,
      render: () => Promise.reject(new Error('the text engine reads no pixels')),
      emitDelta: () => undefined,
    });
    return content.markdown;
  } finally {
    engine.forgetDocument(pdf);
    await pdf.destroy();
  }
}
