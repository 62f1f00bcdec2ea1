/** Picks the engine for a page: `auto` takes the VLM when a model package is configured, else the text layer. */

import type { ConvertOptions } from '../../shared/protocol.js';
import type { PageEngine } from './engine.js';
import { FailureError } from './failure-error.js';
import { createTextEngine } from './text/text-engine.js';
import { VlmEngineCache } from './vlm/vlm-engine-cache.js';

export interface Route {
  engine: PageEngine;
  reason: string;
}

export class EngineRouter {
  private readonly text = createTextEngine();
  private readonly vlm = new VlmEngineCache();

  async route(options: ConvertOptions): Promise<Route> {
    if (options.engine === 'text') return { engine: this.text, reason: 'text engine requested' };
    if (options.vlm) {
      const engine = await this.vlm.engine(options.vlm);
      return { engine, reason: options.engine === 'vlm' ? 'vlm engine requested' : 'model package configured' };
    }
    if (options.engine === 'vlm') throw new FailureError('model-package', 'The vlm engine needs a model package; give its folder with --model <dir>.');
    return { engine: this.text, reason: 'no model package configured; reading the text layer' };
  }

  forgetDocument(...args: Parameters<PageEngine['forgetDocument']>): void {
    this.text.forgetDocument(...args);
  }
}
