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

/**
 * What a person can do about a failure, as data: the CLI words it with its flags, the app with its
 * controls (electron/cli/remedy-words.ts, renderer/remedy-words.ts), so the app never tells a
 * user to type `--password`.
 */
export const REMEDIES = ['password', 'model-package', 'remote-server', 'remote-time', 'text-engine', 'device', 'plain-decoding'] as const;
export type Remedy = (typeof REMEDIES)[number];

export interface Failure {
  code: FailureCode;
  /** One sentence: what happened and, where there is one and it needs no face's words, what to do. */
  message: string;
  /** Where set, `message` is the clause before it (no full stop): see failureText. */
  remedy?: Remedy;
}

/** A page of a document that could not be converted, and why. */
export interface PageFailure {
  page: number;
  failure: Failure;
}

export function failure(code: FailureCode, message: string, remedy?: Remedy): Failure {
  return remedy ? { code, message, remedy } : { code, message };
}

/** A failure's message with its remedy in the words of the face that shows it. */
export function failureText(failure: Pick<Failure, 'message' | 'remedy'>, words: Readonly<Record<Remedy, string>>): string {
  return failure.remedy ? `${failure.message}; ${words[failure.remedy]}.` : failure.message;
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
