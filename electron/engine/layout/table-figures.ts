/**
 * What tables print in their columns of figures: amounts, maybe signed (a hyphen, minus or en
 * dash), grouped, bracketed, in a currency or a percentage, with footnote marks before or after
 * ("*2,247", "1992*"); or a mark standing for none: a dash, "n/a", "(X)", a run of stars.
 */

const MARKS = '[*†‡§]*';
const AMOUNT = `${MARKS}[(\\-−–+]?[$€£¥₹]?\\d[\\d.,]*%?\\)?${MARKS}`;
const NONE = '[-–—]|n\\/?a|\\(X\\)|\\*+';
const FIGURE = new RegExp(`^(?:${AMOUNT}|${NONE})$`, 'iu');
/** Several figures on one line, apart by spaces (or one figure with its thousands set apart). */
const FIGURES = new RegExp(`^(?:${AMOUNT}|${NONE})(?:\\s+(?:${AMOUNT}|${NONE}|\\d+))*$`, 'iu');

export function isFigure(text: string): boolean {
  return FIGURE.test(text);
}

export function isFigures(text: string): boolean {
  return FIGURES.test(text);
}
