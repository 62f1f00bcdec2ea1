/**
 * DeepSeek-OCR and jina-ocr-v1 write LaTeX math as `\(...\)` and `\[...\]`, but CommonMark reads
 * `\(` as an escaped parenthesis and remark-math (like GitHub and most Markdown tools) knows only
 * dollars. So Markdown is brought to `$...$` / `$$...$$` before it is rendered or exported; code
 * spans and fenced code blocks are left exactly as written. A formula alone on its line as
 * `$$...$$` is display math to its writer (and to GitHub), but remark-math reads it as inline math:
 * it becomes a `$$` block.
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const BACKTICK_RUN = /`+/g;
// a blank line ends a paragraph, so math never spans one; nor does a formula hold another opener, so
// each opener's search ends at the next one (without that, 100,000 \[ with no \] took 23 s: quadratic)
const DISPLAY = /(?<!\\)\\\[((?:(?!\n[ \t]*\n)(?!(?<!\\)\\\[)[\s\S])+?)(?<!\\)\\\]/g;
const INLINE = /(?<!\\)\\\(((?:(?!\n[ \t]*\n)(?!(?<!\\)\\\()[\s\S])+?)(?<!\\)\\\)/g;
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
  const masked = maskedCodeSpans(text, spans);
  const converted = masked
    .replace(DISPLAY, (match, body: string, offset: number, whole: string) => {
      const alone = lineStartsAt(whole, offset) && lineEndsAt(whole, offset + match.length);
      return alone ? `$$\n${body.trim()}\n$$` : `$$${body.trim()}$$`;
    })
    .replace(INLINE, (_match, body: string) => `$${body.trim()}$`)
    .replace(DOLLAR_DISPLAY_LINE, (_match, body: string) => `$$\n${body.trim()}\n$$`);
  return converted.replace(PLACEHOLDER, (_match, index: string) => spans[Number(index)] ?? '');
}

/**
 * Code spans (a backtick run, up to the next run of the same length) put into `spans` and replaced by
 * placeholders. Each run's closer is found in one step, so unclosed runs cost linear time.
 */
function maskedCodeSpans(text: string, spans: string[]): string {
  const runs = [...text.matchAll(BACKTICK_RUN)].map((match) => ({ at: match.index, length: match[0].length }));
  const closer = new Array<number>(runs.length);
  const nextOfLength = new Map<number, number>();
  for (let i = runs.length - 1; i >= 0; i--) {
    closer[i] = nextOfLength.get(runs[i]!.length) ?? -1;
    nextOfLength.set(runs[i]!.length, i);
  }
  let masked = '';
  let from = 0;
  runs.forEach((open, i) => {
    const close = runs[closer[i]!];
    if (open.at < from || !close) return;
    const end = close.at + close.length;
    masked += `${text.slice(from, open.at)}\uE000${spans.push(text.slice(open.at, end)) - 1}\uE001`;
    from = end;
  });
  return masked + text.slice(from);
}

function lineStartsAt(text: string, offset: number): boolean {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return text.slice(lineStart, offset).trim() === '';
}

function lineEndsAt(text: string, offset: number): boolean {
  const lineEnd = text.indexOf('\n', offset);
  return text.slice(offset, lineEnd === -1 ? text.length : lineEnd).trim() === '';
}
