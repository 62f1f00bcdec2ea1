/**
 * Picks the engine for a page: `auto` takes the remote server when one is configured, else the VLM
 * when a model package is configured, else the text layer.
 */

import type { ConvertOptions } from '../../shared/protocol.js';
import type { PageEngine } from './engine.js';
import { FailureError } from './failure-error.js';
import { RemoteEngineCache } from './remote/remote-engine-cache.js';
import { createTextEngine } from './text/text-engine.js';
import { VlmEngineCache } from './vlm/vlm-engine-cache.js';

export interface Route {
  engine: PageEngine;
  reason: string;
}

export class EngineRouter {
  private readonly text = createTextEngine();
  private readonly vlm = new VlmEngineCache();
  private readonly remote: RemoteEngineCache;

  /** `remoteApiKey`: the host reads it from its environment (FOLIO_API_KEY); it never travels in ConvertOptions. */
  constructor(credentials: { remoteApiKey?: string } = {}) {
    this.remote = new RemoteEngineCache(credentials.remoteApiKey);
  }

  async route(options: ConvertOptions): Promise<Route> {
    if (options.engine === 'text') return { engine: this.text, reason: 'text engine requested' };
    if (options.engine === 'remote' || (options.engine === 'auto' && options.remote)) {
      if (!options.remote) throw new FailureError('remote', 'The remote engine needs a server; give --server <url> and --model <name>.');
      return { engine: this.remote.engine(options.remote), reason: options.engine === 'remote' ? 'remote engine requested' : 'remote server configured' };
    }
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
