import type { Failure, FailureCode } from '../../shared/failure.js';

/** An error that already knows how to tell the user what went wrong. */
export class FailureError extends Error {
  readonly failure: Failure;

  constructor(code: FailureCode, message: string) {
    super(message);
    this.name = 'FailureError';
    this.failure = { code, message };
  }
}

/** Turns anything thrown into a Failure, keeping specific failures and wrapping the rest. */
export function toFailure(error: unknown): Failure {
  if (error instanceof FailureError) return error.failure;
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal', message: `Unexpected error: ${message}` };
}
