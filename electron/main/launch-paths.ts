/** Documents named on the command line (`folio-app report.pdf`, or a second launch while the app runs). */

import path from 'node:path';

/**
 * The arguments that name existing files, resolved against the launching shell's folder. Electron's
 * own arguments (the executable, `.` or the app folder in development, `--switches`) are skipped.
 */
export function documentPathsFromArgv(argv: readonly string[], workingDirectory: string, isFile: (file: string) => boolean): string[] {
  return argv
    .slice(1)
    .filter((argument) => !argument.startsWith('-'))
    .map((argument) => path.resolve(workingDirectory, argument))
    .filter(isFile);
}
