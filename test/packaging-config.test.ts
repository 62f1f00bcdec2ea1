/**
 * The installers cannot be built here (no Electron binary to download), so the packaging config is
 * checked the way electron-builder itself would check it, plus what the app relies on.
 */
import { readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
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

/** electron-builder's own matching of `files`, `extraResources` and the like (app-builder-lib/out/fileMatcher). */
type GetFileMatchers = (
  config: BuilderConfig,
  name: 'extraResources',
  defaultDestination: string,
  options: { macroExpander: (pattern: string) => string; customBuildOptions: object; globalOutDir: string; defaultSrc: string },
) => FileMatcher[] | null;

interface FileMatcher {
  from: string;
  to: string;
  isEmpty(): boolean;
  containsOnlyIgnore(): boolean;
  prependPattern(pattern: string): void;
  createFilter(): (file: string, stat: Stats) => boolean;
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
    expect(JSON.stringify(config.files)).toContain('"!dist/electron/web/**"');
  });

  it('packs PDFium into the archive as a pinned production dependency, its wasm not unpacked: the engine host reads it with fs.readFile, which Electron serves from the asar', async () => {
    const config = await loadConfig();
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(manifest.dependencies['@embedpdf/pdfium']).toMatch(/^\d+\.\d+\.\d+$/);
    expect(config.asarUnpack?.filter((pattern) => pattern.includes('@embedpdf'))).toEqual([]);
    const loader = readFileSync(path.join(root, 'electron/engine/pdf/pdfium-text.ts'), 'utf8');
    expect(loader).toMatch(/await readFile\(createRequire\(import\.meta\.url\)\.resolve\('@embedpdf\/pdfium\/pdfium\.wasm'\)\)/);
    expect(loader).toMatch(/init\(\{ wasmBinary:/);
  });

  it('ships every demo model’s package from tools/model/fixtures to resources/models, where the app looks for it, without its test pages', async () => {
    const config = await loadConfig();
    const { getFileMatchers } = require('./out/fileMatcher.js') as { getFileMatchers: GetFileMatchers };
    const options = { macroExpander: (pattern: string) => pattern, customBuildOptions: {}, globalOutDir: path.join(root, 'out'), defaultSrc: root };
    const matchers = getFileMatchers(config, 'extraResources', '/app/resources', options) ?? [];
    for (const model of DEMO_MODELS) {
      const from = path.join(root, 'tools/model/fixtures', model.folder);
      const matcher = matchers.find((m) => m.from === from);
      expect(matcher?.to).toBe(`/app/resources/models/${model.folder}`);
      // as electron-builder's copyFiles does before it copies
      if (matcher!.isEmpty() || matcher!.containsOnlyIgnore()) matcher!.prependPattern('**/*');
      const filter = matcher!.createFilter();
      const shipped = (name: string) => filter(path.join(from, name), statSync(path.join(from, name)));
      const manifest = JSON.parse(readFileSync(path.join(from, 'manifest.json'), 'utf8')) as { files: Record<string, string> };
      for (const name of ['manifest.json', ...Object.keys(manifest.files)]) expect(shipped(name), name).toBe(true);
      for (const name of readdirSync(path.join(from, 'pages'))) expect(shipped(path.join('pages', name)), name).toBe(false);
    }
  });
});
