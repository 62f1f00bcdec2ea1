// Placeholder until the text engine lands (being written now).
import type { PageEngine } from '../engine.js';

export function createTextEngine(): PageEngine {
  return {
    name: 'text',
    async convertPage(job) {
      const page = await job.pdf.getPage(job.page);
      const { width, height } = page.getViewport({ scale: 1 });
      page.cleanup();
      return { width, height, markdown: '', blocks: [], images: [], device: 'cpu' };
    },
    forgetDocument() {},
  };
}
