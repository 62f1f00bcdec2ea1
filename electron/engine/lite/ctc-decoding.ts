/**
 * Greedy CTC decoding of one line with where each character was read, so that the engine can
 * place words on the page and restore the spaces the recogniser leaves out.
 */

export interface DecodedChar {
  text: string;
  /** Time steps of the character's first and last frame. */
  first: number;
  last: number;
  confidence: number;
}

/** `probs` is [steps x classes], row-major; class 0 is the blank. Only the first `steps` rows are read. */
export function decodeCtc(probs: Float32Array, offset: number, steps: number, classes: number, alphabet: readonly string[]): DecodedChar[] {
  const out: DecodedChar[] = [];
  let previous = 0;
  for (let t = 0; t < steps; t++) {
    const row = offset + t * classes;
    let best = 0;
    let bestP = probs[row]!;
    for (let k = 1; k < classes; k++) {
      const p = probs[row + k]!;
      if (p > bestP) {
        bestP = p;
        best = k;
      }
    }
    if (best !== 0 && best === previous) {
      const current = out[out.length - 1]!;
      current.last = t;
      current.confidence = Math.max(current.confidence, bestP);
    } else if (best !== 0) {
      out.push({ text: alphabet[best] ?? '', first: t, last: t, confidence: bestP });
    }
    previous = best;
  }
  return out;
}
