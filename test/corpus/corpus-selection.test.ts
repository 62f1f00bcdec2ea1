import { describe, expect, it } from 'vitest';
import { CI_STRIDE, KNOWN_HOSTILE, corpusMode, selectCorpusFiles } from './corpus-selection.js';

const names = Array.from({ length: 40 }, (_, i) => `file-${String(i).padStart(2, '0')}.pdf`);

describe('corpus selection', () => {
  it('takes every file when FOLIO_CORPUS=all, and the CI part otherwise', () => {
    expect(corpusMode({ FOLIO_CORPUS: 'all' })).toBe('all');
    expect(corpusMode({})).toBe('ci');
    expect(selectCorpusFiles([...names].reverse(), 'all')).toEqual(names);
  });

  it('CI takes every 8th file by sorted name plus the known-hostile files, in sorted order', () => {
    const hostile = KNOWN_HOSTILE[0]!;
    const picked = selectCorpusFiles([...names, hostile].reverse(), 'ci');
    const everyEighth = [...names, hostile].sort().filter((_, i) => i % CI_STRIDE === 0);
    expect(picked).toEqual([...new Set([...everyEighth, hostile])].sort());
    expect(picked).toContain(hostile);
  });
});
