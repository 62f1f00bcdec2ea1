/** What the engine host is asked for: the settings, with one run's overrides (re-run a page with another engine or mode). */

import type { ConvertRequest } from '../../shared/app-api.js';
import { REMOTE_DEFAULTS } from '../../shared/conversion-defaults.js';
import type { ConvertOptions, RemoteOptions } from '../../shared/protocol.js';
import type { Settings } from '../../shared/settings.js';
import { convertOptions, type EngineRequest } from '../core/conversion-request.js';

/** `dataDir`: the app's data folder, where the `vlm` engine's `auto` keeps what it measured of the devices. */
export async function conversionOptions(settings: Settings, request: Pick<ConvertRequest, 'engine' | 'mode'>, dataDir?: string): Promise<ConvertOptions> {
  const mode = request.mode ?? settings.mode ?? undefined;
  const engine = request.engine ?? settings.engine;
  const engineRequest: EngineRequest = {
    engine,
    keepHeaders: settings.keepHeaders,
    vlm:
      settings.modelDir === null
        ? undefined
        : { modelDir: settings.modelDir, specK: settings.specK === 'auto' ? undefined : settings.specK, mode, maxNewTokens: settings.maxNewTokens, device: settings.device, pagesInFlight: settings.pagesInFlight },
    // only when asked for by name: with a server in the options `auto` would send every page to it
    remote: engine === 'remote' ? remoteOptions(settings) : undefined,
    lang: settings.ocrLang,
  };
  // always with figures: the workspace keeps them so that any later export can write them
  return convertOptions(engineRequest, true, dataDir);
}

function remoteOptions(settings: Settings): RemoteOptions {
  if (settings.remoteServer === null || settings.remoteModel === null) {
    throw new Error('The remote engine needs a server: set its address and model name under Settings → Remote server, or choose another engine.');
  }
  return {
    server: settings.remoteServer,
    model: settings.remoteModel,
    concurrency: settings.remoteConcurrency,
    timeoutMs: settings.remoteTimeoutS * 1000,
    retries: REMOTE_DEFAULTS.retries,
    imageLongSide: settings.remoteImageSide,
    imageFormat: settings.remoteImageFormat,
    maxTokens: settings.maxNewTokens,
  };
}
