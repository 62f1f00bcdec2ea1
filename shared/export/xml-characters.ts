/**
 * Characters XML 1.0 forbids (C0 controls but tab and newlines, lone surrogates, U+FFFE, U+FFFF):
 * one of them in a .docx's document.xml makes the file ill-formed, and Word and LibreOffice refuse
 * to open it. A model or a PDF's glyph map can produce any of them, so the Word export takes them
 * out before it writes anything, and says which.
 */

const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The text without the characters XML forbids, and those characters (each once, in order). */
export function withoutXmlForbidden(text: string): { text: string; removed: string[] } {
  const removed = new Set<string>();
  const clean = text.replace(FORBIDDEN, (character) => {
    removed.add(character);
    return '';
  });
  return { text: clean, removed: [...removed] };
}

export function codePoint(character: string): string {
  return `U+${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}
