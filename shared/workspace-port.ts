/**
 * The messages on the port that carries workspace events from main to the renderer: main's end is
 * electron/main/workspace-port.ts, the renderer's the preload.
 */

import type { Workspace, WorkspaceEvent } from './workspace.js';

/** renderer -> main */
export type PortRequest = { type: 'get-workspace'; id: number };

/** main -> renderer */
export type PortMessage = { type: 'event'; event: WorkspaceEvent } | { type: 'workspace'; id: number; workspace: Workspace };
