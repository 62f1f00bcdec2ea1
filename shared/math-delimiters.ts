/**
 * DeepSeek-OCR and jina-ocr-v1 write LaTeX math as `\(...\)` and `\[...\]`, but CommonMark reads
 * `\(` as an escaped parenthesis and remark-math (like GitHub and most Markdown tools) knows only
 * dollars. So Markdown is brought to `$...$` / `$$...$$` before it is rendered or exported; code
 * spans and fenced code blocks are left exactly as written. A formula alone on its line as
 * `$$...$$` is display math to its writer (and to GitHub), but remark-math reads it as inline math:
 * it becomes a `$$` block.
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const CODE_SPAN = /(`+)(?:[^`]|(?!\1)`+)*?\1/g;
// a blank line ends a paragraph, so math never spans one
const DISPLAY = /(?<!\\)\\\[((?:(?!\n[ \t]*\n)[\s\S])+?)(?<!\\)\\\]/g;
const INLINE = /(?<!\\)\\\(((?:(?!\n[ \t]*\n)[\s\S])+?)(?<!\\)\\\)/g;
const DOLLAR_DISPLAY_LINE = /^ {0,3}\$\$((?:(?!\$\$)[^\n])+)\$\$[ \t]*$/gm;
const PLACEHOLDER = /\uE000(\d+)\uE001/g;

export function dollarMath(markdown: string): string {
  if (!markdown.includes('\\(') && !markdown.includes('\\[') && !markdown.includes('$$')) return markdown;
  const parts: string[] = [];
  let prose: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const opener = FENCE.exec(line)?.[1];
    if (fence === null && opener) {
      if (prose.length > 0) parts.push(convertProse(prose.join('\n')));
      prose = [];
      fence = opener;
      parts.push(line);
    } else if (fence !== null) {
      parts.push(line);
      if (opener && opener[0] === fence[0] && opener.length >= fence.length && line.trim() === opener) fence = null;
    } else {
      prose.push(line);
    }
  }
  if (prose.length > 0) parts.push(convertProse(prose.join('\n')));
  return parts.join('\n');
}

function convertProse(text: string): string {
  const spans: string[] = [];
  const masked = text.replace(CODE_SPAN, (span) => `\uE000${spans.push(span) - 1}\uE001`);
  const converted = masked
    .replace(DISPLAY, (match, body: string, offset: number, whole: string) => {
      const alone = lineStartsAt(whole, offset) && lineEndsAt(whole, offset + match.length);
      return alone ? `$$\n${body.trim()}\n$$` : `$$${body.trim()}$$`;
    })
    .replace(INLINE, (_match, body: string) => `$${body.trim()}$`)
    .replace(DOLLAR_DISPLAY_LINE, (_match, body: string) => `$$\n${body.trim()}\n$$`);
  return converted.replace(PLACEHOLDER, (_match, index: string) => spans[Number(index)] ?? '');
}

function lineStartsAt(text: string, offset: number): boolean {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return text.slice(lineStart, offset).trim() === '';
}

function lineEndsAt(text: string, offset: number): boolean {
  const lineEnd = text.indexOf('\n', offset);
  return text.slice(offset, lineEnd === -1 ? text.length : lineEnd).trim() === '';
}
