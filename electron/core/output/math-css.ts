/**
 * KaTeX's stylesheet with its fonts inlined, so exported HTML renders math offline and from any
 * folder. Only woff2 is kept: every browser that runs KaTeX's output reads it, and the woff/ttf
 * fallbacks would triple the size of each file.
 */

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** One `src:` descriptor of an `@font-face` rule, with its list of fallbacks. */
const FONT_SOURCES = /src:([^;}]+)/g;
const WOFF2_URL = /url\(["']?([^)"']+\.woff2)["']?\)/;

let cached: Promise<string> | undefined;

export function loadMathCss(): Promise<string> {
  cached ??= readMathCss().catch((error: unknown) => {
    // A failed read (say, a file locked by antivirus) should not poison every later export.
    cached = undefined;
    throw error;
  });
  return cached;
}

async function readMathCss(): Promise<string> {
  const cssPath = resolveKatexCss();
  const css = await readFile(cssPath, 'utf8');
  const fontDir = dirname(cssPath);
  const fontNames = [...new Set([...css.matchAll(FONT_SOURCES)].map((match) => woff2Name(match[1] ?? '', cssPath)))];
  const fonts = new Map(
    await Promise.all(
      fontNames.map(async (name) => [name, await readFile(join(fontDir, name), 'base64')] as const),
    ),
  );
  return css.replace(FONT_SOURCES, (_match, sources: string) => {
    const name = woff2Name(sources, cssPath);
    return `src:url(data:font/woff2;base64,${fonts.get(name)}) format("woff2")`;
  });
}

function resolveKatexCss(): string {
  try {
    return require.resolve('katex/dist/katex.min.css');
  } catch (error) {
    throw new Error(
      `KaTeX's stylesheet (katex/dist/katex.min.css) was not found, so math cannot be styled in HTML export; reinstall dependencies with \`npm ci\`.`,
      { cause: error },
    );
  }
}

function woff2Name(sources: string, cssPath: string): string {
  const name = WOFF2_URL.exec(sources)?.[1];
  if (name === undefined) {
    throw new Error(
      `${cssPath} has an @font-face without a woff2 source (${sources.slice(0, 80)}); the installed KaTeX version is not one Folio knows how to embed.`,
    );
  }
  return name;
}
