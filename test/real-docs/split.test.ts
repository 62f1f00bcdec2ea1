import { describe, expect, it } from 'vitest';
import { realDocuments } from '../../tools/bench/real-docs/build.js';
import { familyKey, isHeldOut, sideOf } from '../../tools/bench/real-docs/split.js';
import { needs, REAL_DOCS } from '../environment.js';
import { realDocsProblem } from './real-docs-folder.js';

describe('the tune/holdout split', () => {
  it('keys TeX Live documents by family, ICDAR ones by path, and keeps Debian Reference in tune', () => {
    expect(familyKey('texlive/texlive-publishers-doc/latex/revtex/sample/aps/apssamp.pdf')).toBe('texlive:revtex');
    expect(familyKey('texlive/texlive-publishers-doc/latex/acmart/samples/sample-sigconf.pdf')).toBe('texlive:acmart');
    expect(familyKey('texlive/texlive-science-doc/amstex/base/amsguide.pdf')).toBe('texlive:base');
    expect(familyKey('icdar2013/competition-dataset-eu/eu-006.pdf')).toBe('icdar2013/competition-dataset-eu/eu-006.pdf');
    expect(familyKey('debian-reference/debian-reference.en.pdf')).toBeUndefined();
    expect(sideOf('debian-reference/debian-reference.en.pdf')).toBe('tune');
    expect(() => familyKey('corpus/pdfjs/pdfs/x.pdf')).toThrow(/not a real-docs source/);
  });

  it('holds out a family when its SHA-256 starts with a multiple of 3', () => {
    // sha256("texlive:revtex") starts 33bd3786 (0x33bd3786 % 3 = 0); "texlive:acmart" 0e262730 (% 3 = 1)
    expect(isHeldOut('texlive:revtex')).toBe(true);
    expect(isHeldOut('texlive:acmart')).toBe(false);
    expect(isHeldOut('texlive:base')).toBe(true);
    expect(isHeldOut('texlive:amsmath')).toBe(false);
    expect(sideOf('texlive/texlive-publishers-doc/latex/revtex/auguide/auguide4-2.pdf')).toBe('holdout');
    expect(sideOf('icdar2013/competition-dataset-eu/eu-006.pdf')).toBe('holdout');
  });
});

describe('the split of real-docs', needs(REAL_DOCS, realDocsProblem), () => {
  it('takes 138 documents, holds out 51, and never splits a family', async () => {
    const docs = await realDocuments();
    expect(docs).toHaveLength(138);
    expect(docs.filter((d) => d.side === 'holdout')).toHaveLength(51);
    const sides = new Map<string, Set<string>>();
    for (const doc of docs) {
      const key = familyKey(doc.path) ?? doc.path;
      sides.set(key, (sides.get(key) ?? new Set()).add(doc.side));
    }
    expect([...sides].filter(([, s]) => s.size > 1)).toEqual([]);
    // the six REVTeX samples and guides share text: all on one side
    expect(new Set(docs.filter((d) => d.path.includes('/revtex/')).map((d) => d.side))).toEqual(new Set(['holdout']));
    // names in pdfs/ are unique as stems, as olmOCR's output files are named by stem
    expect(new Set(docs.map((d) => d.pdf.replace(/\.pdf$/, ''))).size).toBe(docs.length);
  });
});
