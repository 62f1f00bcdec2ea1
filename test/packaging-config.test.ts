/**
 * The installers cannot be built here (no Electron binary to download), so the packaging config is
 * checked the way electron-builder itself would check it, plus what the app relies on.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_MODELS } from '../shared/demo-models.js';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(path.join(root, 'node_modules/app-builder-lib/package.json'));

interface BuilderConfig {
  asarUnpack?: string[];
  extraResources?: unknown;
  files?: unknown;
  electronFuses?: Record<string, boolean>;
  linux?: { target?: string[]; executableName?: string };
  mac?: { target?: string[] };
  win?: { target?: string[] };
}

async function loadConfig(): Promise<BuilderConfig> {
  const { getConfig, validateConfiguration } = require('./out/util/config/config.js') as {
    getConfig(projectDir: string, configPath: string, options: null): Promise<BuilderConfig>;
    validateConfiguration(config: BuilderConfig, logger: unknown): Promise<void>;
  };
  const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
  const config = await getConfig(root, path.join(root, 'electron-builder.yml'), null);
  await validateConfiguration(config, new DebugLogger(false));
  return config;
}

describe('electron-builder.yml', () => {
  it('passes electron-builder’s own validation and targets AppImage, deb, dmg and nsis', async () => {
    const config = await loadConfig();
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.mac?.target).toEqual(['dmg']);
    expect(config.win?.target).toEqual(['nsis']);
    expect(config.linux?.executableName).toBe('folio-app');
  });

  it('unpacks onnxruntime-node’s native parts from the asar and sets the fuses that close code-injection paths', async () => {
    const config = await loadConfig();
    expect(config.asarUnpack).toContain('node_modules/onnxruntime-node/**');
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
    });
    // electron-builder normalises `files` into filter sets
    expect(JSON.stringify(config.files)).toContain('"!dist/e2e/**"');
  });

  it('ships every demo model’s package from tools/model/fixtures to resources/models, where the app looks for it', async () => {
    const config = await loadConfig();
    for (const model of DEMO_MODELS) {
      expect(config.extraResources).toContainEqual({ from: `tools/model/fixtures/${model.folder}`, to: `models/${model.folder}` });
    }
  });
});
