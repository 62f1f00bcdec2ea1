import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ModelPrecision } from '../../../shared/model-library.js';
import { clearUnfinished, findInstalled, listUnfinished, markUnfinished, MODEL_RECORD } from './installed-models.js';

async function install(modelsDir: string, id: string, precision: ModelPrecision, recordedId = id): Promise<string> {
  const folder = path.join(modelsDir, `${id.replace('/', '--')}--${precision}`);
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'manifest.json'), '{}');
  await writeFile(path.join(folder, MODEL_RECORD), JSON.stringify({ id: recordedId, precision, source: { kind: 'hub', repo: id, revision: 'main', commit: 'c'.repeat(40) }, origin: 'converted', installedAt: '2026-01-01T00:00:00Z' }));
  return folder;
}

describe('installed models, found by id', () => {
  it('picks int4 of several precisions unless one is named, and takes no folder its record does not vouch for', async () => {
    const modelsDir = await mkdtemp(path.join(os.tmpdir(), 'folio-models-'));
    const fp16 = await install(modelsDir, 'acme/ocr', 'fp16');
    const int4 = await install(modelsDir, 'acme/ocr', 'int4');
    await install(modelsDir, 'acme/other', 'int4', 'someone/else');
    expect(findInstalled(modelsDir, 'acme/ocr')).toEqual({ folder: int4, precision: 'int4' });
    expect(findInstalled(modelsDir, 'acme/ocr:fp16')).toEqual({ folder: fp16, precision: 'fp16' });
    expect(findInstalled(modelsDir, 'acme/ocr:fp32')).toBeUndefined();
    expect(findInstalled(modelsDir, 'acme/ocr:int8')).toBeUndefined();
    expect(findInstalled(modelsDir, 'acme/other')).toBeUndefined();
    expect(findInstalled(modelsDir, 'acme/ocr@main')).toBeUndefined();
  });

  it('keeps unfinished downloads until cleared', async () => {
    const modelsDir = await mkdtemp(path.join(os.tmpdir(), 'folio-models-'));
    const download = { id: 'acme/ocr', source: 'acme/ocr@v2', precision: 'int4' as const, license: 'mit', startedAt: '2026-01-01T00:00:00Z' };
    await markUnfinished(modelsDir, download);
    await markUnfinished(modelsDir, { ...download, message: 'cancelled' });
    expect(await listUnfinished(modelsDir)).toEqual([{ ...download, message: 'cancelled' }]);
    await clearUnfinished(modelsDir, 'acme/ocr', 'int4');
    expect(await listUnfinished(modelsDir)).toEqual([]);
  });
});
