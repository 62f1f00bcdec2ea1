/**
 * A page's versions: every result an engine gave it and every text the person made of one, so a
 * re-run or a revert never destroys the only good text. One version is current: the page shows
 * and exports it. Pure functions of a page, applied by the workspace reducer on both sides.
 *
 * The page's own fields stay what they were before versions existed, and follow the current one:
 * `result` and `engineMarkdown` are the current engine result (an edited version's base), and
 * `editedMarkdown` is the current version's text when it is an edited one.
 */

import type { EngineName } from './engine-name.js';
import type { PageResult } from './page.js';
import type { PageVersion, WorkspacePage } from './workspace-page.js';

export type { PageVersion } from './workspace-page.js';

/** Versions kept per page beyond the edited ones, the current one and their bases, which are never dropped. */
export const MAX_PAGE_VERSIONS = 10;

/** The page's versions, oldest first; a page saved before versions existed gets them from its result and edit. */
export function pageVersions(page: WorkspacePage): PageVersion[] {
  if (page.versions) return page.versions;
  const versions: PageVersion[] = [];
  if (page.result) versions.push(resultVersion(1, page.result));
  if (page.editedMarkdown !== undefined) versions.push(editedVersion(versions.length + 1, page.editedMarkdown, versions[0]));
  return versions;
}

/** The id of the version the page shows, if it has any. */
export function currentVersionId(page: WorkspacePage): number | undefined {
  if (page.versions) return page.currentVersion;
  return pageVersions(page).at(-1)?.id;
}

export function currentVersion(page: WorkspacePage): PageVersion | undefined {
  const id = currentVersionId(page);
  return pageVersions(page).find((version) => version.id === id);
}

/**
 * A finished conversion of the page, kept as a version. Its result becomes current unless it read
 * nothing where the current version has text (it is then held), or the person's edit is current:
 * their text is never displaced unasked, and now stands against the new result (its Changes and
 * Revert). A result identical to the current one refreshes it in place.
 */
export function withResult(page: WorkspacePage, result: PageResult, at: string | undefined): WorkspacePage {
  const versions = pageVersions(page);
  const current = currentVersion(page);
  const source = { engine: result.stats.engine, model: result.stats.model };
  if (current && !current.edited && current.markdown === result.markdown && sameSource(current, source)) {
    const refreshed = { ...resultVersion(current.id, result, at) };
    return { ...showing(page, versions.map((version) => (version.id === current.id ? refreshed : version)), refreshed), held: undefined };
  }
  const added = resultVersion(nextId(versions), result, at);
  const all = [...versions, added];
  const shownText = current ? current.markdown : '';
  const editWins = current?.edited === true && current.markdown !== result.markdown;
  const readNothing = result.markdown.trim() === '' && shownText.trim() !== '';
  if (current && editWins) {
    // the edit now stands against the new result, as its Changes and its Revert show
    const rebased: PageVersion = { ...current, base: added.id };
    return { ...showing(page, prune(all.map((version) => (version.id === current.id ? rebased : version)), current.id), rebased), held: undefined };
  }
  if (current && readNothing) return { ...showing(page, prune(all, current.id), current), held: added.id };
  return { ...showing(page, prune(all, added.id), added), held: undefined };
}

/**
 * The person's text for the page (`null`: the engine's). Typing on an edited version changes it;
 * typing on an engine version starts an edited version of it; going back to the engine's text (a
 * revert) keeps the edited version in the list, so a revert loses nothing either.
 */
