/** Picks the engine for a page. With only the text engine installed, `auto` means `text`. */

import type { EngineChoice } from '../../shared/engine-name.js';
import type { PageEngine } from './engine.js';
import { createTextEngine } from './text/text-engine.js';

export interface Route {
  engine: PageEngine;
  reason: string;
}

export class EngineRouter {
  private readonly text = createTextEngine();

  route(choice: EngineChoice): Route {
    if (choice === 'text') return { engine: this.text, reason: 'text engine requested' };
    return { engine: this.text, reason: 'no model package configured; reading the text layer' };
  }

  forgetDocument(...args: Parameters<PageEngine['forgetDocument']>): void {
    this.text.forgetDocument(...args);
  }
}
