/**
 * Text from a page, a model, a server or a file name, made fit for a terminal: control characters
 * (C0 but tab, DEL, C1) and the bidirectional overrides are written as escapes (`\x1b`, `\u202e`), so
 * a terminal shows them instead of obeying them. Folio's own lines are built from such text and
 * passed through here whole; its own cursor control (the progress line's redraw) is written apart.
 */

const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (character) => {
    const code = character.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** Several lines, each made safe, the line ends kept. */
export function terminalSafeLines(text: string): string {
  return text.split('\n').map(terminalSafe).join('\n');
}

/** A JSON line in which the characters JSON leaves raw but a terminal obeys (DEL, C1, separators) are \u escapes too. */
export function jsonLine(value: unknown): string {
  return `${JSON.stringify(value).replace(/[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}
