/** Why a document or a page could not be converted, in words a person can act on. */
export type FailureCode =
  | 'not-found'
  | 'not-pdf'
  | 'encrypted'
  | 'wrong-password'
  | 'damaged'
  | 'timeout'
  | 'engine-crashed'
  /** The VLM engine's model package is missing, incomplete or cannot be loaded. */
  | 'model-package'
  /** The page is an image (a scan, a photo) and the engine asked for reads a text layer. */
  | 'no-text-layer'
  /** The remote engine's server refused the page, kept failing, or could not be reached. */
  | 'remote'
  | 'io'
  | 'internal';

export interface Failure {
  code: FailureCode;
  /** One sentence: what happened and, where there is one, what to do. */
  message: string;
}

/** A page of a document that could not be converted, and why. */
export interface PageFailure {
  page: number;
  failure: Failure;
}

export function failure(code: FailureCode, message: string): Failure {
  return { code, message };
}

/**
 * A failure's message as a sentence on its own. Engines write them to follow a file or page
 * (`report.pdf: damaged...`, `page 2: the engine crashed...`), as the CLI prints them; a view that
 * shows the file or page beside the message drops that lead.
 */
export function failureSentence(message: string, lead?: string): string {
  const rest = lead !== undefined && message.startsWith(`${lead}: `) ? message.slice(lead.length + 2) : message;
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

/** An encrypted PDF that a password (another one, for `wrong-password`) would open. */
export function needsPassword(failure: Failure | undefined): boolean {
  return failure?.code === 'encrypted' || failure?.code === 'wrong-password';
}
