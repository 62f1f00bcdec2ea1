/**
 * A page's text across retries. Deltas already shown cannot be taken back, so an attempt after a
 * dropped stream is held until it passes what was shown, and only the new part goes on. Decoding
 * is greedy (temperature 0), so a retry normally repeats the same text; if it does not, the page
 * fails rather than show text that no longer adds up.
 */

import { FailureError } from '../../core/failure-error.js';

export class ResumedText {
  private shown = '';
  /** How much of the current attempt has come; while it is within `shown` it must repeat it. */
  private attemptLength = 0;

  constructor(private readonly emit: (text: string) => void) {}

  get text(): string {
    return this.shown;
  }

  newAttempt(): void {
    this.attemptLength = 0;
  }

  /**
   * Compares only the delta with the part of `shown` it repeats: checking the whole attempt on every
   * delta made a long answer cost time and memory quadratic in its length (a 100 KB answer took 3 s).
   */
  push(delta: string): void {
    const repeated = Math.min(delta.length, this.shown.length - this.attemptLength);
    if (repeated > 0 && !this.shown.startsWith(delta.slice(0, repeated), this.attemptLength)) throw diverged();
    this.attemptLength += delta.length;
    const fresh = repeated > 0 ? delta.slice(repeated) : delta;
    if (!fresh) return;
    this.shown += fresh;
    this.emit(fresh);
  }
}

function diverged(): FailureError {
  return new FailureError('remote', 'the connection dropped mid-page and the server answered differently when asked again; convert the page again.');
}
