/**
 * Checks a model package folder as the user picks or types it, so the settings panel can say what
 * is wrong (the loader's message: file, fault, remedy) before the first page fails on it.
 */

import path from 'node:path';
import type { ModelFolderCheck } from '../../shared/app-api.js';

export async function checkModelFolder(folder: string): Promise<ModelFolderCheck> {
  const dir = path.resolve(folder);
  // loaded when first asked: the loader brings ONNX Runtime's native library with it
  const { checkModelPackage } = await import('../engine/vlm/model-package.js');
  try {
    await checkModelPackage(dir);
    return { folder: dir, problem: null };
  } catch (error) {
    return { folder: dir, problem: error instanceof Error ? error.message : String(error) };
  }
}
