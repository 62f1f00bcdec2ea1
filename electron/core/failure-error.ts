import { failure, type Failure, type FailureCode, type Remedy } from '../../shared/failure.js';

/** An error that already knows how to tell the user what went wrong. */
export class FailureError extends Error {
  readonly failure: Failure;

  /** With a `remedy`, `message` says only what happened; each face words what to do. */
  constructor(code: FailureCode, message: string, remedy?: Remedy) {
    super(message);
    this.name = 'FailureError';
    this.failure = failure(code, message, remedy);
  }
}

/** Turns anything thrown into a Failure, keeping specific failures and wrapping the rest. */
export function toFailure(error: unknown): Failure {
  if (error instanceof FailureError) return error.failure;
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal', message: `Unexpected error: ${message}` };
}
