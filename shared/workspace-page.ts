/**
 * The shape of one page in the workspace and of its versions: data only, so the workspace reducer
 * (workspace.ts) and the version rules (page-versions.ts) can both name it without importing each other.
 */

import type { EngineName } from './engine-name.js';
import type { Failure } from './failure.js';
import type { PageResult } from './page.js';

/** `pending`: not asked for yet, or put back by a cancel or a crash; resumable. */
export type PageState = 'pending' | 'queued' | 'converting' | 'done' | 'failed';

export interface WorkspacePage {
  /** 1-based. */
  page: number;
  state: PageState;
  /** The engine's Markdown: growing while the page converts, final once done. */
  engineMarkdown: string;
  /** The user's Markdown; absent while they have not changed the page. */
  editedMarkdown?: string;
  reviewed: boolean;
  /** The engine's full record (blocks with page coordinates, stats); image bytes are kept apart. */
  result?: PageResult;
  failure?: Failure;
  /** Every result and edit the page has had (shared/page-versions.ts); absent on pages saved before versions existed. */
  versions?: PageVersion[];
  /** The id of the version shown and exported. */
  currentVersion?: number;
  /** A result kept as a version but not shown: it read nothing, or the person's edit stays current. */
  held?: number;
}

export interface PageVersion {
  /** 1, 2, 3... per page, in the order the versions were made; never reused. */
  id: number;
  /** ISO time it was made (an edited version: last changed); absent for results kept before versions existed. */
  at?: string;
  /** Who read the page: the result's engine, or for an edited version its base's. */
  engine?: EngineName;
  model?: string;
  edited: boolean;
  markdown: string;
  /** An engine version's full result (blocks, stats). */
  result?: PageResult;
  /** An edited version: the engine version it stands against (the one it was edited from, or a re-run's that kept it). */
  base?: number;
}
