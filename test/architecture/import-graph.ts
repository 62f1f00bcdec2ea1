/**
 * The repository's import graph, read with TypeScript's own pre-processor (static, type-only and
 * dynamic imports alike), and the layout rules it must keep: which folder may import which, and no
 * cycles. Pure functions over the graph, so a test can feed them a graph that breaks a rule.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import ts from 'typescript';

/** One import: `from` and a repository-relative module path (no extension) or a package name. */
export interface ImportEdge {
  from: string;
  /** `electron/core/output/atomic-write` for a file in the repository, the specifier for a package. */
  to: string;
  kind: 'module' | 'package';
}

/** The source files under `folders` (tests and declaration files left out), each with its imports. */
export function readImportGraph(root: string, folders: readonly string[]): ImportEdge[] {
  return folders.flatMap((folder) => sourceFiles(root, folder)).flatMap((file) => importsOf(file, readFileSync(path.join(root, file), 'utf8')));
}

/** The imports written in one file's text; `file` is repository-relative. */
export function importsOf(file: string, text: string): ImportEdge[] {
  const from = withoutExtension(file);
  return ts.preProcessFile(text, true, true).importedFiles.map(({ fileName }) =>
    fileName.startsWith('.')
      ? { from, to: withoutExtension(path.posix.join(path.posix.dirname(file), fileName)), kind: 'module' as const }
      : { from, to: fileName, kind: 'package' as const },
  );
}

export interface LayoutRule {
  /** Folder prefix of the importing files, e.g. `electron/main/`. */
  files: string;
  /** Folder prefixes of modules, or package names (`electron`, `node:` for every Node built-in), they must not import. */
  mustNotImport: readonly string[];
  why: string;
}

export interface Violation {
  edge: ImportEdge;
  rule: LayoutRule;
}

export function layoutViolations(edges: readonly ImportEdge[], rules: readonly LayoutRule[]): Violation[] {
  return edges.flatMap((edge) =>
    rules.filter((rule) => edge.from.startsWith(rule.files) && rule.mustNotImport.some((banned) => matches(edge, banned))).map((rule) => ({ edge, rule })),
  );
}

/** Each cycle among the modules, as the modules on it (strongly connected components of more than one module, or a module importing itself). */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to, kind } of edges) {
    if (kind !== 'module') continue;
    next.set(from, [...(next.get(from) ?? []), to]);
    if (!next.has(to)) next.set(to, []);
  }
  // Tarjan's algorithm, iterative so a long chain of imports cannot overflow the stack
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  for (const start of next.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; child: number }> = [{ node: start, child: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const children = next.get(frame.node)!;
      if (frame.child < children.length) {
        const child = children[frame.child++]!;
        if (!index.has(child)) {
          index.set(child, counter);
          low.set(child, counter++);
          stack.push(child);
          onStack.add(child);
          work.push({ node: child, child: 0 });
        } else if (onStack.has(child)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(child)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      for (let member = stack.pop()!; ; member = stack.pop()!) {
        onStack.delete(member);
        component.push(member);
        if (member === frame.node) break;
      }
      if (component.length > 1 || children.includes(frame.node)) cycles.push(component.sort());
    }
  }
  return cycles;
}

function matches(edge: ImportEdge, banned: string): boolean {
  // a folder ends with `/`; anything else names a package
  if (edge.kind === 'module') return banned.endsWith('/') && edge.to.startsWith(banned);
  if (banned.endsWith('/')) return false;
  if (banned === 'node:') return edge.to.startsWith('node:') || builtinModules.includes(edge.to.split('/')[0]!);
  return edge.to === banned || edge.to.startsWith(`${banned}/`);
}

function sourceFiles(root: string, folder: string): string[] {
  return readdirSync(path.join(root, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.[cm]?tsx?$/.test(entry.name) && !/\.test\.tsx?$|\.d\.ts$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((file) => !file.split('/').includes('node_modules'));
}

function withoutExtension(file: string): string {
  return file.replace(/\.(js|jsx|ts|tsx|mjs|mts|cjs|cts)$/, '');
}
