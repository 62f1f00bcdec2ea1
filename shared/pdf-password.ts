/**
 * The passwords to try for what a person typed. pdf.js up to 5.7 (mozilla/pdf.js#21579, fixed
 * after) turns a password into bytes one per character for AES-256 revision-5 files, which their
 * writers encrypted with the password's UTF-8 bytes: a non-ASCII password is wrong to it. Its UTF-8
 * bytes offered as characters, one per byte, open those files.
 */
export function passwordCandidates(password: string): string[] {
  const utf8 = String.fromCharCode(...new TextEncoder().encode(password));
  return utf8 === password ? [password] : [password, utf8];
}

/** pdf.js's refusal of a missing or wrong password. */
export function isPasswordError(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'PasswordException';
}

/**
 * Opens with each of the password's candidates in turn until one is not refused; any other error,
 * or the last refusal, is thrown. `last` says no attempt follows (pdf.js may then keep the bytes).
 */
export async function openWithPassword<T>(password: string | undefined, open: (candidate: string | undefined, last: boolean) => Promise<T>): Promise<T> {
  const candidates = password === undefined ? [undefined] : passwordCandidates(password);
  for (let i = 0; ; i++) {
    const last = i === candidates.length - 1;
    try {
      return await open(candidates[i], last);
    } catch (error) {
      if (last || !isPasswordError(error)) throw error;
    }
  }
}
