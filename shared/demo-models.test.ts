import { describe, expect, it } from 'vitest';
import { DEMO_MODEL_NAMES, DEMO_MODELS, findDemoModel } from './demo-models.js';

describe('demo models', () => {
  it('finds the nano demo by name, in its nano package folder, labelled as trained on synthetic pages only', () => {
    const nano = findDemoModel('nano-demo');
    expect(nano?.folder).toBe('nano');
    expect(nano?.title).toBe('nano demo');
    expect(nano?.label).toMatch(/synthetic pages only/);
    expect(nano?.label).toMatch(/not read real documents/);
  });

  it('knows no other name, not even the package folder name', () => {
    expect(findDemoModel('nano')).toBeUndefined();
    expect(findDemoModel('Nano-Demo')).toBeUndefined();
    expect(findDemoModel('./nano-demo')).toBeUndefined();
  });

  it('lists every demo once, with names and folders that are plain path segments', () => {
    expect(DEMO_MODEL_NAMES).toEqual(DEMO_MODELS.map((model) => model.name));
    expect(new Set(DEMO_MODEL_NAMES).size).toBe(DEMO_MODELS.length);
    for (const model of DEMO_MODELS) {
      expect(model.name).toMatch(/^[a-z0-9-]+$/);
      expect(model.folder).toMatch(/^[a-z0-9-]+$/);
    }
  });
});
