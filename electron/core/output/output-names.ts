/**
 * Output names that never collide within a run: two inputs `a/x.pdf` and `b/x.pdf` become `x` and
 * `x-2`, and a stem is only handed out when none of the files it would write (`x.md`, `x_pg3.md`,
 * `x_assets/`...) was claimed by an earlier input. Case-insensitive, as macOS and Windows are.
 */

import path from 'node:path';

export class OutputNames {
  private readonly claimed = new Set<string>();

  /** Keeps a name out of reach, e.g. an input file that sits in the output folder. */
  reserve(name: string): void {
    this.claimed.add(name.toLowerCase());
  }

  /** The first free stem for `file`; `namesFor(stem)` lists every output name that stem would take. */
  claim(file: string, namesFor: (stem: string) => readonly string[]): string {
    const base = stemOf(file);
    for (let attempt = 1; ; attempt++) {
      const stem = attempt === 1 ? base : `${base}-${attempt}`;
      const names = namesFor(stem).map((name) => name.toLowerCase());
      if (names.some((name) => this.claimed.has(name))) continue;
      for (const name of names) this.claimed.add(name);
      return stem;
    }
  }
}

export function stemOf(file: string): string {
  const base = path.basename(file);
  const extension = path.extname(base);
  const stem = extension && extension !== base ? base.slice(0, -extension.length) : base;
  return stem.replace(/^\.+/, '') || 'document';
}
