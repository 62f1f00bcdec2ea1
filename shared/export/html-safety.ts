/**
 * What the sanitise schema cannot say, applied to the sanitised HTML tree: table spans bounded by
 * the table's real size (a `colspan` of a billion passes any schema and makes a browser lay out a
 * billion columns), and nothing that reaches past the exported file. Folio's HTML opens offline and
 * does not send its reader anywhere: an image from the network is not loaded but named in a
 * visible placeholder, and a link to another site or a mail address is not clickable but shown as
 * its text followed by the address. Links within the page and relative paths (the exported image
 * files) stay. docs/security.md says the same for users.
 */

interface HastNode {
  type: string;
  tagName?: string;
  value?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
}

const MAX_SPAN = 1000;

/** The unified plugin: `.use(rehypeExportSafety)` after rehype-sanitize. */
export function rehypeExportSafety() {
  return (tree: HastNode): void => {
    visitElements(tree, (node) => {
      if (node.tagName === 'table') boundSpans(node);
    });
    inertRemote(tree);
  };
}

function visitElements(node: HastNode, visit: (node: HastNode) => void): void {
  if (node.type === 'element') visit(node);
  for (const child of node.children ?? []) visitElements(child, visit);
}

/** The table's rows, nested tables left to their own visit. */
function rowsOf(node: HastNode, rows: HastNode[] = []): HastNode[] {
  for (const child of node.children ?? []) {
    if (child.type !== 'element' || child.tagName === 'table') continue;
    if (child.tagName === 'tr') rows.push(child);
    else rowsOf(child, rows);
  }
  return rows;
}

function boundSpans(table: HastNode): void {
  const rows = rowsOf(table).map((row) => (row.children ?? []).filter((cell) => cell.tagName === 'td' || cell.tagName === 'th'));
  const columns = Math.max(1, ...rows.map((cells) => cells.length));
  rows.forEach((cells, index) => {
    for (const cell of cells) {
      bound(cell, 'colSpan', Math.min(columns, MAX_SPAN));
      bound(cell, 'rowSpan', Math.min(rows.length - index, MAX_SPAN));
    }
  });
}

function bound(cell: HastNode, name: 'colSpan' | 'rowSpan', most: number): void {
  const properties = cell.properties ?? {};
  if (properties[name] === undefined) return;
  const span = Math.min(Math.max(Math.trunc(Number(properties[name])) || 1, 1), most);
  if (span > 1) properties[name] = span;
  else delete properties[name];
}

/** An address with a scheme (`https:`, `mailto:`) or a host (`//example.org`) leaves the file. */
export function isRemote(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(url.trim()) || url.trim().startsWith('//');
}

function inertRemote(node: HastNode): void {
  const children = node.children;
  if (!children) return;
  node.children = children.flatMap((child) => {
    inertRemote(child);
    if (child.type !== 'element') return [child];
    const src = String(child.properties?.['src'] ?? '');
    if (child.tagName === 'img' && isRemote(src)) {
      const alt = String(child.properties?.['alt'] ?? '').trim();
      return [span('remote-image', [text(`[image not loaded: ${alt ? `${alt}, ` : ''}${src}]`)])];
    }
    const href = String(child.properties?.['href'] ?? '');
    if (child.tagName === 'a' && isRemote(href)) {
      const shown = href.replace(/^mailto:/i, '');
      const label = textOf(child).trim();
      return [span('remote-link', label === shown || label === href ? child.children ?? [] : [...(child.children ?? []), text(` (${shown})`)])];
    }
    return [child];
  });
}

function span(className: string, children: HastNode[]): HastNode {
  return { type: 'element', tagName: 'span', properties: { className: [className] }, children };
}

function text(value: string): HastNode {
  return { type: 'text', value };
}

function textOf(node: HastNode): string {
  return node.type === 'text' ? (node.value ?? '') : (node.children ?? []).map(textOf).join('');
}
