import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkModelFolder, expandHome } from './model-folder-check.js';

describe('model folder check', () => {
  it('reads ~ as the home folder, as a shell does, and nothing else', () => {
    expect(expandHome('~')).toBe(os.homedir());
    expect(expandHome('~/models/jina')).toBe(path.join(os.homedir(), 'models', 'jina'));
    expect(expandHome('~other/models')).toBe('~other/models');
    expect(expandHome('/srv/~/models')).toBe('/srv/~/models');
  });

  it('checks the folder ~ names, and says a folder without a package is none, pointing to the model library', async () => {
    const check = await checkModelFolder(' ~/no-such-folio-package ');
    expect(check.folder).toBe(path.join(os.homedir(), 'no-such-folio-package'));
    expect(check.problem).toContain('not a model package; choose one listed in Settings > Models');
    expect(check.problem).not.toContain('tools/model');
  });
});
