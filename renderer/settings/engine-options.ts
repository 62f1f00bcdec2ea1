/**
 * Which settings apply to an engine, so that Settings and the Re-run dialog show those and no
 * others: the text layer has nothing to set, the OCR engine its language, the vision model its
 * package (and `auto` too: with a package, it reads every page with the model), the remote engine
 * its server. Internals a person rarely changes are marked `advanced`.
 */

import type { EngineChoice } from '../../shared/engine-name.js';

export interface EngineOptions {
  /** The model package folder and the model manager. */
  modelPackage: boolean;
  /** Advanced: resolution mode, draft tokens and device of the vision model. */
  modelInternals: boolean;
  /** Advanced: tokens per page, for the vision model and the remote server alike. */
  tokenLimit: boolean;
  /** The remote server's address, model, API key and Test connection; its request internals under Advanced. */
  remoteServer: boolean;
  /** The scan OCR language. */
  ocrLanguage: boolean;
}

export function engineOptions(engine: EngineChoice, hasModel: boolean): EngineOptions {
  switch (engine) {
    case 'text':
      return { modelPackage: false, modelInternals: false, tokenLimit: false, remoteServer: false, ocrLanguage: false };
    case 'lite':
      return { modelPackage: false, modelInternals: false, tokenLimit: false, remoteServer: false, ocrLanguage: true };
    case 'vlm':
      return { modelPackage: true, modelInternals: true, tokenLimit: true, remoteServer: false, ocrLanguage: false };
    case 'remote':
      return { modelPackage: false, modelInternals: false, tokenLimit: true, remoteServer: true, ocrLanguage: false };
    case 'auto':
      // without a package, Automatic reads text layers and OCRs scans; with one, the model reads every page
      return { modelPackage: true, modelInternals: hasModel, tokenLimit: hasModel, remoteServer: false, ocrLanguage: !hasModel };
  }
}

/** Whether the engine has anything to show under "Advanced". */
export function hasAdvanced(options: EngineOptions): boolean {
  return options.modelInternals || options.tokenLimit || options.remoteServer;
}

/** One line under the engine choice: what it does, in the user's words. */
export function engineHint(engine: EngineChoice): string {
  switch (engine) {
    case 'auto':
      return 'Reads each page the best way available here: the vision model when a package is set, else the text layer, or OCR for scans.';
    case 'text':
      return 'Reads the text a PDF already carries: fast and exact, nothing to set. Scans have none.';
    case 'lite':
      return 'Reads scans and photos with OCR on this computer.';
    case 'vlm':
      return 'Reads pages with a vision model on this computer: best for tables, formulas and scans.';
    case 'remote':
      return 'Sends page images to your vLLM (OpenAI-compatible) server; nothing else leaves this computer.';
  }
}
