import { describe, expect, it } from 'vitest';
import { markdownToHtml } from '../../../shared/export/markdown-html.js';
import { loadMathCss } from './math-css.js';

/** KaTeX's atom classes, which carry no style of their own (the spacing is set inline). */
const UNSTYLED_ATOMS = new Set(['mord', 'mbin', 'mrel', 'mopen', 'mclose', 'mpunct', 'minner', 'mop', 'mtight']);

describe('loadMathCss', () => {
  it('embeds every KaTeX font as woff2 data and leaves no url() pointing at a file', async () => {
    const css = await loadMathCss();
    const urls = [...css.matchAll(/url\(([^)]*)\)/g)].map((match) => match[1] ?? '');
    const fontFaces = css.match(/@font-face/g) ?? [];
    expect(fontFaces.length).toBeGreaterThan(10);
    expect(urls).toHaveLength(fontFaces.length);
    for (const url of urls) expect(url).toMatch(/^data:font\/woff2;base64,[A-Za-z0-9+/]{100,}={0,2}$/);
    expect(css).not.toMatch(/\.(?:woff|ttf)\b/);
    expect(css).toContain('font-family:KaTeX_Main');
  });

  it('embeds the bytes of the font it names', async () => {
    const css = await loadMathCss();
    const face = /@font-face\{[^}]*font-family:KaTeX_Main;font-style:normal;font-weight:400;[^}]*\}/.exec(css)?.[0] ?? '';
    const base64 = /base64,([^)]+)\)/.exec(face)?.[1] ?? '';
    // Every woff2 file starts with the signature "wOF2".
    expect(atob(base64).slice(0, 4)).toBe('wOF2');
  });

  it('reads the stylesheet once and reuses it', async () => {
    expect(loadMathCss()).toBe(loadMathCss());
  });

  it('styles every class the formulas are rendered with: the stylesheet is that of the KaTeX that renders', async () => {
    const css = await loadMathCss();
    const html = String(markdownToHtml('html').processSync('Inline $x_1^2$.\n\n$$\n\\sqrt{n^3} = q_9 + \\frac{\\lambda - m}{c^3}\n$$'));
    const classes = new Set([...html.matchAll(/class="([^"]*)"/g)].flatMap((match) => (match[1] ?? '').split(/\s+/)));
    expect(classes).toContain('katex-display');
    const unstyled = [...classes].filter((name) => name.length > 0 && !UNSTYLED_ATOMS.has(name) && !css.includes(`.${name}`));
    expect(unstyled).toEqual([]);
  });
});
