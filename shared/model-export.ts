/**
 * Making a model package from a Hugging Face checkpoint folder: what is asked of the exporter (which
 * runs in its own process, electron/engine/model-export/), the progress it reports and how it ends.
 */

export type PackagePrecision = 'int4' | 'fp16' | 'fp32';

export interface PackageExportProgress {
  /** What is being written: `check`, `vision_640`, `embedding`, `decoder`, `mtp`, `manifest`... */
  step: string;
  done: number;
  total: number;
}

/** A resolution mode as the manifest records it (DeepSeek-OCR's processor settings). */
export interface ResolutionModeSpec {
  name: string;
  base_size: number;
  image_size: number;
  crop: boolean;
  min_crops: number;
  max_crops: number;
}

export type DecodingRuleName = 'deepseek-ocr' | 'jina-ocr-v1';

export interface PackageExportOptions {
  checkpointDir: string;
  outDir: string;
  precision: PackagePrecision;
  /**
   * The views to write a vision graph for: mode names (`tiny`, `small`, `base`, `large`, `gundam`) or
   * modes of their own (the test models' smaller views). Default: gundam.
   */
  modes?: readonly (string | ResolutionModeSpec)[];
  /** Most Gundam tiles, 2..9. Default: 9 for a checkpoint with a chat template (jina-ocr-v1's ports), else 6 (DeepSeek-OCR's). */
  maxCrops?: number;
  /** The no-repeat n-gram rule: a published model's, or its own. Default: jina-ocr-v1's for a checkpoint with a chat template, else DeepSeek-OCR's. */
  decoding?: DecodingRuleName | { ngramSize: number; window: number };
  /** The weights' licence; default: the model card's `license:` field. */
  licence?: string;
  /** The package's name; default: the checkpoint folder's name. */
  name?: string;
  /** Leave out the checkpoint's `mtp_module.*` tensors and export the base model. */
  withoutDraftHead?: boolean;
  /** Export although config.json has fields Folio does not know (each is named in a warning). */
  allowUnknownConfig?: boolean;
  /** `both` (default): `decoder` in the rows layout and `decoder_capacity` for the CPU, sharing one weights file. */
  cacheLayout?: 'both' | 'rows' | 'capacity';
  /** int4: the 4-bit block along K of every matrix but the routed experts (16, 32, 64 or 128; default 32). */
  blockSize?: number;
  /** int4: the routed experts' bits; default 4 in MLAS's blocks where the widths take them, else 8. */
  expertBits?: 4 | 8;
  /** int4: the routed experts' block along K, 0 for one scale per output column. */
  expertBlockSize?: number;
  /** Worker threads that quantise; default: one per core (os.availableParallelism()); 0: the exporter's own thread. The bytes are the same. */
  threads?: number;
}

/** The exporter process's messages to its parent. */
export type PackageExportMessage =
  | { kind: 'progress'; progress: PackageExportProgress }
  | { kind: 'warning'; message: string }
  /** About to write this file (a path inside the package folder), so that a killed export can be cleaned up. */
  | { kind: 'file'; file: string }
  | { kind: 'done'; manifestPath: string }
  | { kind: 'failed'; message: string };
