/**
 * pdflatex run as a reader of an exported `.tex` would run it, watched: `-recorder` lists every file
 * TeX opened (the .fls), and strace (where installed) every program started. A run is safe when it
 * read only the output folder and TeX Live's own files, wrote only the output folder, and started
 * no program but pdflatex itself.
 */

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { missingEnvironment, missingPrograms, PROGRAMS } from './environment.js';

export function installed(command: string): boolean {
  return spawnSync('which', [command], { stdio: 'ignore' }).status === 0;
}

/** Where TeX Live keeps what pdflatex may read: its formats, packages, fonts and configuration. */
const TEX_SYSTEM = ['/usr/share/texlive/', '/usr/share/texmf/', '/var/lib/texmf/', '/etc/texmf/', '/usr/share/fonts/', '/usr/share/tex-common/'];

export interface TexRun {
  status: number | null;
  /** The log's error lines (`! ...`). */
  errors: string[];
  /** Files read outside the folder and TeX Live, files written outside the folder. */
  readOutside: string[];
  writtenOutside: string[];
  /** Programs started besides pdflatex (undefined where strace is not installed). */
  commands: string[] | undefined;
  pdf: string;
}

export function compileTex(folder: string, file: string, shellEscape: boolean): TexRun {
  const stem = path.basename(file, '.tex');
  const args = ['-interaction=nonstopmode', '-recorder', shellEscape ? '-shell-escape' : '-no-shell-escape', file];
  // strace where installed; under CI its absence fails (test/environment.ts)
  const traced = missingEnvironment(PROGRAMS, missingPrograms({ strace: 'strace' })) === null;
  const trace = path.join(folder, `${stem}.strace`);
  const result = traced
    ? spawnSync('strace', ['-f', '-qq', '-e', 'trace=execve', '-o', trace, 'pdflatex', ...args], { cwd: folder, stdio: 'ignore', timeout: 300_000 })
    : spawnSync('pdflatex', args, { cwd: folder, stdio: 'ignore', timeout: 300_000 });
  const log = existsSync(path.join(folder, `${stem}.log`)) ? readFileSync(path.join(folder, `${stem}.log`), 'latin1') : '';
  const recorded = existsSync(path.join(folder, `${stem}.fls`)) ? readFileSync(path.join(folder, `${stem}.fls`), 'utf8').split('\n') : [];
  const inside = (file: string) => {
    const full = path.resolve(folder, file);
    return full === folder || full.startsWith(folder + path.sep);
  };
  const readOutside = recorded.filter((line) => line.startsWith('INPUT ')).map((line) => line.slice(6)).filter((file) => !inside(file) && !TEX_SYSTEM.some((root) => path.resolve(folder, file).startsWith(root)));
  const writtenOutside = recorded.filter((line) => line.startsWith('OUTPUT ')).map((line) => line.slice(7)).filter((file) => !inside(file));
  const commands = traced
    ? readFileSync(trace, 'utf8')
        .split('\n')
        .filter((line) => /execve\(/.test(line) && !/ENOENT/.test(line))
        .map((line) => /execve\("([^"]+)"/.exec(line)?.[1] ?? line)
        .filter((program) => !/\/pdflatex$|\/pdftex$/.test(program))
    : undefined;
  return { status: result.status, errors: log.split('\n').filter((line) => line.startsWith('! ')), readOutside, writtenOutside, commands, pdf: path.join(folder, `${stem}.pdf`) };
}

export function pdfText(pdf: string): string {
  return execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}
