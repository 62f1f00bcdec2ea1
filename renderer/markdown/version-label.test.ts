import { describe, expect, it } from 'vitest';
import { versionLabel, versionTime } from './version-label.js';

const now = new Date(2026, 11, 3, 12, 0);
const at = (hours: number, minutes: number, day = 3) => new Date(2026, 11, day, hours, minutes).toISOString();
const hhmm = (hours: number, minutes: number) => new Date(2026, 11, 3, hours, minutes).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });

describe('versionLabel', () => {
  it('names a model by its name, other engines by theirs, an edit as an edit, each with its time', () => {
    expect(versionLabel({ id: 2, engine: 'remote', model: 'jina-ocr-v1', edited: false, markdown: '', at: at(10, 42) }, now)).toBe(`Model · jina-ocr-v1 · ${hhmm(10, 42)}`);
    expect(versionLabel({ id: 1, engine: 'text', edited: false, markdown: '', at: at(10, 31) }, now)).toBe(`Text layer · ${hhmm(10, 31)}`);
    expect(versionLabel({ id: 3, engine: 'text', edited: true, markdown: '', base: 1, at: at(10, 45) }, now)).toBe(`Edited · ${hhmm(10, 45)}`);
  });

  it('says the day of a version made before today, and no time for one saved before versions existed', () => {
    expect(versionTime(at(9, 5, 1), now)).toMatch(/1/);
    expect(versionTime(at(9, 5, 1), now)).not.toBe(versionTime(at(9, 5, 3), now));
    expect(versionLabel({ id: 1, engine: 'lite', edited: false, markdown: '' }, now)).toBe('Scan OCR (lite)');
  });
});
