/** What the engine host is asked for: the settings, with one run's overrides (re-run a page with another engine or mode). */

import type { ConvertRequest } from '../../shared/app-api.js';
import type { ConvertOptions } from '../../shared/protocol.js';
import type { Settings } from '../../shared/settings.js';
import { vlmOptions } from '../cli/vlm-options.js';

export async function conversionOptions(settings: Settings, request: Pick<ConvertRequest, 'engine' | 'mode'>): Promise<ConvertOptions> {
  const mode = request.mode ?? settings.mode ?? undefined;
  return {
    engine: request.engine ?? settings.engine,
    keepHeaders: settings.keepHeaders,
    // always: the workspace keeps figures so that any later export can write them
    extractImages: true,
    vlm:
      settings.modelDir === null
        ? undefined
        : await vlmOptions({
            modelDir: settings.modelDir,
            specK: settings.specK === 'auto' ? undefined : settings.specK,
            mode,
            maxNewTokens: settings.maxNewTokens,
          }),
  };
}
