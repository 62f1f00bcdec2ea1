/**
 * A page's text across retries. Deltas already shown cannot be taken back, so an attempt after a
 * dropped stream is held until it passes what was shown, and only the new part goes on. Decoding
 * is greedy (temperature 0), so a retry normally repeats the same text; if it does not, the page
 * fails rather than show text that no longer adds up.
 */

import { FailureError } from '../failure-error.js';

export class ResumedText {
  private shown = '';
  private attempt = '';

  constructor(private readonly emit: (text: string) => void) {}

  get text(): string {
    return this.shown;
  }

  newAttempt(): void {
    this.attempt = '';
  }

  push(delta: string): void {
    this.attempt += delta;
    if (this.attempt.length <= this.shown.length) {
      if (!this.shown.startsWith(this.attempt)) throw diverged();
      return;
    }
    if (!this.attempt.startsWith(this.shown)) throw diverged();
    const fresh = this.attempt.slice(this.shown.length);
    this.shown = this.attempt;
    this.emit(fresh);
  }
}

function diverged(): FailureError {
  return new FailureError('remote', 'the connection dropped mid-page and the server answered differently when asked again; convert the page again.');
}
