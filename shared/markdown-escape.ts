/**
 * Text from a PDF written into Markdown so that it reads as the same characters and nothing else:
 * no emphasis, code, link, raw HTML, math or entity. Paragraphs, running lines and table cells of
 * every engine that lays out text escape here, so a cell cannot carry what a paragraph may not.
 */

/** Escapes characters that would start emphasis, code, links, HTML, math or entities. */
export function escapeMarkdownText(text: string): string {
  return text
    // a backslash escapes only ASCII punctuation, and ends a line as a hard break: elsewhere it is
    // itself (`\n`, `\section`), and doubling it would put two where the page has one for any
    // reader of the Markdown source
    .replace(/\\(?=[!-/:-@[-`{-~]|[\r\n]|$)/g, '\\\\')
    .replace(/[`*]/g, (c) => `\\${c}`)
    // every underscore but those inside a word (which never make emphasis); matching the character
    // before consumed it, so in a run only every other one was escaped and the rest stayed emphasis
    .replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '\\_')
    // a run of brackets, each a possible link start, costs the CommonMark parser quadratic time
    // (50,000 took 6.7 s, 200,000 minutes); escaped they are plain text
    .replace(/\[{2,}/g, (run) => run.replace(/\[/g, '\\['))
    .replace(/<(?=[A-Za-z/!?])/g, '\\<')
    .replace(/\](?=[([])/g, '\\]')
    .replace(/&(?=#?\w+;)/g, '&amp;')
    .replace(/~~/g, '\\~\\~');
}

/**
 * A dollar after an even number of backslashes (`\\$` is a backslash, then a dollar that may open
 * math); looked behind from each dollar only, so a long run of backslashes is read once.
 */
const UNESCAPED_DOLLAR = /\$(?<=(?:^|[^\\])(?:\\\\)*\$)/g;

/** Two dollar signs in one paragraph or cell could open and close inline math in renderers with math support. */
export function escapeDollarPairs(markdown: string): string {
  return (markdown.match(UNESCAPED_DOLLAR)?.length ?? 0) >= 2 ? markdown.replace(UNESCAPED_DOLLAR, '\\$') : markdown;
}