export function withEdit(page: WorkspacePage, markdown: string | null, at: string | undefined): WorkspacePage {
  const versions = pageVersions(page);
  const current = currentVersion(page);
  const base = current?.edited ? versions.find((version) => version.id === current.base) : current;
  const engineText = base?.markdown ?? page.engineMarkdown;
  if (markdown === null || markdown === engineText) {
    if (!current?.edited) return page;
    return base ? { ...showing(page, versions, base), held: undefined } : { ...page, versions, currentVersion: undefined, editedMarkdown: undefined };
  }
  if (current?.edited) {
    // the renderer shows an edit before main saves it; main's echo brings the time it was saved
    if (current.markdown === markdown) return at === undefined || at === current.at ? page : withVersionTime(page, versions, current, at);
    const changed: PageVersion = { ...current, markdown, ...(at !== undefined && { at }) };
    return { ...showing(page, versions.map((version) => (version.id === current.id ? changed : version)), changed), held: undefined };
  }
  // the same text as an edited version of this base (an undo of a revert): that version again, not a copy
  const again = versions.find((version) => version.edited && version.base === base?.id && version.markdown === markdown);
  if (again) return { ...showing(page, versions, again), held: undefined };
  const added = editedVersion(nextId(versions), markdown, base, at);
  return { ...showing(page, prune([...versions, added], added.id), added), held: undefined };
}

function withVersionTime(page: WorkspacePage, versions: PageVersion[], version: PageVersion, at: string): WorkspacePage {
  return { ...page, versions: versions.map((candidate) => (candidate.id === version.id ? { ...version, at } : candidate)) };
}

/** The person's choice of version: shown and exported from now on; the others stay. */
export function withVersionKept(page: WorkspacePage, id: number): WorkspacePage {
  const versions = pageVersions(page);
  const chosen = versions.find((version) => version.id === id);
  if (!chosen) return page;
  const kept = { ...showing(page, versions, chosen), held: undefined };
  // a page whose re-run failed shows the version chosen, done
  return kept.result && kept.state !== 'done' && kept.state !== 'converting' && kept.state !== 'queued' ? { ...kept, state: 'done', failure: undefined } : kept;
}

/** The engine text a page shows again once a conversion of it ends without a result. */
export function shownEngineMarkdown(page: WorkspacePage): string {
  return page.result?.markdown ?? '';
}

/**
 * At most `MAX_PAGE_VERSIONS` versions, the oldest engine results dropped first; edited versions,
 * the current one and the results they were made from are always kept.
 */
export function prune(versions: readonly PageVersion[], current: number): PageVersion[] {
  const needed = new Set<number>([current]);
  for (const version of versions) {
    if (version.id === current || version.edited) {
      needed.add(version.id);
      if (version.base !== undefined) needed.add(version.base);
    }
  }
  let excess = versions.length - MAX_PAGE_VERSIONS;
  return versions.filter((version) => {
    if (excess <= 0 || needed.has(version.id)) return true;
    excess--;
    return false;
  });
}

/** The page showing `version`, its fields set from it. */
function showing(page: WorkspacePage, versions: PageVersion[], version: PageVersion): WorkspacePage {
  const base = version.edited ? versions.find((candidate) => candidate.id === version.base) : version;
  return {
    ...page,
    versions,
    currentVersion: version.id,
    result: base?.result,
    engineMarkdown: base?.markdown ?? (version.edited ? page.engineMarkdown : version.markdown),
    editedMarkdown: version.edited ? version.markdown : undefined,
  };
}

function resultVersion(id: number, result: PageResult, at?: string): PageVersion {
  return { id, ...(at !== undefined && { at }), engine: result.stats.engine, ...(result.stats.model !== undefined && { model: result.stats.model }), edited: false, markdown: result.markdown, result };
}

function editedVersion(id: number, markdown: string, base: PageVersion | undefined, at?: string): PageVersion {
  return {
    id,
    ...(at !== undefined && { at }),
    ...(base?.engine !== undefined && { engine: base.engine }),
    ...(base?.model !== undefined && { model: base.model }),
    edited: true,
    markdown,
    ...(base && { base: base.id }),
  };
}

function nextId(versions: readonly PageVersion[]): number {
  return versions.reduce((most, version) => Math.max(most, version.id), 0) + 1;
}

function sameSource(version: PageVersion, source: { engine: EngineName; model?: string }): boolean {
  return version.engine === source.engine && version.model === source.model;
}
