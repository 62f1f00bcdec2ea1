/**
 * A ground truth spoiled in the way each kind of check exists to catch: the text gone, the running
 * head left in, the paragraphs swapped, the formula's letters changed, a table cell's neighbours
 * changed. A check that still passes on it could not fail.
 */

import { expect } from 'vitest';
import { escapeHtmlText } from '../../shared/html-entities.js';
import type { BuiltCheck } from '../../tools/bench/real-docs/bench-check.js';
import { passesOn } from '../../tools/bench/real-docs/truth-check.js';

const GREEK = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'lambda', 'mu', 'nu', 'xi', 'pi', 'rho', 'sigma', 'tau', 'phi', 'chi', 'psi', 'omega'];

/** Each Latin letter, digit and Greek letter of a formula moved one place on (z to a, 9 to 0, alpha to beta). */
export function shiftSymbols(latex: string): string {
  return latex.replace(/\\[a-zA-Z]+|[a-zA-Z0-9]/g, (token) => {
    if (token.startsWith('\\')) {
      const greek = GREEK.indexOf(token.slice(1));
      return greek < 0 ? token : `\\${GREEK[(greek + 1) % GREEK.length]}`;
    }
    const code = token.charCodeAt(0);
    if (token === 'z' || token === 'Z') return String.fromCharCode(code - 25);
    if (token === '9') return '0';
    return String.fromCharCode(code + 1);
  });
}


export function corrupted(check: BuiltCheck): string {
  const { spec, truth } = check;
  switch (spec.type) {
    case 'present': {
      // every occurrence of the text, in its table cell too, loses its middle third (more than its max_diffs)
      const chars = Array.from(spec.text);
      const third = Math.max(1, Math.floor(chars.length / 3));
      const broken = [...chars.slice(0, third), 'Zzyzx', ...chars.slice(2 * third)].join('');
      return truth.split(spec.text).join(broken).split(escapeHtmlText(spec.text)).join(escapeHtmlText(broken));
    }
    case 'absent':
      return spec.first_n ? `${spec.text}\n\n${truth}` : `${truth}\n\n${spec.text}`;
    case 'order':
      return `${spec.after}\n\n${spec.before}`;
    case 'math':
      return `$$\n${shiftSymbols(spec.math)}\n$$`;
    case 'table': {
      // the cells around the checked one say something else
      let out = truth;
      for (const text of [spec.up, spec.down, spec.left, spec.right, spec.top_heading]) {
        if (text) out = out.split(`>${escapeHtmlText(text)}</`).join('>Zzyzx</');
      }
      return out;
    }
  }
}

/** What every built check must do: pass on its ground truth, and fail once that is spoiled. */
export function expectSound(check: BuiltCheck): void {
  expect(passesOn(check.spec, check.truth), `${JSON.stringify(check.spec)} on its truth`).toBe(true);
  expect(passesOn(check.spec, corrupted(check)), `${JSON.stringify(check.spec)} on the spoiled truth`).toBe(false);
}
