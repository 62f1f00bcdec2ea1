/** Prints scores as a person reads them: one line per document, then each failing check. */

import type { Check } from './checks.js';
import type { DocumentScore } from './score.js';

export function formatReport(scores: readonly DocumentScore[]): string {
  const width = Math.max(8, ...scores.map((s) => s.name.length));
  const lines = [`${'document'.padEnd(width)}  checks   edit distance (max)  result`];
  for (const s of scores) {
    const passed = s.results.filter((r) => r.passed).length;
    const distance = `${s.editDistance.toFixed(3)} (${s.maxEditDistance.toFixed(3)})`;
    lines.push(`${s.name.padEnd(width)}  ${`${passed}/${s.results.length}`.padEnd(7)}  ${distance.padEnd(19)}  ${s.passed ? 'pass' : 'FAIL'}`);
  }
  const totalChecks = scores.reduce((n, s) => n + s.results.length, 0);
  const passedChecks = scores.reduce((n, s) => n + s.results.filter((r) => r.passed).length, 0);
  lines.push(`${'total'.padEnd(width)}  ${`${passedChecks}/${totalChecks}`.padEnd(7)}  ${''.padEnd(19)}  ${scores.filter((s) => s.passed).length}/${scores.length} documents pass`);
  for (const s of scores) {
    const failing = s.results.filter((r) => !r.passed);
    const distanceFails = s.editDistance > s.maxEditDistance;
    if (failing.length === 0 && !distanceFails) continue;
    lines.push('', `${s.name}:`);
    for (const r of failing) lines.push(`  - ${describeCheck(r.check)}: ${r.detail}`);
    if (distanceFails) lines.push(`  - edit distance ${s.editDistance.toFixed(3)} above ${s.maxEditDistance.toFixed(3)}`);
  }
  return lines.join('\n');
}

export function describeCheck(check: Check): string {
  const q = (text: string) => `"${text.length > 50 ? `${text.slice(0, 47)}...` : text}"`;
  switch (check.kind) {
    case 'present':
      return `text present ${q(check.text)}`;
    case 'absent':
      return `text absent ${q(check.text)}`;
    case 'order':
      return `${q(check.before)} before ${q(check.after)}`;
    case 'heading':
      return `heading${check.level === undefined ? '' : ` level ${check.level}`} ${q(check.text)}`;
    case 'not-heading':
      return `not a heading ${q(check.text)}`;
    case 'table-cell': {
      const around = (['up', 'down', 'left', 'right'] as const).filter((d) => check[d] !== undefined).map((d) => `${d} ${q(check[d]!)}`);
      return `table cell ${q(check.cell)}${around.length ? ` (${around.join(', ')})` : ''}`;
    }
    case 'tables':
      return `${check.count} table(s)${check.format ? ` as ${check.format}` : ''}`;
    case 'list':
      return `${check.ordered === undefined ? '' : check.ordered ? 'numbered ' : 'bulleted '}list ${check.items.map(q).join(', ')}${check.nestedUnder ? ` under ${q(check.nestedUnder)}` : ''}`;
    case 'link':
      return `link ${q(check.text)} -> ${check.url}`;
    case 'style':
      return `${check.style} ${q(check.text)}`;
    case 'images':
      return `${check.count} image(s)`;
  }
}
