/** 2-D affine matrices in PDF's `[a b c d e f]` order: x' = a·x + c·y + e, y' = b·x + d·y + f. */

export type Matrix = readonly [a: number, b: number, c: number, d: number, e: number, f: number];

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** The matrix that applies `inner` first, then `outer` (PDF's `cm` concatenation: inner × outer). */
export function multiply(outer: Matrix, inner: Matrix): Matrix {
  const [a, b, c, d, e, f] = outer;
  const [p, q, r, s, t, u] = inner;
  return [p * a + q * c, p * b + q * d, r * a + s * c, r * b + s * d, t * a + u * c + e, t * b + u * d + f];
}

export function applyX(m: Matrix, x: number, y: number): number {
  return m[0] * x + m[2] * y + m[4];
}

export function applyY(m: Matrix, x: number, y: number): number {
  return m[1] * x + m[3] * y + m[5];
}

/** Reads six finite numbers from an operator argument, or undefined when it is anything else. */
export function toMatrix(value: unknown): Matrix | undefined {
  if (value === null || typeof value !== 'object' || (value as ArrayLike<unknown>).length !== 6) return undefined;
  const v = value as ArrayLike<unknown>;
  const m = [v[0], v[1], v[2], v[3], v[4], v[5]];
  return m.every((n) => typeof n === 'number' && Number.isFinite(n)) ? (m as unknown as Matrix) : undefined;
}

/** How much the matrix scales lengths on average (the square root of its area factor). */
export function meanScale(m: Matrix): number {
  return Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2]));
}
