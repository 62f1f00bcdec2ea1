/** A page version named as a person reads it in the Versions list: who read the page, and when. */

import type { PageVersion } from '../../shared/page-versions.js';
import { engineLabel } from '../settings/engine-label.js';

/** Engines that read with a model, named by it: "Model · jina-ocr-v1". */
const MODEL_ENGINES = new Set(['vlm', 'remote']);

/** "Model · jina-ocr-v1 · 10:42", "Text layer · 10:31", "Edited · 10:45"; the date too when not today. */
export function versionLabel(version: PageVersion, now = new Date()): string {
  const who = version.edited ? 'Edited' : version.engine && MODEL_ENGINES.has(version.engine) && version.model ? `Model · ${version.model}` : engineLabel(version.engine ?? 'unknown');
  const when = versionTime(version.at, now);
  return when ? `${who} · ${when}` : who;
}

/** Hours and minutes on the day it was made, with the day before that. */
export function versionTime(at: string | undefined, now = new Date()): string {
  if (at === undefined) return '';
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return '';
  const time = date.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
  return date.toDateString() === now.toDateString() ? time : `${date.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })} ${time}`;
}
