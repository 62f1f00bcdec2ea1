/** One remote engine per distinct server setting, so its request cap holds over every document converting with it. */

import type { RemoteOptions } from '../../../shared/protocol.js';
import { RemoteEngine } from './remote-engine.js';

export class RemoteEngineCache {
  private readonly engines = new Map<string, RemoteEngine>();

  constructor(private readonly apiKey: string | undefined) {}

  engine(options: RemoteOptions): RemoteEngine {
    const key = JSON.stringify(options);
    let engine = this.engines.get(key);
    if (!engine) {
      engine = new RemoteEngine(options, this.apiKey);
      this.engines.set(key, engine);
    }
    return engine;
  }
}
