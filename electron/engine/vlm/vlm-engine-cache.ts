/**
 * VLM engines by model package and settings. Opening a package (hashing graphs, creating sessions)
 * is the slow part, so each folder is opened once per engine host and every page reuses it.
 */

import { parseDeviceRequest } from '../../../shared/device.js';
import type { VlmOptions } from '../../../shared/protocol.js';
import { FailureError } from '../failure-error.js';
import { openModelPackage, type ModelPackage } from './model-package.js';
import { resolutionMode } from './page-input.js';
import { VlmEngine, type VlmSettings } from './vlm-engine.js';

export class VlmEngineCache {
  private readonly packages = new Map<string, Promise<ModelPackage>>();
  private readonly engines = new Map<string, VlmEngine>();

  async engine(options: VlmOptions): Promise<VlmEngine> {
    const pkg = await this.open(options.modelDir, options.device ?? 'auto');
    const settings: VlmSettings = {
      mode: options.mode ?? pkg.manifest.vision.resolution_modes[0]?.name ?? '',
      specK: options.specK,
      maxNewTokens: options.maxNewTokens,
    };
    const key = JSON.stringify([options.modelDir, options.device ?? 'auto', settings.mode, settings.specK, settings.maxNewTokens]);
    let engine = this.engines.get(key);
    if (!engine) {
      engine = createEngine(pkg, settings);
      this.engines.set(key, engine);
    }
    return engine;
  }

  /** A package that failed to open stays failed: every page gets the loader's message without retrying. */
  private open(dir: string, device: string): Promise<ModelPackage> {
    const key = JSON.stringify([dir, device]);
    let opening = this.packages.get(key);
    if (!opening) {
      const request = parseDeviceRequest(device) ?? { kind: 'auto' as const };
      opening = openModelPackage(dir, { device: request }).catch((error: unknown) => {
        throw new FailureError('model-package', (error as Error).message);
      });
      this.packages.set(key, opening);
    }
    return opening;
  }
}

function createEngine(pkg: ModelPackage, settings: VlmSettings): VlmEngine {
  try {
    resolutionMode(pkg.manifest, settings.mode);
    return new VlmEngine(pkg, settings);
  } catch (error) {
    throw new FailureError('model-package', `${pkg.dir}: ${(error as Error).message.replace(`${pkg.dir}: `, '')}.`);
  }
}
