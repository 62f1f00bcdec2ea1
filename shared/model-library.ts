/**
 * The models Folio installs from Hugging Face (`folio model get`, the app's model manager): what an
 * installed package is, a download's progress, the models offered by name and how a weights
 * licence reads to a person.
 */

export const MODEL_PRECISIONS = ['int4', 'fp16', 'fp32'] as const;
export type ModelPrecision = (typeof MODEL_PRECISIONS)[number];
export const DEFAULT_MODEL_PRECISION: ModelPrecision = 'int4';

/** Which precision suits which hardware, as the app offers them. */
export const PRECISION_USES: Readonly<Record<ModelPrecision, string>> = {
  int4: 'CPUs, WebGPU and small GPUs (smallest)',
  fp16: 'NVIDIA GPUs through CUDA',
  fp32: 'the exact reference; CPU or CUDA (largest)',
};

/** Where an installed package came from. */
export type ModelSource =
  | { kind: 'hub'; repo: string; revision: string; commit: string }
  | { kind: 'folder'; path: string };

export interface InstalledModel {
  /** What `--model` and the app select it by: the Hub repo (`owner/name`), or `local/<folder>` for a checkpoint folder. */
  id: string;
  precision: ModelPrecision;
  source: ModelSource;
  /** `converted` from a checkpoint, or a Folio package the repo held, fetched as it was. */
  origin: 'converted' | 'package';
  /** The weights' licence as the model card names it (`cc-by-nc-4.0`, `mit`); undefined when it names none. */
  license: string | undefined;
  /** The package folder. */
  folder: string;
  sizeBytes: number;
  /** The devices the package is meant for (its manifest's providers): `cpu`, `webgpu`, `cuda`. */
  devices: string[];
  installedAt: string;
}

/** A download stopped before it finished (cancelled, failed, the app or the command closed): resumable. */
export interface UnfinishedDownload {
  id: string;
  /** What to fetch again: the repo with its revision, or the checkpoint folder. */
  source: string;
  precision: ModelPrecision;
  /** The licence it was started under (the model card's), accepted again by resuming; undefined when it names none. */
  license?: string;
  startedAt: string;
  /** Why it stopped, when it was seen to stop. */
  message?: string;
}

export type DownloadPhase = 'listing' | 'downloading' | 'converting' | 'installing';

export interface ModelProgress {
  phase: DownloadPhase;
  doneBytes: number;
  totalBytes: number;
  bytesPerSecond: number;
  /** Undefined until there is a rate to go by. */
  secondsLeft: number | undefined;
  /** The file being fetched. */
  file?: string;
  /** The conversion's step (`decoder`, `vision_1024`...), with how far it is. */
  step?: { name: string; done: number; total: number };
}

/** What the user is shown before a download starts, to accept. */
export interface ModelSourceInfo {
  /** The id it will be installed as. */
  id: string;
  /** As typed: a repo (with `@revision`) or a folder. */
  source: string;
  kind: 'checkpoint' | 'package';
  revision?: string;
  commit?: string;
  license: string | undefined;
  gated: boolean;
  /** Bytes the download still needs (less what the cache holds); 0 for a folder. */
  downloadBytes: number;
  /** The package's size on disk, estimated before a conversion. */
  packageBytes: number;
}

/** The models the app offers by name. */
export interface OfferedModel {
  repo: string;
  title: string;
  description: string;
}

export const OFFERED_MODELS: readonly OfferedModel[] = [
  { repo: 'jinaai/jina-ocr-v1', title: 'jina-ocr-v1', description: 'DeepSeek-OCR trained further, with a FastMTP draft head for faster decoding' },
  { repo: 'deepseek-ai/DeepSeek-OCR', title: 'DeepSeek-OCR', description: 'the original model: DeepEncoder and a 3B mixture-of-experts decoder' },
];

export interface LicenceTerms {
  name: string;
  /** What it allows, in a few words. */
  summary: string;
  url?: string;
}

const LICENCES: Readonly<Record<string, LicenceTerms>> = {
  'cc-by-nc-4.0': { name: 'CC BY-NC 4.0', summary: 'non-commercial use only', url: 'https://creativecommons.org/licenses/by-nc/4.0/' },
  'cc-by-4.0': { name: 'CC BY 4.0', summary: 'any use, with credit', url: 'https://creativecommons.org/licenses/by/4.0/' },
  mit: { name: 'MIT', summary: 'any use, commercial included', url: 'https://opensource.org/license/mit' },
  'apache-2.0': { name: 'Apache 2.0', summary: 'any use, commercial included', url: 'https://www.apache.org/licenses/LICENSE-2.0' },
};

/** How a model card's `license:` reads to a person; an unknown one is named as it is, its terms on the model's page. */
export function licenceTerms(license: string | undefined): LicenceTerms {
  if (!license) return { name: 'no licence named', summary: 'the model card names no licence: read its page before using it' };
  return LICENCES[license.toLowerCase()] ?? { name: license, summary: "read its terms on the model's page" };
}

/** A Hub repo id as typed, `owner/name` with an optional `@revision`; undefined when the text is not one. */
export function parseRepoReference(text: string): { repo: string; revision: string | undefined } | undefined {
  const match = /^([A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*)(?:@(.+))?$/.exec(text.trim());
  if (!match || match[1]!.includes('..')) return undefined;
  return { repo: match[1]!, revision: match[2] };
}

/** The folder name a package is installed under: `owner--name--int4`. */
export function installFolderName(id: string, precision: ModelPrecision): string {
  return `${id.replace('/', '--')}--${precision}`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(bytes >= 1e10 ? 1 : 2)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(bytes >= 1e8 ? 0 : 1)} MB`;
  if (bytes >= 1e3) return `${(bytes / 1e3).toFixed(0)} kB`;
  return `${bytes} bytes`;
}

/** `1.20 GB of 2.07 GB, 85.2 MB/s, 0:11 left`: a download's progress, alike in the CLI and the app. */
export function transferText(progress: Pick<ModelProgress, 'doneBytes' | 'totalBytes' | 'bytesPerSecond' | 'secondsLeft'>): string {
  const rate = progress.bytesPerSecond > 0 ? `, ${formatBytes(progress.bytesPerSecond)}/s` : '';
  const left = progress.secondsLeft === undefined || progress.doneBytes >= progress.totalBytes ? '' : `, ${clock(progress.secondsLeft)} left`;
  return `${formatBytes(progress.doneBytes)} of ${formatBytes(progress.totalBytes)}${rate}${left}`;
}

function clock(seconds: number): string {
  const whole = Math.ceil(seconds);
  if (whole < 60) return `${whole} s`;
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes}:${String(whole % 60).padStart(2, '0')}`;
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}:${String(whole % 60).padStart(2, '0')}`;
}
