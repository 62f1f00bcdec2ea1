/**
 * What the text engine needs to know about a font: its clean name and whether it is bold, italic or
 * monospace. pdf.js's flags are often missing (fonts embedded without a descriptor), so the name
 * decides as much as the flags do.
 */

export interface FontFacts {
  name: string;
  bold: boolean;
  italic: boolean;
  monospace: boolean;
}

/** The subset of pdf.js's font object (`page.commonObjs.get(loadedName)`) that we read. */
export interface LoadedFont {
  name?: unknown;
  bold?: unknown;
  black?: unknown;
  italic?: unknown;
  isMonospace?: unknown;
}

// `Medi` is how URW (Nimbus) names bold; CMBX / CMB are TeX's bold faces.
const BOLD_NAME = /bold|black|heavy|semibold|demi|-medi|cmbx|cmb\d|\bbx\d|-sb$|-b$|,b$/i;
const ITALIC_NAME = /italic|oblique|ital|slant|cmti|cmsl|-it$|-i$|,i$/i;
// TeX's symbol fonts carry the fixed-pitch flag, so pdf.js calls them monospace; they are not. Nor
// are its text fonts, which pdf.js takes for monospace when a subset holds only digits (a script's `2`).
// Tesseract's invisible text layer font (GlyphLessFont) has one width for every glyph, and no style.
const SYMBOL_NAME = /cmsy|cmmi|cmex|msam|msbm|symbol|dingbat|wasy|stmary|^cmr\d|^cmbx|^cmti|^cmsl|^cmss|^lmroman|^glyphless/i;
const MONOSPACE_NAME = /mono|courier|consol|menlo|typewriter|cmtt|lmtt|inconsolata|code|fixed|sfmono|lucidaconsole/i;

/** Strips the six-letter subset tag (`ABCDEF+Times-Bold` -> `Times-Bold`). */
export function stripSubsetPrefix(name: string): string {
  return name.replace(/^[A-Z]{6}\+/, '');
}

/**
 * Facts from the loaded font when there is one, else from the text style's family (pdf.js's
 * fallback: `serif`, `sans-serif` or `monospace`).
 */
export function readFontFacts(font: LoadedFont | undefined, fontFamily: string): FontFacts {
  const name = typeof font?.name === 'string' && font.name ? stripSubsetPrefix(font.name) : fontFamily;
  return {
    name,
    bold: font?.bold === true || font?.black === true || BOLD_NAME.test(name),
    italic: font?.italic === true || ITALIC_NAME.test(name),
    monospace: !SYMBOL_NAME.test(name) && (font?.isMonospace === true || fontFamily === 'monospace' || MONOSPACE_NAME.test(name)),
  };
}
