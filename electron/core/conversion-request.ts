/**
 * What a conversion asks of the engines as a face gathers it (the CLI's flags, the app's settings),
 * and the options the engine host is sent for it: one translation for both faces.
 */

import type { EngineChoice } from '../../shared/engine-name.js';
import type { OcrLanguage } from '../../shared/ocr-languages.js';
import type { ConvertOptions, RemoteOptions } from '../../shared/protocol.js';
import { vlmOptions, type VlmRequest } from './model/vlm-options.js';

export interface EngineRequest {
  engine: EngineChoice;
  keepHeaders: boolean;
  vlm?: VlmRequest;
  remote?: RemoteOptions;
  /** What the lite OCR engine reads pages as; undefined: auto. */
  lang?: OcrLanguage;
}

/**
 * `extractImages`: whether pages keep their figures (the app always, for later exports; the CLI with --images).
 * `calibrationDir`: the app-data folder, where the `vlm` engine's `auto` keeps what it measured of the devices.
 */
export async function convertOptions(request: EngineRequest, extractImages: boolean, calibrationDir?: string): Promise<ConvertOptions> {
  return {
    engine: request.engine,
    keepHeaders: request.keepHeaders,
    extractImages,
    vlm: request.vlm && (await vlmOptions(request.vlm, calibrationDir)),
    remote: request.remote,
    lang: request.lang,
  };
}
