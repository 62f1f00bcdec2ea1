/**
 * The layout drawn in docs/architecture.md, checked on the imports: a file's folder says which
 * process it runs in, and a folder imports only what that process has.
 */

import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { importCycles, importsOf, layoutViolations, readImportGraph, type ImportEdge, type LayoutRule } from './architecture/import-graph.js';

const root = path.resolve(import.meta.dirname, '..');

const RULES: readonly LayoutRule[] = [
  { files: 'shared/', mustNotImport: ['electron/', 'renderer/', 'node:', 'electron'], why: 'shared/ is pure TypeScript that every process loads' },
  { files: 'renderer/', mustNotImport: ['electron/', 'node:', 'electron'], why: 'the renderer is a web page: it reaches the app through window.folio and shared/ types only' },
  {
    files: 'electron/core/',
    mustNotImport: ['electron/cli/', 'electron/main/', 'electron/web/', 'electron/engine/', 'electron'],
    why: 'core/ is what the CLI and the app share; it runs in plain Node and knows neither face nor the engine host’s insides',
  },
  {
    files: 'electron/preload/',
    mustNotImport: ['electron/cli/', 'electron/core/', 'electron/engine/', 'electron/main/'],
    why: 'the sandboxed preload can require only Electron; what it shares with main lives in shared/',
  },
  { files: 'electron/cli/', mustNotImport: ['electron/main/', 'electron/web/', 'electron/engine/', 'electron'], why: 'the CLI shares code with the app through core/ only, and reaches the engine host through core/engine-client' },
  { files: 'electron/main/', mustNotImport: ['electron/cli/', 'electron/engine/', 'electron/web/'], why: 'the app does not depend on the command line; it reaches the engine host through core/engine-client' },
  {
    files: 'electron/web/folio-bridge-client',
    mustNotImport: ['electron/', 'node:', 'electron'],
    why: 'browser mode’s window.folio runs in the page from its own source: it may name shared/ types only',
  },
  {
    files: 'electron/web/',
    mustNotImport: ['electron/cli/', 'electron/engine/', 'electron'],
    why: 'browser mode stands in for Electron main in plain Node: it runs main’s app service and reaches the engine host through core/engine-client',
  },
  {
    files: 'electron/engine/layout/',
    mustNotImport: ['electron/engine/text/', 'electron/engine/lite/', 'electron/engine/vlm/', 'electron/engine/remote/', 'electron/engine/pdf/'],
    why: 'the layout library turns positioned text into Markdown for the text and lite engines alike, and knows neither engine nor where the text came from',
  },
  {
    files: 'electron/engine/',
    mustNotImport: ['electron/cli/', 'electron/main/', 'electron/web/', 'electron/core/engine-client/', 'electron'],
    why: 'the engine host runs as a plain Node child or utility process and knows nothing of its callers',
  },
];

/** Vite's config runs in Node at build time; it is not part of the page. */
const BUILD_CONFIG = new Set(['renderer/vite.config']);

function repositoryGraph(): ImportEdge[] {
  return readImportGraph(root, ['shared', 'renderer', 'electron']).filter((edge) => !BUILD_CONFIG.has(edge.from));
}

function described(violations: ReturnType<typeof layoutViolations>): string[] {
  return violations.map(({ edge, rule }) => `${edge.from} imports ${edge.to}: ${rule.why}`);
}

describe('the repository’s layout', () => {
  const graph = repositoryGraph();

  it('reads the imports of every folder', () => {
    // a scanner that read nothing would pass every rule
    for (const folder of ['shared/', 'renderer/', 'electron/core/', 'electron/cli/', 'electron/main/', 'electron/web/', 'electron/engine/', 'electron/engine/layout/', 'electron/preload/']) {
      expect(graph.filter((edge) => edge.from.startsWith(folder)).length, folder).toBeGreaterThan(2);
    }
  });

  it('keeps every folder to the imports its process has', () => {
    expect(described(layoutViolations(graph, RULES))).toEqual([]);
  });

  it('has no import cycle, type-only imports included', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it('keeps shared/ free of Node and DOM globals: it compiles with the bare ES library and no @types', () => {
    const files = ts.sys.readDirectory(path.join(root, 'shared'), ['.ts'], ['**/*.test.ts']);
    const program = ts.createProgram(files, {
      target: ts.ScriptTarget.ES2023,
      lib: ['lib.es2023.d.ts'],
      types: [],
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      esModuleInterop: true,
      resolveJsonModule: true,
    });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .filter((diagnostic) => diagnostic.file && !diagnostic.file.fileName.includes('/node_modules/'))
      .map((diagnostic) => `${path.relative(root, diagnostic.file!.fileName)}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
    expect(errors).toEqual([]);
  });
});

describe('the layout rules', () => {
  const violationsIn = (file: string, text: string): string[] => described(layoutViolations(importsOf(file, text), RULES));

  it('fail when the app imports the command line', () => {
    expect(violationsIn('electron/main/app-service.ts', "import { writeFileAtomic } from '../cli/atomic-write.js';")).toEqual([
      'electron/main/app-service imports electron/cli/atomic-write: the app does not depend on the command line; it reaches the engine host through core/engine-client',
    ]);
  });

  it('fail when the renderer imports the command line, even by a dynamic import', () => {
    expect(violationsIn('renderer/app.tsx', "const cli = await import('../electron/cli/main.js');")).toHaveLength(1);
  });

  it('fail when the core imports a face', () => {
    expect(violationsIn('electron/core/output/output-files.ts', "import type { CliCommand } from '../../cli/cli-args.js';")).toHaveLength(1);
    expect(violationsIn('electron/core/workspace-store.ts', "import { AppService } from '../main/app-service.js';")).toHaveLength(1);
  });

  it('fail when the engine host imports Electron or its client', () => {
    expect(violationsIn('electron/engine/host-loop.ts', "import { app } from 'electron';")).toHaveLength(1);
    expect(violationsIn('electron/engine/router.ts', "import type { HostClient } from '../core/engine-client/host-client.js';")).toHaveLength(1);
  });

  it('fail when shared/ imports a Node built-in, by either spelling', () => {
    expect(violationsIn('shared/page.ts', "import { readFile } from 'node:fs/promises';\nimport path from 'path';")).toHaveLength(2);
  });

  it('let each process import what it has', () => {
    expect(violationsIn('electron/main/main.ts', "import { app } from 'electron';\nimport { forkHost } from '../core/engine-client/fork-host.js';")).toEqual([]);
    expect(violationsIn('electron/engine/remote/remote-engine.ts', "import { FailureError } from '../../core/failure-error.js';")).toEqual([]);
  });

  it('find a cycle made of type-only imports', () => {
    const edges = [
      ...importsOf('electron/engine/document-source.ts', "import type { ImageDocument } from './image/image-document.js';"),
      ...importsOf('electron/engine/image/image-document.ts', "import type { DocumentSource } from '../document-source.js';\nimport { x } from '../raster/rgb-image.js';"),
    ];
    expect(importCycles(edges)).toEqual([['electron/engine/document-source', 'electron/engine/image/image-document']]);
  });

  it('find a module that imports itself, and no cycle in a chain', () => {
    expect(importCycles(importsOf('shared/page.ts', "import type { Page } from './page.js';"))).toEqual([['shared/page']]);
    expect(importCycles([...importsOf('shared/a.ts', "import './b.js';"), ...importsOf('shared/b.ts', "import './c.js';")])).toEqual([]);
  });
});
