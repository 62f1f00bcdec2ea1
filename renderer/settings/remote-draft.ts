/**
 * The remote server's text fields as typed, and the settings they mean: they apply when the dialog
 * closes, so a half-typed address is never tried; what is out of range keeps the saved value.
 */

import { parseSettings, type Settings } from '../../shared/settings.js';

export interface RemoteDraft {
  server: string;
  model: string;
  concurrency: string;
  timeoutS: string;
  imageSide: string;
}

export function remoteDraft(settings: Settings): RemoteDraft {
  return {
    server: settings.remoteServer ?? '',
    model: settings.remoteModel ?? '',
    concurrency: String(settings.remoteConcurrency),
    timeoutS: String(settings.remoteTimeoutS),
    imageSide: String(settings.remoteImageSide),
  };
}

/** Why the typed server address will not be kept; undefined when it will (or is empty: no server). */
export function serverProblem(text: string): string | undefined {
  if (text.trim() === '' || parseSettings({ remoteServer: text }).remoteServer !== null) return undefined;
  return 'Give an http(s) address such as gpu-box:8000 or https://gpu-box, without a user or password (the API key goes below).';
}

/** The settings the draft changes; fields that are invalid are left out, so the saved value stays. */
export function remotePatch(draft: RemoteDraft, settings: Settings): Partial<Settings> {
  const typed = parseSettings({
    remoteServer: draft.server,
    remoteModel: draft.model,
    remoteConcurrency: Number(draft.concurrency),
    remoteTimeoutS: Number(draft.timeoutS),
    remoteImageSide: Number(draft.imageSide),
  });
  const patch: Partial<Settings> = {};
  if (draft.server.trim() === '' || typed.remoteServer !== null) patch.remoteServer = typed.remoteServer;
  patch.remoteModel = typed.remoteModel;
  // parseSettings falls back to the default for a bad number: only a number that parsed as typed is kept
  if (typed.remoteConcurrency === Number(draft.concurrency)) patch.remoteConcurrency = typed.remoteConcurrency;
  if (typed.remoteTimeoutS === Number(draft.timeoutS)) patch.remoteTimeoutS = typed.remoteTimeoutS;
  if (typed.remoteImageSide === Number(draft.imageSide)) patch.remoteImageSide = typed.remoteImageSide;
  return Object.fromEntries(Object.entries(patch).filter(([key, value]) => settings[key as keyof Settings] !== value));
}
