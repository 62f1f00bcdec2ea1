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
